// SearchIndex.near, the typo lookup of a query word the index lacks: it
// walks the sorted terms as a trie and passes whole ranges over, so it is
// compared here with the plain definition (every term, the edit distance)
// over generated vocabularies and queries.
import { describe, expect, test } from 'bun:test';
import { SearchIndex, termBytes } from '../../../src/kb/search/engine.ts';
import { editDistance } from '../../../src/shared/edit-distance.ts';
import { rng as random } from '../../support/rng.ts';

// Few letters, so that words are often near each other; non-ASCII ones
// among them, of two and three bytes in UTF-8 (the index keeps its terms
// as UTF-8, and walks them a character at a time). No surrogate: no term
// holds one (tokenize.ts: a surrogate is not a word character).
const LETTERS = ['a', 'b', 'c', 'd', 'e', 'r', 's', 't', '0', '9', 'é', 'ß', 'ж', '中', 'ｱ', '\u07ff', '\u0800', '\uffee'];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function word(r: () => number, len: number): string {
  let w = '';
  for (let i = 0; i < len; i++) w += pick(r, LETTERS);
  return w;
}

/** One random edit of `w`: a change, an addition, a removal or a swap of
 *  neighbours, at a random place (often the first two). */
function edit(r: () => number, w: string): string {
  const at = r() < 0.4 ? Math.floor(r() * Math.min(2, w.length + 1)) : Math.floor(r() * (w.length + 1));
  switch (Math.floor(r() * 4)) {
    case 0:
      return at < w.length ? w.slice(0, at) + pick(r, LETTERS) + w.slice(at + 1) : w;
    case 1:
      return w.slice(0, at) + pick(r, LETTERS) + w.slice(at);
    case 2:
      return at < w.length ? w.slice(0, at) + w.slice(at + 1) : w;
    default:
      return at + 1 < w.length ? w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2) : w;
  }
}

/** An index holding `words` as its terms (no documents), each with its
 *  own document frequency. */
function indexOf(words: readonly string[]): SearchIndex {
  const { bytes, starts } = termBytes(words);
  const df = Uint32Array.from(words, (_, i) => i + 1);
  return new SearchIndex([], new Uint32Array(0), bytes, starts, df, new Uint32Array(words.length + 1), new Uint8Array(0));
}

function vocabulary(r: () => number, n: number): string[] {
  const set = new Set<string>(['']);
  while (set.size < n) {
    const w = word(r, 1 + Math.floor(r() * 13));
    set.add(w);
    // Near spellings of it, one and two edits away.
    if (r() < 0.5) set.add(edit(r, w));
    if (r() < 0.3 || w.length >= 7) set.add(edit(r, edit(r, w)));
    if (w.length >= 7) set.add(edit(r, edit(r, w)));
  }
  // Code-unit order, as the index keeps its terms.
  return [...set].sort();
}

type Found = [string, number, number][];

const near = (index: SearchIndex, q: string): Found => {
  const out: Found = [];
  index.near(q, (t, d, df) => out.push([t, d, df]));
  return out;
};

/** What `near` promises: every term within one edit (two from eight
 *  characters), in term order. */
function reference(index: SearchIndex, q: string): Found {
  const max = q.length >= 8 ? 2 : 1;
  const out: Found = [];
  for (let i = 0; i < index.termCount; i++) {
    const t = index.term(i);
    const d = editDistance(q, t, max);
    if (d <= max) out.push([t, d, index.df[i]]);
  }
  return out;
}

describe('near: the typo lookup', () => {
  for (const seed of [1, 2, 3]) {
    test(`finds exactly the terms within the bound, in term order (vocabulary ${seed})`, () => {
      const r = random(seed);
      const words = vocabulary(r, 4000);
      const index = indexOf(words);
      // Half the queries from words of seven characters or more (two
      // edits from eight).
      const long = words.filter((w) => w.length >= 7);
      const queries: string[] = [];
      for (let i = 0; i < 800; i++) {
        const w = pick(r, i % 2 === 0 ? long : words);
        const kind = i % 7;
        if (kind === 0) queries.push(word(r, 1 + Math.floor(r() * 14)));
        else if (kind === 1) queries.push(w);
        // The first two characters swapped, the first changed or removed.
        else if (kind === 2) queries.push(w.length >= 2 ? w[1] + w[0] + w.slice(2) : w + 'a');
        else if (kind === 3) queries.push(pick(r, LETTERS) + w.slice(1));
        else if (kind === 4) queries.push(w.slice(1) || 'ab');
        else if (kind === 5) queries.push(edit(r, w));
        else queries.push(edit(r, edit(r, w)));
      }
      let one = 0;
      let two = 0;
      for (const q of queries) {
        const want = reference(index, q);
        expect({ q, found: near(index, q) }).toEqual({ q, found: want });
        for (const [, d] of want) {
          if (d === 1) one++;
          if (d === 2) two++;
        }
      }
      // The comparison is not an empty one.
      expect(one).toBeGreaterThan(1200);
      expect(two).toBeGreaterThan(350);
    });
  }

  test('a word of eight characters or more is looked up with two edits, a shorter one with one', () => {
    const index = indexOf(['architecture', 'arhcitecure', 'archtectur', 'conf', 'config', 'confg', 'cnfig', 'ocnfig', 'xonfig', 'xonfik'].sort());
    expect(near(index, 'architecture')).toEqual([
      ['architecture', 0, 1],
      ['archtectur', 2, 2],
      ['arhcitecure', 2, 3],
    ]);
    expect(near(index, 'confi').map(([t, d]) => [t, d])).toEqual([
      ['conf', 1],
      ['confg', 1],
      ['config', 1],
    ]);
    expect(near(index, 'config').map(([t, d]) => [t, d])).toEqual([
      ['cnfig', 1],
      ['confg', 1],
      ['config', 0],
      ['ocnfig', 1],
      ['xonfig', 1],
    ]);
  });

  test('terms out of order (a corrupt cache file) give some answer, in bounded time', () => {
    const r = random(9);
    const words = vocabulary(r, 2000).reverse();
    const index = indexOf(words);
    for (let i = 0; i < 50; i++) {
      const found = near(index, word(r, 3 + (i % 10)));
      for (const [t] of found) expect(words).toContain(t);
    }
  });
});

describe('the terms as UTF-8: find and withPrefix', () => {
  /** What find and withPrefix promise, on the terms as strings. */
  const prefixed = (words: readonly string[], q: string) => words.filter((w) => w.length > q.length && w.startsWith(q));
  const withPrefix = (index: SearchIndex, q: string) => {
    const out: [string, number][] = [];
    index.withPrefix(q, (t, df) => out.push([t, df]));
    return out;
  };
  for (const seed of [4, 5]) {
    test(`every term found at its place, every prefix's run in order, ASCII runs and others (vocabulary ${seed})`, () => {
      const r = random(seed);
      const words = vocabulary(r, 3000).filter((w) => w !== '');
      const index = indexOf(words);
      words.forEach((w, i) => expect(index.find(w)).toBe(i));
      // Found again (from the terms it gave out): the same place.
      words.forEach((w, i) => expect(index.find(w)).toBe(i));
      let runs = 0;
      for (let k = 0; k < 600; k++) {
        const w = pick(r, words);
        const q = k % 3 === 0 ? word(r, 1 + Math.floor(r() * 3)) : w.slice(0, 1 + Math.floor(r() * w.length));
        if (!words.includes(q)) expect(index.find(q)).toBe(-1);
        const want: [string, number][] = prefixed(words, q).map((t) => [t, words.indexOf(t) + 1]);
        expect({ q, found: withPrefix(index, q) }).toEqual({ q, found: want });
        if (want.length > 1) runs++;
      }
      expect(runs).toBeGreaterThan(100);
    });
  }
  test('a word longer than all the terms together (a small topic searched with a large one)', () => {
    const tiny = indexOf(['doc', 'readm']);
    expect(tiny.find('deploywindows')).toBe(-1);
    expect(tiny.find('readm')).toBe(1);
    expect(tiny.find('readmereadme')).toBe(-1);
    expect(withPrefix(tiny, 'documentation')).toEqual([]);
    expect(withPrefix(tiny, 'do').map(([t]) => t)).toEqual(['doc']);
  });

  test('an index of ASCII terms and one with a term of each width', () => {
    const ascii = ['a', 'ab', 'abc', 'abd', 'b'];
    expect(withPrefix(indexOf(ascii), 'a').map(([t]) => t)).toEqual(['ab', 'abc', 'abd']);
    // Runs of every length up to the end of the terms, and none.
    const many = Array.from({ length: 300 }, (_, i) => `t${String(i).padStart(3, '0')}`);
    const all = indexOf(['s', ...many]);
    expect(withPrefix(all, 't').length).toBe(300);
    expect(withPrefix(all, 't29').map(([t]) => t)).toEqual(['t290', 't291', 't292', 't293', 't294', 't295', 't296', 't297', 't298', 't299']);
    expect(withPrefix(all, 't299')).toEqual([]);
    expect(withPrefix(all, 'u')).toEqual([]);
    for (let k = 1; k <= 300; k += 37) expect(withPrefix(indexOf(['a', ...many.slice(0, k), 'u']), 't').length).toBe(k);
    const mixed = ['caf', 'cafe', 'café', 'cafézinho', 'cafж', 'caf中', 'cag'].sort();
    const index = indexOf(mixed);
    expect(withPrefix(index, 'caf').map(([t]) => t)).toEqual(['cafe', 'café', 'cafézinho', 'cafж', 'caf中']);
    expect(withPrefix(index, 'café').map(([t]) => t)).toEqual(['cafézinho']);
    mixed.forEach((w, i) => expect(index.term(i)).toBe(w));
  });
});
