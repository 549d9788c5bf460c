// Best effort: the line on which a key is set in a configuration file's text,
// so messages can say `file:line`. Only used to describe problems; a key that
// cannot be found is reported without a line.

import type { Entry, Index, Origin } from './merge.ts';
import { some } from '../shared/arrays.ts';

export type { Entry, Index };

const SEP = '\u0000';
const cache = new WeakMap<Origin, Index>();

/** `label:line` when the key is found in the origin's text, else `label`. */
export function whereOf(origin: Origin, path: readonly string[]): string {
  const line = locate(origin, path);
  return line === undefined ? origin.label : `${origin.label}:${line}`;
}

/** The key index of an origin's text (built once). */
export function indexOf(origin: Origin): Index | undefined {
  if (origin.index) return origin.index;
  if (origin.text === undefined) return undefined;
  let index = cache.get(origin);
  if (!index) {
    index = origin.format === 'toml' || origin.format === undefined ? indexToml(origin.text) : indexJson(origin.text);
    cache.set(origin, index);
  }
  return index;
}

/** The key of `path` in an index. */
export function indexKey(path: readonly string[]): string {
  return path.join(SEP);
}

/** The 1-based line where `path` (a key or a table) is first set. */
export function locate(origin: Origin, path: readonly string[]): number | undefined {
  const index = indexOf(origin);
  if (index === undefined) return undefined;
  const exact = index.get(path.join(SEP));
  if (exact) return exact.line;
  // A key inside an inline table is reported on the inline table's line.
  for (let n = path.length - 1; n > 0; n--) {
    const entry = index.get(path.slice(0, n).join(SEP));
    if (entry?.inline) return entry.line;
  }
  return undefined;
}

export function record(index: Index, path: readonly string[], line: number, pos: number, inline = false): void {
  for (let n = 1; n <= path.length; n++) {
    const key = path.slice(0, n).join(SEP);
    if (!index.has(key)) index.set(key, n === path.length && inline ? { line, pos, inline } : { line, pos });
  }
}

/** Line scanner for TOML: table headers, (dotted, quoted) keys, and skipping
 *  the inside of multi-line strings. */
export function indexToml(text: string): Index {
  const index: Index = new Map();
  const lines = text.split('\n');
  let table: string[] = [];
  let inString: string | undefined; // the delimiter of an open multi-line string
  let offset = 0; // of the current line's start
  for (let i = 0; i < lines.length; offset += lines[i].length + 1, i++) {
    const line = lines[i];
    const pos = offset + (line.length - line.trimStart().length);
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
        record(index, table, i + 1, pos);
      }
      continue;
    }
    const keys = parseKeys(s, 0);
    if (!keys || s[keys.end] !== '=') continue;
    const value = s.slice(keys.end + 1).trimStart();
    record(index, [...table, ...keys.keys], i + 1, pos, value.startsWith('{') || value.startsWith('['));
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

/** Character scanner for JSON (and JSON5, whose keys may be bare words or
 *  single-quoted): records each object key's line. Comments (line, block
 *  and `#`, which JP's JSON reader strips) are skipped. */
export function indexJson(text: string): Index {
  const index: Index = new Map();
  // Each open container: its key path, and (objects) the key awaiting a value.
  const stack: { path: string[]; array: boolean; key?: string; item: number }[] = [];
  let line = 1;
  let lastString: { value: string; pos: number } | undefined;
  const top = () => stack[stack.length - 1];
  const childPath = (): string[] => {
    const t = top();
    if (!t) return [];
    return [...t.path, t.array ? String(t.item) : (t.key ?? '')];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if ((c === '/' && text[i + 1] === '/') || c === '#') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (let j = i; j < stop; j++) if (text[j] === '\n') line++;
      i = stop - 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let str = '';
      for (; j < text.length && text[j] !== c; j++) {
        if (text[j] === '\\') j++;
        if (text[j] === '\n') line++;
        str += text[j] ?? '';
      }
      lastString = { value: str, pos: i };
      i = j;
    } else if (/[A-Za-z_$]/.test(c) && top() && !top().array) {
      // A bare JSON5 key (or a literal such as `true`, which no `:` follows).
      let j = i;
      while (j < text.length && /[\w$]/.test(text[j])) j++;
      lastString = { value: text.slice(i, j), pos: i };
      i = j - 1;
    } else if (c === ':' && top() && !top().array && lastString !== undefined) {
      top().key = lastString.value;
      record(index, [...top().path, lastString.value], line, lastString.pos);
      lastString = undefined;
    } else if (c === '{' || c === '[') {
      const path = childPath();
      if (path.length) record(index, path, line, i, true);
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

/** Whether JavaScript enumerates `key` before the other keys of an object
 *  (an array index: `0`, `10`), whatever the order it was written in. */
function isIndexKey(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** Whether a table anywhere in `value` has a key JavaScript would move to
 *  the front. */
function hasIndexKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || value instanceof Date || value instanceof Map) return false;
  if (Array.isArray(value)) return some(value as unknown[], (v) => hasIndexKey(v));
  for (const key of Object.keys(value)) {
    if (isIndexKey(key) || hasIndexKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * `value` (parsed from a text whose key index `index()` gives; `path` is
 * where it sits in that text) with every table keeping the order its keys
 * were written in. A JavaScript object lists array-index keys (`10`) first,
 * so a table holding one becomes a Map in source order; the merge
 * (merge.ts) takes both. Keys the index does not know keep their relative
 * order, last. `value` itself when no table has such a key (nearly always:
 * the index is then not even built).
 */
export function inSourceOrder(value: unknown, index: () => Index | undefined, path: readonly string[] = []): unknown {
  if (!hasIndexKey(value)) return value;
  return reorder(value, index(), path);
}

function reorder(value: unknown, index: Index | undefined, path: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date || value instanceof Map) return value;
  const keys = Object.keys(value);
  const entries: [string, unknown][] = keys.map((k) => [k, reorder((value as Record<string, unknown>)[k], index, [...path, k])]);
  if (!keys.some(isIndexKey)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out;
  }
  const pos = (k: string) => index?.get([...path, k].join(SEP))?.pos ?? Number.POSITIVE_INFINITY;
  return new Map(entries.map((e, i) => [e, pos(e[0]), i] as const).sort((a, b) => a[1] - b[1] || a[2] - b[2]).map(([e]) => e));
}
