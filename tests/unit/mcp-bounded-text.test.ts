// One result's text is bounded in UTF-8 bytes (mcp/session.ts BoundedText):
// counted natively for well-formed text, and as before for text holding a
// lone surrogate (two bytes each, as shared/text.ts utf8Length counts).
import { describe, expect, test } from 'bun:test';
import { BoundedText } from '../../src/mcp/session.ts';

const bounded = (limit: number, ...parts: string[]) => {
  const out = new BoundedText({ limit });
  for (const p of parts) out.add(p);
  return { cut: out.cut, text: out.text('More.') };
};

describe('BoundedText', () => {
  test('counts UTF-8 bytes: two-, three- and four-byte characters fit exactly', () => {
    expect(bounded(6, 'ééé').cut).toBe(false);
    expect(bounded(6, 'éééé').cut).toBe(true);
    expect(bounded(9, '日本語').cut).toBe(false);
    expect(bounded(8, '日本語').text.startsWith('日本\n')).toBe(true);
    expect(bounded(8, '😀😀').cut).toBe(false);
    expect(bounded(7, '😀😀').cut).toBe(true);
    expect(bounded(10, 'abc', 'défg', 'h').cut).toBe(false);
  });

  test('a lone surrogate counts two bytes, as it always did', () => {
    expect(bounded(6, 'ab\ud800cd').cut).toBe(false);
    expect(bounded(5, 'ab\ud800cd').cut).toBe(true);
  });
});
