// Words for search: how a text becomes the terms the index holds and a
// query looks up. Pure (no I/O). Documents and queries go through the same
// function, so a rule here changes both alike.
//
// A term is a run of letters and digits, lower-cased, at most MAX_TERM
// characters (longer runs are hashes, base64 or minified code: left out),
// common English function words dropped, and a light suffix stripping so
// that "archive", "archived" and "archiving" meet (docs/development/search-quality.md:
// on the labelled query sets).
//
// Tokens people type (each measured on the labelled sets,
// docs/development/search-quality.md):
// - a dotted version is one word: `3.12`, `1.2.3` (a dot between digits);
// - a number ignores its leading zeros: `0008` is the term `8`;
// - two words joined by one hyphen also count as one, joined: `f-strings`
//   adds `fstring`, `pep-0008` adds `pep8`; and so by one underscore, as
//   identifiers join them (`SERVER_NAME` adds `servername`, `send_file`
//   `sendfile`): an identifier's words are common ones, the joined term
//   is the identifier's own;
// - a camelCase or PascalCase word also counts as its parts: `TypedDict`
//   adds `typed` and `dict`, `HTTPServer` adds `http` and `server`.
// The joined and split terms are extra: they count towards a field's term
// frequencies but not its length.
//
// Scripts written without spaces between words (Han, Hiragana, Katakana,
// Hangul, Thai) are cut as Lucene's CJK analyzer cuts them with its
// unigrams on: a run of such characters is a word of its own (a Latin word
// inside it is another: `怎么解压tar文件` is `怎么解压`, `tar`, `文件`),
// and its terms are its characters and its overlapping pairs of characters
// (`用户认证`: `用`, `用户`, `户`, `户认`, `认`, `认证`, `证`), each a
// word's own term. Pairs find words; characters find the rest (a word of
// one character, a pair the query splits otherwise). Measured against
// pairs alone and against Intl.Segmenter's dictionary words on labelled
// questions in Chinese and Japanese (docs/development/search-quality.md, "Languages
// written without spaces"): they found more, cost a fifth of the
// segmenter's time, and do not change with the runtime's ICU data, which
// Bun and deno do not share. Thai, which has no pair convention, is cut
// the same way (the segmenter's Thai words differ by runtime too).

/** Longer runs of letters and digits are not terms. */
export const MAX_TERM = 32;

/** Function words: their idf is small anyway, and a question ("how do I
 *  ...") is mostly made of them. */
const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this those to too was we were what when ' +
    'where which while who whom why will with would you your yours about should shall also just not no nor very any ' +
    'some such only own same both each few more most other up down out off over under again further once here all'
  ).split(' '),
);

/** Whether a term is a function word. */
export function isStopWord(term: string): boolean {
  return STOP.has(term);
}

const VOWEL = /[aeiouy]/;

/**
 * Light suffix stripping (plurals, -ing, -ed, a final e), for ASCII words
 * only: `archives`, `archived`, `archiving` and `archive` all become
 * `archiv`; `policies` and `policy` become `polic`. Short words are kept.
 */
export function stem(w: string): string {
  const n = w.length;
  if (n <= 3) return w;
  const last = w.charCodeAt(n - 1);
  if (last > 127 || last < 97) return w; // digits, non-ASCII: as they are
  let s = w;
  if (s.endsWith('ies') && n > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is') && n > 3) s = s.slice(0, -1);
  let stripped = false;
  if (s.length > 5 && s.endsWith('ing') && VOWEL.test(s.slice(0, -3))) {
    s = s.slice(0, -3);
    stripped = true;
  } else if (s.length > 4 && s.endsWith('ed') && VOWEL.test(s.slice(0, -2))) {
    s = s.slice(0, -2);
    stripped = true;
  }
  // a doubled final consonant left by -ing/-ed: "running" -> "runn" -> "run"
  const m = s.length;
  if (stripped && m > 3 && s.charCodeAt(m - 1) === s.charCodeAt(m - 2) && !/[aeiouslz]/.test(s[m - 1])) s = s.slice(0, -1);
  else if (s.length > 4 && (s.endsWith('e') || s.endsWith('y'))) s = s.slice(0, -1);
  return s;
}

/** Whether UTF-16 code unit `c` (of lower-cased text) is part of a word:
 *  ASCII letters and digits, and any other character but the Latin-1 and
 *  general punctuation blocks, CJK and full-width punctuation, spaces and
 *  surrogates (emoji). */
export function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  if (c < 0xc0) return c === 0xaa || c === 0xb5 || c === 0xba;
  if (c === 0xd7 || c === 0xf7) return false;
  if (c < 0x2000) return true;
  if (c <= 0x2bff) return false; // punctuation, arrows, symbols
  if (c >= 0x3000 && c <= 0x303f) return c >= 0x3005 && c <= 0x3007; // CJK punctuation; 々 〆 〇 are letters
  if (c === 0x30fb) return false; // katakana middle dot
  if (c < 0xd800) return true;
  if (c <= 0xdfff) return false; // surrogates
  if (c >= 0xfe30 && c <= 0xfe6f) return false; // vertical and small punctuation forms
  if (c >= 0xff00 && c <= 0xff65) return isFullWidthAlnum(c); // full-width punctuation; its letters and digits are
  return c !== 0xfeff && c !== 0xfffd;
}

/** A full-width ASCII letter or digit (U+FF10 to U+FF5A). */
const isFullWidthAlnum = (c: number): boolean => (c >= 0xff10 && c <= 0xff19) || (c >= 0xff21 && c <= 0xff3a) || (c >= 0xff41 && c <= 0xff5a);

/** A character of a script written without spaces (isSpaceless, as a
 *  pattern: a test holds the two to the same code units). */
export const SPACELESS_CHAR = /[\u0e00-\u0e7f\u1100-\u11ff\u3005-\u3007\u3040-\u30fa\u30fc-\u30ff\u3130-\u318f\u31f0-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uffdc]/;

/**
 * Whether UTF-16 code unit `c` (a word character) is of a script written
 * without spaces between words: Han (with 々 〆 〇), Hiragana, Katakana
 * (half-width too), Hangul, Thai. Its runs are cut into pairs of
 * characters (forEachTermOf). Han beyond the Basic Multilingual Plane is a
 * surrogate pair, which is not a word character.
 */
export function isSpaceless(c: number): boolean {
  if (c < 0x0e00) return false;
  if (c < 0x1100) return c <= 0x0e7f; // Thai
  if (c < 0x3005) return c <= 0x11ff; // Hangul jamo
  if (c < 0x3040) return c <= 0x3007; // 々 〆 〇
  if (c < 0x3100) return c !== 0x30fb; // Hiragana, Katakana
  if (c < 0x3400) return (c >= 0x3130 && c <= 0x318f) || c >= 0x31f0; // Hangul compatibility jamo; Katakana extension and beyond to CJK
  if (c < 0xa000) return c <= 0x4dbf || c >= 0x4e00; // Han extension A, Han
  if (c < 0xac00) return false;
  if (c < 0xf900) return c <= 0xd7af; // Hangul syllables
  if (c < 0xff66) return c <= 0xfaff; // Han compatibility ideographs
  return c <= 0xffdc; // half-width Katakana and Hangul
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** A number without its leading zeros (`0008` -> `8`, `000` -> `0`);
 *  any other word as it is. */
function number(word: string): string {
  if (word.charCodeAt(0) !== 48 || word.length < 2) return word;
  let i = 0;
  for (; i < word.length; i++) if (!isDigit(word.charCodeAt(i))) return word;
  i = 0;
  while (i < word.length - 1 && word.charCodeAt(i) === 48) i++;
  return word.slice(i);
}

/** The term a lower-cased word stands for, or '' for none (a function
 *  word, or too long). */
export function termOf(word: string): string {
  return word.length > MAX_TERM || STOP.has(word) ? '' : stem(number(word));
}

/** Whether the word characters `a` and `b` belong to one word: both of a
 *  script written without spaces, or neither. */
const sameWord = (a: number, b: number): boolean => isSpaceless(a) === isSpaceless(b);

/** Calls `each(start, end)` for every word of lower-cased `lower`: runs of
 *  word characters, a dot between two digits included (`3.12`), cut where
 *  a script written without spaces starts or ends. */
export function forEachWord(lower: string, each: (start: number, end: number) => void): void {
  let s = -1;
  const n = lower.length;
  for (let i = 0; i < n; i++) {
    const c = lower.charCodeAt(i);
    // (ASCII written out first, and a run without spaces looked for past
    // it: this loop reads every indexed character.)
    if (c < 0x80 ? (c >= 97 && c <= 122) || (c >= 48 && c <= 57) : isWordChar(c)) {
      if (c >= 0x0e00 && isSpaceless(c)) {
        // A run of a script without spaces: a word of its own.
        if (s >= 0) each(s, i);
        let j = i + 1;
        while (j < n && isSpaceless(lower.charCodeAt(j))) j++;
        each(i, j);
        s = -1;
        i = j - 1;
      } else if (s < 0) s = i;
    } else if (s >= 0) {
      if (c === 46 && i + 1 < n && isDigit(lower.charCodeAt(i - 1)) && isDigit(lower.charCodeAt(i + 1))) continue;
      each(s, i);
      s = -1;
    }
  }
  if (s >= 0) each(s, n);
}

/** Where the word of lower-cased `lower` holding [from, to) starts and
 *  ends, as forEachWord finds it, given that all of [from, to) is in one
 *  word (word characters of one kind, and dots between digits); both in
 *  `span`, which is returned. */
export function wordAt(lower: string, from: number, to = from + 1, span: [number, number] = [0, 0]): [number, number] {
  const n = lower.length;
  const c0 = lower.charCodeAt(from);
  let a = from;
  let b = to;
  // A word of ASCII letters and digits (nearly every one), read without
  // a call per character; at any other character, the general rule.
  if (c0 < 0x80) {
    for (let c = lower.charCodeAt(a - 1); a > 0 && ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)); c = lower.charCodeAt(--a - 1));
    for (let c = lower.charCodeAt(b); b < n && ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)); c = lower.charCodeAt(++b));
  }
  for (;;) {
    if (a > 0 && isWordChar(lower.charCodeAt(a - 1)) && sameWord(lower.charCodeAt(a - 1), c0)) a--;
    else if (a > 1 && lower.charCodeAt(a - 1) === 46 && isDigit(lower.charCodeAt(a - 2)) && isDigit(lower.charCodeAt(a))) a--;
    else break;
  }
  for (;;) {
    if (b < n && isWordChar(lower.charCodeAt(b)) && sameWord(lower.charCodeAt(b), c0)) b++;
    else if (b + 1 < n && lower.charCodeAt(b) === 46 && isDigit(lower.charCodeAt(b - 1)) && isDigit(lower.charCodeAt(b + 1))) b++;
    else break;
  }
  span[0] = a;
  span[1] = b;
  return span;
}

/** Calls `each(term, start, end)` for the terms of a run of a script
 *  written without spaces, [a, b) of `lower`, in order: each character,
 *  then the pair it starts (none for the last). */
function spacelessTerms(lower: string, a: number, b: number, each: TermSink): void {
  for (let i = a; i < b; i++) {
    each(lower[i], i, i + 1, true);
    if (i + 1 < b) each(lower.slice(i, i + 2), i, i + 2, true);
  }
}

const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;

/** The parts of a camelCase or PascalCase word of `text` at [a, b), lower-
 *  cased, when it has at least two (`TypedDict`, `parseHTTPResponse`). */
function camelParts(text: string, lower: string, a: number, b: number): string[] | undefined {
  let parts: string[] | undefined;
  let from = a;
  for (let i = a + 1; i < b; i++) {
    const c = text.charCodeAt(i);
    if (!isUpper(c)) continue;
    const p = text.charCodeAt(i - 1);
    if (isLower(p) || isDigit(p) || (isUpper(p) && i + 1 < b && isLower(text.charCodeAt(i + 1)))) {
      (parts ??= []).push(lower.slice(from, i));
      from = i;
    }
  }
  if (parts === undefined) return undefined;
  parts.push(lower.slice(from, b));
  return parts;
}

/** What forEachTermOf calls for each term: the term, where it starts
 *  and ends in `lower`, and whether it is a word's own term. */
export type TermSink = (term: string, start: number, end: number, main: boolean) => void;

/** The terms of the word of `text` at [a, b), as forEachTermOf gives
 *  them: its own term (`main`), then its camelCase parts' terms (`cased`:
 *  `text` differs from `lower` by case only), then, when `prev` is the
 *  word just before it, joined by one hyphen, the two joined. Returns the
 *  word (lower-cased; '' for a run of a script written without spaces,
 *  whose terms are its pairs of characters, never joined). */
function wordTerms(text: string, lower: string, cased: boolean, a: number, b: number, prev: string | undefined, each: TermSink, termFor: (word: string) => string): string {
  const c = lower.charCodeAt(a);
  if (c >= 0x0e00 && isSpaceless(c)) {
    spacelessTerms(lower, a, b, each);
    return '';
  }
  const w = lower.slice(a, b);
  const t = termFor(w);
  if (t !== '') each(t, a, b, true);
  if (cased) {
    let upper = false;
    for (let i = a; i < b && !upper; i++) upper = text.charCodeAt(i) !== lower.charCodeAt(i);
    const parts = upper ? camelParts(text, lower, a, b) : undefined;
    if (parts !== undefined) {
      for (const part of parts) {
        const pt = termFor(part);
        if (pt !== '' && pt !== t) each(pt, a, b, false);
      }
    }
  }
  if (prev !== undefined && prev !== '' && b - a + prev.length <= MAX_TERM) {
    const jt = termFor(number(prev) + number(w));
    if (jt !== '' && jt !== t) each(jt, a - 1 - prev.length, b, false);
  }
  return w;
}

/**
 * Calls `each(term, start, end, main)` for every term of `text` (`lower` is
 * `text.toLowerCase()`): per word its term (`main`), then its extra terms
 * (not `main`): a camelCase word's parts, and two words joined by one
 * hyphen joined. `termFor` maps a word to its term (termOf, or a memo of
 * it). Offsets are in `lower`.
 */
export function forEachTermOf(text: string, lower: string, each: TermSink, termFor: (word: string) => string = termOf): void {
  const cased = text.length === lower.length && text !== lower;
  let prevEnd = -2;
  let prevWord = '';
  forEachWord(lower, (a, b) => {
    prevWord = wordTerms(text, lower, cased, a, b, prevEnd === a - 1 && isJoiner(lower.charCodeAt(prevEnd)) ? prevWord : undefined, each, termFor);
    prevEnd = b;
  });
}

/**
 * Calls `each` as forEachTermOf does, for the words of `text` that hold one
 * of the spans `at` (start, end, start, end...: each within one word of
 * `lower`) only, in their order: all of forEachTermOf's calls for those
 * words, and none for the others. A caller that knows which words can give
 * the terms it wants reads only those.
 */
export function forEachTermAt(text: string, lower: string, at: readonly number[], each: TermSink, termFor: (word: string) => string = termOf): void {
  const cased = text.length === lower.length && text !== lower;
  const span: [number, number] = [0, 0];
  // The spans by where they start (they come as a few ascending runs),
  // then each word once, in order: a span that starts inside the word
  // found last is in that word, which is not looked for again (a long run
  // of a script without spaces holds many spans: one walk over it).
  const order: number[] = [];
  let sorted = true;
  for (let i = 0; i + 1 < at.length; i += 2) {
    order.push(i);
    if (i > 0 && at[i] < at[i - 2]) sorted = false;
  }
  if (!sorted) order.sort((x, y) => at[x] - at[y]);
  const starts: number[] = [];
  const ends: number[] = [];
  let end = -1;
  for (const i of order) {
    if (at[i] < end) continue;
    wordAt(lower, at[i], at[i + 1], span);
    starts.push(span[0]);
    ends.push(span[1]);
    end = span[1];
  }
  for (let i = 0; i < starts.length; i++) {
    const a = starts[i];
    // The word before, when it ends at a hyphen (or an underscore) just
    // before this one.
    let prev: string | undefined;
    if (a >= 2 && isJoiner(lower.charCodeAt(a - 1)) && isWordChar(lower.charCodeAt(a - 2)) && !isSpaceless(lower.charCodeAt(a - 2))) prev = lower.slice(wordAt(lower, a - 2, a - 1, span)[0], a - 1);
    wordTerms(text, lower, cased, a, ends[i], prev, each, termFor);
  }
}

/** A hyphen or an underscore: what joins two words into one more term. */
function isJoiner(c: number): boolean {
  return c === 0x2d || c === 0x5f;
}

/** Calls `each` with every word's term of `text`, in order (no extra
 *  terms: near-duplicate similarity, write/similar.ts, counts words). */
export function forEachTerm(text: string, each: (term: string) => void): void {
  const lower = text.toLowerCase();
  forEachWord(lower, (a, b) => {
    if (isSpaceless(lower.charCodeAt(a))) return spacelessTerms(lower, a, b, (t) => each(t));
    const t = termOf(lower.slice(a, b));
    if (t !== '') each(t);
  });
}

/** The terms of `text`, in order, repeats kept. */
export function terms(text: string): string[] {
  const out: string[] = [];
  forEachTerm(text, (t) => out.push(t));
  return out;
}

/** A query's terms, each once, in order. When every word is a function
 *  word ("how do I"), those words are the terms. `words` is told the word
 *  each term first came from (to name it back to the user). */
export function queryTerms(query: string, words?: Map<string, string>): string[] {
  const seen = new Set<string>();
  const lower = query.toLowerCase();
  // The run of a script without spaces the last of its terms came from
  // (its terms come in order: each run is looked for once).
  const run: [number, number] = [0, 0];
  let runWord = '';
  forEachTermOf(query, lower, (t, a, b) => {
    if (seen.has(t)) return;
    seen.add(t);
    if (words === undefined) return;
    if (!isSpaceless(lower.charCodeAt(a))) words.set(t, lower.slice(a, b));
    else {
      // A character or pair of characters came from its run.
      if (a >= run[1] || a < run[0]) runWord = lower.slice(...wordAt(lower, a, b, run));
      words.set(t, runWord);
    }
  });
  if (seen.size === 0) {
    forEachWord(lower, (a, b) => {
      if (b - a > MAX_TERM) return;
      seen.add(lower.slice(a, b));
      words?.set(lower.slice(a, b), lower.slice(a, b));
    });
  }
  return [...seen];
}

/**
 * The words of a query to name as matching nothing, from the query terms
 * that matched nothing (`unknown`) and the word each came from (`words`,
 * as queryTerms fills it): each such term's word, as before, except for a
 * run of a script written without spaces, named once, and only when none
 * of its pairs of characters (its character, when alone) matched: its
 * characters alone do not make it known.
 */
export function unknownWords(terms: readonly string[], unknown: readonly string[], words: ReadonlyMap<string, string>): string[] {
  const missing = new Set(unknown);
  const known = new Set<string>();
  for (const t of terms) {
    const w = words.get(t) ?? t;
    if (!missing.has(t) && isSpaceless(t.charCodeAt(0)) && (t.length > 1 || w.length === 1)) known.add(w);
  }
  const out: string[] = [];
  for (const t of terms) {
    const w = words.get(t) ?? t;
    if (!isSpaceless(t.charCodeAt(0))) {
      if (missing.has(t)) out.push(w);
    } else if (!known.has(w)) {
      known.add(w); // named once
      out.push(w);
    }
  }
  return out;
}

/**
 * The terms a snippet looks for, of the terms a search matched: all of
 * them, but the characters of runs of a script written without spaces
 * where a pair of such characters matched too. Pairs are what stand for
 * words; a line is chosen by them, and is looked for by them alone (a
 * character is in nearly every line: `の`, `的`). The same set is given
 * for the same set.
 */
export function snippetTerms(matched: ReadonlySet<string>): ReadonlySet<string> {
  let memo = snippetMemo.get(matched);
  if (memo === undefined) {
    let pairs = false;
    for (const t of matched) if (t.length === 2 && isSpaceless(t.charCodeAt(0))) pairs = true;
    memo = pairs ? new Set([...matched].filter((t) => t.length !== 1 || !isSpaceless(t.charCodeAt(0)))) : matched;
    snippetMemo.set(matched, memo);
  }
  return memo;
}
const snippetMemo = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

/** Where the words of `text` are: [start, end, term] per word (function
 *  words too, with term ''), for snippets and sections. Offsets are in
 *  `text` when lower-casing keeps its length (nearly always), else in its
 *  lower-cased form, which `lower` then is. */
export function wordSpans(text: string): { lower: string; spans: { start: number; end: number; term: string }[] } {
  const lower = text.toLowerCase();
  const spans: { start: number; end: number; term: string }[] = [];
  forEachWord(lower, (a, b) => {
    if (isSpaceless(lower.charCodeAt(a))) spacelessTerms(lower, a, b, (term, start, end) => spans.push({ start, end, term }));
    else spans.push({ start: a, end: b, term: termOf(lower.slice(a, b)) });
  });
  return { lower, spans };
}
