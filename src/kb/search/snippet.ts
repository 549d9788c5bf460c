// What a search shows of a subject, and what recall keeps of one too big
// for the budget: where it answers the query (passages: a window of up to
// three lines around the line that holds most of the query's words, its
// first line's number, and in a long document up to two more places; a
// line of markup alone, frontmatter or a line inside an HTML comment never
// in one: content/markup-line.ts),
// and the subject's sections ranked by the query (headings, in every
// format that has them, else blank-line-separated blocks). Pure.

import { every, map, some } from '../../shared/arrays.ts';
import { CONTROL } from '../../shared/controls.ts';
import { forEachTermAt, forEachTermOf, isSpaceless, isWordChar, SPACELESS_CHAR, termOf } from './tokenize.ts';
import { hasHeadings, headingsIn, headTitleOf } from '../content/title.ts';
import { commentLines, frontmatterEnd, isMarkupIn, isMarkupLine, isTextLine } from '../content/markup-line.ts';
import { markupExt } from '../content/sniff.ts';

const utf8 = new TextEncoder();

/** Characters of a snippet at most. */
export const SNIPPET_CHARS = 200;

/** Lines looked at for a snippet at most: bounded work on a huge file. */
const SNIPPET_LINES = 20_000;

/** The most of a result's file read for its passages. They are around
 *  lines among the first 20,000 (kb/search/snippet.ts), which in a document
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
  /** The first two characters of each term: a joined term (`f-strings`:
   *  `fstring`) may be matched only where the words it joins start so
   *  (`joinMayMatch`). */
  starts: ReadonlySet<string>;
  /** What joins two words into a term the bounds count (JOINERS: an
   *  underscore only where the query has one, `underscores`), and the
   *  pattern of a line that may hold more terms than its needles'. */
  joiners: readonly string[];
  extra: RegExp;
  /** `finder` is the joined one: its matches run across words. */
  acrossWords?: boolean;
  /** The needles of four characters or more (at most JOINED_NEEDLES), each
   *  with a hyphen or an underscore allowed between two of its characters,
   *  in the lower-cased text: where a joined term's words are, for a text
   *  that holds no needle as written; undefined when there is none. */
  joined?: RegExp;
  /** Whether `joined` was looked for (made on first use: nearly every
   *  search finds its terms as written). */
  joinedMade?: boolean;
}

/** `n.joined`, made on first use. */
function joinedOf(n: Needles): RegExp | undefined {
  if (!n.joinedMade) {
    n.joinedMade = true;
    const joined = joinedFinder(n.minimal);
    if (joined !== undefined) n.joined = joined;
  }
  return n.joined;
}

/** Needles looked for as joined words, at most (bounded work: each is
 *  tried at each place of a text with no needle in it). */
const JOINED_NEEDLES = 8;

/** `needlesFor`'s joined finder (Needles.joined) of `minimal`. */
export function joinedFinder(minimal: readonly string[] | undefined): RegExp | undefined {
  const long = (minimal ?? []).filter((t) => t.length >= 4 && !SPACELESS_CHAR.test(t)).slice(0, JOINED_NEEDLES);
  if (long.length === 0) return undefined;
  // bounded: each needle's characters with an optional joiner between
  // them, a joiner never a needle's character (terms are letters, digits
  // and dots): one way to match at a place, time linear in the text for
  // a query.
  return new RegExp(map(long, (t) => [...t].map((c) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('[-_]?')).join('|'), 'g');
}
const needlesOf = new WeakMap<ReadonlySet<string>, Needles>();
const needlesHyphens = new WeakMap<ReadonlySet<string>, Needles>();

function needlesFor(matched: ReadonlySet<string>, underscores = true): Needles {
  const kept = underscores ? needlesOf : needlesHyphens;
  let n = kept.get(matched);
  if (n === undefined) {
    const all = [...matched];
    const minimal = some(all, (t) => t === '' || t.includes('\n')) ? undefined : minimalNeedles(all);
    const inLower = minimal === undefined || !every(minimal, (t) => /^[a-z0-9.]+$/.test(t));
    // bounded: `finder` is an alternation of literal needles (the query's
    // terms, at most QUERY_LIMITS of them), each tried at each place of a
    // text: time linear in the text for a query.
    n = {
      minimal,
      finder: new RegExp(map(minimal ?? [], (t) => (inLower ? t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : anyCase(t))).join('|') || '[^\\s\\S]', 'g'),
      inLower,
      // stem: a word of five or six letters ending in `ies` stands for its
      // first two or three and a `y` (`flies`: `fly`, `copies`: `copy`).
      yTerm: some(all, (t) => (t.length === 3 || t.length === 4) && t.endsWith('y')),
      chars: some(all, (t) => t.length === 1 && isSpaceless(t.charCodeAt(0))),
      starts: new Set(map(all, (t) => t.slice(0, 2))),
      joiners: underscores ? JOINERS : HYPHEN,
      extra: underscores ? EXTRA : EXTRA_HYPHEN,
    };
    kept.set(matched, n);
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
  // Shortest first, then in code-unit order: grouped by length, each
  // group sorted natively (a sort that calls back for each comparison took
  // a third of a millisecond for a query's fifty terms).
  const byLength: string[][] = [];
  for (const t of new Set(needles)) (byLength[t.length] ??= []).push(t);
  const out: string[] = [];
  for (const group of byLength) {
    if (group === undefined) continue;
    for (const t of group.sort()) if (!some(out, (u) => t.includes(u))) out.push(t);
  }
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
 *  or a hyphen or an underscore between two characters that may be word
 *  characters (none is a space, a tab, a hyphen or an underscore). */
const EXTRA = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]|[^ \t_-][-_][^ \t_-]/;
/** EXTRA where an underscore is not counted (`underscores` false). */
const EXTRA_HYPHEN = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]|[^ \t-]-[^ \t-]/;
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
 * - or the term of two words joined by a hyphen or an underscore
 *   (`f-strings`: `fstring`, `SERVER_NAME`: `servername`): at most one a
 *   joiner between two word characters;
 * - and, in a line with a script written without spaces, whose terms are
 *   its characters and pairs of characters, where a matched term is one
 *   such character (`chars`), an occurrence of a needle is in at most
 *   three terms (the pair before it, the pair at it, the character); a
 *   pair is otherwise a needle of its own.
 */
function termsAtMost(line: string, lower: string | undefined, start: number, occurrences: number, n: Needles): number {
  const count = termsAtMostSpaced(line, lower, start, occurrences, n);
  return n.chars && SPACELESS_CHAR.test(line) ? 3 * count : count;
}

function termsAtMostSpaced(line: string, lower: string | undefined, start: number, occurrences: number, n: Needles): number {
  const { yTerm, starts } = n;
  let l: string | undefined;
  let ies = 0;
  if (yTerm && IES.test(line)) {
    l = lowerOf(line, lower, start);
    for (let q = l.indexOf('ies'); q >= 0; q = l.indexOf('ies', q + 1)) ies++;
  }
  if (!n.extra.test(line)) return occurrences + ies;
  let count = (CAMEL.test(line) ? 2 : 1) * (occurrences + ies);
  for (const joiner of n.joiners) {
    for (let q = line.indexOf(joiner); q >= 0; q = line.indexOf(joiner, q + 1)) {
      if (q === 0 || q + 1 === line.length) continue;
      l ??= lowerOf(line, lower, start);
      if (isWordChar(l.charCodeAt(q - 1)) && isWordChar(l.charCodeAt(q + 1)) && joinMayMatch(l, q, starts)) count++;
    }
  }
  return count;
}

/** What joins two words into a term of both (tokenize.ts isJoiner). */
const JOINERS = ['-', '_'];
const HYPHEN = ['-'];

/** Whether the term of the two words a joiner at `q` of `l` (a lower-cased
 *  line) joins may be a matched term: whether its first two characters
 *  (the words' first, as stemming strips suffixes only) start one
 *  (`starts`); always, where leading zeros the term drops may be among
 *  them (`0008-x`: `8x`; `x-0007`: `x7`). Looks back over the first word: each
 *  character once, a joiner ending each word. */
function joinMayMatch(l: string, q: number, starts: ReadonlySet<string>): boolean {
  let s = q;
  while (s > 0 && isWordChar(l.charCodeAt(s - 1))) s--;
  if (l.charCodeAt(s) === 0x30) return true;
  if (q - s >= 2) return starts.has(l.slice(s, s + 2));
  // A one-character word: the second word's first character next, but
  // for its leading zeros (`x-0007`: `x7`).
  return l.charCodeAt(q + 1) === 0x30 || starts.has(l.slice(s, q) + l.charAt(q + 1));
}

/** lineScore of `line` (`lower`: its lower case), from the words that can
 *  hold a matched term only (see termsAtMost): those holding an occurrence
 *  of a needle (found by `finder`), or an `ies` (`yTerm`), or following a
 *  hyphen or an underscore. */
function scoreAround(line: string, lower: string, finder: RegExp, n: Needles, matched: ReadonlySet<string>): { distinct: number; all: number; first: number } {
  const { yTerm, starts } = n;
  const at = matchesOf(finder, lower);
  // The joined finder's matches run across words (`single-pag`): each is
  // where its first word starts (the joiners below give the second).
  if (n.acrossWords) for (let k = 1; k < at.length; k += 2) at[k] = at[k - 1] + 1;
  if (yTerm) for (let q = lower.indexOf('ies'); q >= 0; q = lower.indexOf('ies', q + 1)) at.push(q, q + 3);
  for (const joiner of n.joiners) {
    for (let q = lower.indexOf(joiner); q >= 0; q = lower.indexOf(joiner, q + 1)) {
      if (q > 0 && q + 1 < lower.length && isWordChar(lower.charCodeAt(q - 1)) && isWordChar(lower.charCodeAt(q + 1)) && joinMayMatch(lower, q, starts)) at.push(q + 1, q + 2);
    }
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

/** A window around a place a text answers a query: its first line's
 *  number (1-based) and its lines, each with white space collapsed and
 *  control characters dropped, joined by `\n`. */
export interface Passage {
  line: number;
  text: string;
}

/** Lines of a passage at most, and characters of it (its lines together;
 *  the line that holds the query's words at most SNIPPET_CHARS of them). */
export const PASSAGE_LINES = 3;
export const PASSAGE_CHARS = 300;
/** Passages of one subject at most: a long document that answers in
 *  several places shows up to this many. */
export const PASSAGES = 3;
/** Places of a text this many characters apart (some 30 lines of prose)
 *  are different places: a further passage starts at least this far from
 *  every other. */
export const PASSAGE_GAP = 2000;
/** Lines holding the query's words scored, past the best, to find the
 *  further passages: bounded work on a text that holds them everywhere. */
const MORE_SCORED = 3;

/** Whether the line starting at an offset of a text is inside an HTML
 *  comment written over several lines (content/markup-line.ts
 *  `commentLines`): never a passage nor a line of one. */
type Hidden = (lineStart: number) => boolean;

/** A line of a text that holds the query's words: [start, end), and its
 *  score (lineScore); `first` is where its first matched term is, in it. */
interface Hit {
  start: number;
  end: number;
  distinct: number;
  all: number;
  first: number;
}

/** The lines of a text that hold a needle, in order (their offsets), and
 *  how often each holds one (every place one starts; a line too long to
 *  be a snippet is not one). A line of markup alone is one here, and is
 *  passed over where it would be scored (bestHits): of the dozens of lines
 *  a document has that hold the query's words, a search scores a few. */
interface Candidates {
  starts: number[];
  ends: number[];
  counts: number[];
}

/** The lines that may give a text's snippet (Candidates), from `skip` (the
 *  end of its frontmatter) on, among its first SNIPPET_LINES lines. */
function candidatesOf(text: string, within: string, finder: RegExp, skip: number): Candidates {
  // Only the first SNIPPET_LINES lines are looked at: a place among the
  // first SNIPPET_LINES characters is on one of them, told without a call.
  const first = firstLines(text);
  const c: Candidates = { starts: [], ends: [], counts: [] };
  finder.lastIndex = skip;
  for (let m = finder.exec(within), lineEnd = -1; m !== null && (m.index < SNIPPET_LINES || first(m.index)); m = finder.exec(within)) {
    const p = m.index;
    finder.lastIndex = p + 1;
    if (p < lineEnd) {
      c.counts[c.counts.length - 1]++;
      continue;
    }
    const start = text.lastIndexOf('\n', p) + 1;
    lineEnd = text.indexOf('\n', p);
    if (lineEnd < 0) lineEnd = text.length;
    if (lineEnd - start > 10_000) {
      finder.lastIndex = lineEnd; // minified: not a snippet
      continue;
    }
    c.starts.push(start);
    c.ends.push(lineEnd);
    c.counts.push(1);
  }
  return c;
}

/** Whether a place of `text` is on one of its first SNIPPET_LINES lines:
 *  at or before its SNIPPET_LINES-th line end. That end is looked for when
 *  a place past SNIPPET_LINES characters is first asked of (fewer
 *  characters hold fewer line ends), once: a text of fewer lines (nearly
 *  every one) has none, and every place is on them. */
function firstLines(text: string): (at: number) => boolean {
  let last = -1;
  return (at) => {
    if (at < SNIPPET_LINES) return true;
    if (last < 0) last = nthLineEnd(text, SNIPPET_LINES);
    return at <= last;
  };
}

/** Where the `n`-th line end of `text` is (`text.length` when it has
 *  fewer). Counted by one native search a block of SNIPPET_LINES
 *  characters (a loop of `indexOf` over every line, a call each, took
 *  about 0.1 ms a 25 KB document in a one-shot process), then looked for
 *  line by line in the block that holds it. */
function nthLineEnd(text: string, n: number): number {
  let ends = 0;
  for (let from = 0; from < text.length; from += SNIPPET_LINES) {
    const to = Math.min(text.length, from + SNIPPET_LINES);
    const here = lineEndsIn(text, from, to);
    if (ends + here < n) {
      ends += here;
      continue;
    }
    let q = text.indexOf('\n', from);
    for (let k = ends + 1; k < n; k++) q = text.indexOf('\n', q + 1);
    return q;
  }
  return text.length;
}

/** How many line ends `text` has from `from` up to `to`. */
function lineEndsIn(text: string, from: number, to: number): number {
  if (to <= from) return 0;
  // One native search for them all (a loop of `indexOf`, a call per line,
  // took about 30 µs a 25 KB document in a one-shot process).
  return text.slice(from, to).match(LINE_ENDS)?.length ?? 0;
}
const LINE_ENDS = /\n/g;

/**
 * The best line of the candidates, first: the first of those with the most
 * distinct matched terms, then the most terms (lineScore). Each line has a
 * bound on its terms, and so on its distinct ones (no more than the matched
 * terms), from its occurrences (`termsAtMost`); the lines are scored from
 * the highest bound down, and a line whose bound cannot beat the best line
 * so far (nor tie it from an earlier line) is not scored: the same line as
 * scoring every line in turn, and few lines are read word by word, and
 * then only the words that can hold a matched term (`scoreAround`).
 * With `max` over 1, up to `max - 1` further lines follow, each at least
 * PASSAGE_GAP characters from the others and with at least half the best
 * line's distinct terms: the first such of the lines scored, in the same
 * order (by bound, then place), at most MORE_SCORED more scored past the
 * best, while their bound can reach that half; a line near a place taken
 * is not scored.
 */
function bestHits(text: string, lower: string | undefined, c: Candidates, n: Needles, matched: ReadonlySet<string>, max: number, hidden: Hidden): Hit[] {
  const { starts, ends, counts } = c;
  const keys = new Float64Array(starts.length);
  for (let i = 0; i < starts.length; i++) {
    const bound = termsAtMost(text.slice(starts[i], ends[i]), lower, starts[i], counts[i], n);
    keys[i] = (BOUND_CAP - Math.min(bound, BOUND_CAP)) * START_BITS + i;
  }
  const order = keys.sort();
  const scored: (Hit & { i: number })[] = [];
  const score = (o: number): { i: number; distinct: number } => {
    const all = BOUND_CAP - Math.floor(order[o] / START_BITS);
    return { i: order[o] - (BOUND_CAP - all) * START_BITS, distinct: Math.min(all, matched.size) };
  };
  const scoreLine = (i: number): Hit & { i: number } => {
    const line = text.slice(starts[i], ends[i]);
    return { i, start: starts[i], end: ends[i], ...scoreAround(line, lowerOf(line, lower, starts[i]), n.finder, n, matched) };
  };
  // A line of markup alone gives no snippet: passed over as if it were not
  // a candidate (the order of the others, and where the loops below stop,
  // are the same without it: both follow the bounds, which only go down).
  const markup = (i: number): boolean => isMarkupIn(text, starts[i], ends[i]) || hidden(starts[i]);
  let best: (Hit & { i: number }) | undefined;
  let o = 0;
  for (; o < order.length; o++) {
    const { i, distinct } = score(o);
    const all = BOUND_CAP - Math.floor(order[o] / START_BITS);
    // Sorted by bound: no later line can do better than this one.
    if (best !== undefined && (distinct < best.distinct || (distinct === best.distinct && (all < best.all || (all === best.all && i > best.i))))) break;
    if (markup(i)) continue;
    const s = scoreLine(i);
    scored.push(s);
    if (s.distinct > (best?.distinct ?? 0) || (best !== undefined && s.distinct === best.distinct && s.distinct > 0 && (s.all > best.all || (s.all === best.all && i < best.i)))) best = s;
  }
  if (best === undefined || best.distinct === 0) return [];
  if (max <= 1 || text.length < PASSAGE_GAP) return [best];
  // Further places: the lines already scored, then the next in the same
  // order; a line near a place taken is passed over before it is scored,
  // and the first lines that hold half the best line's distinct terms are
  // taken.
  const half = Math.ceil(best.distinct / 2);
  const out: Hit[] = [best];
  const far = (start: number) => every(out, (h) => Math.abs(h.start - start) >= PASSAGE_GAP);
  for (const h of scored) if (out.length < max && h !== best && h.distinct >= half && far(h.start)) out.push(h);
  for (let more = 0; o < order.length && out.length < max && more < MORE_SCORED; o++) {
    const { i, distinct } = score(o);
    if (distinct < half) break;
    if (!far(starts[i]) || markup(i)) continue;
    more++;
    const h = scoreLine(i);
    if (h.distinct >= half) out.push(h);
  }
  return out;
}

/** The lines of `text` that best answer the query's matched terms (index
 *  terms), best first, at most `max`; [] when no line holds one. */
function hitsOf(text: string, matched: ReadonlySet<string>, skip: number, max: number, hidden: Hidden, underscores = true): Hit[] {
  // A term is nearly always the start of the words it stands for (suffixes
  // are what stemming strips): a line holding none of them as a substring
  // is not looked at word by word. The lines that hold one are found by
  // one search of the whole text for all of them, as they would be found
  // in the text lower-cased (a native search, no per-line work), where
  // lower-casing keeps every offset: it does but for U+0130, whose lower
  // case is two code units.
  if (text.includes('\u0130') || text.length >= START_BITS) return hitByLines(text, matched, skip, hidden);
  const n = needlesFor(matched, underscores);
  if (n.minimal === undefined) return hitByLines(text, matched, skip, hidden);
  const lower = n.inLower ? text.toLowerCase() : undefined;
  const found = candidatesOf(text, lower ?? text, n.finder, skip);
  if (found.starts.length > 0 || joinedOf(n) === undefined) return bestHits(text, lower, found, n, matched, max, hidden);
  // No term is in the text as written: one may be two words joined by a
  // hyphen or an underscore there (`singlepage` in `single-page`), which
  // the index joins (tokenize.ts); those words are looked for.
  const all = lower ?? text.toLowerCase();
  const joined = { ...n, finder: n.joined!, acrossWords: true };
  return bestHits(text, all, candidatesOf(text, all, joined.finder, skip), joined, matched, max, hidden);
}

/** The first line of `text` a snippet may show (content/markup-line.ts
 *  `isTextLine`), from `skip` on, among its first SNIPPET_LINES lines. */
function firstTextLine(text: string, skip: number, hidden: Hidden): Hit | undefined {
  for (let n = 0, start = skip; n < SNIPPET_LINES && start <= text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    if (line.length <= 10_000 && isTextLine(line) && !hidden(start)) return { start, end, distinct: 0, all: 0, first: 0 };
    start = end + 1;
    if (end === text.length) break;
  }
  return undefined;
}

/** One line of `text` around the query's matched terms (index terms), at
 *  most SNIPPET_CHARS characters, white space collapsed, control
 *  characters dropped: the best line of `passagesOf`'s best passage; when
 *  no line holds a matched term (a slug or description match), the first
 *  line with words. Never a line of markup alone, nor frontmatter, nor a
 *  line inside an HTML comment. */
export function snippetOf(text: string, matched: ReadonlySet<string>): string {
  const skip = frontmatterEnd(text);
  const hidden = commentLines(text);
  const hit = hitsOf(text, matched, skip, 1, hidden)[0] ?? firstTextLine(text, skip, hidden);
  return hit === undefined ? '' : clip(text.slice(hit.start, hit.end), hit.first);
}

/**
 * Where `text` answers the query's matched terms: up to PASSAGES windows,
 * in the text's order, each around a line that holds them (`hitsOf`; the
 * best line first among them in the result: the first passage is the
 * best) with the lines next to it in the same block (neither blank nor
 * markup), at most PASSAGE_LINES lines and PASSAGE_CHARS characters. When
 * no line holds a matched term, one window at the first line with words;
 * [] for a text without one. `underscores` false: two words joined by an
 * underscore are not looked at as one more term when a line's terms are
 * bounded (a line's place may then count them less than its score does;
 * the query joined none: `app/search.ts`).
 */
export function passagesOf(text: string, matched: ReadonlySet<string>, underscores = true): Passage[] {
  const skip = frontmatterEnd(text);
  const hidden = commentLines(text);
  const hits = hitsOf(text, matched, skip, PASSAGES, hidden, underscores);
  if (hits.length === 0) {
    const first = firstTextLine(text, skip, hidden);
    if (first !== undefined) hits.push(first);
  }
  const windows: { start: number; lines: string[]; best: boolean }[] = [];
  for (let k = 0; k < hits.length; k++) {
    const w = windowAt(text, hits[k], skip, hidden);
    // A window that reaches into another's lines is left out.
    if (some(windows, (o) => Math.abs(o.start - w.start) < PASSAGE_GAP && overlaps(text, o.start, w.start))) continue;
    windows.push({ ...w, best: k === 0 });
  }
  windows.sort((a, b) => a.start - b.start);
  // Line numbers, counted once from the start to the last window.
  const out: Passage[] = [];
  let line = 1;
  let at = 0;
  for (const w of windows) {
    line += lineEndsIn(text, at, w.start);
    at = w.start;
    const p = { line, text: w.lines.join('\n') };
    if (w.best) out.unshift(p);
    else out.push(p);
  }
  // The best first, then the others in the text's order.
  return out;
}

/** Whether windows starting at `a` and `b` share a line: fewer than
 *  PASSAGE_LINES line ends between them. */
function overlaps(text: string, a: number, b: number): boolean {
  const from = Math.min(a, b);
  const to = Math.max(a, b);
  let ends = 0;
  for (let q = text.indexOf('\n', from); q >= 0 && q < to && ends < PASSAGE_LINES; q = text.indexOf('\n', q + 1)) ends++;
  return ends < PASSAGE_LINES;
}

/** The window around `hit`: the line clipped around its first matched
 *  term, then the line after it and the line before it in turn, while
 *  they are text (not blank, not markup, not frontmatter) and fit
 *  (a line that does not fit whole is cut, where 40 characters or more are
 *  left). Returns where its first line starts, and its lines. */
function windowAt(text: string, hit: Hit, skip: number, hidden: Hidden): { start: number; lines: string[] } {
  const lines = [clip(text.slice(hit.start, hit.end), hit.first)];
  let room = PASSAGE_CHARS - lines[0].length;
  let start = hit.start;
  let after = hit.end; // the end of the last line taken
  let down = true;
  let up = true;
  for (let turn = 0; lines.length < PASSAGE_LINES && room > 0 && (down || up); turn++) {
    const below = turn % 2 === 0 ? down : !up;
    // While both sides may still give a line, one side has half the room.
    const share = down && up && lines.length < PASSAGE_LINES - 1 ? Math.floor(room / 2) : room;
    if (below) {
      const s = after + 1;
      const nl = s > text.length ? -1 : text.indexOf('\n', s);
      const e = s > text.length ? -1 : nl < 0 ? text.length : nl;
      const l = e < 0 || hidden(s) ? undefined : fitted(text.slice(s, e), share, false);
      if (l === undefined) down = false;
      else {
        lines.push(l);
        room -= l.length;
        after = e;
      }
    } else {
      const e = start - 1;
      const s = e < skip ? -1 : text.lastIndexOf('\n', e - 1) + 1;
      const l = s < 0 || hidden(s) ? undefined : fitted(text.slice(s, e), share, true);
      if (l === undefined) up = false;
      else {
        lines.unshift(l);
        room -= l.length;
        start = s;
      }
    }
  }
  return { start, lines };
}

/** A neighbour line collapsed, or cut to `room` characters (its end cut,
 *  or its start when it comes before: the part next to the hit kept);
 *  undefined when it is not text or fewer than 40 characters are left. */
function fitted(line: string, room: number, before: boolean): string | undefined {
  if (line.length > 10_000 || !isTextLine(line)) return undefined;
  const l = collapse(line);
  if (l.length <= room) return l;
  if (room < 40) return undefined;
  return before ? `…${l.slice(l.length - room + 1).trimStart()}` : `${l.slice(0, room - 1).trimEnd()}…`;
}

/** `snippetOf`'s best line, line by line (where lower-casing the whole
 *  text would move offsets). */
function hitByLines(text: string, matched: ReadonlySet<string>, skip: number, hidden: Hidden): Hit[] {
  const needles = [...matched];
  const first = bestByLines(text, matched, skip, hidden, (lower) => needles.some((t) => lower.includes(t)));
  if (first.any) return first.best;
  // No line holds a term as written: the joined words (hitsOf).
  const joined = joinedOf(needlesFor(matched));
  if (joined === undefined) return [];
  return bestByLines(text, matched, skip, hidden, (lower) => {
    joined.lastIndex = 0;
    return joined.test(lower);
  }).best;
}

/** `hitByLines`' look at each line: the best of those `holds` (of its
 *  lower case), and whether any line holds a term (a line of markup or a
 *  hidden one too, as `candidatesOf` counts them). */
function bestByLines(text: string, matched: ReadonlySet<string>, skip: number, hidden: Hidden, holds: (lower: string) => boolean): { best: Hit[]; any: boolean } {
  let best: Hit | undefined;
  let any = false;
  let start = skip;
  for (let n = 0; n < SNIPPET_LINES && start <= text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    const at = start;
    start = end + 1;
    if (line.length <= 10_000) {
      const lower = line.toLowerCase();
      if (holds(lower)) {
        any = true;
        if (!isMarkupLine(line) && !hidden(at)) {
          const s = lineScore(line, matched);
          if (s.distinct > (best?.distinct ?? 0) || (best !== undefined && s.distinct === best.distinct && s.all > best.all)) best = { start: at, end, ...s };
        }
      }
    }
    if (end === text.length) break;
  }
  return { best: best === undefined ? [] : [best], any };
}

/** White space collapsed, control characters dropped (a line of words
 *  with single spaces, nearly every line, as it is). */
function collapse(s: string): string {
  if (!UNCOLLAPSED.test(s) && !CONTROL.test(s)) return s;
  return s.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
}
/** White space collapse changes: other than one space between words. */
const UNCOLLAPSED = /^\s|\s$|\s\s|[^\S ]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

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
  return `${from > 0 ? '…' : ''}${collapse(s)}${cutEnd ? '…' : ''}`;
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
export function sectionsOf(text: string, given: string): Section[] {
  // A `.txt` or extensionless file: the markup of its head (content/sniff.ts).
  const ext = markupExt(given, text);
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
