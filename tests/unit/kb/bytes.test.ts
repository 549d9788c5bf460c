// The bytes path (src/kb/bytes.ts) must produce exactly the UTF-8 encoding
// of the string path (readSubject + formatContent + the renderers' trims).
import { describe, test, expect } from 'bun:test';
import { join } from 'node:path';
import { formatBytes, longestBacktickRunBytes, readSubjectBytes, trimEndLength, trimNewlinesLength } from '../../../src/kb/content/body.ts';
import { formatContent, longestBacktickRun } from '../../../src/kb/content/format.ts';
import { readSubject } from '../../../src/kb/fs/read.ts';
import { trimTrailingNewlines } from '../../../src/render/text.ts';
import { rng } from '../../support/rng.ts';
import { tempFiles } from '../../support/temp.ts';

const { root, file } = tempFiles('kb-bytes-');

const enc = new TextEncoder();
// ignoreBOM: a leading U+FEFF in the test text is content, not a mark to drop.
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

/** Every character String.prototype.trimEnd drops, and near misses. */
const SPACES = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
const NEAR = ['\u0085', '\u180e', '\u200b', '\u200c', '\u2060', '\u00a1', '\u1681', '\u200f', '\u202e', '\u2030', '\u3001', '\ufefe', 'x', '`', 'é', '😀'];

function randomText(r: () => number): string {
  const alphabet = [...SPACES, ...NEAR, 'a', 'b', '\n', '``', '```', '````', '\r\n', '日本', 'ß'];
  let s = '';
  const len = Math.floor(r() * 40);
  for (let i = 0; i < len; i++) s += alphabet[Math.floor(r() * alphabet.length)];
  return s;
}

function joined(f: { head: string; body: Uint8Array; tail: string }): string {
  return f.head + dec.decode(f.body) + f.tail;
}

describe('trimEndLength', () => {
  test('agrees with String.prototype.trimEnd on every white-space character and near misses', () => {
    for (const c of [...SPACES, ...NEAR]) {
      for (const s of [c, `a${c}`, `a${c}${c}`, `${c}a`, `a${c}b${c}`, `a\n${c} \t`]) {
        const b = enc.encode(s);
        expect(dec.decode(b.subarray(0, trimEndLength(b)))).toBe(s.trimEnd());
      }
    }
  });

  test('agrees with trimEnd on random text', () => {
    const r = rng(7);
    for (let i = 0; i < 5000; i++) {
      const s = randomText(r);
      const b = enc.encode(s);
      expect(dec.decode(b.subarray(0, trimEndLength(b)))).toBe(s.trimEnd());
    }
  });
});

describe('longestBacktickRunBytes and trimNewlinesLength', () => {
  test('agree with the string versions', () => {
    const r = rng(11);
    for (let i = 0; i < 3000; i++) {
      const s = randomText(r);
      const b = enc.encode(s);
      expect(longestBacktickRunBytes(b)).toBe(longestBacktickRun(s));
      expect(dec.decode(b.subarray(0, trimNewlinesLength(b)))).toBe(trimTrailingNewlines(s));
    }
  });
});

describe('formatBytes', () => {
  test('is formatContent, encoded, for every kind of extension', () => {
    const r = rng(3);
    const exts = ['md', 'MD', 'txt', 'text', '', 'toml', 'json', 'ts', 'rs', 'yml', 'Py', 'weird`ext', 'x y', 'c'];
    for (let i = 0; i < 3000; i++) {
      const s = randomText(r);
      for (const ext of exts) expect(joined(formatBytes(ext, enc.encode(s)))).toBe(formatContent(ext, s));
    }
  });
});

describe('readSubjectBytes', () => {
  const cases: [string, string | Uint8Array][] = [
    ['empty', ''],
    ['ascii', 'hello\n'],
    ['utf-8 with BOM', '\ufeffhello'],
    ['two BOMs (only the first is dropped)', '\ufeff\ufeffx'],
    ['CRLF kept', 'a\r\nb\r\n'],
    ['non-ASCII', 'naïve café 東京 😀\n'],
    ['invalid UTF-8', new Uint8Array([0x61, 0xff, 0x62, 0xc3])],
    ['overlong encoding', new Uint8Array([0xc0, 0xaf, 0x41])],
    ['encoded surrogate', new Uint8Array([0xed, 0xa0, 0x80, 0x41])],
    ['UTF-16LE with BOM', new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00])],
    ['UTF-16BE with BOM', new Uint8Array([0xfe, 0xff, 0x00, 0x68, 0x00, 0x69])],
    ['exactly 8192 bytes', 'a'.repeat(8192)],
    ['8193 bytes', 'b'.repeat(8193)],
    ['large, multi-byte characters across the 8192 boundary', 'é'.repeat(5000) + '東'.repeat(30000)],
    ['large, invalid past 8192', new Uint8Array([...enc.encode('a'.repeat(9000)), 0xff, 0x41])],
    ['binary', new Uint8Array([0x41, 0, 0x42])],
    ['UTF-16 binary', new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x00, 0x00])],
  ];
  for (const [name, content] of cases) {
    test(name, () => {
      const p = file(content);
      const s = readSubject(p);
      const b = readSubjectBytes(p);
      expect(b.kind).toBe(s.kind);
      if (s.kind === 'text' && b.kind === 'text') {
        expect(b.replaced).toBe(s.replaced);
        expect(dec.decode(b.bytes)).toBe(s.text);
        expect(Buffer.from(b.bytes).equals(Buffer.from(s.text, 'utf8'))).toBe(true);
      }
    });
  }

  test('a file that cannot be opened is an error, with the same message', () => {
    const missing = join(root, 'missing');
    expect(readSubjectBytes(missing)).toEqual(readSubject(missing) as never);
  });

  test('the buffer grows for a large file and is reused after it', () => {
    const big = file('x'.repeat(300_000) + '\n');
    const small = file('small\n');
    const a = readSubjectBytes(big);
    expect(a.kind === 'text' && a.bytes.length).toBe(300_001);
    const b = readSubjectBytes(small);
    expect(b.kind === 'text' && dec.decode(b.bytes)).toBe('small\n');
  });
});
