// Small text utilities shared by every layer.

import { inCodeUnitOrder } from './arrays.ts';

/** `512 B`, `1.0 GiB`, `16 MiB`: a size in bytes for people. */
export function humanSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** The JSON name of a value's type (`null`, `array`, `object`, `string`,
 *  `number`, `boolean`), for "not <type>" in messages about a model's or a
 *  client's JSON. (Configuration values have TOML names: config/fields.ts
 *  `tomlTypeName`.) */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Plain UTF-16 code-unit order (never locale order):
 *  `B` < `a` < `a-b` < `a/b` < `a_c`. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Natural order: code-unit order (compareCodeUnits), but where both
 *  strings hold a run of ASCII digits at the same place the runs compare
 *  by value (`4.2.2` < `4.2.10`); runs of one value compare by their text
 *  at once (`1` < `01`), so strings sharing a prefix that ends outside a
 *  run of digits stay together, as in code-unit order (a folder's
 *  subjects). One pass over the common part: linear in the shorter
 *  string. */
export function compareNatural(a: string, b: string): number {
  const na = a.length;
  const nb = b.length;
  let i = 0;
  let j = 0;
  while (i < na && j < nb) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      const order = compareDigitRuns(a, i, b, j);
      if (order !== 0) return order;
      i = runEndA;
      j = runEndB;
      continue;
    }
    if (ca !== cb) return ca < cb ? -1 : 1;
    i++;
    j++;
  }
  return na - i < nb - j ? -1 : na - i > nb - j ? 1 : 0;
}

/** `items`, sorted by `key` in code-unit order, in natural order
 *  (compareNatural): the same array when nothing moves. Each key is asked
 *  for once; the keys are compared as their natural keys (naturalKeys),
 *  by the engine's own string comparison and sort (shared/arrays.ts
 *  inCodeUnitOrder). A comparator sort of a 3,000-subject listing's 2,300
 *  lines took 3 to 4 ms in a one-shot command, its natural keys made one
 *  by one 2 to 3 ms; made for all the lines at once, well under 1 ms.
 *  Keys hold no NUL (names and slugs cannot). */
export function naturallySorted<T>(items: T[], key: (item: T) => string): T[] {
  const n = items.length;
  if (n < 2) return items;
  const keys = new Array<string>(n);
  for (let i = 0; i < n; i++) keys[i] = key(items[i]);
  const natural = naturalKeys(keys);
  let moved = false;
  for (let i = 1; i < n && !moved; i++) if (natural[i - 1] > natural[i]) moved = true;
  return moved ? inCodeUnitOrder(items, natural) : items;
}

// A run of exactly so many digits, and its natural key (naturalKey: the
// count of its digits, the digits, no leading zero), longest first: each
// pass makes the runs it rewrites one digit longer, which only the passes
// before it would have matched.
const RUNS_BY_LENGTH: readonly (readonly [RegExp, string])[] = [
  [/(?<![0-9])[0-9]{8}(?![0-9])/g, '8$&\u0001\u0001'],
  [/(?<![0-9])[0-9]{7}(?![0-9])/g, '7$&\u0001\u0001'],
  [/(?<![0-9])[0-9]{6}(?![0-9])/g, '6$&\u0001\u0001'],
  [/(?<![0-9])[0-9]{5}(?![0-9])/g, '5$&\u0001\u0001'],
  [/(?<![0-9])[0-9]{4}(?![0-9])/g, '4$&\u0001\u0001'],
  [/(?<![0-9])[0-9]{3}(?![0-9])/g, '3$&\u0001\u0001'],
  [/(?<![0-9])[0-9]{2}(?![0-9])/g, '2$&\u0001\u0001'],
  [/(?<![0-9])[0-9](?![0-9])/g, '1$&\u0001\u0001'],
];
/** A run of digits with a leading zero, or of nine digits or more. */
const ZEROS_OR_LONG = /(?<![0-9])0[0-9]|[0-9]{9}/;

/** The natural key of each of `keys` (naturalKey), in order. Where no run
 *  of digits has a leading zero or nine digits, in a few passes of the
 *  runtime over all the keys joined (NUL between them); else one by one. */
export function naturalKeys(keys: readonly string[]): string[] {
  let joined = keys.join('\0');
  if (!ZEROS_OR_LONG.test(joined)) {
    for (const [runs, key] of RUNS_BY_LENGTH) joined = joined.replace(runs, key);
    const out = joined.split('\0');
    if (out.length === keys.length) return out;
  }
  const out = new Array<string>(keys.length);
  for (let i = 0; i < keys.length; i++) out[i] = naturalKey(keys[i]);
  return out;
}

const DIGIT_RUNS = /[0-9]+/g;

/**
 * `s` as a string whose code-unit order is compareNatural's: each run of
 * digits becomes a digit (`1` to `8`: its significant digits' count; `9`:
 * nine or more, the count following in two code units), its significant
 * digits, and its count of leading zeros (two code units). Against a
 * character that is no digit, a run compares as its first digit did
 * (every digit is on the same side of it); against another run, by
 * value, then by leading zeros, as compareDigitRuns; runs of one value
 * and zeros are as long, so what follows them compares in step. A count
 * is written in base 32,768 plus one, so that a key holds no NUL when `s`
 * holds none (arrays.ts inCodeUnitOrder sorts such keys).
 */
export function naturalKey(s: string): string {
  return s.replace(DIGIT_RUNS, encodeRun);
}

function encodeRun(run: string): string {
  let z = 0;
  while (z < run.length - 1 && run.charCodeAt(z) === 0x30) z++;
  const count = run.length - z;
  const head = count < 9 ? String.fromCharCode(0x30 + count) : `9${countUnits(count)}`;
  return `${head}${z === 0 ? run : run.slice(z)}${countUnits(z)}`;
}

/** A count below 2^30 as two code units, in its order, neither a NUL. */
function countUnits(n: number): string {
  return String.fromCharCode(1 + (n >>> 15), 1 + (n & 0x7fff));
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

// Where the runs compareDigitRuns compared end (in `a`, in `b`): kept here
// rather than returned in an object, which a sort would make by the
// thousand.
let runEndA = 0;
let runEndB = 0;

/** The runs of digits at `i` of `a` and `j` of `b`: by value (leading
 *  zeros aside: the longer significant run is larger, else the first
 *  digit that differs), then by their text (fewer leading zeros first).
 *  Sets runEndA and runEndB. */
function compareDigitRuns(a: string, i: number, b: string, j: number): number {
  let ea = i;
  while (ea < a.length && isDigit(a.charCodeAt(ea))) ea++;
  let eb = j;
  while (eb < b.length && isDigit(b.charCodeAt(eb))) eb++;
  runEndA = ea;
  runEndB = eb;
  let za = i;
  while (za < ea - 1 && a.charCodeAt(za) === 0x30) za++;
  let zb = j;
  while (zb < eb - 1 && b.charCodeAt(zb) === 0x30) zb++;
  const la = ea - za;
  const lb = eb - zb;
  if (la !== lb) return la < lb ? -1 : 1;
  for (let k = 0; k < la; k++) {
    const da = a.charCodeAt(za + k);
    const db = b.charCodeAt(zb + k);
    if (da !== db) return da < db ? -1 : 1;
  }
  // One value: the run with fewer leading zeros (the shorter) first.
  return ea - i < eb - j ? -1 : ea - i > eb - j ? 1 : 0;
}

/** The length of `s` in UTF-8 bytes, without encoding it. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  // A surrogate pair counted 1 + 1 + 1 + 1 = 4 bytes above: right.
  return n;
}

/** A whole number for people, with thousands separators: 20,000 (what
 *  `toLocaleString('en-US')` gives). Written out here for every safe
 *  integer: the first toLocaleString of a process sets up the engine's
 *  locale data, 1.5 to 7 ms measured in the compiled binary, paid by every
 *  listing over budget and every search (a result shows its tokens). */
/** An estimate of tokens, as every line of kb says one: `~1 token`,
 *  `~1,234 tokens`. */
export function aboutTokens(n: number): string {
  return `~${countText(n)} token${Math.round(n) === 1 ? '' : 's'}`;
}

export function countText(n: number): string {
  const r = Math.round(n);
  if (!Number.isSafeInteger(r) || Object.is(r, -0)) return r.toLocaleString('en-US');
  const digits = String(r < 0 ? -r : r);
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return r < 0 ? `-${out}` : out;
}

/**
 * `text` cut at each of the `separators` characters that stands outside
 * braces (a comma in `{a,b}` belongs to a glob's alternatives) and is not
 * escaped by a backslash (`\,` and `\{` are literal, as in a glob). An
 * unmatched `}` is text. The parts are returned as they are (not trimmed):
 * n separators give n + 1 parts.
 */
export function splitOutsideBraces(text: string, separators: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      if (depth > 0) depth--;
    } else if (depth === 0 && separators.includes(ch)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The offset of the first byte of `bytes` that is not part of a valid
 *  UTF-8 sequence (overlong forms, surrogates and values past U+10FFFF
 *  are invalid, as for TextDecoder), or -1 when all of it is valid. */
export function invalidUtf8At(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let len: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      len = 3;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      len = 4;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k < len; k++) {
      const c = i + k < n ? bytes[i + k] : -1;
      if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += len;
  }
  return -1;
}

/** East Asian wide and fullwidth characters, and emoji shown wide: two
 *  columns each at a terminal (the main ranges of wcwidth). */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x2753, 0x2755],
  [0x2795, 0x2797],
  [0x2b1b, 0x2b1c],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

/** Combining marks and the zero-width joiner and selectors: no column of
 *  their own. */
const ZERO_WIDTH = /^[\p{M}\u200d\ufe00-\ufe0f]$/u;

/** The columns one character (a code point) takes at a terminal. */
export function charWidth(c: string): number {
  const cp = c.codePointAt(0)!;
  if (cp < 0x300) return 1;
  if (ZERO_WIDTH.test(c)) return 0;
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < WIDE[mid][0]) hi = mid - 1;
    else if (cp > WIDE[mid][1]) lo = mid + 1;
    else return 2;
  }
  return 1;
}

/** `s` (one line, without control characters) fitted to `columns`
 *  columns of a terminal: whole when it takes fewer, else cut, by
 *  characters, ending in `…`. Always fewer than `columns` columns, so that
 *  the cursor never reaches the last column and the line never wraps. */
export function fitColumns(s: string, columns: number): string {
  let width = 0;
  let cut = -1; // where the text goes past columns - 2
  let at = 0;
  for (const c of s) {
    width += charWidth(c);
    if (cut < 0 && width > columns - 2) cut = at;
    if (width >= columns) return `${s.slice(0, cut)}…`;
    at += c.length;
  }
  return s;
}

/** `s` without the characters of `chars` that end it: what
 *  `s.replace(/[...]+$/, '')` gives, in time linear in `s` (that
 *  expression is tried from every character of a long run that does not
 *  end the text). */
export function trimEndChars(s: string, chars: string): string {
  let e = s.length;
  while (e > 0 && chars.includes(s[e - 1])) e--;
  return e === s.length ? s : s.slice(0, e);
}
