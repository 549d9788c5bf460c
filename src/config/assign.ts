// The --cfg grammar (also used by JP_CFG_* variables), as pure functions:
//
//   KEY=VALUE     set; VALUE is coerced to the field's type (for a list: comma-separated values)
//   KEY+=VALUE    append VALUE to an array field
//   KEY:=JSON     set to a JSON value
//   KEY:+=JSON    append a JSON value (an array appends its items)
//   @PATH, PATH   load a configuration file (no `=`, or forced with `@`)
//
// KEY is dotted (`kb.topic.<id>.<field>`). Keys outside `kb` belong to other
// tools and are accepted without effect. Errors are UsageErrors whose `where`
// names the flag or variable.

import { UsageError } from '../shared/errors.ts';
import { type FieldDef, KB_KEY, TOPIC_KEY, article, fieldDef, hasType, isTable, typeLabel, typeName } from './fields.ts';
import type { Op } from './merge.ts';
import { depthMessage, tooDeep } from './depth.ts';

export type Operator = '=' | '+=' | ':=' | ':+=';

export type CfgValue = { kind: 'file'; path: string } | { kind: 'assign'; path: string[]; operator: Operator; raw: string };

/** Splits a --cfg value into a file reference or an assignment. */
export function parseCfg(text: string): CfgValue {
  const where = `--cfg ${text}`;
  if (text.startsWith('@')) {
    if (text.length === 1) throw new UsageError('missing file path after `@`', where);
    return { kind: 'file', path: text.slice(1) };
  }
  const eq = text.indexOf('=');
  if (eq < 0) {
    if (text.trim() === '') throw new UsageError('empty --cfg value', where);
    return { kind: 'file', path: text };
  }
  let key = text.slice(0, eq);
  let operator: Operator = '=';
  for (const suffix of [':+', ':', '+'] as const) {
    if (key.endsWith(suffix)) {
      key = key.slice(0, -suffix.length);
      operator = `${suffix}=`;
      break;
    }
  }
  return { kind: 'assign', path: parseKey(key, where), operator, raw: text.slice(eq + 1) };
}

export function parseKey(key: string, where: string): string[] {
  const trimmed = key.trim();
  if (trimmed === '') throw new UsageError('missing key before `=`', where);
  const path = trimmed.split('.');
  if (path.some((p) => p === '')) throw new UsageError(`empty segment in key \`${trimmed}\``, where);
  return path;
}

/** The change an assignment makes, or undefined for a key outside `kb`. */
export function assignmentOp(path: string[], operator: Operator, raw: string, where: string): Op | undefined {
  if (path[0] !== KB_KEY) return undefined;
  const expect = expectAt(path);
  const key = path.join('.');
  const fail = (message: string): never => {
    throw new UsageError(message, where);
  };
  const append = operator === '+=' || operator === ':+=';
  if (append && expect.kind === 'table') fail(`cannot append to \`${key}\`: it is a table`);
  if (append && expect.kind === 'field' && expect.def.type !== 'string[]') {
    fail(`cannot append to \`${key}\`: it is a ${typeLabel(expect.def.type)}, not an array; use \`=\``);
  }

  switch (operator) {
    case '=':
      return { path, value: coerce(expect, key, raw, fail) };
    case '+=':
      return { path, value: [raw], append: true };
    case ':=': {
      const value = parseJson(raw, fail);
      check(path, value, fail);
      return { path, value };
    }
    case ':+=': {
      const parsed = parseJson(raw, fail);
      const items = Array.isArray(parsed) ? parsed : [parsed];
      if (expect.kind === 'field') items.forEach((item) => typeof item === 'string' || fail(`\`${key}\` items must be strings, got ${typeName(item)}`));
      return { path, value: items, append: true };
    }
  }
}

type Expect = { kind: 'table' } | { kind: 'field'; def: FieldDef } | { kind: 'free' };

/** What the schema expects at `path` (inside `kb`). `free`: not a known
 *  field; the validator reports unknown keys. */
function expectAt(path: readonly string[]): Expect {
  if (path.length === 1) return { kind: 'table' };
  if (path[1] !== TOPIC_KEY) return { kind: 'free' };
  if (path.length <= 3) return { kind: 'table' };
  const def = path.length === 4 ? fieldDef(path[3]) : undefined;
  return def ? { kind: 'field', def } : { kind: 'free' };
}

function coerce(expect: Expect, key: string, raw: string, fail: (m: string) => never): unknown {
  if (expect.kind === 'table') {
    return fail(`\`${key}\` is a table: set one of its fields, or assign JSON with \`${key}:=...\``);
  }
  if (expect.kind === 'free') return raw;
  switch (expect.def.type) {
    case 'boolean':
      if (raw === 'true' || raw === 'false') return raw === 'true';
      return fail(`\`${key}\` takes true or false, got "${raw}"`);
    case 'string[]': {
      // As in JP: a comma separates the values and space around a value is
      // ignored; `learned=` clears the list; a missing value (a stray comma)
      // is an error. A value with a comma in it (`{a,b}/*`) takes the JSON
      // form (`learned:=["{a,b}/*"]`) or `+=`, which appends one value.
      if (raw.trim() === '') return [];
      const items = raw.split(',').map((s) => s.trim());
      if (items.some((s) => s === '')) {
        return fail(`\`${key}\` has an empty value in "${raw}"; a comma separates values (use \`${key}:=[...]\` for a value containing a comma)`);
      }
      return items;
    }
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

/** Checks a JSON value against the schema at `path`, descending tables. */
function check(path: string[], value: unknown, fail: (m: string) => never): void {
  const expect = expectAt(path);
  const key = path.join('.');
  if (expect.kind === 'table') {
    if (!isTable(value)) fail(`\`${key}\` must be a table, got ${typeName(value)}`);
    for (const k of Object.keys(value as object)) check([...path, k], (value as Record<string, unknown>)[k], fail);
  } else if (expect.kind === 'field' && !hasType(expect.def, value)) {
    const bad = Array.isArray(value) ? value.findIndex((item) => typeof item !== 'string') : -1;
    if (expect.def.type === 'string[]' && bad >= 0) fail(`\`${key}[${bad}]\` must be a string, got ${typeName((value as unknown[])[bad])}`);
    fail(`\`${key}\` must be ${article(typeLabel(expect.def.type))}, got ${typeName(value)}`);
  }
}
