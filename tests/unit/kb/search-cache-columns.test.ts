// An index read from the search cache keeps its documents by column
// (engine.ts DocColumns): each document's slug, path, title, description,
// token estimate, kind, size and time read back as written, one at a time
// or all at once, and slug starts that do not span the slugs section are a
// corrupt cache.
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCache, writeCache } from '../../../src/kb/search/cache.ts';
import { IndexBuilder, KIND_SKIPPED, KIND_TEXT, type DocMeta, type SearchIndex } from '../../../src/kb/search/engine.ts';
import { queryTerms } from '../../../src/kb/search/tokenize.ts';
import { makeTempDir } from '../../support/temp.ts';

const dir = makeTempDir('kb-search-columns-');
const trace = { dirs: [['/subjects', 1] as [string, number]], controls: [] };

/** More documents than are decoded one by one (then the rest at once),
 *  with slugs of several bytes a character, some skipped, some with a
 *  description, a title or a token estimate. */
function built(n: number): SearchIndex {
  const b = new IndexBuilder();
  const names = ['alpha', 'café-crème', 'naïve/ü', 'ßtraße', 'plain', '日本語/テキスト', 'emoji-🚀', '\ufeffmarked'];
  for (let d = 0; d < n; d++) {
    const slug = `${names[d % names.length]}-${d}`;
    const meta: DocMeta = {
      path: `${slug}.md`,
      slug,
      size: 100 + d,
      mtime: 1_700_000_000_000 + d + 0.25,
      kind: d % 11 === 3 ? KIND_SKIPPED : KIND_TEXT,
      description: d % 3 === 0 ? `about ${slug}` : null,
    };
    if (d % 4 === 1) meta.tokens = 5000 + d;
    if (d % 5 === 2) meta.title = `Title of ${slug}`;
    // Every document holds "shared" once: a tie broken by slug.
    b.add(meta, meta.kind === KIND_TEXT ? [slug, meta.description ?? '', '', `shared word${d % 7}`, meta.title ?? ''] : undefined);
  }
  return b.finish();
}

function readBack(index: SearchIndex, name: string): SearchIndex {
  const file = join(dir, name);
  expect(writeCache(file, { index, trace }, '/subjects')).toBeUndefined();
  const r = readCache(file, '/subjects');
  if (r.kind !== 'hit') throw new Error(r.kind === 'corrupt' ? r.why : r.kind);
  return r.entry.index;
}

describe('an index read from the cache, by column', () => {
  const index = built(700);

  test('every document reads back as written, one at a time (last first)', () => {
    const read = readBack(index, 'each.idx');
    expect(read.count).toBe(index.count);
    expect(read.texts).toBe(index.texts);
    expect(read.sums).toEqual(index.sums);
    for (let d = index.count - 1; d >= 0; d--) {
      const want = index.docs[d];
      expect(read.slugOf(d)).toBe(want.slug);
      expect(read.pathOf(d)).toBe(want.path);
      expect(read.descriptionOf(d)).toBe(want.description);
      expect(read.tokensOf(d)).toBe(want.tokens);
      expect(read.titleOf(d)).toBe(want.title);
      expect(read.kinds[d]).toBe(want.kind);
      expect(read.sizes[d]).toBe(want.size);
      expect(read.mtimes[d]).toBe(want.mtime);
      const { title: _, ...rest } = want;
      expect(read.doc(d)).toEqual({ ...rest, tokens: want.tokens });
    }
  });

  test('all at once, the same documents', () => {
    const read = readBack(index, 'all.idx');
    // A few slugs asked for first: the list made later agrees with them.
    expect(read.slugOf(5)).toBe(index.docs[5].slug);
    expect(read.docs.map((d) => d.slug)).toEqual(index.docs.map((d) => d.slug));
    expect(read.docs).toEqual(index.docs.map(({ title: _, ...d }) => ({ ...d, tokens: d.tokens })));
    expect(read.docs.map((_, d) => read.titleOf(d))).toEqual(index.docs.map((d) => d.title));
  });

  test('ranks as the index written: ties by slug, disabled documents left out', () => {
    const read = readBack(index, 'rank.idx');
    const q = queryTerms('shared word3');
    const exclude = (x: SearchIndex) => (d: number) => x.slugOf(d).startsWith('plain');
    for (const top of [5, 50, 1000]) {
      const a = index.query(q, { prefix: true, fuzzy: true, top, exclude: exclude(index) });
      const b = read.query(q, { prefix: true, fuzzy: true, top, exclude: exclude(read) });
      expect(b.hits).toEqual(a.hits);
      expect(b.total).toBe(a.total);
    }
  });

  test('document frequencies above the text documents\' count (a forged file): ranked still, every score finite', () => {
    const file = join(dir, 'df.idx');
    writeCache(file, { index, trace }, '/subjects');
    const bytes = readFileSync(file);
    const headLen = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.subarray(12, 12 + headLen).toString('utf8'));
    const pad8 = (n: number) => (n + 7) & ~7;
    let at = pad8(12 + headLen);
    for (let i = 0; i < 3; i++) at += pad8(header.sections[i]);
    // Section 3: a frequency a term, each made far too large.
    for (let t = 0; t < header.terms; t++) bytes.writeUInt32LE(0xfffffff0, at + 4 * t);
    writeFileSync(file, bytes);
    const r = readCache(file, '/subjects');
    if (r.kind !== 'hit') throw new Error(r.kind);
    const got = r.entry.index.query(queryTerms('shared word3 wrd3'), { prefix: true, fuzzy: true, top: 20 });
    expect(got.hits.length).toBeGreaterThan(0);
    for (const h of got.hits) expect(Number.isFinite(h.score)).toBe(true);
    expect(Number.isFinite(r.entry.index.idf('shared'))).toBe(true);
  });

  test('a byte order mark starting the slugs is dropped, one at a time as all at once (the section decoded whole)', () => {
    const b = new IndexBuilder();
    for (const slug of ['\ufeffa', '\ufeffb', 'c']) b.add({ path: `${slug.slice(-1)}.md`, slug, size: 1, mtime: 1, kind: KIND_TEXT, description: null }, [slug, '', '', 'x']);
    const one = readBack(b.finish(), 'marks.idx');
    const all = readCache(join(dir, 'marks.idx'), '/subjects');
    if (all.kind !== 'hit') throw new Error(all.kind);
    expect([0, 1, 2].map((d) => one.slugOf(d))).toEqual(['a', '\ufeffb', 'c']);
    expect(all.entry.index.docs.map((d) => d.slug)).toEqual(['a', '\ufeffb', 'c']);
  });

  test('an index of no documents reads back empty', () => {
    const read = readBack(new IndexBuilder().finish(), 'empty.idx');
    expect(read.count).toBe(0);
    expect(read.docs).toEqual([]);
  });

  test('slug starts whose ends are not the slugs section\'s are a corrupt cache; a line more or fewer within gives slugs from the section still', () => {
    const small = built(3);
    const file = join(dir, 'forged.idx');
    writeCache(file, { index: small, trace }, '/subjects');
    const good = readFileSync(file);
    const slugs = Buffer.from(small.docs.map((d) => d.slug).join('\n'));
    // The slugs section (the paths differ: `.md`).
    const at = good.indexOf(slugs);
    expect(at).toBeGreaterThan(0);
    // The slug starts: the last section, n + 1 numbers padded to 8 bytes.
    const startsAt = good.length - ((4 * 4 + 7) & ~7);
    expect(Array.from(new Uint32Array(good.buffer.slice(good.byteOffset + startsAt, good.byteOffset + startsAt + 16)))).toEqual([0, Buffer.byteLength(small.docs[0].slug) + 1, Buffer.byteLength(small.docs[0].slug) + Buffer.byteLength(small.docs[1].slug) + 2, slugs.length + 1]);
    for (const [k, v] of [[0, 1], [3, slugs.length + 2], [3, slugs.length]]) {
      const forged = Buffer.from(good);
      forged.writeUInt32LE(v, startsAt + 4 * k);
      writeFileSync(file, forged);
      expect(readCache(file, '/subjects')).toEqual({ kind: 'corrupt', why: 'bad document lists' });
    }
    // Starts in between out of order or past the section: each slug is
    // some of the section's bytes still (wrong at worst, as a corrupt
    // offset anywhere in the file).
    const wild = Buffer.from(good);
    wild.writeUInt32LE(0xffffffff, startsAt + 4);
    wild[at + 2] = 0x0a;
    writeFileSync(file, wild);
    const w = readCache(file, '/subjects');
    if (w.kind !== 'hit') throw new Error(w.kind);
    expect(wild.subarray(at, at + slugs.length).toString('utf8')).toContain(w.entry.index.slugOf(0));
    expect(w.entry.index.slugOf(1)).toBe('');
    expect(w.entry.index.slugOf(2)).toBe(small.docs[2].slug);
    // Bytes that are not UTF-8 in a slug: read, as the text decoder makes them.
    const odd = Buffer.from(good);
    odd[at + 1] = 0xff;
    writeFileSync(file, odd);
    const r = readCache(file, '/subjects');
    if (r.kind !== 'hit') throw new Error(r.kind);
    expect(r.entry.index.slugOf(0)).toBe(new TextDecoder().decode(odd.subarray(at, at + small.docs[0].slug.length)));
    expect(r.entry.index.slugOf(1)).toBe(small.docs[1].slug);
  });
});
