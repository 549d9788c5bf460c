// The search index: BM25 over five fields of each subject (slug,
// description, headings, body, title), with field weights, prefix matching and
// typo tolerance. Pure (no I/O): cache.ts stores it, topic.ts builds it
// from a topic's files.
//
// Why not a library: on the benchmark's 10,000 subjects (36 MB), minisearch
// took 3.4 s and 1 GiB to index and 0.8 s to load its JSON back, orama 4.9 s
// and 870 MiB, flexsearch 2.6 s (and ranks without BM25). A search that
// starts a process each time needs an index that loads without parsing:
// this one is a few typed arrays in one file, read as they are, and only
// the postings of the query's terms are decoded (docs/development/search-quality.md,
// "Why kb's own index").
//
// Layout: the terms, sorted, as one string with their start offsets; per
// term its document frequency and a byte range of postings. A posting is
// the document's number as a varint delta from the previous one, a byte
// whose low five bits say which fields hold the term, and one byte (term
// frequency, capped at 255) per field present.

import { Buffer } from 'node:buffer';
import { forEachTermOf, MAX_TERM, termOf } from './tokenize.ts';
import { map } from '../../shared/arrays.ts';
import { firstRow, nextRow } from '../../shared/edit-distance.ts';
import type { Pace } from '../../shared/pace.ts';
import { utf8Length } from '../../shared/text.ts';

const utf8Encoder = new TextEncoder();

/** The terms an index keeps by text for `find`, at most. */
const KNOWN_TERMS = 4096;

/** Terms `words` (in sort order) as SearchIndex holds them: their UTF-8
 *  one after another, and where each starts (one more past the last). */
export function termBytes(words: readonly string[]): { bytes: Uint8Array; starts: Uint32Array } {
  const starts = new Uint32Array(words.length + 1);
  // (No term holds a surrogate, tokenize.ts: its UTF-8 is utf8Length's.)
  for (let r = 0; r < words.length; r++) starts[r + 1] = starts[r] + utf8Length(words[r]);
  const bytes = utf8Encoder.encode(words.join(''));
  if (bytes.length !== starts[words.length]) throw new Error('term offsets do not match their UTF-8');
  return { bytes, starts };
}

export const FIELDS = ['slug', 'description', 'headings', 'body', 'title'] as const;
export const NFIELDS = FIELDS.length;

/** Field weights, and BM25's k1 and b. The weights were chosen on the
 *  labelled query sets (docs/development/search-quality.md);
 *  k1 and b were fitted on the PEPs' set and checked on the others
 *  ("Ranking on the words people use"): long documents had been held
 *  back by their length (b 0.75). */
export const TUNING = {
  weights: [1.5, 1.5, 1.5, 1, 1.5],
  k1: 1.6,
  b: 0.5,
  prefix: 0.4,
  fuzzy: 0.6,
};

/** What a document's file was when it was indexed. */
export const KIND_TEXT = 0;
/** Binary or unreadable: tracked (its size and time), never a result. */
export const KIND_SKIPPED = 1;

/** The most characters of a title the index keeps (shown in results). */
export const MAX_TITLE = 200;

export interface DocMeta {
  /** Relative to the subjects directory, `/`-separated. */
  path: string;
  slug: string;
  size: number;
  mtime: number;
  kind: number;
  description: string | null;
  /** Its title (frontmatter `title`, else `name`, else its own by its
   *  format: topic.ts titleOf), at most MAX_TITLE characters; absent when
   *  none. */
  title?: string;
  /** Its whole text's token estimate (content/tokens.ts), as a result
   *  shows it; absent when not known (then the result's file is
   *  measured). */
  tokens?: number;
  /** Its facets (content/facets.ts encodeFacets: tags, type, status);
   *  absent or '' when none. */
  facets?: string;
}

/** The text of a document's fields, in FIELDS order (no title: ''). The
 *  title is what the document calls itself (topic.ts titleOf), weighted
 *  above the other fields. */
export type DocFields = readonly [string, string, string, string, string?];

/** A growable Uint32 list, in chunks (no copying as it grows: a large
 *  topic's postings would otherwise briefly need twice their memory). */
class U32List {
  private static readonly CHUNK = 1 << 16;
  private chunks: Uint32Array[] = [];
  private cur = new Uint32Array(0);
  private at = U32List.CHUNK;
  n = 0;
  push(v: number): void {
    if (this.at === U32List.CHUNK) {
      this.cur = new Uint32Array(U32List.CHUNK);
      this.chunks.push(this.cur);
      this.at = 0;
    }
    this.cur[this.at++] = v;
    this.n++;
  }
  get(i: number): number {
    return this.chunks[i >>> 16][i & 0xffff];
  }
  /** The values, in one array. */
  toArray(): Uint32Array {
    const out = new Uint32Array(this.n);
    for (let c = 0; c < this.chunks.length; c++) out.set(c === this.chunks.length - 1 ? this.chunks[c].subarray(0, this.at) : this.chunks[c], c << 16);
    return out;
  }
  /** Lets the memory go. */
  clear(): void {
    this.chunks = [];
    this.cur = new Uint32Array(0);
    this.at = U32List.CHUNK;
    this.n = 0;
  }
}

/** The bytes of `v`'s varint (at most five: v < 2^32). */
const varintBytes = (v: number): number => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5);

/** A growable byte list. */
class ByteList {
  a: Uint8Array;
  n = 0;
  constructor(size = 1 << 16) {
    this.a = new Uint8Array(size);
  }
  room(k: number): void {
    if (this.n + k <= this.a.length) return;
    let len = this.a.length * 2;
    while (len < this.n + k) len *= 2;
    const b = new Uint8Array(len);
    b.set(this.a.subarray(0, this.n));
    this.a = b;
  }
  byte(v: number): void {
    this.room(1);
    this.a[this.n++] = v;
  }
  varint(v: number): void {
    this.room(varintBytes(v));
    while (v >= 0x80) {
      this.a[this.n++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.a[this.n++] = v;
  }
}

/** Where the gap `gapAt` read last ends. */
let gapEnd = 0;

/** The document gap (a varint of at most five bytes) at `x` of postings
 *  `p`; `gapEnd` is then where it ends. (A query's ranking loop reads gaps
 *  inline, a one-byte gap first: SearchIndex.run.) */
function gapAt(p: Uint8Array, x: number): number {
  let v = 0;
  let shift = 0;
  let b: number;
  do {
    b = p[x++];
    v += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80 && shift < 35);
  gapEnd = x;
  return v;
}

/** The end of a posting's field mask and frequencies, which start at `x`. */
function frequenciesEnd(p: Uint8Array, x: number): number {
  const mask = p[x++];
  for (let f = 0; f < NFIELDS; f++) if (mask & (1 << f)) x++;
  return x;
}

/** Field term frequencies packed in one 32-bit number while building, at
 *  most CAP[f] each (a posting then stores a byte per field): slug and
 *  description 6 bits, headings and body 8, title 4. */
const BITS = [6, 6, 8, 8, 4];
/** Each field's place in the packed number (2 to the bits before it),
 *  and its largest count (a loop: no Array method on the search's start,
 *  shared/arrays.ts). */
const SHIFT: number[] = [];
const CAP: number[] = [];
for (let f = 0, at = 0; f < BITS.length; at += BITS[f++]) {
  SHIFT.push(2 ** at);
  CAP.push(2 ** BITS[f] - 1);
}
const tfIn = (v: number, f: number): number => Math.floor(v / SHIFT[f]) % (CAP[f] + 1);

/** Builds an index document by document, in the order they are added. */
export class IndexBuilder {
  private readonly ids = new Map<string, number>();
  /** Per index documents are carried over from: its term numbers' ids
   *  here (-2: not looked up yet), so that each term is looked up once,
   *  not once per document holding it. */
  private readonly fromIndex = new Map<SearchIndex, Int32Array>();
  private readonly words: string[] = [];
  /** Per (document, term): the term and its packed frequencies, in
   *  document order. */
  private readonly pTerm = new U32List();
  private readonly pTf = new U32List();
  private readonly docs: DocMeta[] = [];
  private readonly lens = new U32List();
  /** Where each document's postings end in pTerm/pTf. */
  private readonly ends = new U32List();

  get size(): number {
    return this.docs.length;
  }

  /** Adds a document; `fields` undefined: tracked, not searchable. */
  add(meta: DocMeta, fields?: DocFields): void {
    this.docs.push(meta);
    const touched = this.touched;
    touched.length = 0;
    for (let f = 0; f < NFIELDS; f++) {
      let len = 0;
      const text = fields?.[f] ?? '';
      if (text !== '') {
        const unit = SHIFT[f];
        const cap = CAP[f];
        forEachTermOf(
          text,
          text.toLowerCase(),
          (t, _a, _b, main) => {
            const id = this.idOfTerm(t);
            if (main) len++;
            const v = this.tfs[id];
            if (v === 0) touched.push(id);
            if (tfIn(v, f) < cap) this.tfs[id] = v + unit;
          },
          this.termFor,
        );
      }
      this.lens.push(len);
    }
    for (const id of touched) {
      this.pTerm.push(id);
      this.pTf.push(this.tfs[id]);
      this.tfs[id] = 0;
    }
    this.ends.push(this.pTerm.n);
  }

  /** Lower-cased words seen so far -> their term ('' : none). Bounded by
   *  the distinct words of the topic. */
  private readonly terms = new Map<string, string>();
  private readonly termFor = (w: string): string => {
    let t = this.terms.get(w);
    if (t === undefined) {
      t = termOf(w);
      this.terms.set(w, t);
    }
    return t;
  };
  /** Per term id: its packed frequencies in the document being added. */
  private tfs = new Float64Array(1 << 12);
  private readonly touched: number[] = [];

  private idOfTerm(t: string): number {
    if (t === '') return -1;
    let id = this.ids.get(t);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(t, id);
      this.words.push(t);
      if (id >= this.tfs.length) {
        const b = new Float64Array(this.tfs.length * 2);
        b.set(this.tfs);
        this.tfs = b;
      }
    }
    return id;
  }

  /** Adds a document with its terms already counted (an unchanged
   *  document carried over from an earlier index). */
  addCounted(meta: DocMeta, lens: ArrayLike<number>, terms: ArrayLike<number>, packed: ArrayLike<number>, source: SearchIndex): void {
    this.docs.push(meta);
    for (let f = 0; f < NFIELDS; f++) this.lens.push(lens[f]);
    let ids = this.fromIndex.get(source);
    if (ids === undefined) this.fromIndex.set(source, (ids = new Int32Array(source.df.length).fill(-2)));
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i];
      let id = ids[t];
      if (id === -2) ids[t] = id = this.idOfTerm(source.term(t));
      this.pTerm.push(id);
      this.pTf.push(packed[i]);
    }
    this.ends.push(this.pTerm.n);
  }

  /** The finished index. */
  finish(): SearchIndex {
    const nt = this.words.length;
    const order = Array.from({ length: nt }, (_, i) => i).sort((a, b) => (this.words[a] < this.words[b] ? -1 : this.words[a] > this.words[b] ? 1 : 0));
    const rank = new Uint32Array(nt);
    for (let r = 0; r < nt; r++) rank[order[r]] = r;
    // Counting sort of the postings by term rank; each term's postings stay
    // in document order. (The lists are read in place, and the postings
    // written into one buffer of their exact size: a copy of each, and a
    // buffer doubled as it grows, were most of a large build's peak
    // memory.)
    const np = this.pTerm.n;
    const df = new Uint32Array(nt);
    const pTerm = this.pTerm;
    for (let i = 0; i < np; i++) df[rank[pTerm.get(i)]]++;
    const at = new Uint32Array(nt + 1);
    for (let r = 0; r < nt; r++) at[r + 1] = at[r] + df[r];
    const fill = at.slice(0, nt);
    const sDoc = new Uint32Array(np);
    const sTf = new Uint32Array(np);
    let doc = 0;
    const ends = this.ends.toArray();
    for (let i = 0; i < np; i++) {
      while (i >= ends[doc]) doc++;
      const r = rank[pTerm.get(i)];
      const k = fill[r]++;
      sDoc[k] = doc;
      sTf[k] = this.pTf.get(i);
    }
    this.pTerm.clear();
    this.pTf.clear();
    // The postings' size: a delta's varint, the mask, a byte per field.
    let size = 0;
    for (let r = 0; r < nt; r++) {
      let prev = 0;
      for (let k = at[r]; k < at[r + 1]; k++) {
        const gap = sDoc[k] - prev;
        prev = sDoc[k];
        size += varintBytes(gap) + 1;
        const v = sTf[k];
        for (let f = 0; f < NFIELDS; f++) if (tfIn(v, f) > 0) size++;
      }
    }
    const post = new ByteList(Math.max(size, 1));
    const postStarts = new Uint32Array(nt + 1);
    for (let r = 0; r < nt; r++) {
      postStarts[r] = post.n;
      let prev = 0;
      for (let k = at[r]; k < at[r + 1]; k++) {
        post.varint(sDoc[k] - prev);
        prev = sDoc[k];
        const v = sTf[k];
        let mask = 0;
        for (let f = 0; f < NFIELDS; f++) if (tfIn(v, f) > 0) mask |= 1 << f;
        post.byte(mask);
        for (let f = 0; f < NFIELDS; f++) if (mask & (1 << f)) post.byte(tfIn(v, f));
      }
    }
    postStarts[nt] = post.n;
    const { bytes, starts } = termBytes(order.map((i) => this.words[i]));
    return new SearchIndex(this.docs, this.lens.toArray(), bytes, starts, df, postStarts, post.n === post.a.length ? post.a : post.a.slice(0, post.n));
  }

}

/** One document's terms (their numbers in the index it comes from) and
 *  packed frequencies (to carry it over: IndexBuilder.addCounted). */
export interface CountedDoc {
  lens: number[];
  terms: number[];
  packed: number[];
}

export interface Hit {
  doc: number;
  score: number;
}

export interface QueryOptions {
  /** Terms that start with a query term count too (less). */
  prefix?: boolean;
  /** A query term absent from the index is looked up with one or two
   *  typos. */
  fuzzy?: boolean;
  /** Documents that are not results (disabled subjects). */
  exclude?: (doc: number) => boolean;
  /** Only the best `top` hits are returned (all are counted). */
  top?: number;
}

/** What a query looks up, the same in every index searched together:
 *  per query term, the index terms it stands for (itself, longer words it
 *  starts, near spellings), each with its weight and its idf, from the
 *  statistics of all the indexes at once (planQuery). */
export interface QueryPlan {
  /** Per query term that matched something: [index term, weight x idf]. */
  terms: [string, number][][];
  /** Text documents of all the indexes. */
  texts: number;
  /** Average length per field over those documents. */
  avg: number[];
  unknown: string[];
  corrected: Map<string, string[]>;
}

/**
 * Plans `queryTerms` over `indexes` searched as one collection: document
 * frequencies, the number of documents and the average field lengths are
 * summed over them, so that a score means the same in every index and a
 * word rare in one small index counts as rare only if it is rare overall.
 * Which expansions a term gets is decided on the union too: a word one
 * index has is not looked up with typos in another, and the prefix and
 * typo cuts (MAX_EXPANSIONS) keep the most frequent terms overall. With one
 * index, this is that index's own plan.
 */
export function planQuery(indexes: readonly SearchIndex[], queryTerms: readonly string[], opts: QueryOptions = {}): QueryPlan {
  let texts = 0;
  const sums = new Array(NFIELDS).fill(0);
  for (const x of indexes) {
    texts += x.texts;
    for (let f = 0; f < NFIELDS; f++) sums[f] += x.sums[f];
  }
  const avg = avgOf(sums, texts);
  const dfOf = (t: string): number => {
    let n = 0;
    for (const x of indexes) {
      const i = x.find(t);
      if (i >= 0) n += x.dfOf(i);
    }
    return n;
  };
  // A term is in a text document at most (a cache file's frequencies are
  // not checked one by one when it is read: cache.ts).
  const idfOf = (df: number): number => {
    const n = Math.min(df, texts);
    return Math.log(1 + (texts - n + 0.5) / (n + 0.5));
  };
  const plan: QueryPlan = { terms: [], texts, avg, unknown: [], corrected: new Map() };
  /** Most frequent first, then in term order (what a stable sort by df of
   *  terms found in term order gives). */
  const byDf = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  for (const q of queryTerms) {
    if (q.length > MAX_TERM) continue;
    const out: [string, number][] = [];
    const exactDf = dfOf(q);
    if (exactDf > 0) out.push([q, idfOf(exactDf)]);
    if (opts.prefix && q.length >= 3) {
      const found = new Map<string, number>();
      for (const x of indexes) x.withPrefix(q, (t, df) => found.set(t, (found.get(t) ?? 0) + df));
      // (A loop over the map, not a spread of it: the spread's first use
      // costs about 0.25 ms, the runtime's own iteration code.)
      let list: [string, number][] = [];
      for (const e of found) list.push(e);
      if (list.length > MAX_EXPANSIONS) list = list.sort(byDf).slice(0, MAX_EXPANSIONS);
      else list.sort((a, b) => (a[0] < b[0] ? -1 : 1));
      for (const [t, df] of list) out.push([t, TUNING.prefix * (q.length / t.length) * idfOf(df)]);
    }
    if (opts.fuzzy && exactDf === 0 && q.length >= 4) {
      const found = new Map<string, [number, number]>();
      for (const x of indexes) {
        x.near(q, (t, d, df) => {
          const had = found.get(t);
          found.set(t, [d, (had?.[1] ?? 0) + df]);
        });
      }
      const list: [string, [number, number]][] = [];
      for (const e of found) list.push(e);
      list.sort((a, b) => a[1][0] - b[1][0] || b[1][1] - a[1][1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      if (list.length > MAX_EXPANSIONS) list.length = MAX_EXPANSIONS;
      if (list.length > 0) plan.corrected.set(q, map(list, ([t]) => t));
      for (const [t, [d, df]] of list) out.push([t, (TUNING.fuzzy / d) * idfOf(df)]);
    }
    if (out.length === 0) plan.unknown.push(q);
    else plan.terms.push(out);
  }
  return plan;
}

/** What a query matched: ranked documents and, for snippets, every
 *  index term that counted. */
export interface QueryResult {
  /** The best hits (all, or `top`), best first. */
  hits: Hit[];
  /** How many documents matched. */
  total: number;
  matched: Set<string>;
  /** Query terms that matched nothing, even with prefixes or typos. */
  unknown: string[];
  /** Query terms looked up with typos, and what they matched. */
  corrected: Map<string, string[]>;
}

/** The term dictionary of an index read from the cache, read a page at a
 *  time (SearchIndex.readDictLazily). */
export interface DictSource {
  /** Reads bytes [from, to) of the cache file into the index's buffer at
   *  the same offsets (the buffer is laid out as the file). */
  read(from: number, to: number): void;
}

/** The dictionary is read in pages of this many bytes. */
const DICT_PAGE = 4096;

/** The postings of an index read from the cache, read a term at a time
 *  (SearchIndex.readLazily). */
export interface PostingsSource {
  /** Reads bytes [from, to) of the postings into `into` at the same
   *  offsets; throws when it cannot. */
  read(into: Uint8Array, from: number, to: number): void;
  /** Lets go of the file. */
  close(): void;
}

/** Expansions per query term at most (prefixes, typos): bounded work. */
const MAX_EXPANSIONS = 32;

/** A token estimate not known, in DocColumns.tokens. */
export const NO_TOKENS = 0xffffffff;

/** The documents of an index read from the cache, by column (cache.ts):
 *  a search reads a few documents' slugs, titles and descriptions, and
 *  every document's size, time, kind and path, so no object is made per
 *  document unless one is asked for (`doc`, `docs`). */
export interface DocColumns {
  paths: readonly string[];
  sizes: Float64Array;
  mtimes: Float64Array;
  kinds: Uint8Array;
  /** NO_TOKENS where not known. */
  tokens: Uint32Array;
  descriptions: readonly (string | null)[];
  /** The slugs as UTF-8, one a line, decoded one at a time when asked
   *  for; `slugStarts` holds where each starts, and one more past the end
   *  (the section's length + 1). */
  slugBytes: Uint8Array;
  slugStarts: Uint32Array;
}

/** Slugs decoded one at a time, at most: past this many, the rest are
 *  decoded at once (a search excluding disabled subjects asks for every
 *  match's). */
const SLUGS_ONE_BY_ONE = 512;

/** Per field, the average length of a text document. */
function avgOf(sums: readonly number[], texts: number): number[] {
  return map(sums, (v) => (texts === 0 ? 1 : Math.max(1, v / texts)));
}

const utf8 = new TextDecoder();
const utf8KeepingMarks = new TextDecoder('utf-8', { ignoreBOM: true });

export class SearchIndex {
  readonly avg: number[];
  /** How many documents. */
  readonly count: number;
  /** Per document: its file's size and mtime when indexed, and its kind
   *  (KIND_TEXT...). */
  readonly sizes: Float64Array;
  readonly mtimes: Float64Array;
  readonly kinds: Uint8Array;
  /** Per document: its path (DocMeta.path). */
  readonly paths: readonly string[];
  /** The documents as objects: those of an index built in memory, or
   *  made from the columns when first asked for. */
  private list?: DocMeta[];
  private readonly cols?: DocColumns;
  /** Slugs decoded from `cols` so far, and how many. */
  private slugs?: string[];
  private slugsDecoded = 0;

  constructor(
    docs: DocMeta[] | DocColumns,
    /** NFIELDS lengths (in terms) per document. */
    readonly lens: Uint32Array,
    /** The terms in sort order, as UTF-8 (termBytes): each term is
     *  decoded only when asked for (`term`), and looked up by its bytes. */
    readonly terms: Uint8Array,
    /** Where each term starts in `terms` (bytes), and one more past the
     *  last. */
    readonly termStarts: Uint32Array,
    readonly df: Uint32Array,
    readonly postStarts: Uint32Array,
    readonly post: Uint8Array,
    /** The documents' titles as the cache holds them (UTF-8, one a line,
     *  '' for none), decoded on the first `titleOf`: a search shows a few,
     *  and never pays for the others. Without it, the titles are the
     *  documents' own (`DocMeta.title`). */
    private titleBytes?: Uint8Array,
    /** The documents' facets as the cache holds them (UTF-8, one a line,
     *  '' for none), decoded on the first `facetsOf`: only a search with
     *  a filter asks. Without it, the documents' own (`DocMeta.facets`). */
    private facetBytes?: Uint8Array,
    /** The text documents' count and their fields' summed lengths, as the
     *  cache holds them (else counted here from `lens`). */
    counted?: { texts: number; sums: number[] },
  ) {
    if (Array.isArray(docs)) {
      const n = docs.length;
      this.list = docs;
      this.count = n;
      this.sizes = new Float64Array(n);
      this.mtimes = new Float64Array(n);
      this.kinds = new Uint8Array(n);
      const paths: string[] = new Array(n);
      for (let d = 0; d < n; d++) {
        paths[d] = docs[d].path;
        this.sizes[d] = docs[d].size;
        this.mtimes[d] = docs[d].mtime;
        this.kinds[d] = docs[d].kind;
      }
      this.paths = paths;
    } else {
      this.cols = docs;
      this.count = docs.paths.length;
      this.sizes = docs.sizes;
      this.mtimes = docs.mtimes;
      this.kinds = docs.kinds;
      this.paths = docs.paths;
    }
    if (counted !== undefined) {
      this.sums = counted.sums;
      this.texts = counted.texts;
      this.avg = avgOf(counted.sums, counted.texts);
      return;
    }
    const n = this.count;
    const kinds = this.kinds;
    // Once per search, before the loop is compiled (its speed is the
    // interpreter's): the fields unrolled, the sums in locals (half the
    // time of a loop over the fields).
    const five: 5 = NFIELDS;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let texts = 0;
    for (let d = 0, at = 0; d < n; d++, at += five) {
      if (kinds[d] !== KIND_TEXT) continue;
      texts++;
      s0 += lens[at];
      s1 += lens[at + 1];
      s2 += lens[at + 2];
      s3 += lens[at + 3];
      s4 += lens[at + 4];
    }
    this.sums = [s0, s1, s2, s3, s4];
    this.avg = avgOf(this.sums, texts);
    this.texts = texts;
  }

  /** Document `d`'s path. */
  pathOf(d: number): string {
    return this.paths[d];
  }

  /** Document `d`'s slug. */
  slugOf(d: number): string {
    const cols = this.cols;
    if (cols === undefined) return this.list![d].slug;
    let slugs = this.slugs;
    if (slugs === undefined) slugs = this.slugs = new Array(this.count);
    let s = slugs[d];
    if (s === undefined) {
      if (this.slugsDecoded >= SLUGS_ONE_BY_ONE) {
        // As many lines as documents, unless the file is corrupt: then
        // one by one still (each within the section).
        const all = this.count === 0 ? [] : utf8.decode(cols.slugBytes).split('\n');
        if (all.length === this.count) {
          this.slugs = slugs = all;
          return slugs[d];
        }
        this.slugsDecoded = -Infinity;
      }
      this.slugsDecoded++;
      // As the section decoded whole: a byte order mark is dropped at its
      // start only.
      // Offsets clamped: a cache file's are checked at their ends only
      // (cache.ts), so a corrupt one gives a wrong slug at worst.
      const bytes = cols.slugBytes;
      const from = Math.min(cols.slugStarts[d], bytes.length);
      const to = Math.min(Math.max(cols.slugStarts[d + 1] - 1, from), bytes.length);
      s = slugs[d] = (d === 0 ? utf8 : utf8KeepingMarks).decode(bytes.subarray(from, to));
    }
    return s;
  }

  /** Document `d`'s description, or null. */
  descriptionOf(d: number): string | null {
    return this.cols !== undefined ? this.cols.descriptions[d] : this.list![d].description;
  }

  /** Document `d`'s token estimate (DocMeta.tokens), if known. */
  tokensOf(d: number): number | undefined {
    if (this.cols === undefined) return this.list![d].tokens;
    const t = this.cols.tokens[d];
    return t === NO_TOKENS ? undefined : t;
  }

  /** Document `d` whole (its title apart: `titleOf`). */
  doc(d: number): DocMeta {
    if (this.list !== undefined) return this.list[d];
    const facets = this.facetsOf(d);
    const meta: DocMeta = { path: this.pathOf(d), slug: this.slugOf(d), size: this.sizes[d], mtime: this.mtimes[d], kind: this.kinds[d], description: this.descriptionOf(d), tokens: this.tokensOf(d) };
    if (facets !== '') meta.facets = facets;
    return meta;
  }

  private facetList?: string[];

  /** Document `d`'s facets (DocMeta.facets), '' when none. */
  facetsOf(d: number): string {
    if (this.facetBytes === undefined) return this.list?.[d]?.facets ?? '';
    if (this.facetList === undefined) {
      const list = utf8.decode(this.facetBytes).split('\n');
      // A list of another length (a corrupt cache): no facets.
      this.facetList = list.length === this.count ? list : [];
    }
    return this.facetList[d] ?? '';
  }

  /** Every document whole (made from the columns on the first call): for
   *  what copies the whole index (the cache's writing, an update). */
  get docs(): DocMeta[] {
    if (this.list === undefined) {
      const n = this.count;
      const list: DocMeta[] = new Array(n);
      for (let d = 0; d < n; d++) list[d] = this.doc(d);
      this.list = list;
    }
    return this.list;
  }

  private titleList?: string[];

  /** Document `d`'s title (DocMeta.title), if it has one. */
  titleOf(d: number): string | undefined {
    if (this.titleBytes === undefined) return this.list?.[d]?.title;
    if (this.titleList === undefined) {
      const list = utf8.decode(this.titleBytes).split('\n');
      // A list of another length (a corrupt cache): no titles.
      this.titleList = list.length === this.count ? list : [];
    }
    const t = this.titleList[d];
    return t === undefined || t === '' ? undefined : t.length > MAX_TITLE ? t.slice(0, MAX_TITLE) : t;
  }

  /** Text documents (the others are never results nor counted). */
  readonly texts: number;
  /** Per field, the sum of the text documents' lengths. */
  readonly sums: number[];

  get termCount(): number {
    return this.df.length;
  }

  /** Term `i`'s document frequency, at most the text documents' count (a
   *  term is in those only; a cache file's frequencies are not checked one
   *  by one when it is read: cache.ts). */
  dfAt(i: number): number {
    return Math.min(this.dfOf(i), this.texts);
  }

  /** Term `i`'s document frequency as the index holds it. */
  dfOf(i: number): number {
    if (this.dict !== undefined) this.ensure(this.df.byteOffset + 4 * i, this.df.byteOffset + 4 * i + 4);
    return this.df[i];
  }

  term(i: number): string {
    const [a, b] = this.termBytesAt(i);
    return utf8KeepingMarks.decode(this.terms.subarray(a, b));
  }

  /** Term `i`'s bytes in `terms`: [start, end), in memory; its offsets
   *  clamped (a corrupt cache file's are not trusted: cache.ts). */
  private termBytesAt(i: number): [number, number] {
    const s = this.termStarts;
    if (this.dict !== undefined) this.ensure(s.byteOffset + 4 * i, s.byteOffset + 4 * i + 8);
    const n = this.terms.length;
    const b = Math.min(s[i + 1], n);
    const a = Math.min(s[i], b);
    if (this.dict !== undefined) this.ensure(this.terms.byteOffset + a, this.terms.byteOffset + b);
    return [a, b];
  }

  /** Where the term dictionary not read yet comes from (a large cached
   *  index: cache.ts), and which of its pages are read (1). */
  private dict?: { source: DictSource; base: number; end: number; pages: Uint8Array };

  /** Tells the index that its term dictionary (`df`, `termStarts`,
   *  `postStarts` and `terms`, in the buffer bytes [base, end) of the
   *  cache file's layout) is not read yet: a search reads the pages of it
   *  it touches (a binary search for each of its words, their
   *  expansions' runs), where reading all of it took about 2 ms and 570
   *  fresh pages of a warm search of 99,000 terms. A typo's walk, and a
   *  copy of the whole index, read the rest first. */
  readDictLazily(source: DictSource, base: number, end: number): void {
    const from = base - (base % DICT_PAGE);
    this.dict = { source, base: from, end, pages: new Uint8Array(Math.ceil((end - from) / DICT_PAGE)) };
  }

  /** Reads bytes [from, to) of the buffer's dictionary, the pages of it
   *  not read yet, each run of them at once. */
  private ensure(from: number, to: number): void {
    const d = this.dict!;
    const a = Math.max(from, d.base);
    const b = Math.min(to, d.end);
    if (a >= b) return;
    const pages = d.pages;
    const last = Math.floor((b - 1 - d.base) / DICT_PAGE);
    for (let p = Math.floor((a - d.base) / DICT_PAGE); p <= last; p++) {
      if (pages[p] === 1) continue;
      let q = p;
      while (q < last && pages[q + 1] === 0) q++;
      d.source.read(d.base + p * DICT_PAGE, Math.min(d.end, d.base + (q + 1) * DICT_PAGE));
      pages.fill(1, p, q + 1);
      p = q;
    }
  }

  /** How many pages of a dictionary read lazily are read, of how many
   *  (undefined: none is read lazily, or all of it is). */
  dictPages(): { read: number; all: number } | undefined {
    const d = this.dict;
    if (d === undefined) return undefined;
    let read = 0;
    for (let p = 0; p < d.pages.length; p++) read += d.pages[p];
    return { read, all: d.pages.length };
  }

  /** Reads the whole dictionary, when it is not yet. */
  private readDict(): void {
    const d = this.dict;
    if (d === undefined) return;
    this.ensure(d.base, d.end);
    this.dict = undefined;
  }


  /** Term `i`'s postings: [start, end) in `post`, clamped (a corrupt
   *  cache file's offsets are not trusted: cache.ts), read first when
   *  they are not yet. (Not private: PostingsPatch reads it.) */
  postRange(i: number): [number, number] {
    if (this.dict !== undefined) this.ensure(this.postStarts.byteOffset + 4 * i, this.postStarts.byteOffset + 4 * i + 8);
    const end = Math.min(this.postStarts[i + 1], this.post.length);
    const start = Math.min(this.postStarts[i], end);
    const unread = this.unread;
    if (unread !== undefined && unread[i] === 1) {
      unread[i] = 0;
      if (end > start) this.source!.read(this.post, start, end);
    }
    return [start, end];
  }

  /** Where the postings not yet in `post` come from, and which terms'
   *  are not (1 per term not read). */
  private source?: PostingsSource;
  private unread?: Uint8Array;

  /** Tells the index that `post` is not filled yet: each term's postings
   *  are read from `source` when a query first needs them (cache.ts: a
   *  search reads the postings of its few terms, not 4.5 MB of them). */
  readLazily(source: PostingsSource): void {
    this.source = source;
    this.unread = new Uint8Array(this.df.length).fill(1);
  }

  /** Reads every posting not read yet: before the index is copied whole
   *  (written to the cache, patched, carried over). */
  readAll(): void {
    this.readDict();
    if (this.unread === undefined) return;
    this.source!.read(this.post, 0, this.post.length);
    this.unread = undefined;
  }

  /** Lets go of the file the postings are read from (a postings read
   *  after it throws); nothing for an index held in memory. */
  release(): void {
    this.source?.close();
  }

  /** The first term index whose bytes are `q` (UTF-8) or more, in sort
   *  order (the terms' order as strings: no term holds a surrogate,
   *  tokenize.ts, and for such text UTF-8's byte order is the order of
   *  its UTF-16 code units). */
  private lowerBound(q: Uint8Array): number {
    let lo = 0;
    let hi = this.df.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareTerm(mid, q) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Term `i` against `q` (UTF-8): negative, 0 or positive as it sorts
   *  before, equals or sorts after it; `prefix`: 0 also when `q` is a
   *  prefix of it. Its offsets clamped (a corrupt cache file's are not
   *  trusted: cache.ts). */
  private compareTerm(i: number, q: Uint8Array, prefix = false): number {
    const [a, b] = this.termBytesAt(i);
    const end = prefix && b - a > q.length ? a + q.length : b;
    // One native call on a view of the term (a Buffer over `terms`, and its
    // `compare` with offsets, cost a search about half a millisecond the
    // first time each is used: they are the runtime's own JavaScript).
    return Buffer.compare(this.terms.subarray(a, end), q);
  }

  /** The index of term `t`, or -1. */
  find(t: string): number {
    const known = this.known.get(t);
    if (known !== undefined) return known;
    const i = this.findBytes(utf8Encoder.encode(t));
    if (i >= 0) this.remember(t, i);
    return i;
  }

  /** Keeps term `i` as `t` for `find`: a few thousand at most (an index
   *  kept between searches by a long-lived front end meets more). */
  private remember(t: string, i: number): void {
    if (this.known.size >= KNOWN_TERMS) this.known.clear();
    this.known.set(t, i);
  }

  /** Terms this index gave out (a prefix's or a typo's expansions, found
   *  terms), by text: a query ranks by each of them again (`score`), and
   *  finds it here without a binary search of the terms' bytes. */
  private readonly known = new Map<string, number>();

  /** Term `i`'s text, remembered for `find` (a prefix's or a typo's
   *  expansion: NearWalk gives them out too). */
  termFound(i: number): string {
    const t = this.term(i);
    this.remember(t, i);
    return t;
  }

  private findBytes(q: Uint8Array): number {
    const i = this.lowerBound(q);
    return this.isTermAt(i, q) ? i : -1;
  }

  /** Whether term `i` (a lower bound: maybe past the last) is `q`. */
  private isTermAt(i: number, q: Uint8Array): boolean {
    return i < this.df.length && this.compareTerm(i, q) === 0;
  }

  /** Calls `each(doc, fieldTfs)` for every posting of term `i`. */
  postings(i: number, each: (doc: number, tf: Uint8Array) => void): void {
    const p = this.post;
    const tf = new Uint8Array(NFIELDS);
    let [k, end] = this.postRange(i);
    let doc = 0;
    while (k < end) {
      doc += gapAt(p, k);
      k = gapEnd;
      if (doc >= this.count) return; // a corrupt file: no further
      const mask = p[k++];
      for (let f = 0; f < NFIELDS; f++) tf[f] = mask & (1 << f) ? p[k++] : 0;
      each(doc, tf);
    }
  }

  /** A term's inverse document frequency (0 for an unknown term). */
  idf(t: string): number {
    const i = this.find(t);
    if (i < 0) return 0;
    const df = this.dfAt(i);
    return Math.log(1 + (this.texts - df + 0.5) / (df + 0.5));
  }

  /** Calls `each(term, df)` for every term longer than `q` that starts
 *  with it. */
  withPrefix(q: string, each: (term: string, df: number) => void): void {
    const bytes = utf8Encoder.encode(q);
    // Past `q` itself, when it is a term.
    const first = this.lowerBound(bytes);
    const from = this.isTermAt(first, bytes) ? first + 1 : first;
    // The terms that start with `q` are a run from `from` on: its end is
    // found by a search that gallops from there, then halves (a run is
    // short: the pages of the dictionary it reads are the run's own), and
    // the run's text decoded at once.
    const n = this.df.length;
    let lo = from;
    let hi = from;
    for (let step = 1; hi < n && this.compareTerm(hi, bytes, true) === 0; step *= 2) {
      lo = hi + 1;
      hi = lo + step;
    }
    if (hi > n) hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareTerm(mid, bytes, true) === 0) lo = mid + 1;
      else hi = mid;
    }
    this.termsIn(from, lo, (t, i) => {
      this.remember(t, i);
      each(t, this.dfOf(i));
    });
  }

  /** Calls `each(text, i)` for terms [from, to) in order. Their bytes are
   *  decoded in one call: where that gives as many characters as bytes
   *  (ASCII: nearly always), each term is a slice of it; else each term is
   *  decoded on its own. */
  private termsIn(from: number, to: number, each: (term: string, i: number) => void): void {
    if (from >= to) return;
    const n = this.terms.length;
    const s = this.termStarts;
    if (this.dict !== undefined) {
      this.ensure(s.byteOffset + 4 * from, s.byteOffset + 4 * to + 4);
      this.ensure(this.terms.byteOffset + Math.min(s[from], n), this.terms.byteOffset + Math.min(s[to], n));
    }
    const a = Math.min(s[from], n);
    const b = Math.min(s[to], n);
    const text = b > a ? utf8KeepingMarks.decode(this.terms.subarray(a, b)) : '';
    let ascii = text.length === b - a;
    for (let i = from; i < to && ascii; i++) ascii = s[i] >= a && s[i] <= s[i + 1] && s[i + 1] <= b;
    for (let i = from; i < to; i++) each(ascii ? text.slice(s[i] - a, s[i + 1] - a) : this.term(i), i);
  }

  /** Calls `each(term, distance, df)` for every term one typo from `q`
   *  (two from eight letters), in term order.
   *
   *  The sorted terms are walked as a trie: the terms that share a prefix
   *  are one range, split by their next character with binary searches,
   *  and each prefix carries its row of the edit-distance table. A row
   *  with no cell within the bound ends the walk there, the whole range
   *  passed over (no longer term can come back within it); a row whose
   *  least cell is at the bound lets only a few next characters on (the
   *  query's, near that position), and only those are looked up. On the
   *  benchmark's 77,621 terms, "architecture" reaches about 400 prefixes
   *  and "confg" about 70, where a scan tested every term. */
  near(q: string, each: (term: string, d: number, df: number) => void): void {
    const m = q.length;
    const max = m >= 8 ? 2 : 1;
    // A walk reads ranges of the terms all over (about 400 prefixes for
    // a word of twelve letters): the dictionary is read first.
    this.readDict();
    const w = new NearWalk(this, q, max, each);
    w.visit(0, this.df.length, 0, -1, 0);
  }

  /** Ranks the text documents for `queryTerms` (already through
   *  tokenize.ts `queryTerms`) in this index alone. */
  query(queryTerms: readonly string[], opts: QueryOptions = {}): QueryResult {
    const plan = planQuery([this], queryTerms, opts);
    return { ...this.run(plan, opts), unknown: plan.unknown, corrected: plan.corrected };
  }

  /** Ranks the text documents for `plan` (planQuery, over this index and
   *  any searched with it): BM25 per field, weighted, summed over the
   *  query's terms; a query term's best expansion counts per document. */
  run(plan: QueryPlan, opts: QueryOptions = {}): Omit<QueryResult, 'unknown' | 'corrected'> {
    const r = new Ranking(this.count);
    for (const expansions of plan.terms) {
      for (const [term, idf] of expansions) this.score(r, term, idf, plan.avg);
      r.fold();
    }
    const top = new TopHits(this, opts);
    top.add(r.total, 0, this.count);
    return top.result(r.matched);
  }

  /** `run` in steps, for a front end that must stay responsive while it
   *  ranks (shared/pace.ts): `pace` is called before each expansion's
   *  postings and each block of documents collected; it may await a turn,
   *  or throw (the search was cancelled: the ranking stops there). The
   *  same result as `run`. */
  async runPaced(plan: QueryPlan, opts: QueryOptions, pace: Pace): Promise<Omit<QueryResult, 'unknown' | 'corrected'>> {
    const r = new Ranking(this.count);
    for (const expansions of plan.terms) {
      for (const [term, idf] of expansions) {
        const turn = pace();
        if (turn !== undefined) await turn;
        this.score(r, term, idf, plan.avg);
      }
      r.fold();
    }
    const top = new TopHits(this, opts);
    for (let d = 0; d < this.count; d += COLLECT_STEP) {
      const turn = pace();
      if (turn !== undefined) await turn;
      top.add(r.total, d, Math.min(this.count, d + COLLECT_STEP));
    }
    return top.result(r.matched);
  }

  /** Scores the postings of index term `term` (one expansion of a query
   *  term, weighing `idf`) into `r.best`: BM25 per field, weighted; a
   *  document keeps its best expansion. */
  private score(r: Ranking, term: string, idf: number, avg: readonly number[]): void {
    const i = this.find(term);
    if (i < 0) return;
    r.matched.add(term);
    const n = this.count;
    const { weights, k1, b } = TUNING;
    const p = this.post;
    const lens = this.lens;
    const { best, touched } = r;
    // The postings, decoded inline (postings() does the same, with a
    // callback): this loop is most of a query's time.
    let [k, end] = this.postRange(i);
    let doc = 0;
    while (k < end) {
      // A gap below 128 (nearly every one in a term common enough to
      // make a query slow) is one byte: no loop, no power of two.
      let v = p[k++];
      if (v >= 0x80) {
        v &= 0x7f;
        let scale = 128;
        let byte: number;
        let shift = 7;
        do {
          byte = p[k++];
          v += (byte & 0x7f) * scale;
          scale *= 128;
          shift += 7;
        } while (byte & 0x80 && shift < 35);
      }
      doc += v;
      if (doc >= n) break; // a corrupt file: no further
      const mask = p[k++];
      let s = 0;
      const base = doc * NFIELDS;
      for (let f = 0; f < NFIELDS; f++) {
        if ((mask & (1 << f)) === 0) continue;
        const x = p[k++];
        s += (weights[f] * (x * (k1 + 1))) / (x + k1 * (1 - b + (b * lens[base + f]) / avg[f]));
      }
      s *= idf;
      if (best[doc] === 0) touched.push(doc);
      if (s > best[doc]) best[doc] = s;
    }
  }

  /**
   * This index with the documents at `at` (ascending positions) replaced
   * by the documents of `fresh`, in order (an index of just those,
   * IndexBuilder.finish): the index a build from scratch of the whole
   * list would give, byte for byte, made without decoding and encoding
   * every posting again. A term's postings are copied as they are unless
   * they name a replaced document; only those, and the terms `fresh`
   * holds, are encoded again, and a term no document holds any more is
   * dropped. Titles come out as the documents' own (DocMeta.title).
   */
  patched(at: readonly number[], fresh: SearchIndex): SearchIndex {
    this.readAll();
    const replaced = new Int32Array(this.count).fill(-1);
    for (let j = 0; j < at.length; j++) replaced[at[j]] = j;
    const docs = this.docs.map((d, i) => {
      const j = replaced[i];
      if (j >= 0) return fresh.docs[j];
      const title = this.titleOf(i);
      const { title: _, ...rest } = d;
      return title === undefined ? rest : { ...rest, title };
    });
    const lens = this.lens.slice();
    for (let j = 0; j < at.length; j++) for (let f = 0; f < NFIELDS; f++) lens[at[j] * NFIELDS + f] = fresh.lens[j * NFIELDS + f];
    const { words, df, postStarts, post } = new PostingsPatch(this, fresh, at, replaced).run();
    const { bytes, starts } = termBytes(words);
    return new SearchIndex(docs, lens, bytes, starts, Uint32Array.from(df), Uint32Array.from(postStarts), post.a.slice(0, post.n));
  }

  /** Every document's terms and packed frequencies (to carry unchanged
   *  documents over into a new index), for the documents `want` selects. */
  uninvert(want: (doc: number) => boolean): Map<number, CountedDoc> {
    this.readAll();
    const out = new Map<number, CountedDoc>();
    // By document number too: one array look-up per posting.
    const byDoc: (CountedDoc | undefined)[] = new Array(this.count);
    for (let d = 0; d < this.count; d++) {
      if (!want(d)) continue;
      const lens: number[] = [];
      for (let f = 0; f < NFIELDS; f++) lens.push(this.lens[d * NFIELDS + f]);
      const c: CountedDoc = { lens, terms: [], packed: [] };
      out.set(d, c);
      byDoc[d] = c;
    }
    if (out.size === 0) return out;
    for (let i = 0; i < this.df.length; i++) {
      this.postings(i, (doc, tf) => {
        const c = byDoc[doc];
        if (c === undefined) return;
        c.terms.push(i);
        let v = 0;
        for (let f = 0; f < NFIELDS; f++) v += Math.min(tf[f], CAP[f]) * SHIFT[f];
        c.packed.push(v);
      });
    }
    return out;
  }
}

/** One `SearchIndex.near` walk: the query, its bound, and the rows of the
 *  edit-distance table (shared/edit-distance.ts `nextRow`: the query's
 *  characters are the columns, the prefix's the rows). The terms are read
 *  as UTF-8 (SearchIndex.terms): the terms of a range share their first
 *  `k` characters, and so the bytes of them (`b` of them), and each
 *  term's next character is decoded where those end (`charAt`). */
class NearWalk {
  private readonly m: number;
  /** Row k of the table, for the current prefix of k characters. */
  private readonly rows: Int32Array[] = [];
  /** By prefix length, the next characters looked up (`visit`). */
  private readonly cands: Int32Array[] = [];
  private readonly terms: Uint8Array;
  private readonly starts: Uint32Array;
  /** How many bytes the character `charAt` read last takes. */
  private width = 1;

  constructor(
    private readonly index: SearchIndex,
    private readonly q: string,
    private readonly max: number,
    private readonly each: (term: string, d: number, df: number) => void,
  ) {
    const m = q.length;
    this.m = m;
    // A term within the bound is at most m + max long: rows 0 to m + max.
    for (let k = 0; k <= m + max; k++) {
      this.rows.push(new Int32Array(m + 2));
      this.cands.push(new Int32Array(2 * max + 1));
    }
    firstRow(this.rows[0], m, max);
    this.terms = index.terms;
    this.starts = index.termStarts;
  }

  /** Term `j`'s length in bytes (its offsets clamped to the terms: a
   *  corrupt cache file's are not trusted). */
  private bytesOf(j: number): number {
    const n = this.terms.length;
    const e = Math.min(this.starts[j + 1], n);
    return e - Math.min(this.starts[j], e);
  }

  /** Term `j`'s character after its first `b` bytes, -1 past its end (so
   *  that a term sorts before those it starts); its width in bytes goes to
   *  `width`. A byte that starts no character of valid UTF-8 (a corrupt
   *  cache file) is read as one character of its own, above every real
   *  one. */
  private charAt(j: number, b: number): number {
    const t = this.terms;
    const len = this.bytesOf(j);
    if (len <= b) return -1;
    const p = Math.min(this.starts[j], t.length) + b;
    const x = t[p];
    this.width = 1;
    if (x < 0x80) return x;
    const left = len - b;
    if (x >= 0xc2 && x < 0xe0 && left >= 2 && (t[p + 1] & 0xc0) === 0x80) {
      this.width = 2;
      return ((x & 0x1f) << 6) | (t[p + 1] & 0x3f);
    }
    if (x >= 0xe0 && x < 0xf0 && left >= 3 && (t[p + 1] & 0xc0) === 0x80 && (t[p + 2] & 0xc0) === 0x80) {
      const c = ((x & 0x0f) << 12) | ((t[p + 1] & 0x3f) << 6) | (t[p + 2] & 0x3f);
      if (c >= 0x800) {
        this.width = 3;
        return c;
      }
    }
    return 0x110000 + x;
  }

  /** `charAt`, an ASCII character read without a further call. */
  private code(j: number, b: number): number {
    const { starts, terms } = this;
    const at = starts[j] + b;
    if (at < starts[j + 1] && starts[j + 1] <= terms.length) {
      const x = terms[at];
      if (x < 0x80) {
        this.width = 1;
        return x;
      }
    }
    return this.charAt(j, b);
  }

  /** The first term in [lo, hi) whose character after its first `b` bytes
   *  is `c` or more (the range shares those bytes, so it is sorted by
   *  it). */
  private lowerBound(lo: number, hi: number, b: number, c: number): number {
    // (An ASCII character read here: a cold process runs this in its
    // interpreter, where a call costs more than the rest.)
    const { starts, terms } = this;
    const n = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = starts[mid] + b;
      const x = at < starts[mid + 1] && starts[mid + 1] <= n ? terms[at] : 0x80;
      if ((x < 0x80 ? x : this.charAt(mid, b)) < c) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Visits the terms [lo, hi), which share their first `k` characters,
   *  `b` bytes (the last of them `last`, -1 for none) and so row `k`,
   *  whose least cell is `best` (at most max). */
  visit(lo: number, hi: number, k: number, last: number, best: number, b = 0): void {
    const { m, max, q, rows } = this;
    const row = rows[k];
    // The prefix itself, when it is a term, sorts first (a term's
    // character past its end is read as -1, so that it sorts before
    // those it starts).
    const first = lo < hi ? this.bytesOf(lo) : 0;
    if (lo < hi && first <= b) {
      if (first === b && k >= m - max && row[m] <= max) {
        this.each(this.index.termFound(lo), row[m], this.index.dfOf(lo));
      }
      lo++;
    }
    if (lo >= hi || k >= m + max) return;
    const next = rows[k + 1];
    const prev = k > 0 ? rows[k - 1] : row;
    if (best < max) {
      // Every next character keeps a cell within the bound (one more than
      // the least): each is visited.
      while (lo < hi) {
        const c = this.code(lo, b);
        const w = this.width;
        // The run of terms with c there ends at the first with more.
        const end = this.lowerBound(lo + 1, hi, b, c + 1);
        // (-1: a term shorter than the prefix, out of order in a corrupt file.)
        if (c >= 0) {
          const d = nextRow(next, row, prev, k + 1, c, last, q, 0, m, max);
          if (d <= max) this.visit(lo, end, k + 1, c, d, b + w);
        }
        lo = end;
      }
      return;
    }
    // Every cell is max or more (k >= 1): a cell of row k + 1 stays within
    // the bound only by a match of q[j] after row k's cell j at max, or by
    // a swap of q[j] after row k - 1's cell j below max, where row k's cell
    // j (one deletion on) is at max too. Those few next characters are
    // looked up, in order.
    const cands = this.cands[k];
    let n = 0;
    for (let j = Math.max(0, k - max), to = Math.min(m - 1, k + max); j <= to; j++) {
      if (row[j] <= max) n = insert(cands, n, q.charCodeAt(j));
    }
    for (let x = 0; x < n && lo < hi; x++) {
      const c = cands[x];
      lo = this.lowerBound(lo, hi, b, c);
      if (lo >= hi) return;
      if (this.code(lo, b) !== c) continue;
      const w = this.width;
      const end = this.lowerBound(lo + 1, hi, b, c + 1);
      const d = nextRow(next, row, prev, k + 1, c, last, q, 0, m, max);
      if (d <= max) this.visit(lo, end, k + 1, c, d, b + w);
      lo = end;
    }
  }
}

/** Adds `c` to the `n` sorted distinct values at the start of `into`;
 *  returns how many there are then. */
function insert(into: Int32Array, n: number, c: number): number {
  let i = n;
  while (i > 0 && into[i - 1] > c) i--;
  if (i > 0 && into[i - 1] === c) return n;
  into.copyWithin(i + 1, i, n);
  into[i] = c;
  return n + 1;
}

/** Documents collected into the best hits between two steps of a paced
 *  ranking (SearchIndex.runPaced). */
const COLLECT_STEP = 16_384;

/** The scores of a ranking under way: per document, its total so far and
 *  its best expansion of the query term at hand (and which documents have
 *  one), and the index terms that counted. */
class Ranking {
  readonly total: Float64Array;
  readonly best: Float64Array;
  readonly touched: number[] = [];
  readonly matched = new Set<string>();

  constructor(n: number) {
    this.total = new Float64Array(n);
    this.best = new Float64Array(n);
  }

  /** A query term's expansions are all scored: each document's best one
   *  joins its total. */
  fold(): void {
    const { total, best, touched } = this;
    for (const doc of touched) {
      total[doc] += best[doc];
      best[doc] = 0;
    }
    touched.length = 0;
  }
}

/** The best `top` hits (a bounded min-heap), or all, by score then slug,
 *  collected a block of documents at a time. */
class TopHits {
  private readonly heap: Hit[] = [];
  private count = 0;
  private readonly top: number;
  private readonly better: (a: Hit, c: Hit) => boolean;

  constructor(
    private readonly index: SearchIndex,
    private readonly opts: QueryOptions,
  ) {
    this.top = opts.top ?? index.count;
    this.better = (a, c) => a.score > c.score || (a.score === c.score && index.slugOf(a.doc) < index.slugOf(c.doc));
  }

  /** The text documents [from, to) with a score, not excluded. */
  add(total: Float64Array, from: number, to: number): void {
    const { heap, top, better } = this;
    const kinds = this.index.kinds;
    const exclude = this.opts.exclude;
    for (let d = from; d < to; d++) {
      if (total[d] <= 0 || kinds[d] !== KIND_TEXT || (exclude?.(d) ?? false)) continue;
      this.count++;
      // Below the worst of a full heap: not better, whatever its slug (no
      // hit made for it: most documents of a broad query).
      if (heap.length === top && (top === 0 || total[d] < heap[0].score)) continue;
      const h = { doc: d, score: total[d] };
      if (heap.length < top) {
        heap.push(h);
        let c = heap.length - 1;
        while (c > 0) {
          const parent = (c - 1) >> 1;
          if (!better(heap[parent], heap[c])) break;
          [heap[parent], heap[c]] = [heap[c], heap[parent]];
          c = parent;
        }
      } else if (top > 0 && better(h, heap[0])) {
        heap[0] = h;
        let c = 0;
        for (;;) {
          const l = 2 * c + 1;
          const r = l + 1;
          let m = c;
          if (l < heap.length && better(heap[m], heap[l])) m = l;
          if (r < heap.length && better(heap[m], heap[r])) m = r;
          if (m === c) break;
          [heap[m], heap[c]] = [heap[c], heap[m]];
          c = m;
        }
      }
    }
  }

  /** The hits, best first, how many documents matched, and the terms. */
  result(matched: Set<string>): Omit<QueryResult, 'unknown' | 'corrected'> {
    const { heap, better } = this;
    heap.sort((a, c) => (better(a, c) ? -1 : better(c, a) ? 1 : 0));
    return { hits: heap, total: this.count, matched };
  }
}

/** The postings of a patched index (SearchIndex.patched): the old index's
 *  term list and the fresh one's, merged in code-unit order (as finish
 *  sorts). A term's postings are copied as they are unless they name a
 *  replaced document; only those, and the terms `fresh` holds, are encoded
 *  again, and a term no document holds any more is dropped. */
class PostingsPatch {
  readonly post = new ByteList();
  readonly words: string[] = [];
  readonly df: number[] = [];
  readonly postStarts: number[] = [];
  private readonly n: number;
  /** In the term being merged: the document of the posting written last,
   *  and how many postings were written. */
  private last = 0;
  private count = 0;

  constructor(
    private readonly old: SearchIndex,
    private readonly fresh: SearchIndex,
    /** The replaced documents' positions, ascending. */
    private readonly at: readonly number[],
    /** By old document: its place in `at`, or -1 when it is kept. */
    private readonly replaced: Int32Array,
  ) {
    this.n = old.count;
  }

  run(): this {
    let i = 0;
    let k = 0;
    const nOld = this.old.df.length;
    const nFresh = this.fresh.df.length;
    while (i < nOld || k < nFresh) {
      const a = i < nOld ? this.old.term(i) : undefined;
      const b = k < nFresh ? this.fresh.term(k) : undefined;
      if (b === undefined || (a !== undefined && a < b)) this.add(a!, i++, -1);
      else if (a === undefined || b < a) this.add(b, -1, k++);
      else this.add(a, i++, k++);
    }
    this.postStarts.push(this.post.n);
    return this;
  }

  /** Copies `src[from, to)` onto `post`. */
  private copy(src: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    const post = this.post;
    post.room(to - from);
    post.a.set(src.subarray(from, to), post.n);
    post.n += to - from;
  }

  /** Term `word`: old term `i` (-1: none), fresh term `k` (-1: none). */
  private add(word: string, i: number, k: number): void {
    const start = this.post.n;
    let count: number;
    if (k < 0 && !this.touches(i)) {
      // Untouched: its bytes as they are (deltas are within the list).
      const [from, to] = this.old.postRange(i);
      this.copy(this.old.post, from, to);
      count = this.old.df[i];
    } else count = this.merge(i, k);
    if (count === 0) {
      this.post.n = start;
      return;
    }
    this.words.push(word);
    this.df.push(count);
    this.postStarts.push(start);
  }

  /** Whether old term `i`'s postings name a replaced document (their
   *  documents read, their frequencies skipped). */
  private touches(i: number): boolean {
    const p = this.old.post;
    let [x, end] = this.old.postRange(i);
    let doc = 0;
    while (x < end) {
      doc += gapAt(p, x);
      if (doc >= this.n) return false;
      if (this.replaced[doc] >= 0) return true;
      x = frequenciesEnd(p, gapEnd);
    }
    return false;
  }

  /** Old term `i`'s postings without the replaced documents, and fresh
   *  term `k`'s (its documents at their places), merged in document order
   *  onto `post`, each posting's frequencies copied as their bytes and
   *  runs of old postings whose delta still holds copied whole; returns
   *  how many postings there are. */
  private merge(i: number, k: number): number {
    this.last = 0;
    this.count = 0;
    const fresh = new FreshPostings(this.fresh.post, k >= 0 ? this.fresh.postRange(k) : [0, 0], this.at);
    if (i >= 0) this.mergeOld(i, fresh);
    while (fresh.doc >= 0) this.writeFresh(fresh);
    return this.count;
  }

  /** Old term `i`'s kept postings, with the fresh ones that come before
   *  each written first. */
  private mergeOld(i: number, fresh: FreshPostings): void {
    const p = this.old.post;
    let [x, end] = this.old.postRange(i);
    let prev = 0; // the old posting before this one
    let run = -1; // where a run of old postings copied as they are starts
    while (x < end) {
      const start = x;
      const d = prev + gapAt(p, x);
      if (d >= this.n) break; // a corrupt list: no further
      const tfFrom = gapEnd;
      x = frequenciesEnd(p, tfFrom);
      if (fresh.doc >= 0 && fresh.doc < d) {
        if (run >= 0) this.copy(p, run, start);
        run = -1;
        while (fresh.doc >= 0 && fresh.doc < d) this.writeFresh(fresh);
      }
      if (this.replaced[d] >= 0) {
        if (run >= 0) this.copy(p, run, start);
        run = -1;
      } else if (run >= 0) {
        this.last = d;
        this.count++;
      } else if (this.last === prev) {
        run = start;
        this.last = d;
        this.count++;
      } else {
        this.post.varint(d - this.last);
        this.copy(p, tfFrom, x);
        this.last = d;
        this.count++;
      }
      prev = d;
    }
    if (run >= 0) this.copy(p, run, x);
  }

  /** Writes the fresh posting at hand, and moves to the next. */
  private writeFresh(fresh: FreshPostings): void {
    this.post.varint(fresh.doc - this.last);
    this.copy(this.fresh.post, fresh.from, fresh.to);
    this.last = fresh.doc;
    this.count++;
    fresh.next();
  }
}

/** A fresh term's postings, in order: each one's document (its place in
 *  the patched index; -1 past the last) and its frequencies' bytes. */
class FreshPostings {
  doc = -1;
  from = 0;
  to = 0;
  private x: number;
  private readonly end: number;
  private prev = 0;

  constructor(
    private readonly p: Uint8Array,
    range: readonly [number, number],
    private readonly at: readonly number[],
  ) {
    [this.x, this.end] = range;
    this.next();
  }

  next(): void {
    if (this.x >= this.end) {
      this.doc = -1;
      return;
    }
    this.prev += gapAt(this.p, this.x);
    this.doc = this.prev < this.at.length ? this.at[this.prev] : -1;
    this.from = gapEnd;
    this.to = this.x = frequenciesEnd(this.p, this.from);
    if (this.doc < 0) this.x = this.end; // a corrupt list: no further
  }
}
