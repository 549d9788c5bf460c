// The window picker (search/snippet.ts `passagesOf`): whatever the text,
// its passages are bounded (at most three, each at most three lines and
// about 300 characters), each line is the text's line at the number it is
// shown with (so that `learn slug:N-M` loads it), and none is markup alone
// or frontmatter or inside an HTML comment over several lines; and it takes time linear in the text, on texts built to
// make it work hardest: every line a match, every line markup, matches
// between lines near the length a snippet gives up at, no match at all.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { commentLines, frontmatterEnd, isMarkupLine, isTextLine } from '../../src/kb/content/markup-line.ts';
import { PASSAGE_CHARS, PASSAGE_LINES, PASSAGES, passagesOf } from '../../src/kb/search/snippet.ts';
import { CONTROL } from '../../src/shared/controls.ts';
import { bestOfPair } from '../support/growth.ts';

const RUNS = Number(process.env.KB_PROPERTY_RUNS ?? 2000);

const collapse = (s: string) => s.replace(new RegExp(CONTROL.source, 'g'), ' ').replace(/\s+/g, ' ').trim();

const LINES = ['the owner of it', 'Owner', 'borrow the owner', '', '   ', '<a id="owner"></a>', '[owner]: x.html', '.. _owner:', '```owner', '---', '+++', '{{#include owner.rs}}', '# Owner', 'prose', 'x'.repeat(400), `owner ${'y '.repeat(200)}`, '\towner\u001b', 'İ owner', '所有者 owner', '<!--', '  <!-- owner', 'owner -->', '-->'];
const line = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
const text = fc.oneof(
  fc.array(line, { maxLength: 40 }).map((ls) => ls.join('\n')),
  // Long enough for several passages.
  fc.array(line, { minLength: 100, maxLength: 400 }).map((ls) => ls.join('\n')),
  fc.tuple(fc.constantFrom('---\ntitle: owner\n---\n', '+++\nowner = 1\n+++\n', ''), fc.array(line, { maxLength: 20 })).map(([f, ls]) => f + ls.join('\n')),
);
const terms = fc.uniqueArray(fc.constantFrom('owner', 'borrow', 'prose', 'zzz', '所有', 'x'), { minLength: 1, maxLength: 3 });

describe('passagesOf', () => {
  test('bounded, each line the text\'s line at its number, never markup, frontmatter or a commented line', () => {
    fc.assert(
      fc.property(text, terms, (t, m) => {
        const ps = passagesOf(t, new Set(m));
        expect(ps.length).toBeLessThanOrEqual(PASSAGES);
        const lines = t.split('\n');
        const front = t.slice(0, frontmatterEnd(t)).split('\n').length - 1;
        const hidden = commentLines(t);
        const startOf: number[] = [];
        for (let k = 0, at = 0; k < lines.length; at += lines[k].length + 1, k++) startOf.push(at);
        for (const p of ps) {
          const shown = p.text.split('\n');
          expect(shown.length).toBeLessThanOrEqual(PASSAGE_LINES);
          // The cut line's ellipses aside.
          expect(p.text.length).toBeLessThanOrEqual(PASSAGE_CHARS + 2 * PASSAGE_LINES);
          shown.forEach((s, k) => {
            const n = p.line + k;
            expect(n).toBeGreaterThan(front);
            const real = lines[n - 1];
            expect(isTextLine(real)).toBe(true);
            expect(hidden(startOf[n - 1])).toBe(false);
            const bare = s.replace(/^…|…$/g, '');
            expect(collapse(real)).toContain(bare);
          });
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('passagesOf passes over markup', () => {
  // A line of markup alone is never a passage, whatever words it holds:
  // the same text with those words taken out of its markup lines gives
  // the same passages (the best and the further ones, which are looked
  // for among a few lines past the best: a markup line must not use up
  // that look).
  const unworded = (t: string, m: readonly string[]): string =>
    t
      .split('\n')
      .map((l) => {
        if (!isMarkupLine(l)) return l;
        let out = l;
        for (const w of m) out = out.replace(new RegExp(w, 'gi'), (x) => 'q'.repeat(x.length));
        return isMarkupLine(out) ? out : l;
      })
      .join('\n');
  test('the words of a markup line change no passage', () => {
    fc.assert(
      fc.property(text, terms, (t, m) => {
        expect(passagesOf(t, new Set(m))).toEqual(passagesOf(unworded(t, m), new Set(m)));
      }),
      { numRuns: RUNS },
    );
  });
  test('markup lines between the best line and the further places do not use up the look past the best', () => {
    const filler = Array.from({ length: 60 }, () => 'Some words without them, in a line of prose.').join('\n');
    const parts = ['The owner borrows it.', filler];
    for (let i = 0; i < 5; i++) parts.push('[owner]: x.html', filler);
    for (let i = 0; i < 2; i++) parts.push(`The owner number ${i}.`, filler);
    const t = parts.join('\n');
    const m = new Set(['owner', 'borrow']);
    const ps = passagesOf(t, m);
    expect(ps.map((p) => p.text.split('\n').find((l) => l.includes('owner')))).toEqual(['The owner borrows it.', 'The owner number 0.', 'The owner number 1.']);
    expect(ps).toEqual(passagesOf(unworded(t, [...m]), m));
  });
  test('a long document whose markup lines hold the words more often than its prose', () => {
    const prose = (i: number) => `The owner ${i} borrows ${'filler '.repeat(i % 7)}here.`;
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) lines.push(i % 3 === 0 ? '<a id="owner-owner-owner-owner"></a>' : i % 5 === 0 ? prose(i) : 'Some words without them.');
    const t = lines.join('\n');
    const m = new Set(['owner', 'borrow']);
    const ps = passagesOf(t, m);
    expect(ps.length).toBe(PASSAGES);
    expect(ps).toEqual(passagesOf(unworded(t, [...m]), m));
  });
});

const SMALL = 1 << 17;
const LARGE = 1 << 20;
const repeat = (unit: string, n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

const TEXTS: [string, (n: number) => string][] = [
  ['every line a match', (n) => repeat('the owner\n', n)],
  ['every line a match, blocks of one line', (n) => repeat('the owner borrows\n\n', n)],
  ['every line markup holding the word', (n) => repeat('<a id="owner"></a>\n[owner]: x.html\n', n)],
  ['no line a match, every line markup', (n) => repeat('<a id="x"></a>\n', n)],
  ['matches between lines near the longest a snippet reads', (n) => repeat(`owner\n${'y '.repeat(4_999)}\n`, n)],
  ['one line, no line end', (n) => repeat('owner ', n)],
  ['many places, each a little different', (n) => {
    let s = '';
    for (let i = 0; s.length < n; i++) s += `${i % 3 === 0 ? 'owner borrow' : 'owner'} ${'filler '.repeat(i % 50)}\n`;
    return s.slice(0, n);
  }],
];

describe('the window picker takes time linear in the text', () => {
  const matched = new Set(['owner', 'borrow']);
  for (const [name, make] of TEXTS) {
    test(name, () => {
      const [a, b] = bestOfPair((t) => passagesOf(t, matched), make(SMALL), make(LARGE));
      // Eight times the text: about eight times the time; a quadratic
      // picker takes sixty-four. Small times are noise: a floor of 5 ms.
      expect(b / Math.max(a, 5)).toBeLessThan(20);
    }, 120_000);
  }
});
