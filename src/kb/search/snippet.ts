// What a search shows of a subject, and what recall keeps of one too big
// for the budget: the line that holds most of the query's words (a
// snippet), and the subject's sections ranked by the query (headings, in
// every format that has them, else blank-line-separated blocks). Pure.

import { CONTROL } from '../../shared/controls.ts';
import { forEachTermAt, forEachTermOf, isSpaceless, isWordChar, SPACELESS_CHAR, termOf } from './tokenize.ts';
import { hasHeadings, headingsIn, headTitleOf } from '../content/title.ts';

const utf8 = new TextEncoder();

/** Characters of a snippet at most. */
export const SNIPPET_CHARS = 200;

/** Lines looked at for a snippet at most: bounded work on a huge file. */
const SNIPPET_LINES = 20_000;

/** The most of a result's file read for its snippet. A snippet is one
 *  line among the first 20,000 (kb/search/snippet.ts), which in a document
 *  of lines up to about 50 characters is about 1 MiB: a file no longer gives
 *  the snippet it gave read whole, and a 16 MiB log is not read whole for
 *  one line. */
export const SNIPPET_BYTES = 1024 * 1024;


/** Which terms of `line` are in `matched`: distinct ones, all, and where
 *  the first is. */
function lineScore(line: string, matched: ReadonlySet<string>): { distinct: number; all: number; first: number } {
  const lower = line.toLowerCase();
  const seen = new Set<string>();
  let all = 0;
  let first = -1;
  forEachTermOf(
    line,
    lower,
    (t, a) => {
      if (!matched.has(t)) return;
      all++;
      seen.add(t);
      if (first < 0) first = a;
    },
    memoTerm,
  );
  return { distinct: seen.size, all, first };
}

/** Words met in snippets -> their terms (tokenize.ts termOf), bounded. */
const memo = new Map<string, string>();
const MEMO_WORDS = 1 << 16;
function memoTerm(w: string): string {
  let t = memo.get(w);
  if (t === undefined) {
    t = termOf(w);
    if (memo.size >= MEMO_WORDS) memo.clear();
    memo.set(w, t);
  }
  return t;
}

/** What snippetOf looks for in the results of one search (the same
 *  matched terms for each): minimalNeedles of the terms (undefined when a
 *  term cannot be looked for in the whole text: empty, or holding a line
 *  end), one search for all of them (`finder`), whether that search reads
 *  the text lower-cased (needles not all ASCII) or as it is, and whether
 *  some term may come from a word that does not hold it (`termsAtMost`). */
interface Needles {
  minimal: string[] | undefined;
  finder: RegExp;
  inLower: boolean;
  yTerm: boolean;
  /** Some term is one character of a script written without spaces. */
  chars: boolean;
}
const needlesOf = new WeakMap<ReadonlySet<string>, Needles>();

function needlesFor(matched: ReadonlySet<string>): Needles {
  let n = needlesOf.get(matched);
  if (n === undefined) {
    const all = [...matched];
    const minimal = all.some((t) => t === '' || t.includes('\n')) ? undefined : minimalNeedles(all);
    const inLower = minimal === undefined || !minimal.every((t) => /^[a-z0-9.]+$/.test(t));
    // bounded: `finder` is an alternation of literal needles (the query's
    // terms, at most QUERY_LIMITS of them), each tried at each place of a
    // text: time linear in the text for a query.
    n = {
      minimal,
      finder: new RegExp((minimal ?? []).map((t) => (inLower ? t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : anyCase(t))).join('|') || '[^\\s\\S]', 'g'),
      inLower,
      // stem: a word of five or six letters ending in `ies` stands for its
      // first two or three and a `y` (`flies`: `fly`, `copies`: `copy`).
      yTerm: all.some((t) => (t.length === 3 || t.length === 4) && t.endsWith('y')),
      chars: all.some((t) => t.length === 1 && isSpaceless(t.charCodeAt(0))),
    };
    needlesOf.set(matched, n);
  }
  return n;
}

/** A pattern that finds where the lower-cased text holds `needle` (ASCII
 *  letters, digits, dots), in the text as it is: each letter in either
 *  case, and `k` as the Kelvin sign too, the one other character whose
 *  lower case is ASCII of the same length (U+0130's is two characters long;
 *  a text with it is read line by line). Each character matches one code
 *  unit: a match is where the needle is in the lower-cased text. */
function anyCase(needle: string): string {
  let source = '';
  for (const c of needle) {
    if (c === '.') source += '\\.';
    else if (c >= 'a' && c <= 'z') source += `[${c}${c.toUpperCase()}${c === 'k' ? '\u212a' : ''}]`;
    else source += c;
  }
  return source;
}

/** The needles whose every occurrence is found by looking for the others:
 *  none that holds another as a substring (a line holding `configur` holds
 *  `config`; prefix expansions are nearly all such). The lines holding one
 *  of them are the lines holding one of `needles`. No two start at the same
 *  place in a text (one would be the start of the other). */
export function minimalNeedles(needles: readonly string[]): string[] {
  const byLength = [...new Set(needles)].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const out: string[] = [];
  for (const t of byLength) if (!out.some((u) => t.includes(u))) out.push(t);
  return out;
}

/** Where `re` (global) is found in `s`, each place once, overlapping
 *  matches too: [start, end] pairs, flat. */
function matchesOf(re: RegExp, s: string): number[] {
  const out: number[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    out.push(m.index, m.index + m[0].length);
    re.lastIndex = m.index + 1;
  }
  return out;
}

/** A camelCase split (tokenize.ts camelParts) somewhere in a line: a
 *  capital after a small letter or digit, or before a small letter after
 *  another capital. */
const CAMEL = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;
/** What may give a line terms besides its words' own: a camelCase split,
 *  or a hyphen between two characters that may be word characters (none is
 *  a space, a tab or a hyphen). */
const EXTRA = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]|[^ \t-]-[^ \t-]/;
/** `ies` in any case (no other character lower-cases to these letters). */
const IES = /[iI][eE][sS]/;

/** The lower case of a line of a text: the same alone as in its text (no
 *  character's lower case depends on anything past a line end). */
function lowerOf(line: string, lower: string | undefined, start: number): string {
  return lower !== undefined ? lower.slice(start, start + line.length) : line.toLowerCase();
}

/**
 * At least as many matched terms as lineScore counts in `line` (of a text
 * at `start`; `lower`: the text lower-cased, if it was), which holds the
 * needles `occurrences` times. Each term lineScore counts is
 * - the term of a word or of a camelCase part of one, which is the start of
 *   the word or part (stemming strips suffixes; a number's leading zeros
 *   go), so it holds an occurrence of a needle there (every matched term
 *   holds a minimal needle): at most one a word's occurrence, and one more
 *   of a part's, in a line with a camelCase split;
 * - or, the same way, the term of a word ending in `ies` whose `y` its text
 *   lacks (`flies`: `fly`), when a matched term may be one (`yTerm`): at
 *   most one an `ies`, two with a camelCase split;
 * - or the term of two words joined by a hyphen (`f-strings`: `fstring`):
 *   at most one a hyphen between two word characters;
 * - and, in a line with a script written without spaces, whose terms are
 *   its characters and pairs of characters, where a matched term is one
 *   such character (`chars`), an occurrence of a needle is in at most
 *   three terms (the pair before it, the pair at it, the character); a
 *   pair is otherwise a needle of its own.
 */
function termsAtMost(line: string, lower: string | undefined, start: number, occurrences: number, yTerm: boolean, chars: boolean): number {
  const n = termsAtMostSpaced(line, lower, start, occurrences, yTerm);
  return chars && SPACELESS_CHAR.test(line) ? 3 * n : n;
}

function termsAtMostSpaced(line: string, lower: string | undefined, start: number, occurrences: number, yTerm: boolean): number {
  let l: string | undefined;
  let ies = 0;
  if (yTerm && IES.test(line)) {
    l = lowerOf(line, lower, start);
    for (let q = l.indexOf('ies'); q >= 0; q = l.indexOf('ies', q + 1)) ies++;
  }
  if (!EXTRA.test(line)) return occurrences + ies;
  let n = (CAMEL.test(line) ? 2 : 1) * (occurrences + ies);
  for (let q = line.indexOf('-'); q >= 0; q = line.indexOf('-', q + 1)) {
    if (q === 0 || q + 1 === line.length) continue;
    l ??= lowerOf(line, lower, start);
    if (isWordChar(l.charCodeAt(q - 1)) && isWordChar(l.charCodeAt(q + 1))) n++;
  }
  return n;
}

/** lineScore of `line` (`lower`: its lower case), from the words that can
 *  hold a matched term only (see termsAtMost): those holding an occurrence
 *  of a needle (found by `finder`), or an `ies` (`yTerm`), or following a
 *  hyphen. */
function scoreAround(line: string, lower: string, finder: RegExp, yTerm: boolean, matched: ReadonlySet<string>): { distinct: number; all: number; first: number } {
  const at = matchesOf(finder, lower);
  if (yTerm) for (let q = lower.indexOf('ies'); q >= 0; q = lower.indexOf('ies', q + 1)) at.push(q, q + 3);
  for (let q = lower.indexOf('-'); q >= 0; q = lower.indexOf('-', q + 1)) {
    if (q > 0 && q + 1 < lower.length && isWordChar(lower.charCodeAt(q - 1)) && isWordChar(lower.charCodeAt(q + 1))) at.push(q + 1, q + 2);
  }
  const seen: string[] = [];
  let all = 0;
  let first = -1;
  forEachTermAt(
    line,
    lower,
    at,
    (t, a) => {
      if (!matched.has(t)) return;
      all++;
      if (!seen.includes(t)) seen.push(t);
      if (first < 0) first = a;
    },
    memoTerm,
  );
  return { distinct: seen.length, all, first };
}

/** Bounds below 2^21 and line numbers below 2^25 (a text is read line by
 *  line from that length on) pack into one number that sorts them: bound
 *  down, then the line's place up. */
const START_BITS = 2 ** 25;
const BOUND_CAP = 2 ** 21 - 1;

/** One line of `text` around the query's matched terms (index terms), at
 *  most SNIPPET_CHARS characters, white space collapsed, control
 *  characters dropped; '' when no line holds a matched term (a slug or
 *  description match): then the first line with words. */
export function snippetOf(text: string, matched: ReadonlySet<string>): string {
  // A term is nearly always the start of the words it stands for (suffixes
  // are what stemming strips): a line holding none of them as a substring
  // is not looked at word by word. The lines that hold one are found by
  // one search of the whole text for all of them, as they would be found
  // in the text lower-cased (a native search, no per-line work), where
  // lower-casing keeps every offset: it does but for U+0130, whose lower
  // case is two code units.
  if (text.includes('\u0130') || text.length >= START_BITS) return snippetByLines(text, matched);
  const { minimal, finder, inLower, yTerm, chars } = needlesFor(matched);
  if (minimal === undefined) return snippetByLines(text, matched);
  const lower = inLower ? text.toLowerCase() : undefined;
  // Only the first SNIPPET_LINES lines are looked at.
  let limit = text.length + 1;
  if (text.length > SNIPPET_LINES) {
    let at = -1;
    for (let n = 0; n < SNIPPET_LINES && (at = text.indexOf('\n', at + 1)) >= 0; n++);
    if (at >= 0) limit = at + 1;
  }
  // The lines holding a needle, in order, and how often each holds one
  // (every place one starts; a line too long to be a snippet once).
  const starts: number[] = [];
  const ends: number[] = [];
  const counts: number[] = [];
  const within = lower ?? text;
  finder.lastIndex = 0;
  for (let m = finder.exec(within), lineEnd = -1; m !== null && m.index < limit; m = finder.exec(within)) {
    const p = m.index;
    finder.lastIndex = p + 1;
    if (p < lineEnd) {
      counts[counts.length - 1]++;
      continue;
    }
    const start = text.lastIndexOf('\n', p) + 1;
    lineEnd = text.indexOf('\n', p);
    if (lineEnd < 0) lineEnd = text.length;
    if (lineEnd - start > 10_000) {
      finder.lastIndex = lineEnd; // minified: not a snippet
      continue;
    }
    starts.push(start);
    ends.push(lineEnd);
    counts.push(1);
  }
  // The best line is the first of those with the most distinct matched
  // terms, then the most terms (lineScore). Each line has a bound on its
  // terms, and so on its distinct ones (no more than the matched terms),
  // from its occurrences (`termsAtMost`); the lines are scored from the
  // highest bound down, and a line whose bound cannot beat the best line so
  // far (nor tie it from an earlier line) is not scored: the same line as
  // scoring every line in turn, and few lines are read word by word, and
  // then only the words that can hold a matched term (`scoreAround`).
  const keys = new Float64Array(starts.length);
  for (let i = 0; i < starts.length; i++) {
    const bound = termsAtMost(text.slice(starts[i], ends[i]), lower, starts[i], counts[i], yTerm, chars);
    keys[i] = (BOUND_CAP - Math.min(bound, BOUND_CAP)) * START_BITS + i;
  }
  const order = keys.sort();
  let best = -1;
  let bestScore = { distinct: 0, all: 0, first: -1 };
  for (let o = 0; o < order.length; o++) {
    const all = BOUND_CAP - Math.floor(order[o] / START_BITS);
    const i = order[o] - (BOUND_CAP - all) * START_BITS;
    const distinct = Math.min(all, matched.size);
    // Sorted by bound: no later line can do better than this one.
    if (best >= 0 && (distinct < bestScore.distinct || (distinct === bestScore.distinct && (all < bestScore.all || (all === bestScore.all && i > best))))) break;
    const line = text.slice(starts[i], ends[i]);
    const s = scoreAround(line, lowerOf(line, lower, starts[i]), finder, yTerm, matched);
    if (s.distinct > bestScore.distinct || (s.distinct === bestScore.distinct && s.distinct > 0 && (s.all > bestScore.all || (s.all === bestScore.all && i < best)))) {
      best = i;
      bestScore = s;
    }
  }
  if (best >= 0) return clip(text.slice(starts[best], ends[best]), bestScore.first);
  // No line holds a matched term: the first line with words.
  for (let n = 0, start = 0; n < SNIPPET_LINES && start <= text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.length <= 10_000 && /[\p{L}\p{N}]/u.test(line) && !/^\s*(---|\.\.\.)\s*$/.test(line)) return clip(line, 0);
    if (end === text.length) break;
  }
  return clip('', 0);
}

/** `snippetOf` line by line (where lower-casing the whole text would move
 *  offsets). */
function snippetByLines(text: string, matched: ReadonlySet<string>): string {
  const needles = [...matched];
  let best = '';
  let bestScore = { distinct: 0, all: 0, first: -1 };
  let fallback = '';
  let start = 0;
  for (let n = 0; n < SNIPPET_LINES && start <= text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.length > 10_000) continue; // minified: not a snippet
    if (fallback === '' && /[\p{L}\p{N}]/u.test(line) && !/^\s*(---|\.\.\.)\s*$/.test(line)) fallback = line;
    const lower = line.toLowerCase();
    if (!needles.some((t) => lower.includes(t))) {
      if (end === text.length) break;
      continue;
    }
    const s = lineScore(line, matched);
    if (s.distinct > bestScore.distinct || (s.distinct === bestScore.distinct && s.all > bestScore.all)) {
      best = line;
      bestScore = s;
    }
    if (end === text.length) break;
  }
  if (bestScore.distinct === 0) return clip(fallback, 0);
  return clip(best, bestScore.first);
}

/** `line` with white space collapsed and control characters dropped, cut
 *  to SNIPPET_CHARS around `at` with an ellipsis where cut. */
function clip(line: string, at: number): string {
  let s = line;
  let from = 0;
  if (s.length > SNIPPET_CHARS) {
    from = Math.max(0, Math.min(at - 40, s.length - SNIPPET_CHARS));
    s = s.slice(from, from + SNIPPET_CHARS);
  }
  const cutEnd = from + SNIPPET_CHARS < line.length;
  s = s.replace(new RegExp(CONTROL.source, 'g'), ' ').replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${s}${cutEnd ? '…' : ''}`;
}

/** A part of a subject's text. */
export interface Section {
  /** [start, end) in the text, in UTF-16 code units. */
  start: number;
  end: number;
  /** Its heading line, if it starts with one. */
  heading?: string;
  /** 1-based line of its start. */
  line: number;
}

/** A block of a file without headings grows to about this many characters. */
const BLOCK_CHARS = 2000;

/** The sections of a text: for a format with headings (Markdown,
 *  reStructuredText, AsciiDoc, Org, HTML: content/title.ts `headingsIn`),
 *  from each heading to the next; otherwise blank-line-separated blocks
 *  joined up to about BLOCK_CHARS characters. Together they cover the
 *  text. */
export function sectionsOf(text: string, ext: string): Section[] {
  if (hasHeadings(ext)) {
    const out: Section[] = [];
    const heads = headingsIn(text, ext);
    if (heads.length === 0 || heads[0].start > 0) {
      // The part before the first heading (a PEP's header fields) is named
      // by the document's title, when it has one there.
      const end = heads.length === 0 ? text.length : heads[0].start;
      const title = headTitleOf(utf8.encode(text.slice(0, Math.min(end, 8192))), ext).title;
      out.push({ start: 0, end, line: 1, ...(title !== undefined ? { heading: title } : {}) });
    }
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i];
      out.push({ start: h.start, end: i + 1 < heads.length ? heads[i + 1].start : text.length, line: h.line, heading: h.text });
    }
    return out;
  }
  const out: Section[] = [];
  let start = 0;
  let line = 1;
  let sectionLine = 1;
  let pos = 0;
  let blank = false;
  while (pos < text.length) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const l = text.slice(pos, end);
    const boundary = blank && l.trim() !== '' && pos - start >= BLOCK_CHARS;
    blank = l.trim() === '';
    if (boundary && pos > start) {
      out.push({ start, end: pos, line: sectionLine });
      start = pos;
      sectionLine = line;
    }
    pos = end + 1;
    line++;
  }
  if (start < text.length || out.length === 0) out.push({ start, end: text.length, line: sectionLine });
  return out;
}

/** How much a piece of text is about the query: BM25-like, with the
 *  terms' weights (idf) given. */
export function scoreText(text: string, weights: ReadonlyMap<string, number>): number {
  const lower = text.toLowerCase();
  const tf = new Map<string, number>();
  let len = 0;
  forEachTermOf(text, lower, (t, _a, _b, main) => {
    if (main) len++;
    if (weights.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  });
  let s = 0;
  const norm = 1 - 0.75 + 0.75 * (len / 300);
  for (const [t, n] of tf) s += (weights.get(t)! * (n * 2.2)) / (n + 1.2 * norm);
  return s;
}
