// Best effort: the line on which a key is set in a configuration file's text,
// so messages can say `file:line`. Only used to describe problems; a key that
// cannot be found is reported without a line.

import type { Origin } from './merge.ts';

interface Entry {
  line: number;
  /** The value on this line is an inline table or array: keys below it live
   *  on the same line (or the next few). */
  inline?: boolean;
}

type Index = Map<string, Entry>;

const SEP = '\u0000';
const cache = new WeakMap<Origin, Index>();

/** `label:line` when the key is found in the origin's text, else `label`. */
export function whereOf(origin: Origin, path: readonly string[]): string {
  const line = locate(origin, path);
  return line === undefined ? origin.label : `${origin.label}:${line}`;
}

/** The 1-based line where `path` (a key or a table) is first set. */
export function locate(origin: Origin, path: readonly string[]): number | undefined {
  if (origin.text === undefined) return undefined;
  let index = cache.get(origin);
  if (!index) {
    index = origin.format === 'json' ? indexJson(origin.text) : indexToml(origin.text);
    cache.set(origin, index);
  }
  const exact = index.get(path.join(SEP));
  if (exact) return exact.line;
  // A key inside an inline table is reported on the inline table's line.
  for (let n = path.length - 1; n > 0; n--) {
    const entry = index.get(path.slice(0, n).join(SEP));
    if (entry?.inline) return entry.line;
  }
  return undefined;
}

function record(index: Index, path: string[], line: number, inline = false): void {
  for (let n = 1; n <= path.length; n++) {
    const key = path.slice(0, n).join(SEP);
    if (!index.has(key)) index.set(key, n === path.length && inline ? { line, inline } : { line });
  }
}

/** Line scanner for TOML: table headers, (dotted, quoted) keys, and skipping
 *  the inside of multi-line strings. */
export function indexToml(text: string): Index {
  const index: Index = new Map();
  const lines = text.split('\n');
  let table: string[] = [];
  let inString: string | undefined; // the delimiter of an open multi-line string
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (inString) {
      if (line.includes(inString)) inString = undefined;
      continue;
    }
    const s = line.trimStart();
    if (s === '' || s.startsWith('#')) continue;
    if (s.startsWith('[')) {
      const keys = parseKeys(s, s.startsWith('[[') ? 2 : 1);
      if (keys) {
        table = keys.keys;
        record(index, table, i + 1);
      }
      continue;
    }
    const keys = parseKeys(s, 0);
    if (!keys || s[keys.end] !== '=') continue;
    const value = s.slice(keys.end + 1).trimStart();
    record(index, [...table, ...keys.keys], i + 1, value.startsWith('{') || value.startsWith('['));
    for (const delim of ['"""', "'''"]) {
      if (value.startsWith(delim) && !value.slice(3).includes(delim)) inString = delim;
    }
  }
  return index;
}

/** Parses `a.b."c d".'e'` at `pos`; `end` is the first non-space after it. */
function parseKeys(s: string, pos: number): { keys: string[]; end: number } | undefined {
  const keys: string[] = [];
  const skip = () => {
    while (s[pos] === ' ' || s[pos] === '\t') pos++;
  };
  for (;;) {
    skip();
    const quote = s[pos];
    if (quote === '"' || quote === "'") {
      let key = '';
      for (pos++; pos < s.length && s[pos] !== quote; pos++) {
        if (quote === '"' && s[pos] === '\\') pos++;
        key += s[pos] ?? '';
      }
      if (pos >= s.length) return undefined;
      pos++;
      keys.push(key);
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(s.slice(pos));
      if (!bare) return undefined;
      keys.push(bare[0]);
      pos += bare[0].length;
    }
    skip();
    if (s[pos] !== '.') return { keys, end: pos };
    pos++;
  }
}

/** Character scanner for JSON: records each object key's line. */
export function indexJson(text: string): Index {
  const index: Index = new Map();
  // Each open container: its key path, and (objects) the key awaiting a value.
  const stack: { path: string[]; array: boolean; key?: string; item: number }[] = [];
  let line = 1;
  let lastString: string | undefined;
  const top = () => stack[stack.length - 1];
  const childPath = (): string[] => {
    const t = top();
    if (!t) return [];
    return [...t.path, t.array ? String(t.item) : (t.key ?? '')];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '"') {
      let j = i + 1;
      let str = '';
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\') j++;
        str += text[j] ?? '';
      }
      i = j;
      lastString = str;
    } else if (c === ':' && top() && !top().array && lastString !== undefined) {
      top().key = lastString;
      record(index, [...top().path, lastString], line);
      lastString = undefined;
    } else if (c === '{' || c === '[') {
      const path = childPath();
      if (path.length) record(index, path, line, true);
      stack.push({ path, array: c === '[', item: 0 });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const t = top();
      if (t?.array) t.item++;
      else if (t) t.key = undefined;
      lastString = undefined;
    }
  }
  return index;
}
