// The head scan tells from a few bytes that most heads hold no title
// (content/title.ts `untitled`) and runs no rule on them: on any head, of
// any format, it must find what running every rule finds. The heads are
// drawn from the bytes the rules look for (`#`, `=`, `-`, `:`, `.`, `<`,
// `NAME`, indents, line ends), and the buffer goes on past the head with
// bytes that must not count.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { scanHead, type TitleFormat } from '../../src/kb/content/title.ts';

const RUNS = Number(process.env.KB_PROPERTY_RUNS ?? 3000);
const FORMATS: TitleFormat[] = ['md', 'rst', 'adoc', 'org', 'html', 'text', 'plain'];

const PIECE = fc.constantFrom(
  'word', 'Title', 'a', '7', ' ', '  ', '\t', '\n', '\r\n', '\n\n', '#', '# ', '## ', '=', '==', '===', '= ', '-', '--', '---', '- ',
  ':', 'Title: ', 'a:', '.', '..', '.. ', '//', '////', '~~~', '```', '<', '<!--', '-->', '<title>', '</title>', '<h1>', '</h1>',
  '#+title: ', '*', '* ', 'NAME', 'x - y', 'import ', 'export ', '>', '+', '\u00e9', '\\-',
);
const TEXT = fc.array(PIECE, { maxLength: 24 }).map((p) => p.join(''));

function spans(b: Uint8Array, from: number, n: number, format: TitleFormat, quick: boolean) {
  const s = scanHead(b, from, n, format, quick);
  return s === undefined ? undefined : { ...s };
}

describe('the head scan', () => {
  test('finds, on any head, what every rule run on it finds', () => {
    const enc = new TextEncoder();
    fc.assert(
      fc.property(TEXT, TEXT, fc.constantFrom(...FORMATS), fc.nat(3), (head, past, format, skip) => {
        const h = enc.encode(head);
        const b = new Uint8Array(h.length + 64);
        b.set(h);
        b.set(enc.encode(past).subarray(0, 64), h.length);
        const from = Math.min(skip, h.length);
        expect(spans(b, from, h.length, format, true)).toEqual(spans(b, from, h.length, format, false));
      }),
      { numRuns: RUNS },
    );
  });
});
