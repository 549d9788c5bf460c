// A subject's content goes out as chunks (src/render/learn.ts): a string,
// the formatted body, a string. Built from a bytes body, the chunks must be
// the UTF-8 encoding of the chunks built from the text: `kb learn` streams
// the one, MCP and the prompt join the other.
import { describe, test, expect } from 'bun:test';
import type { Body } from '../../../src/kb/content/body.ts';
import { formatContent, formattedText } from '../../../src/kb/content/format.ts';
import { rawContent, subjectBlock } from '../../../src/render/learn.ts';
import { quoted } from '../../../src/shared/controls.ts';
import { rng } from '../../support/rng.ts';

// The string rules the chunk renderers must agree with (NOTES 7 and 18):
// trailing line breaks dropped before a closing tag, every output ending
// with exactly one newline.
function trimTrailingNewlines(s: string): string {
  return s.replace(/[\r\n]+$/, '');
}
function endWithNewline(s: string): string {
  return `${trimTrailingNewlines(s)}\n`;
}


const enc = new TextEncoder();
// ignoreBOM: a leading U+FEFF in the test text is content, not a mark to drop.
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

const ALPHABET = ['a', 'é', '\n', '\r', '\r\n', ' ', '\t', '`', '```', '\u00a0', '\u2028', '\ufeff', '</subject>', '"', '東'];
function randomText(r: () => number): string {
  let s = '';
  const len = Math.floor(r() * 24);
  for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return s;
}

/** Chunks joined as text; the body's kind is checked against `bytes`. */
function joined({ head, body, tail }: { head: string; body: Body; tail: string }, bytes: boolean): string {
  expect(typeof head).toBe('string');
  expect(typeof tail).toBe('string');
  if (bytes) {
    expect(body).toBeInstanceOf(Uint8Array);
    return head + dec.decode(body as Uint8Array) + tail;
  }
  expect(typeof body).toBe('string');
  return head + (body as string) + tail;
}

/** What the string renderers make of a formatted content: the block
 *  (NOTES 7: the content's trailing newlines dropped before the closing
 *  tag) and the raw content (NOTES 18: ending with exactly one newline). */
const blockOf = (prefix: string, slug: string, text: string) => `${prefix}<subject ${quoted(slug)}>\n${trimTrailingNewlines(text)}\n</subject>`;

const EXTS = ['md', 'txt', '', 'toml', 'rs', 'json', 'x y'];
const SLUGS = ['a', 'dir/sub-ject', 'quote"d', 'back\\slash', 'naïve/東京'];

function check(prefix: string, slug: string, ext: string, s: string): void {
  const text = formattedText(formatContent(ext, s));
  const expectedBlock = blockOf(prefix, slug, text);
  const expectedRaw = endWithNewline(text);
  expect(joined(subjectBlock(prefix, slug, formatContent(ext, s)), false)).toBe(expectedBlock);
  expect(joined(subjectBlock(prefix, slug, formatContent(ext, enc.encode(s))), true)).toBe(expectedBlock);
  expect(joined(rawContent(formatContent(ext, s)), false)).toBe(expectedRaw);
  expect(joined(rawContent(formatContent(ext, enc.encode(s))), true)).toBe(expectedRaw);
}

describe('subjectBlock and rawContent: text and bytes bodies give the same text', () => {
  test('edge cases', () => {
    for (const s of ['', '\n', '\n\n\r\n', 'x', 'x\n', 'x\r\n\n', '```\n', ' \n', '\u2028']) {
      for (const ext of EXTS) check('\n\n', 'slug', ext, s);
    }
  });

  test('random contents, extensions and slugs', () => {
    const r = rng(5);
    for (let i = 0; i < 3000; i++) check(i % 2 ? '' : '\n\n', SLUGS[i % SLUGS.length], EXTS[i % EXTS.length], randomText(r));
  });

  test('examples', () => {
    expect(joined(subjectBlock('\n\n', 'a', formatContent('toml', enc.encode('k = 1\n\n'))), true)).toBe('\n\n<subject "a">\n```toml\nk = 1\n```\n</subject>');
    expect(joined(subjectBlock('', 'a', formatContent('md', enc.encode(''))), true)).toBe('<subject "a">\n\n</subject>');
    expect(joined(rawContent(formatContent('md', enc.encode('x\r\n\n'))), true)).toBe('x\n');
    expect(joined(rawContent(formatContent('json', enc.encode(''))), true)).toBe('```json\n```\n');
  });
});
