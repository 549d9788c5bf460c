// The --cfg grammar (also used by JP_CFG_* variables), as pure functions.
// It follows JP's (jp_cli `KeyValueOrPath::from_str`, jp_config
// `assignment.rs`):
//
//   KEY=VALUE     set; VALUE is coerced to the field's type
//   KEY+=VALUE    merge: a list appends (other fields are set, see below)
//   KEY:=JSON     set to a JSON value
//   KEY:+=JSON    merge a JSON value (`+:=` too: the `+` and `:` of an
//                 operator come in either order)
//   {JSON}        a whole configuration object, merged
//   @PATH, PATH   load a configuration file (no `=`, or forced with `@`)
//
// A list takes a string (`=`, `+=`, or a JSON string) as comma-separated
// items, trimmed, empty ones dropped (`try_vec`, `try_parse_vec`), or a
// JSON array of strings. `KEY.N=VALUE` replaces item N, which must exist.
// KEY is dotted (`kb.topic.<id>.<field>`). A JSON object assigned to a
// table is checked key by key, an unknown key refused (JP's `missing_key`);
// `:=` on the topic map replaces it, `:+=` merges into it, lists inside
// appended (JP's `assign_to_entry`, `try_vec` under `Strategy::Merge`).
// The directives `inherit` and `config_load_paths` are type-checked as JP
// does (`PartialAppConfig::assign`) and change nothing here. Other keys
// outside `kb` belong to other tools and are accepted without effect.
// Errors are UsageErrors whose `where` names the flag or variable.

import { UsageError } from '../shared/errors.ts';
import { type FieldType, KB_KEY, TOPIC_KEY, article, directiveType, fieldDef, isTable, typeLabel, tomlTypeName } from './fields.ts';
import type { Op } from './merge.ts';
import { depthMessage, tooDeep } from './depth.ts';
import { inSourceOrder, indexJson } from './locate.ts';
import { unknownKeyMessage } from './validate.ts';

export type Operator = '=' | '+=' | ':=' | ':+=';

export type CfgValue =
  | { kind: 'file'; path: string }
  | { kind: 'assign'; path: string[]; operator: Operator; raw: string }
  | { kind: 'object'; value: Record<string, unknown>; raw: string };

/** Splits a --cfg value into a file reference, a JSON object or an
 *  assignment. */
export function parseCfg(text: string): CfgValue {
  const where = `--cfg ${text}`;
  if (text.startsWith('@')) {
    const path = text.slice(1).trim();
    if (path === '') throw new UsageError('missing file path after `@`', where);
    return { kind: 'file', path };
  }
  if (text.startsWith('{')) {
    const value = parseJson(text, (m) => {
      throw new UsageError(m, where);
    });
    if (!isTable(value)) throw new UsageError(`a --cfg JSON value must be an object, got ${tomlTypeName(value)}`, where);
    return { kind: 'object', value, raw: text };
  }
  const eq = text.indexOf('=');
  if (eq < 0) {
    if (text.trim() === '') throw new UsageError('empty --cfg value', where);
    return { kind: 'file', path: text.trim() };
  }
  // The operator's `:` (JSON) and `+` (merge), each at most once, in either
  // order, before the `=` (JP's `try_from_cli`).
  let key = text.slice(0, eq);
  let json = false;
  let merge = false;
  for (;;) {
    if (!json && key.endsWith(':')) json = true;
    else if (!merge && key.endsWith('+')) merge = true;
    else break;
    key = key.slice(0, -1);
  }
  const operator: Operator = json ? (merge ? ':+=' : ':=') : merge ? '+=' : '=';
  return { kind: 'assign', path: parseKey(key, where), operator, raw: text.slice(eq + 1) };
}

export function parseKey(key: string, where: string): string[] {
  const trimmed = key.trim();
  if (trimmed === '') throw new UsageError('missing key before `=`', where);
  const path = trimmed.split('.');
  if (path.some((p) => p === '')) throw new UsageError(`empty segment in key \`${trimmed}\``, where);
  return path;
}

/** The change a `{...}` --cfg value makes: its `kb` merged (deeply, as a
 *  file's), or undefined when it has none. Its `kb` and directives are
 *  checked as assignments are. */
export function objectOp(value: Record<string, unknown>, raw: string, where: string): Op | undefined {
  const fail = (message: string): never => {
    throw new UsageError(message, where);
  };
  for (const key of Object.keys(value)) if (directiveType(key)) normalize([key], value[key], fail);
  if (!(KB_KEY in value)) return undefined;
  return { path: [KB_KEY], value: normalize([KB_KEY], inSourceOrder(value[KB_KEY], () => indexJson(raw), [KB_KEY]), fail) };
}

/** The change an assignment makes, or undefined for a key outside `kb`
 *  (a directive's value is checked all the same). */
export function assignmentOp(path: string[], operator: Operator, raw: string, where: string): Op | undefined {
  if (path[0] !== KB_KEY && directiveType(path[0]) === undefined) return undefined;
  const op = checkedOp(path, operator, raw, where);
  return path[0] === KB_KEY ? op : undefined;
}

function checkedOp(path: string[], operator: Operator, raw: string, where: string): Op {
  const key = path.join('.');
  const fail = (message: string): never => {
    throw new UsageError(message, where);
  };
  const json = operator === ':=' || operator === ':+=';
  const append = operator === '+=' || operator === ':+=';

  // KEY.N: item N of a list.
  const item = listItem(path);
  if (item) {
    if (item.rest) fail(`\`${item.list.join('.')}\` holds strings: \`${key}\` names nothing`);
    const value = json ? parseJson(raw, fail) : raw;
    if (typeof value !== 'string') fail(`\`${key}\` must be a string, got ${tomlTypeName(value)}`);
    return { path: item.list, index: item.index, value };
  }

  const expect = expectAt(path);
  if (expect.kind === 'field' && expect.type === 'string[]') {
    const items = listItems(json ? parseJson(raw, fail) : raw, key, fail);
    return append ? { path, value: items, append: true } : { path, value: items };
  }
  if (expect.kind === 'names-nothing') fail(`\`${path[0]}\` is ${article(typeLabel(expect.type))}: \`${key}\` names nothing`);
  if (append && expect.kind === 'table') {
    // `:+=` merges an object in, lists inside appended (JP's `Strategy::Merge`).
    if (!json) fail(`cannot append to \`${key}\`: it is a table`);
    return { path, value: normalize(path, inSourceOrder(parseJson(raw, fail), () => indexJson(raw)), fail), append: true };
  }
  if (append && expect.kind === 'field') fail(`cannot append to \`${key}\`: it is a ${typeLabel(expect.type)}, not an array; use \`=\``);
  if (json) {
    const value = parseJson(raw, fail);
    if (append) return { path, value: Array.isArray(value) ? value : [value], append: true }; // a key kb does not know
    const normalized = normalize(path, inSourceOrder(value, () => indexJson(raw)), fail);
    // `:=` on the topic map replaces it (JP's `assign_to_entry`, `Strategy::Set`).
    return isTopicMap(path) ? { path, value: normalized, replace: true } : { path, value: normalized };
  }
  if (append) return { path, value: [raw], append: true };
  return { path, value: coerce(expect, key, raw, fail) };
}

/** `kb.topic.<id>.<list field>.<N>[.more]` or `config_load_paths.<N>[.more]`:
 *  the list, N, and whether more segments follow. */
function listItem(path: readonly string[]): { list: string[]; index: number; rest: boolean } | undefined {
  const n = path[0] === KB_KEY ? 4 : 1;
  if (path.length <= n || typeAt(path.slice(0, n)) !== 'string[]' || !/^\d+$/.test(path[n])) return undefined;
  return { list: path.slice(0, n), index: Number(path[n]), rest: path.length > n + 1 };
}

/** `kb.topic`, the map of topics. */
function isTopicMap(path: readonly string[]): boolean {
  return path.length === 2 && path[0] === KB_KEY && path[1] === TOPIC_KEY;
}

/** The type of the field at `path`: a topic's field or a directive. */
function typeAt(path: readonly string[]): FieldType | undefined {
  if (path[0] !== KB_KEY) return path.length === 1 ? directiveType(path[0]) : undefined;
  return path.length === 4 && path[1] === TOPIC_KEY ? fieldDef(path[3])?.type : undefined;
}

/** A list's items from a string (comma-separated: trimmed, empty ones
 *  dropped) or a JSON array of strings (JP's `try_vec`). */
export function listItems(value: unknown, key: string, fail: (m: string) => never): string[] {
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (!Array.isArray(value)) return fail(`\`${key}\` must be an array of strings or a comma-separated string, got ${tomlTypeName(value)}`);
  const bad = value.findIndex((v) => typeof v !== 'string');
  if (bad >= 0) fail(`\`${key}[${bad}]\` must be a string, got ${tomlTypeName(value[bad])}`);
  return value as string[];
}

type Expect = { kind: 'table' } | { kind: 'field'; type: FieldType } | { kind: 'names-nothing'; type: FieldType } | { kind: 'free' };

/** What the schema expects at `path` (inside `kb`, or a directive). `free`:
 *  not a known field (named in a key, the validator reports it; inside an
 *  object, `normalize` refuses it). `names-nothing`: below a directive. */
function expectAt(path: readonly string[]): Expect {
  if (path[0] !== KB_KEY) {
    const type = directiveType(path[0]);
    if (type === undefined) return { kind: 'free' };
    return path.length === 1 ? { kind: 'field', type } : { kind: 'names-nothing', type };
  }
  if (path.length === 1) return { kind: 'table' };
  if (path[1] !== TOPIC_KEY) return { kind: 'free' };
  if (path.length <= 3) return { kind: 'table' };
  const type = typeAt(path);
  return type ? { kind: 'field', type } : { kind: 'free' };
}

function coerce(expect: Expect, key: string, raw: string, fail: (m: string) => never): unknown {
  if (expect.kind === 'table') {
    return fail(`\`${key}\` is a table: set one of its fields, or assign JSON with \`${key}:=...\``);
  }
  if (expect.kind !== 'field') return raw;
  switch (expect.type) {
    case 'boolean':
      if (raw === 'true' || raw === 'false') return raw === 'true';
      return fail(`\`${key}\` takes true or false, got "${raw}"`);
    case 'string[]':
      return listItems(raw, key, fail);
    case 'string':
      return raw;
  }
}

function parseJson(raw: string, fail: (m: string) => never): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return fail(`invalid JSON: ${(err as Error).message}`);
  }
  return tooDeep(value) ? fail(`invalid JSON: ${depthMessage()}`) : value;
}

/** A JSON value checked against the schema at `path`, descending tables;
 *  a key a table does not hold is refused (the user typed it: JP's
 *  `missing_key`); a string given for a list is split as in `KEY=VALUE`.
 *  Tables may be Maps (source order). */
function normalize(path: string[], value: unknown, fail: (m: string) => never): unknown {
  const expect = expectAt(path);
  const key = path.join('.');
  if (expect.kind === 'names-nothing') return fail(`\`${path[0]}\` is ${article(typeLabel(expect.type))}: \`${key}\` names nothing`);
  if (expect.kind === 'table') {
    if (!isTable(value)) return fail(`\`${key}\` must be a table, got ${tomlTypeName(value)}`);
    for (const k of value instanceof Map ? (value as Map<string, unknown>).keys() : Object.keys(value)) {
      if (expectAt([...path, k]).kind === 'free') fail(unknownKeyMessage(k, path.length === 3 ? path[2] : undefined));
    }
    if (value instanceof Map) return new Map([...(value as Map<string, unknown>)].map(([k, v]) => [k, normalize([...path, k], v, fail)]));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, { value: normalize([...path, k], v, fail), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (expect.kind !== 'field') return value;
  if (expect.type === 'string[]') return listItems(value, key, fail);
  if (typeof value !== expect.type) fail(`\`${key}\` must be ${article(typeLabel(expect.type))}, got ${tomlTypeName(value)}`);
  return value;
}
