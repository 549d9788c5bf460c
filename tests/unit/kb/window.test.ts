import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { estimateTokensOfBytes } from '../../../src/kb/content/tokens.ts';
import { charStart, lineAt, windowEnd } from '../../../src/kb/content/window.ts';

const enc = new TextEncoder();

/** Every window of `bytes` under `max` tokens, in order. */
function windows(bytes: Uint8Array, max: number): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = windowEnd(bytes, start, max);
    expect(end).toBeGreaterThan(start);
    out.push([start, end]);
    start = end;
  }
  return out;
}

const isCharStart = (b: Uint8Array, i: number) => i === b.length || (b[i] & 0xc0) !== 0x80;

describe('windowEnd', () => {
  test('a body within the budget is one window', () => {
    const b = enc.encode('a\nb\n');
    expect(windowEnd(b, 0, 100)).toBe(b.length);
  });

  test('windows end at line boundaries, fit the budget, and put together are the body', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i}: ${'wörd '.repeat(i % 13)}`).join('\n') + '\n';
    const b = enc.encode(text);
    const ws = windows(b, 500);
    expect(ws.length).toBeGreaterThan(5);
    for (const [s, e] of ws) {
      expect(estimateTokensOfBytes(b, s, e)).toBeLessThanOrEqual(500);
      expect(b[e - 1]).toBe(0x0a);
    }
    expect(Buffer.concat(ws.map(([s, e]) => b.subarray(s, e))).equals(Buffer.from(b))).toBe(true);
  });

  test('one line longer than the budget is cut inside the line, never inside a UTF-8 sequence', () => {
    const b = enc.encode('é😀x'.repeat(5000));
    const ws = windows(b, 100);
    for (const [s, e] of ws) {
      expect(isCharStart(b, s) && isCharStart(b, e)).toBe(true);
      expect(estimateTokensOfBytes(b, s, e)).toBeLessThanOrEqual(100);
    }
    expect(Buffer.concat(ws.map(([s, e]) => b.subarray(s, e))).toString('utf8')).toBe('é😀x'.repeat(5000));
  });

  test('any text, any budget: windows cover the body exactly, at character boundaries', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000, unit: 'grapheme' }), fc.integer({ min: 1, max: 300 }), (text, max) => {
        const b = enc.encode(text);
        const ws = windows(b, max);
        expect(Buffer.concat(ws.map(([s, e]) => b.subarray(s, e))).equals(Buffer.from(b))).toBe(true);
        for (const [s, e] of ws) expect(isCharStart(b, s) && isCharStart(b, e)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test('charStart moves an offset inside a character back to its start', () => {
    const b = enc.encode('aé😀');
    expect([0, 1, 2, 3, 4, 5, 6, 7, 99].map((i) => charStart(b, i))).toEqual([0, 1, 1, 3, 3, 3, 3, 7, 7]);
  });

  test('lineAt counts lines before a byte', () => {
    const b = enc.encode('a\nb\nc');
    expect([0, 1, 2, 4].map((i) => lineAt(b, i))).toEqual([1, 1, 2, 3]);
  });
});
