// What a search shows of a subject, and what recall keeps of one too big
// for the budget: the line that holds most of the query's words (a
// snippet), and the subject's sections ranked by the query (headings, in
// every format that has them, else blank-line-separated blocks). Pure.

import { CONTROL } from '../../shared/controls.ts';
import { forEachTermOf, forEachWord, termOf } from './tokenize.ts';
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

/** minimalNeedles of a search's matched terms: the same for each of its
 *  results. */
const minimalOf = new WeakMap<ReadonlySet<string>, string[]>();

/** The needles whose every occurrence is found by looking for the others:
 *  none that holds another as a substring (a line holding `configur` holds
 *  `config`; prefix expansions are nearly all such). The lines holding one
 *  of them are the lines holding one of `needles`. */
export function minimalNeedles(needles: readonly string[]): string[] {
  const byLength = [...new Set(needles)].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const out: string[] = [];
  for (const t of byLength) if (!out.some((u) => t.includes(u))) out.push(t);
  return out;
}

/** One line of `text` around the query's matched terms (index terms), at
 *  most SNIPPET_CHARS characters, white space collapsed, control
 *  characters dropped; '' when no line holds a matched term (a slug or
 *  description match): then the first line with words. */
export function snippetOf(text: string, matched: ReadonlySet<string>): string {
  // A term is nearly always the start of the words it stands for (suffixes
  // are what stemming strips): a line holding none of them as a substring
  // is not looked at word by word. The lines that hold one are found by
  // searching the whole lower-cased text for each term (native searches,
  // no per-line work), where lower-casing keeps every offset (it nearly
  // always does: not for a few letters such as U+0130, whose lower case is
  // two code units); the lines are then scored in order, as below.
  const needles = [...matched];
  const lower = text.toLowerCase();
  if (lower.length !== text.length || needles.some((t) => t === '' || t.includes('\n'))) return snippetByLines(text, matched);
  // Only the first SNIPPET_LINES lines are looked at.
  let limit = text.length + 1;
  if (text.length > SNIPPET_LINES) {
    let at = -1;
    for (let n = 0; n < SNIPPET_LINES && (at = text.indexOf('\n', at + 1)) >= 0; n++);
    if (at >= 0) limit = at + 1;
  }
  const starts = new Set<number>();
  let minimal = minimalOf.get(matched);
  if (minimal === undefined) minimalOf.set(matched, (minimal = minimalNeedles(needles)));
  for (const t of minimal) {
    for (let p = lower.indexOf(t); p >= 0 && p < limit; ) {
      const start = text.lastIndexOf('\n', p) + 1;
      starts.add(start);
      const end = text.indexOf('\n', p);
      if (end < 0) break;
      p = lower.indexOf(t, end + 1);
    }
  }
  let best = '';
  let bestScore = { distinct: 0, all: 0, first: -1 };
  for (const start of [...starts].sort((x, y) => x - y)) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > 10_000) continue; // minified: not a snippet
    const line = text.slice(start, end);
    const s = lineScore(line, matched);
    if (s.distinct > bestScore.distinct || (s.distinct === bestScore.distinct && s.all > bestScore.all)) {
      best = line;
      bestScore = s;
    }
  }
  if (bestScore.distinct > 0) return clip(best, bestScore.first);
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
