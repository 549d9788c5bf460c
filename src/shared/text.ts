// Small text utilities shared by every layer.

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

/** `s` without the characters of `chars` that end it: what
 *  `s.replace(/[...]+$/, '')` gives, in time linear in `s` (that
 *  expression is tried from every character of a long run that does not
 *  end the text). */
export function trimEndChars(s: string, chars: string): string {
  let e = s.length;
  while (e > 0 && chars.includes(s[e - 1])) e--;
  return e === s.length ? s : s.slice(0, e);
}
