// Words for search: how a text becomes the terms the index holds and a
// query looks up. Pure (no I/O). Documents and queries go through the same
// function, so a rule here changes both alike.
//
// A term is a run of letters and digits, lower-cased, at most MAX_TERM
// characters (longer runs are hashes, base64 or minified code: left out),
// common English function words dropped, and a light suffix stripping so
// that "archive", "archived" and "archiving" meet (docs/search-and-memory.md,
// "Quality and speed, measured": on the labelled query set).

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
 *  general punctuation blocks, spaces and surrogates (emoji). */
export function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  if (c < 0xc0) return c === 0xaa || c === 0xb5 || c === 0xba;
  if (c === 0xd7 || c === 0xf7) return false;
  if (c >= 0x2000 && c <= 0x2bff) return false; // punctuation, arrows, symbols
  if (c >= 0x3000 && c <= 0x303f) return false; // CJK punctuation
  if (c >= 0xd800 && c <= 0xdfff) return false; // surrogates
  return c !== 0xfeff && c !== 0xfffd;
}

/** The term a lower-cased word stands for, or '' for none (a function
 *  word, or too long). */
export function termOf(word: string): string {
  return word.length > MAX_TERM || STOP.has(word) ? '' : stem(word);
}

/** Calls `each(start, end)` for every word of lower-cased `lower`. */
export function forEachWord(lower: string, each: (start: number, end: number) => void): void {
  let s = -1;
  const n = lower.length;
  for (let i = 0; i < n; i++) {
    if (isWordChar(lower.charCodeAt(i))) {
      if (s < 0) s = i;
    } else if (s >= 0) {
      each(s, i);
      s = -1;
    }
  }
  if (s >= 0) each(s, n);
}

/** Calls `each` with every term of `text`, in order. */
export function forEachTerm(text: string, each: (term: string) => void): void {
  const lower = text.toLowerCase();
  forEachWord(lower, (a, b) => {
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
  forEachWord(lower, (a, b) => {
    const w = lower.slice(a, b);
    const t = termOf(w);
    if (t === '' || seen.has(t)) return;
    seen.add(t);
    words?.set(t, w);
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

/** Where the words of `text` are: [start, end, term] per word (function
 *  words too, with term ''), for snippets and sections. Offsets are in
 *  `text` when lower-casing keeps its length (nearly always), else in its
 *  lower-cased form, which `lower` then is. */
export function wordSpans(text: string): { lower: string; spans: { start: number; end: number; term: string }[] } {
  const lower = text.toLowerCase();
  const spans: { start: number; end: number; term: string }[] = [];
  forEachWord(lower, (a, b) => spans.push({ start: a, end: b, term: termOf(lower.slice(a, b)) }));
  return { lower, spans };
}
