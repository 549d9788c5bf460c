// When two texts say the same thing: the duplicate rules of `kb remember`
// (docs/search-and-memory.md, "Remembering"). Pure (no I/O).
//
// - Exact duplicates: equal after Unicode normalisation (NFKC), lower-casing
//   and collapsing every run of white space; leading and trailing space
//   does not count.
// - Near duplicates and updates: the cosine of the two texts' term
//   vectors (the search index's terms: lower-cased words, function words
//   dropped, light suffix stripping; text without spaces as its
//   characters and pairs of characters), each term weighted 1 + ln(count),
//   of at least NEAR_THRESHOLD (calibrated on paraphrase pairs written
//   about a real docs folder: scripts/dedup-calibration.ts), then what
//   differs: values, names, new words, the order of the words (facts.ts;
//   measured on labelled pairs: scripts/dedup-pairs.ts).

import { terms } from '../search/tokenize.ts';
import { compareFacts, factOf, NEAR_THRESHOLD, type Fact } from './facts.ts';

export { NEAR_THRESHOLD } from './facts.ts';

/** Terms compared at most per text (bounded work on a huge subject). */
const MAX_TERMS = 20_000;

/** The text as the exact-duplicate rule sees it. */
export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** A text's weighted term vector, unit length. */
export interface Profile {
  readonly weights: ReadonlyMap<string, number>;
}

export function profile(text: string): Profile {
  const ts = terms(text.length > MAX_TERMS * 16 ? text.slice(0, MAX_TERMS * 16) : text).slice(0, MAX_TERMS);
  const counts = new Map<string, number>();
  const add = (k: string, w: number) => counts.set(k, (counts.get(k) ?? 0) + w);
  for (const t of ts) add(t, 1);
  const weights = new Map<string, number>();
  let sum = 0;
  for (const [k, n] of counts) {
    const w = 1 + Math.log(n);
    weights.set(k, w);
    sum += w * w;
  }
  const norm = Math.sqrt(sum);
  if (norm > 0) for (const [k, w] of weights) weights.set(k, w / norm);
  return { weights };
}

/** Cosine similarity of two profiles: 0 (nothing shared) to 1. */
export function similarity(a: Profile, b: Profile): number {
  const [small, large] = a.weights.size <= b.weights.size ? [a.weights, b.weights] : [b.weights, a.weights];
  let dot = 0;
  for (const [k, w] of small) {
    const v = large.get(k);
    if (v !== undefined) dot += w * v;
  }
  return Math.min(1, dot);
}

/** How a new text relates to an existing one: the same text (`exact`),
 *  the same fact (`duplicate`), a new version of it (`update`: `was` and
 *  `now` are the values that changed), or another fact. */
export interface Judgement {
  kind: 'exact' | 'duplicate' | 'update' | 'distinct';
  similarity: number;
  was?: string[];
  now?: string[];
}

/** A text as judge() compares it, made once (a text compared with many). */
export interface Compared {
  readonly normal: string;
  readonly profile: Profile;
  readonly fact: Fact;
}

export function compared(text: string): Compared {
  const bounded = text.length > MAX_TERMS * 16 ? text.slice(0, MAX_TERMS * 16) : text;
  return { normal: normalise(text), profile: profile(text), fact: factOf(bounded) };
}

/** How `b` relates to `a` (the rules: facts.ts). */
export function judge(a: Compared, b: Compared): Judgement {
  const sim = similarity(a.profile, b.profile);
  if (a.normal === b.normal) return { kind: 'exact', similarity: 1 };
  return { ...compareFacts(a.fact, b.fact, sim), similarity: sim };
}

/** A file's YAML frontmatter (a `---` line, then lines up to a closing
 *  `---` or `...` line; undefined when there is none) and its text after. */
export function splitFrontmatter(text: string): { front?: string; body: string } {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const m = /^---[ \t]*\r?\n/.exec(t);
  if (m === null) return { body: t };
  const close = /^(?:---|\.\.\.)[ \t]*$/m;
  const rest = t.slice(m[0].length);
  const c = close.exec(rest);
  if (c === null) return { body: t };
  const after = rest.slice(c.index + c[0].length);
  return { front: rest.slice(0, c.index), body: after.replace(/^\r?\n/, '') };
}

/** A file's text without its YAML frontmatter, as duplicates are
 *  compared. */
export function bodyOf(text: string): string {
  return splitFrontmatter(text).body;
}

/** Obsidian's embeds, `![[note]]` and `![[note#heading|alias]]`: another
 *  note's text shown in place, not this note's (on one line). */
const EMBED = /!\[\[[^\]\n]*\]\]/g;

/** A subject's text as `kb check` compares it for near duplicates: its
 *  frontmatter and embeds do not count. */
export function comparedText(text: string): string {
  const body = bodyOf(text);
  return body.includes('![[') ? body.replace(EMBED, ' ') : body;
}

/** A line found in this many compared texts or more is a template's (a
 *  heading, a question, a field every note made from one template
 *  repeats): it is not the note's own text. Two texts alike share lines
 *  too: a pair never makes a line a template's. */
export const TEMPLATE_LINE_TEXTS = 3;
/** Longer lines are never counted as a template's (bounded work). */
const TEMPLATE_LINE_MAX = 200;

/** A line as template lines are compared: trimmed, lower-cased; '' for
 *  a blank or too long line. */
function lineKey(line: string): string {
  const t = line.trim();
  return t.length > TEMPLATE_LINE_MAX ? '' : t.toLowerCase();
}

/** The lines found in at least TEMPLATE_LINE_TEXTS of `texts`. */
export function templateLines(texts: readonly string[]): ReadonlySet<string> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    const mine = new Set<string>();
    for (const line of text.split('\n')) {
      const k = lineKey(line);
      if (k !== '') mine.add(k);
    }
    for (const k of mine) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const out = new Set<string>();
  for (const [k, n] of counts) if (n >= TEMPLATE_LINE_TEXTS) out.add(k);
  return out;
}

/** `text` without the lines `templateLines` found. */
export function ownText(text: string, template: ReadonlySet<string>): string {
  if (template.size === 0) return text;
  return text
    .split('\n')
    .filter((line) => !template.has(lineKey(line)))
    .join('\n');
}

/** A text not written by kb with fewer terms than this, once its
 *  frontmatter, embeds and template lines are left out, is not compared
 *  by `kb check --duplicates`: a note made from a template and barely
 *  filled in says what its template says (docs/search-and-memory.md gives
 *  the measurement: scripts/duplicates-threshold.ts). */
export const MIN_COMPARED_TERMS = 8;

/** How many terms `text` has (a compared text is at most PAIR_MAX_BYTES). */
export function termCount(text: string): number {
  return terms(text).length;
}

/** Subjects compared by nearPairs, at most this large (bytes). */
export const PAIR_MAX_BYTES = 64 * 1024;

/** A word found in more texts than this does not count towards their
 *  similarity in a pair search (as function words do not anywhere): it
 *  says little about two of them saying one thing (`x` and `y` in a folder
 *  of formulas, a product's name in its documentation). */
export const PAIR_MAX_DF = 200;

/** The work of a pair search, at most: products of two subjects' weights
 *  of a shared word added up (a word in d subjects costs d(d-1)/2). The
 *  words in the fewest subjects are taken first; the others are left out
 *  (said: `NearPairs.leftOut`). About a second on this machine. */
export const PAIR_WORK = 40_000_000;
/** Pairs at least NEAR_THRESHOLD similar judged (facts.ts) at most; more
 *  are counted (`NearPairs.notJudged`). */
export const PAIR_CANDIDATES = 50_000;

/** Two texts found alike: indices (a < b), their similarity and how they
 *  relate (never `distinct`). */
export interface NearPair {
  a: number;
  b: number;
  similarity: number;
  judgement: Judgement;
}

export interface NearPairs {
  /** Duplicates (exact ones included) and updates, most similar first. */
  pairs: NearPair[];
  /** Words left out of the search to stay within PAIR_WORK (0: none),
   *  each found in `leftOutFrom` texts or more: pairs alike mostly by
   *  those words may be missed. */
  leftOut: number;
  leftOutFrom: number;
  /** Pairs found alike but not judged (over PAIR_CANDIDATES). */
  notJudged: number;
}

/** The texts' term vectors, side by side: text d's terms are
 *  `ids[start[d]..start[d + 1])`, their weights (unit length) in
 *  `weights`; `df[id]`: how many texts hold term `id`. */
interface Vectors {
  start: Int32Array;
  ids: Int32Array;
  weights: Float64Array;
  df: number[];
}

/** A text's terms as vectors and nearPairs count them (the first
 *  MAX_TERMS). */
export function textTerms(text: string): string[] {
  return terms(text.length > MAX_TERMS * 16 ? text.slice(0, MAX_TERMS * 16) : text).slice(0, MAX_TERMS);
}

function vectorsOf(texts: readonly string[], termsOf: (d: number) => readonly string[]): Vectors {
  const dict = new Map<string, number>();
  const df: number[] = [];
  const start = new Int32Array(texts.length + 1);
  let ids = new Int32Array(1 << 16);
  let weights = new Float64Array(1 << 16);
  let len = 0;
  const counts = new Map<number, number>();
  for (let d = 0; d < texts.length; d++) {
    counts.clear();
    for (const t of termsOf(d)) {
      let id = dict.get(t);
      if (id === undefined) {
        id = dict.size;
        dict.set(t, id);
        df.push(0);
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    if (len + counts.size > ids.length) {
      const size = Math.max(ids.length * 2, len + counts.size);
      const moreIds = new Int32Array(size);
      moreIds.set(ids.subarray(0, len));
      const moreWeights = new Float64Array(size);
      moreWeights.set(weights.subarray(0, len));
      ids = moreIds;
      weights = moreWeights;
    }
    let sum = 0;
    const from = len;
    for (const [id, n] of counts) {
      const w = 1 + Math.log(n);
      ids[len] = id;
      weights[len++] = w;
      sum += w * w;
      df[id]++;
    }
    const norm = Math.sqrt(sum);
    if (norm > 0) for (let k = from; k < len; k++) weights[k] /= norm;
    start[d + 1] = len;
  }
  return { start, ids, weights, df };
}

/** The terms a pair search uses: those in 2 to PAIR_MAX_DF texts, fewest
 *  texts first, while their work fits PAIR_WORK. */
function searchedTerms(df: readonly number[]): { used: Uint8Array; leftOut: number; leftOutFrom: number } {
  const order: number[] = [];
  for (let id = 0; id < df.length; id++) if (df[id] >= 2 && df[id] <= PAIR_MAX_DF) order.push(id);
  order.sort((x, y) => df[x] - df[y] || x - y);
  const used = new Uint8Array(df.length);
  let work = 0;
  for (let k = 0; k < order.length; k++) {
    const d = df[order[k]];
    const cost = (d * (d - 1)) / 2;
    if (work + cost > PAIR_WORK) return { used, leftOut: order.length - k, leftOutFrom: d };
    work += cost;
    used[order[k]] = 1;
  }
  return { used, leftOut: 0, leftOutFrom: 0 };
}

/** The pairs of texts whose cosine over the searched terms is at least
 *  `threshold`, found text by text (memory linear in the texts: one
 *  accumulator per text, reused), at most PAIR_CANDIDATES. */
function candidates(v: Vectors, used: Uint8Array, threshold: number): { a: number[]; b: number[]; dot: number[]; more: number } {
  const n = v.start.length - 1;
  // Postings of the searched terms, by text (texts in order).
  const postStart = new Int32Array(v.df.length + 1);
  for (let id = 0; id < v.df.length; id++) postStart[id + 1] = postStart[id] + (used[id] ? v.df[id] : 0);
  const fill = postStart.slice(0, v.df.length);
  const postDoc = new Int32Array(postStart[v.df.length]);
  const postW = new Float64Array(postStart[v.df.length]);
  for (let d = 0; d < n; d++) {
    for (let k = v.start[d]; k < v.start[d + 1]; k++) {
      const id = v.ids[k];
      if (!used[id]) continue;
      postDoc[fill[id]] = d;
      postW[fill[id]++] = v.weights[k];
    }
  }
  const seen = postStart.slice(0, v.df.length);
  const acc = new Float64Array(n);
  const touched = new Int32Array(n);
  const out = { a: [] as number[], b: [] as number[], dot: [] as number[], more: 0 };
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (let k = v.start[i]; k < v.start[i + 1]; k++) {
      const id = v.ids[k];
      if (!used[id]) continue;
      // This text's own posting; the texts after it follow.
      const w = v.weights[k];
      const end = postStart[id + 1];
      for (let p = ++seen[id]; p < end; p++) {
        const j = postDoc[p];
        if (acc[j] === 0) touched[count++] = j;
        acc[j] += w * postW[p];
      }
    }
    for (let t = 0; t < count; t++) {
      const j = touched[t];
      if (acc[j] >= threshold) {
        if (out.a.length < PAIR_CANDIDATES) {
          out.a.push(i);
          out.b.push(j);
          out.dot.push(acc[j]);
        } else out.more++;
      }
      acc[j] = 0;
    }
  }
  return out;
}

/** The cosine of texts `a` and `b` over the terms that count (in at most
 *  PAIR_MAX_DF texts). */
function cosine(v: Vectors, a: number, b: number): number {
  const mine = new Map<number, number>();
  for (let k = v.start[a]; k < v.start[a + 1]; k++) if (v.df[v.ids[k]] <= PAIR_MAX_DF) mine.set(v.ids[k], v.weights[k]);
  let dot = 0;
  for (let k = v.start[b]; k < v.start[b + 1]; k++) dot += (mine.get(v.ids[k]) ?? 0) * v.weights[k];
  return Math.min(1, dot);
}

/**
 * The pairs of `texts` (indices, a < b) that are duplicates or versions of
 * one fact (judge(), their cosine taken over the words in at most
 * PAIR_MAX_DF of them), most similar first. Bounded: PAIR_WORK products at
 * most, PAIR_CANDIDATES pairs judged, memory linear in the texts; what a
 * bound left out is counted in the result. Texts equal once normalised
 * are always found (the first with each of the others), whatever was
 * left out.
 */
export function nearPairs(texts: readonly string[], threshold = NEAR_THRESHOLD, termsOf: (d: number) => readonly string[] = (d) => textTerms(texts[d])): NearPairs {
  const v = vectorsOf(texts, termsOf);
  const { used, leftOut, leftOutFrom } = searchedTerms(v.df);
  const found = candidates(v, used, threshold);
  const made = new Map<number, Compared>();
  const side = (d: number): Compared => {
    let c = made.get(d);
    if (c === undefined) made.set(d, (c = { normal: normalise(texts[d]), profile: EMPTY, fact: factOf(texts[d].length > MAX_TERMS * 16 ? texts[d].slice(0, MAX_TERMS * 16) : texts[d]) }));
    return c;
  };
  const pairs: NearPair[] = [];
  const known = new Set<string>();
  const add = (a: number, b: number, sim: number) => {
    const x = side(a);
    const y = side(b);
    const judgement: Judgement = x.normal === y.normal ? { kind: 'exact', similarity: 1 } : { ...compareFacts(x.fact, y.fact, sim), similarity: sim };
    if (judgement.kind !== 'distinct') pairs.push({ a, b, similarity: judgement.similarity, judgement });
  };
  for (let k = 0; k < found.a.length; k++) {
    const sim = leftOut > 0 ? cosine(v, found.a[k], found.b[k]) : Math.min(1, found.dot[k]);
    known.add(`${found.a[k]} ${found.b[k]}`);
    add(found.a[k], found.b[k], sim);
  }
  // Equal texts, whatever the search left out: by a hash of the normal
  // form (not the form itself: memory), equal forms checked.
  const first = new Map<number, number[]>();
  let more = found.more;
  texts.forEach((t, d) => {
    const normal = normalise(t);
    const h = hashOf(normal);
    const seen = first.get(h);
    const f = seen?.find((e) => normalise(texts[e]) === normal);
    if (f === undefined) {
      if (seen === undefined) first.set(h, [d]);
      else seen.push(d);
    } else if (!known.has(`${f} ${d}`)) {
      if (pairs.length < PAIR_CANDIDATES) pairs.push({ a: f, b: d, similarity: 1, judgement: { kind: 'exact', similarity: 1 } });
      else more++;
    }
  });
  pairs.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
  return { pairs, leftOut, leftOutFrom, notJudged: more };
}

const EMPTY: Profile = { weights: new Map() };

/** A 52-bit hash of `s` (two 32-bit FNV-1a halves, of different seeds). */
function hashOf(s: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}
