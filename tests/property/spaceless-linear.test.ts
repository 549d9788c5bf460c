// Words of scripts written without spaces are cut into characters and
// pairs of characters (src/kb/search/tokenize.ts): every step that reads a
// text (the index, a query, a snippet, recall's sections) must take time
// linear in it, whatever the text. Hostile texts: one character repeated
// (one run of a million characters, and long lines of it), scripts
// alternating every character, lone surrogates, CJK
// punctuation every other character, and a run of all-different
// characters (every pair a new term). Each step's time on a text eight
// times as long must grow about eight times, far from the sixty-four of a
// quadratic step (a loaded machine's noise stays well within twenty).
import { describe, expect, test } from 'bun:test';
import { IndexBuilder, KIND_TEXT } from '../../src/kb/search/engine.ts';
import { scoreText, snippetOf } from '../../src/kb/search/snippet.ts';
import { forEachTermOf, queryTerms, unknownWords } from '../../src/kb/search/tokenize.ts';
import { bestOfPair } from '../support/growth.ts';

const SMALL = 1 << 17;
const LARGE = 1 << 20;

/** `unit` repeated to `n` characters. */
const repeat = (unit: string, n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/** `n` characters, all different Han characters as far as they go. */
function distinct(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(0x4e00 + (i % 0x5200));
  return s;
}

const TEXTS: [string, (n: number) => string][] = [
  ['one character repeated', (n) => repeat('的', n)],
  // Lines a snippet reads (under 10,000 characters), longer with the text.
  ['long lines of one character', (n) => repeat(`${'的'.repeat(n / 128 - 1)}\n`, n)],
  ['scripts alternating every character', (n) => repeat('a的1ア.한-ภ', n)],
  ['lone surrogates among CJK characters', (n) => repeat('\ud800的\udc00認', n)],
  ['CJK punctuation every other character', (n) => repeat('的，証。', n)],
  ['all-different characters', distinct],
];

const STEPS: [string, (text: string) => void][] = [
  [
    'index terms',
    (t) => {
      let n = 0;
      forEachTermOf(t, t.toLowerCase(), () => n++);
    },
  ],
  [
    'a query and its unknown words',
    (t) => {
      const words = new Map<string, string>();
      const q = queryTerms(t, words);
      unknownWords(q, q, words);
    },
  ],
  ['a snippet', (t) => snippetOf(t, new Set(['的', '的的', '認', 'a', '証', '一', '一丁']))],
  ['a section score', (t) => scoreText(t, new Map([['的', 1], ['的的', 2], ['認', 1]]))],
  [
    'an index built',
    (t) => {
      const b = new IndexBuilder();
      b.add({ path: 'a.md', slug: 'a', size: t.length, mtime: 0, kind: KIND_TEXT, description: null }, ['a', '', '', t]);
      b.finish();
    },
  ],
];

describe('text without spaces is read in linear time', () => {
  for (const [name, make] of TEXTS) {
    const small = make(SMALL);
    const large = make(LARGE);
    for (const [step, run] of STEPS) {
      test(`${step}: ${name}`, () => {
        const [a, b] = bestOfPair(run, small, large);
        // Eight times the text: about eight times the time; a quadratic
        // step takes sixty-four. Small times are noise: a floor of 5 ms.
        expect(b / Math.max(a, 5)).toBeLessThan(20);
      }, 120_000);
    }
  }
});
