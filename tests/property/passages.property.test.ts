// The window picker (search/snippet.ts `passagesOf`): whatever the text,
// its passages are bounded (at most three, each at most three lines and
// about 300 characters), each line is the text's line at the number it is
// shown with (so that `learn slug:N-M` loads it), and none is markup alone
// or frontmatter; and it takes time linear in the text, on texts built to
// make it work hardest: every line a match, every line markup, matches
// between lines near the length a snippet gives up at, no match at all.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { frontmatterEnd, isTextLine } from '../../src/kb/content/markup-line.ts';
import { PASSAGE_CHARS, PASSAGE_LINES, PASSAGES, passagesOf } from '../../src/kb/search/snippet.ts';
import { CONTROL } from '../../src/shared/controls.ts';
import { bestOfPair } from '../support/growth.ts';

const RUNS = Number(process.env.KB_PROPERTY_RUNS ?? 2000);

const collapse = (s: string) => s.replace(new RegExp(CONTROL.source, 'g'), ' ').replace(/\s+/g, ' ').trim();

const LINES = ['the owner of it', 'Owner', 'borrow the owner', '', '   ', '<a id="owner"></a>', '[owner]: x.html', '.. _owner:', '```owner', '---', '+++', '{{#include owner.rs}}', '# Owner', 'prose', 'x'.repeat(400), `owner ${'y '.repeat(200)}`, '\towner\u001b', 'İ owner', '所有者 owner'];
const line = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
const text = fc.oneof(
  fc.array(line, { maxLength: 40 }).map((ls) => ls.join('\n')),
  // Long enough for several passages.
  fc.array(line, { minLength: 100, maxLength: 400 }).map((ls) => ls.join('\n')),
  fc.tuple(fc.constantFrom('---\ntitle: owner\n---\n', '+++\nowner = 1\n+++\n', ''), fc.array(line, { maxLength: 20 })).map(([f, ls]) => f + ls.join('\n')),
);
const terms = fc.uniqueArray(fc.constantFrom('owner', 'borrow', 'prose', 'zzz', '所有', 'x'), { minLength: 1, maxLength: 3 });

describe('passagesOf', () => {
  test('bounded, each line the text\'s line at its number, never markup or frontmatter', () => {
    fc.assert(
      fc.property(text, terms, (t, m) => {
        const ps = passagesOf(t, new Set(m));
        expect(ps.length).toBeLessThanOrEqual(PASSAGES);
        const lines = t.split('\n');
        const front = t.slice(0, frontmatterEnd(t)).split('\n').length - 1;
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
            const bare = s.replace(/^…|…$/g, '');
            expect(collapse(real)).toContain(bare);
          });
        }
      }),
      { numRuns: RUNS },
    );
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
