// Values checked against a JSON Schema, in the words a person reads: a
// tool call's arguments (app/tools/validate.ts `checkArgs`, which adds a
// tool's own rules and takes null as "absent") and an MCP request's params
// (mcp/methods.ts, with `checkProperties` below) say what a value must be
// the same way: `"key" must be a string, not number`.
//
// Untrusted input is looked at once, in order, and the first problem is
// the answer: the work is linear in the value (only what the schema
// describes is entered, so a deep value costs no deeper walk).
import { jsonQuoted } from './controls.ts';
import { typeName } from './text.ts';
import type { JsonType } from './tool.ts';

/** What these checks read of a schema: its type, and its items' type. */
export interface Typed {
  readonly type?: JsonType | readonly JsonType[];
  readonly items?: Typed;
}

/** A JSON Schema of a value in a message (the params of a request): its
 *  type, and for an object, its properties (in the order they are
 *  checked), the ones it requires, and what any other property must be
 *  (`additionalProperties`). Other keywords are not checked. */
export interface ValueSchema extends Typed {
  readonly description?: string;
  readonly properties?: { readonly [name: string]: ValueSchema };
  readonly required?: readonly string[];
  readonly additionalProperties?: ValueSchema;
}

/** A key as shown in a problem: JSON-quoted, cut to 40 characters. */
export function shownKey(key: string): string {
  return jsonQuoted(key.length > 40 ? `${key.slice(0, 40)}…` : key);
}

/** The types a schema allows (none: any value). */
export function typesOf(s: Typed): JsonType[] {
  if (s.type === undefined) return [];
  return typeof s.type === 'string' ? [s.type] : [...s.type];
}

export function hasType(t: JsonType, v: unknown): boolean {
  switch (t) {
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeName(v) === 'object';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    default:
      return typeof v === t;
  }
}

/** `a string`, `an array of strings`, `an integer`... */
function phrase(t: JsonType, s: Typed): string {
  switch (t) {
    case 'array': {
      const items = s.items === undefined ? [] : typesOf(s.items);
      return items.length === 1 && items[0] !== 'array' && items[0] !== 'null' ? `an array of ${items[0]}s` : 'an array';
    }
    case 'integer':
    case 'object':
      return `an ${t}`;
    case 'null':
      return 'null';
    default:
      return `a ${t}`;
  }
}

/** What a value must be: `a string, an array of strings or null`.
 *  `nullable`: null is allowed too (a tool's optional parameter). */
export function expected(s: Typed, nullable: boolean): string {
  const types = typesOf(s);
  if (nullable && !types.includes('null')) types.push('null');
  const words = types.map((t) => phrase(t, s));
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : (words[0] ?? 'a value');
}

/** What a value is, in a type problem: its JSON type, or the number
 *  itself where an integer was wanted (`not 2.5`). */
export function actual(s: Typed, v: unknown): string {
  return typeof v === 'number' && typesOf(s).includes('integer') ? String(v) : typeName(v);
}

/**
 * The first problem with object `obj` against object schema `schema`, or
 * undefined: in the schema's order, a required property missing (`"name"
 * must be a string, not missing`) or one of the wrong type (`"cursor" must
 * be a string, not number`); then inside it, as its schema says (an
 * object's properties, or every property against `additionalProperties`:
 * `"arguments"."topic" must be a string, not number`). Null is a value
 * like any other, not an absence. Properties the schema does not name are
 * not looked at (unless `additionalProperties` says what they must be).
 * `at`: how the object itself is named (empty at the top).
 */
export function checkProperties(schema: ValueSchema, obj: Readonly<Record<string, unknown>>, at = ''): string | undefined {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  for (const [key, s] of Object.entries(properties)) {
    const name = `${at}${shownKey(key)}`;
    if (!Object.hasOwn(obj, key) || obj[key] === undefined) {
      if (required.includes(key)) return `${name} must be ${expected(s, false)}, not missing`;
      continue;
    }
    const problem = checkValue(s, obj[key], name);
    if (problem !== undefined) return problem;
  }
  const other = schema.additionalProperties;
  if (other === undefined || typesOf(other).length === 0) return undefined;
  for (const key of Object.keys(obj)) {
    if (Object.hasOwn(properties, key)) continue;
    const problem = checkValue(other, obj[key], `${at}${shownKey(key)}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The first problem with `value` (named `name`) against `s`, or
 *  undefined: its type, then (an object) its properties. */
function checkValue(s: ValueSchema, value: unknown, name: string): string | undefined {
  const types = typesOf(s);
  if (types.length > 0 && !types.some((t) => hasType(t, value))) return `${name} must be ${expected(s, false)}, not ${actual(s, value)}`;
  if (typeName(value) === 'object' && (s.properties !== undefined || s.additionalProperties !== undefined)) return checkProperties(s, value as Record<string, unknown>, `${name}.`);
  return undefined;
}
