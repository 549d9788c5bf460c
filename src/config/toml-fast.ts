// A fast path for the TOML that kb configurations are nearly always made
// of: `[table.headers]` of bare keys, and `key = value` lines whose value is
// a string, a boolean or a one-line array of strings, with comments and
// blank lines. Loading the full TOML parser costs more than a third of
// kb's start-up (about 1.9 ms of `kb schema`), so the commands an assistant
// runs on every prompt parse such files here and load the full parser
// (toml.ts) only for a file that needs it.
//
// The rule: for any text, the result is either exactly what the full parser
// returns, or undefined (use the full parser). Anything this code is not
// sure about, errors included, is undefined: the full parser then reports
// it. tests/unit/config/toml-fast.test.ts holds this against the full parser
// on generated texts.

type Table = Record<string, unknown>;

const HEADER = /^\[[ \t]*([A-Za-z0-9_-]+(?:[ \t]*\.[ \t]*[A-Za-z0-9_-]+)*)[ \t]*\][ \t]*(?:#.*)?$/;
/** The longest header line the fast path reads. */
const MAX_HEADER = 1024;
const KEY_VALUE = /^([A-Za-z0-9_-]+)[ \t]*=[ \t]*/;
/** Control characters TOML allows nowhere on a line (tab is allowed). */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const REST = /^[ \t]*(?:#.*)?$/;

/** Parses `text` (without a byte-order mark) when it keeps to the simple
 *  form described above; undefined otherwise. */
export function parseSimpleToml(text: string): Table | undefined {
  const root: Table = {};
  /** Tables this parse made (so a key that holds a value is never walked
   *  into), and the ones a header defined (defining one twice is an error). */
  const tables = new Set<Table>([root]);
  const defined = new Set<Table>();
  let current = root;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    // CRLF is a line break (the last line has none: a CR there is a lone
    // one, a control character left to the full parser to report).
    const line = endsInCrlf(lines, n) ? lines[n].slice(0, -1) : lines[n];
    if (CONTROL.test(line)) return undefined;
    const start = skipBlanks(line, 0);
    if (start === line.length || line.charCodeAt(start) === 35 /* # */) continue;
    const content = start === 0 ? line : line.slice(start);

    if (content.charCodeAt(0) === 91 /* [ */) {
      // A header is a few keys long: a longer one (thousands of dotted
      // keys) goes to the full parser, which reads it in linear time, where
      // HEADER's repeated group did not (256 KiB: 0.2 s).
      if (content.length > MAX_HEADER) return undefined;
      const m = HEADER.exec(content);
      if (m === null) return undefined; // [[arrays of tables]], quoted keys...
      let table = root;
      for (const key of m[1].split('.')) {
        const k = key.trim();
        if (k in Object.prototype) return undefined; // __proto__, constructor...: the full parser's own way
        if (!Object.hasOwn(table, k)) {
          const sub: Table = {};
          tables.add(sub);
          table[k] = sub;
          table = sub;
        } else {
          const next = table[k];
          if (!tables.has(next as Table)) return undefined; // a value, not a table
          table = next as Table;
        }
      }
      if (defined.has(table)) return undefined;
      defined.add(table);
      current = table;
      continue;
    }

    const kv = KEY_VALUE.exec(content);
    if (kv === null) return undefined; // dotted or quoted keys, or not a key at all
    const key = kv[1];
    if (key in Object.prototype || Object.hasOwn(current, key)) return undefined;
    let parsed: Parsed | undefined;
    let rest: string;
    if (content.startsWith('"""', kv[0].length) || content.startsWith("'''", kv[0].length)) {
      const multi = multiLine(lines, n, start + kv[0].length);
      if (multi === undefined) return undefined;
      parsed = multi;
      n = multi.line;
      rest = lines[n].slice(multi.end, endsInCrlf(lines, n) ? -1 : undefined);
      if (CONTROL.test(rest)) return undefined;
    } else {
      parsed = value(content, kv[0].length);
      if (parsed === undefined) return undefined;
      rest = content.slice(parsed.end);
    }
    if (!REST.test(rest)) return undefined;
    current[key] = parsed.value;
  }
  return root;
}

/** Line `n` ends in CR, and a line follows: a CRLF line end. */
function endsInCrlf(lines: readonly string[], n: number): boolean {
  return n < lines.length - 1 && lines[n].endsWith('\r');
}

/** A multi-line string (""" or '''), its opening delimiter at `column` of
 *  line `n`: the value, the line it ends on and the index just past it
 *  there. Undefined for what is not sure to read as the full parser reads
 *  it: a CR or control character in it, a line-ending backslash, four
 *  quotes in a row, white space before the first line break. */
function multiLine(lines: readonly string[], n: number, column: number): (Parsed & { line: number }) | undefined {
  const delim = lines[n].slice(column, column + 3);
  const basic = delim === '"""';
  const parts: string[] = [];
  for (let i = n; i < lines.length; i++) {
    const line = lines[i];
    const from = i === n ? column + 3 : 0;
    const close = line.indexOf(delim, from);
    const piece = line.slice(from, close === -1 ? line.length : close);
    if (MULTI_CONTROL.test(piece)) return undefined;
    if (basic && close === -1 && endsWithBackslash(piece)) return undefined;
    parts.push(piece);
    if (close === -1) continue;
    if (line.charCodeAt(close + 3) === delim.charCodeAt(0)) return undefined; // four quotes or more
    // A line break right after the opening delimiter is not part of it.
    if (parts.length > 1) {
      if (parts[0] === '') parts.shift();
      else if (parts[0].trim() === '') return undefined;
    }
    const body = parts.join('\n');
    const value = basic ? unescape(body) : body;
    return value === undefined ? undefined : { value, end: close + 3, line: i };
  }
  return undefined; // never closed
}

/** Control characters a multi-line string may not hold (tab may; line
 *  breaks are between the pieces; a CR is left to the full parser). */
const MULTI_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Ends with an odd number of backslashes: a line-ending backslash. */
function endsWithBackslash(s: string): boolean {
  let k = 0;
  while (s.charCodeAt(s.length - 1 - k) === 92) k++;
  return k % 2 === 1;
}

interface Parsed {
  value: unknown;
  /** Index just past the value. */
  end: number;
}

function value(s: string, at: number): Parsed | undefined {
  const c = s.charCodeAt(at);
  if (c === 34 /* " */ || c === 39 /* ' */) return string(s, at);
  if (s.startsWith('true', at) && boundary(s, at + 4)) return { value: true, end: at + 4 };
  if (s.startsWith('false', at) && boundary(s, at + 5)) return { value: false, end: at + 5 };
  if (c === 91 /* [ */) return array(s, at);
  return undefined; // numbers, dates, inline tables...
}

/** The index of the first character at or after `i` that is not a space
 *  or a tab. */
function skipBlanks(s: string, i: number): number {
  while (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9) i++;
  return i;
}

/** What may follow a bare value. */
function boundary(s: string, at: number): boolean {
  if (at >= s.length) return true;
  const c = s.charCodeAt(at);
  return c === 32 || c === 9 || c === 35 /* # */;
}

/** A one-line array of strings (empty, or with a trailing comma). */
function array(s: string, at: number): Parsed | undefined {
  const items: string[] = [];
  let i = at + 1;
  for (;;) {
    i = skipBlanks(s, i);
    if (s.charCodeAt(i) === 93 /* ] */) return { value: items, end: i + 1 };
    const c = s.charCodeAt(i);
    if (c !== 34 && c !== 39) return undefined; // not a string (or the array goes on below)
    const item = string(s, i);
    if (item === undefined) return undefined;
    items.push(item.value as string);
    i = skipBlanks(s, item.end);
    if (s.charCodeAt(i) === 44 /* , */) i++;
    else if (s.charCodeAt(i) !== 93) return undefined;
  }
}

/** A basic ("...") or literal ('...') one-line string. */
function string(s: string, at: number): Parsed | undefined {
  const quote = s[at];
  if (s.startsWith(quote.repeat(3), at)) return undefined; // multi-line: not here
  if (quote === "'") {
    const close = s.indexOf("'", at + 1);
    return close === -1 ? undefined : { value: s.slice(at + 1, close), end: close + 1 };
  }
  for (let i = at + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 34 /* " */) {
      const value = unescape(s.slice(at + 1, i));
      return value === undefined ? undefined : { value, end: i + 1 };
    }
  }
  return undefined; // unterminated
}

/** A basic string's body with its escapes applied; undefined for an escape
 *  TOML does not have (the full parser reports it). */
function unescape(body: string): string | undefined {
  if (!body.includes('\\')) return body;
  // Pieces joined once: appending each to a string was slower than linear
  // on a long string of escapes (1 MiB of `\\\\`).
  const out: string[] = [];
  let from = 0;
  for (let i = body.indexOf('\\'); i !== -1; i = body.indexOf('\\', from)) {
    out.push(body.slice(from, i));
    const e = body[i + 1];
    const simple = ESCAPES.get(e);
    if (simple !== undefined) {
      out.push(simple);
      from = i + 2;
    } else if (e === 'u' || e === 'U') {
      const digits = e === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + digits);
      if (hex.length !== digits || !/^[0-9A-Fa-f]+$/.test(hex)) return undefined;
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
      out.push(String.fromCodePoint(cp));
      from = i + 2 + digits;
    } else {
      return undefined;
    }
  }
  out.push(body.slice(from));
  return out.join('');
}

const ESCAPES = new Map([
  ['b', '\b'],
  ['t', '\t'],
  ['n', '\n'],
  ['f', '\f'],
  ['r', '\r'],
  ['"', '"'],
  ['\\', '\\'],
]);

