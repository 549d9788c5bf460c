// When two texts say the same thing: the duplicate rules of `kb remember`
// (docs/search-and-memory.md, "Remembering"). Pure (no I/O).
//
// - Exact duplicates: equal after Unicode normalisation (NFKC), lower-casing
//   and collapsing every run of white space; leading and trailing space
//   does not count.
// - Near duplicates: the cosine of the two texts' term vectors (the search
//   index's terms: lower-cased words, function words dropped, light
//   suffix stripping; text without spaces as its characters and pairs of
//   characters), each term weighted 1 + ln(count). At or above
//   NEAR_THRESHOLD, a text is a near duplicate. (Adding adjacent term
//   pairs, a Jaccard of term sets or containment measured worse.)
//   The threshold was calibrated on paraphrase pairs written about a real
//   docs folder (scripts/dedup-calibration.ts; docs/search-and-memory.md gives the figures).

import { terms } from '../search/tokenize.ts';

/** Calibrated by scripts/dedup-calibration.ts (docs/search-and-memory.md, "Remembering"). */
export const NEAR_THRESHOLD = 0.5;

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

/** A file's text without its YAML frontmatter (a `---` line, then lines up
 *  to a closing `---` or `...` line), as duplicates are compared. */
export function bodyOf(text: string): string {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const m = /^---[ \t]*\r?\n/.exec(t);
  if (m === null) return t;
  const close = /^(?:---|\.\.\.)[ \t]*$/m;
  const rest = t.slice(m[0].length);
  const c = close.exec(rest);
  if (c === null) return t;
  const after = rest.slice(c.index + c[0].length);
  return after.replace(/^\r?\n/, '');
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
/** A term in more texts than this is left out of the pair search (it
 *  bounds the work; such a term adds little to a cosine). */
const PAIR_MAX_DF = 200;

/** The pairs of `texts` (indices, i < j) at least `threshold` similar,
 *  most similar first. Work is bounded by PAIR_MAX_DF. */
export function nearPairs(texts: readonly string[], threshold = NEAR_THRESHOLD): { a: number; b: number; similarity: number }[] {
  const profiles = texts.map(profile);
  const postings = new Map<string, { doc: number; w: number }[]>();
  profiles.forEach((p, doc) => {
    for (const [t, w] of p.weights) {
      let list = postings.get(t);
      if (list === undefined) postings.set(t, (list = []));
      list.push({ doc, w });
    }
  });
  const dots = new Map<number, number>();
  const n = texts.length;
  for (const list of postings.values()) {
    if (list.length < 2 || list.length > PAIR_MAX_DF) continue;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const key = list[i].doc * n + list[j].doc;
        dots.set(key, (dots.get(key) ?? 0) + list[i].w * list[j].w);
      }
    }
  }
  const out: { a: number; b: number; similarity: number }[] = [];
  for (const [key, dot] of dots) if (dot >= threshold) out.push({ a: Math.floor(key / n), b: key % n, similarity: Math.min(1, dot) });
  return out.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
}
