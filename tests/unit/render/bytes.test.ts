// The learn result's subject pieces built from bytes (render/bytes.ts) must
// be the UTF-8 encoding of the string renderers' output.
import { describe, test, expect } from 'bun:test';
import { formatBytes } from '../../../src/kb/content/body.ts';
import { formatContent } from '../../../src/kb/content/format.ts';
import { endWithNewlineBytes, subjectBlockBytes, type BytesPiece } from '../../../src/render/bytes.ts';
import { subjectBlock } from '../../../src/render/prompt.ts';
import { endWithNewline } from '../../../src/render/text.ts';
import { rng } from '../../support/rng.ts';

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

const text = (p: BytesPiece) => p.head + dec.decode(p.body) + p.tail;
const EXTS = ['md', 'txt', '', 'toml', 'rs', 'json', 'x y'];
const SLUGS = ['a', 'dir/sub-ject', 'quote"d', 'back\\slash', 'naïve/東京'];

describe('subjectBlockBytes and endWithNewlineBytes', () => {
  test('edge cases', () => {
    for (const s of ['', '\n', '\n\n\r\n', 'x', 'x\n', 'x\r\n\n', '```\n', ' \n', '\u2028']) {
      for (const ext of EXTS) {
        const content = formatContent(ext, s);
        const bytes = formatBytes(ext, enc.encode(s));
        expect(text(subjectBlockBytes('\n\n', 'slug', bytes))).toBe(`\n\n${subjectBlock('slug', content)}`);
        expect(text(endWithNewlineBytes(bytes))).toBe(endWithNewline(content));
      }
    }
  });

  test('random contents, extensions and slugs', () => {
    const r = rng(5);
    for (let i = 0; i < 3000; i++) {
      const s = randomText(r);
      const ext = EXTS[i % EXTS.length];
      const slug = SLUGS[i % SLUGS.length];
      const prefix = i % 2 ? '' : '\n\n';
      const content = formatContent(ext, s);
      const bytes = formatBytes(ext, enc.encode(s));
      expect(text(subjectBlockBytes(prefix, slug, bytes))).toBe(prefix + subjectBlock(slug, content));
      expect(text(endWithNewlineBytes(bytes))).toBe(endWithNewline(content));
    }
  });
});
