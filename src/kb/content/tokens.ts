// Token estimates: how much of a model's context a text takes, without a
// tokenizer. A BPE tokenizer (o200k and its kin) spends about one token on
// a short word and more on a long one, one on most punctuation, more on
// digits (groups of up to three) and on each character outside ASCII, and
// almost nothing on white space. So the estimate counts those, in one pass
// over the UTF-8 bytes (or the string's code units), and weighs them:
//
//   0.639 words + 0.104 letters + 1.141 digit groups + 0.644 punctuation
//   + 0.782 non-ASCII characters
//
// The weights are a least-squares fit of o200k counts over four real
// folders (a project's Markdown docs, a TypeScript code base, a book in
// Markdown, a skills collection with Python); held out, a fifth (command
// pages) comes within 1%. Bytes / 4, the usual rule, is off by up to 9% on
// the same folders and 25% on single files (docs/development/performance.md, "Token estimates";
// tests/unit/kb/tokens.test.ts holds it to the tokenizer within 10%).

/** Byte classes. */
const SPACE = 0;
const LETTER = 1;
const DIGIT = 2;
const PUNCT = 3;
const LEAD = 4; // the first byte of a character outside ASCII
const CONT = 5; // a byte that continues one

const CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) CLASS[c] = LETTER;
  else if (c >= 0x30 && c <= 0x39) CLASS[c] = DIGIT;
  else if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) CLASS[c] = SPACE;
  else if (c < 0x80) CLASS[c] = PUNCT;
  else CLASS[c] = c >= 0xc0 ? LEAD : CONT;
}

const W_WORD = 0.639;
const W_LETTER = 0.104;
const W_DIGITS = 1.141;
const W_PUNCT = 0.644;
const W_NON_ASCII = 0.782;

/** The weighted sum, from how many bytes of each class there are and how
 *  many runs of each start. A run of n digits is ceil(n / 3) groups, about
 *  1 + (n - 1) / 3: summed over runs, runs + (digits - runs) / 3. */
function weigh(count: Int32Array, runs: Int32Array): number {
  return weighCounts(runs[LETTER], count[LETTER], runs[DIGIT], count[DIGIT], count[PUNCT], count[LEAD]);
}

function weighCounts(words: number, letters: number, digitRuns: number, digitCount: number, punct: number, nonAscii: number): number {
  const t = weightOf(words, letters, digitRuns, digitCount, punct, nonAscii);
  return t === 0 ? 0 : Math.max(1, Math.round(t));
}

/** The weighted sum before it is rounded into an estimate. */
function weightOf(words: number, letters: number, digitRuns: number, digitCount: number, punct: number, nonAscii: number): number {
  const digits = digitRuns + (digitCount - digitRuns) / 3;
  return W_WORD * words + W_LETTER * letters + W_DIGITS * digits + W_PUNCT * punct + W_NON_ASCII * nonAscii;
}

// Scratch counters (the estimate is synchronous and never re-entered):
// how often class b follows class a, at [a * 8 + b]: one increment a byte.
// Bytes counted two at a time (countBytes) put their second pair at
// [64 + a * 8 + b]: the two halves are summed.
const pairs = new Int32Array(128);
const count = new Int32Array(8);
const runs = new Int32Array(8);

function tally(): number {
  count.fill(0);
  runs.fill(0);
  for (let a = 0; a < 8; a++) {
    for (let b = 0; b < 8; b++) {
      const n = pairs[a * 8 + b] + pairs[64 + a * 8 + b];
      count[b] += n;
      if (a !== b) runs[b] += n;
    }
  }
  pairs.fill(0);
  return weigh(count, runs);
}

/** The estimated tokens of UTF-8 `bytes` from `start` to `end`: one table
 *  look-up and one counter a byte. */
export function estimateTokensOfBytes(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return countBytes(bytes, start, end);
}

/** estimateTokensOfBytes, its loop in a function of plain parameters: in a
 *  short process (a search counting the bytes of its ten results), the
 *  same loop in a function with default parameters took about twice as
 *  long. */
function countBytes(bytes: Uint8Array, start: number, end: number): number {
  let prev = SPACE;
  let i = start;
  // Two bytes a turn, each pair counted in its own half of the counters:
  // a run of one class (a word) increments one counter a byte, and each
  // increment waited for the one before; two counters take turns. 36 MB
  // counted in 45 ms instead of 73.
  for (; i + 1 < end; i += 2) {
    const k = CLASS[bytes[i]];
    pairs[(prev << 3) | k]++;
    prev = CLASS[bytes[i + 1]];
    pairs[64 | (k << 3) | prev]++;
  }
  if (i < end) pairs[(prev << 3) | CLASS[bytes[i]]]++;
  return tally();
}

/** The most tokens `estimateTokens` gives a text of `units` UTF-16 code
 *  units (or `estimateTokensOfBytes` one of as many bytes): each unit is
 *  counted in one class at most, and weighs at most W_DIGITS (a digit
 *  starting a group; a letter starting a word weighs W_WORD + W_LETTER,
 *  less), and the sum is rounded to the nearest. An answer whose text is
 *  surely within a budget by this bound is not weighed (app/search.ts). */
export function tokensAtMost(units: number): number {
  return Math.max(W_DIGITS, W_WORD + W_LETTER, W_PUNCT, W_NON_ASCII) * units + 0.5;
}

/** The estimated tokens of a string: the same as of its UTF-8 bytes (a
 *  character outside ASCII counts once, whatever its length). */
export function estimateTokens(text: string): number {
  let prev = SPACE;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A low surrogate continues the character its high one began.
    const k = c < 0x80 ? CLASS[c] : c >= 0xdc00 && c <= 0xdfff && prev === LEAD ? CONT : LEAD;
    pairs[(prev << 3) | k]++;
    prev = k === CONT ? LEAD : k;
  }
  return tally();
}

/**
 * What the estimate counts in a text, kept apart so that the estimate of a
 * text made of parts is made from the parts' counts: the same number as
 * `estimateTokens` of the whole, exactly, when every part starts and ends
 * next to white space or punctuation (neither a word nor a group of digits
 * runs across the joint). A listing line `- folder/name: description` is
 * `- ` + `folder/` + `name` + `: ` + `description`: the folder's counts are
 * taken once for all the subjects in it.
 */
export class TokenTally {
  words = 0;
  letters = 0;
  digitRuns = 0;
  digits = 0;
  punct = 0;
  nonAscii = 0;

  /** Adds the counts of `text` from `from` on (as `estimateTokens` makes
   *  them). */
  add(text: string, from = 0): this {
    let prev = SPACE;
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const k = c < 0x80 ? CLASS[c] : c >= 0xdc00 && c <= 0xdfff && prev === LEAD ? CONT : LEAD;
      if (k === LETTER) {
        this.letters++;
        if (prev !== LETTER) this.words++;
      } else if (k === DIGIT) {
        this.digits++;
        if (prev !== DIGIT) this.digitRuns++;
      } else if (k === PUNCT) this.punct++;
      else if (k === LEAD) this.nonAscii++;
      prev = k === CONT ? LEAD : k;
    }
    return this;
  }

  /** Adds (or with `sign` -1, takes away) another tally's counts. */
  plus(o: TokenTally, sign = 1): this {
    this.words += sign * o.words;
    this.letters += sign * o.letters;
    this.digitRuns += sign * o.digitRuns;
    this.digits += sign * o.digits;
    this.punct += sign * o.punct;
    this.nonAscii += sign * o.nonAscii;
    return this;
  }

  /** The weighted sum of the counts, not rounded: a text's estimate is
   *  this rounded (and at least 1 when it is not 0), so the estimates of
   *  texts whose weights are each at least a half add up to their weights'
   *  sum give or take a half each. */
  weight(): number {
    return weightOf(this.words, this.letters, this.digitRuns, this.digits, this.punct, this.nonAscii);
  }

  /** The estimate of the text counted. */
  tokens(): number {
    return weighCounts(this.words, this.letters, this.digitRuns, this.digits, this.punct, this.nonAscii);
  }

  /** The estimate of the text counted followed by `text` from `from` on,
   *  as `new TokenTally().plus(this).add(text, from).tokens()`, without
   *  a tally made (a listing weighs thousands of lines this way). */
  tokensWith(text: string, from = 0): number {
    const t = scratch;
    t.words = this.words;
    t.letters = this.letters;
    t.digitRuns = this.digitRuns;
    t.digits = this.digits;
    t.punct = this.punct;
    t.nonAscii = this.nonAscii;
    return t.add(text, from).tokens();
  }
}

/** TokenTally.tokensWith's counts (the estimate is synchronous). */
const scratch = new TokenTally();

import type { Body } from './body.ts';

/** A body's estimate: text or UTF-8 bytes. */
export function estimateTokensOfBody(body: Body): number {
  return typeof body === 'string' ? estimateTokens(body) : estimateTokensOfBytes(body);
}
