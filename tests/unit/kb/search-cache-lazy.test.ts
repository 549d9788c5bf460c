// An index read back from the search cache with a large postings section
// reads each term's postings when a query first needs them
// (src/kb/search/cache.ts, SearchIndex.readLazily): it answers, patches and
// writes back exactly as the index it was written from.
import { afterAll, describe, expect, test } from 'bun:test';
import { copyFileSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { readCache, writeCache } from '../../../src/kb/search/cache.ts';
import { IndexBuilder, KIND_TEXT, type DocMeta, type SearchIndex } from '../../../src/kb/search/engine.ts';
import { queryTerms } from '../../../src/kb/search/tokenize.ts';
import { makeTempDir } from '../../support/temp.ts';
import { rng } from '../../support/rng.ts';

const meta = (d: number): DocMeta => ({ path: `doc-${d}.md`, slug: `doc-${d}`, size: 1, mtime: 1, kind: KIND_TEXT, description: null });

/** 1,600 documents of 400 words from 20,000: over 1 MiB of postings. */
function big(words = 400, seed = 5): SearchIndex {
  const next = rng(seed);
  const b = new IndexBuilder();
  for (let d = 0; d < 1600; d++) {
    const body: string[] = [];
    for (let w = 0; w < words; w++) body.push(`w${Math.floor(next() * 20000).toString(36)}`);
    if (d % 40 === 0) body.push('zebra');
    b.add(meta(d), [`doc-${d}`, '', '', body.join(' ')]);
  }
  return b.finish();
}

const dir = makeTempDir('kb-lazy-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const trace = { dirs: [['/subjects', 1]] as [string, number][], controls: [] };
const index = big();
const file = join(dir, 'big.idx');
expect(writeCache(file, { index, trace }, '/subjects')).toBeUndefined();

function lazy(): SearchIndex {
  const r = readCache(file, '/subjects');
  if (r.kind !== 'hit') throw new Error(r.kind);
  expect(r.entry.kept).toBe(true);
  return r.entry.index;
}

const hits = (x: SearchIndex, q: string) => x.query(queryTerms(q), { prefix: true, fuzzy: true }).hits.map((h) => [h.doc, h.score]);

describe('an index whose postings are read a term at a time', () => {
  test('answers as the index it was written from', () => {
    const x = lazy();
    try {
      for (const q of ['zebra', 'w1 w2 w3', 'zebar', 'w1', 'w4f2 zebra', 'nothing']) expect(hits(x, q)).toEqual(hits(index, q));
    } finally {
      x.release();
    }
  });

  test('written back after a query, it is the same file byte for byte', () => {
    const x = lazy();
    hits(x, 'zebra');
    const again = join(dir, 'again.idx');
    expect(writeCache(again, { index: x, trace }, '/subjects')).toBeUndefined();
    x.release();
    expect(readFileSync(again).equals(readFileSync(file))).toBe(true);
  });

  test('patched, it gives the index the one in memory gives', () => {
    const fresh = new IndexBuilder();
    fresh.add(meta(3), ['doc-3', '', '', 'zebra okapi']);
    const f = fresh.finish();
    const x = lazy();
    const a = x.patched([3], f);
    x.release();
    const b = index.patched([3], f);
    expect(a.terms).toEqual(b.terms);
    expect([...a.post]).toEqual([...b.post]);
    expect(hits(a, 'okapi zebra')).toEqual(hits(b, 'okapi zebra'));
  });

  test('once released, a posting not read yet is never read from a stale descriptor', () => {
    const x = lazy();
    expect(hits(x, 'zebra').length).toBe(40);
    x.release();
    // What was read stays usable; anything else says why it cannot be.
    expect(hits(x, 'zebra').length).toBe(40);
    expect(() => hits(x, 'w1')).toThrow('let go');
  });

  test('a cache file cut short under a search: the query says so, and the next read finds it corrupt', () => {
    const cut = join(dir, 'cut.idx');
    copyFileSync(file, cut);
    const r = readCache(cut, '/subjects');
    if (r.kind !== 'hit') throw new Error(r.kind);
    const x = r.entry.index;
    // Something else truncates the file in place (kb itself replaces it
    // whole, by a rename): postings not read yet are gone.
    truncateSync(cut, 4096);
    expect(() => hits(x, 'zebra')).toThrow(/the search cache .*cut\.idx changed while it was read \(shorter than its size\); search again/);
    x.release();
    const again = readCache(cut, '/subjects');
    expect(again.kind).toBe('corrupt');
  });

  test('its term dictionary is read a page at a time: a few for a word, all of it for a typo', () => {
    const x = lazy();
    try {
      const pages = x.dictPages()!;
      expect(pages.all).toBeGreaterThan(50);
      expect(hits(x, 'zebra')).toEqual(hits(index, 'zebra'));
      const read = x.dictPages()!.read;
      expect(read).toBeGreaterThan(0);
      expect(read).toBeLessThan(pages.all / 4);
      // A word the index lacks is looked up with typos: the walk reads
      // the whole dictionary first.
      expect(hits(x, 'zebar')).toEqual(hits(index, 'zebar'));
      expect(x.dictPages()).toBeUndefined();
    } finally {
      x.release();
    }
  });

  test('every term found, every prefix\'s run and every typo as in memory, from a cold dictionary each time', () => {
    const next = rng(11);
    for (let k = 0; k < 60; k++) {
      const x = lazy();
      try {
        const i = Math.floor(next() * index.termCount);
        const t = index.term(i);
        expect(x.find(t)).toBe(i);
        expect(x.dfAt(i)).toBe(index.dfAt(i));
        const prefix = t.slice(0, 1 + Math.floor(next() * (t.length - 1)));
        const runs = (y: SearchIndex) => {
          const out: [string, number][] = [];
          y.withPrefix(prefix, (w, df) => out.push([w, df]));
          return out;
        };
        expect(runs(x)).toEqual(runs(index));
        expect(x.find(`${t}~`)).toBe(-1);
        if (k % 10 === 0) {
          const near = (y: SearchIndex) => {
            const out: [string, number, number][] = [];
            y.near(`${t.slice(1)}x`, (w, d, df) => out.push([w, d, df]));
            return out;
          };
          expect(near(x)).toEqual(near(index));
        }
      } finally {
        x.release();
      }
    }
  });

  test('a small postings section is read at once, the file closed', () => {
    const small = new IndexBuilder();
    small.add(meta(0), ['doc-0', '', '', 'alpha beta']);
    const smallFile = join(dir, 'small.idx');
    writeCache(smallFile, { index: small.finish(), trace }, '/subjects');
    const r = readCache(smallFile, '/subjects');
    if (r.kind !== 'hit') throw new Error(r.kind);
    expect(r.entry.kept).toBeUndefined();
    expect(r.entry.index.query(['alpha']).hits).toHaveLength(1);
  });
});
