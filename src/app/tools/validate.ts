// A tool call's arguments, checked against the tool's JSON Schema (its
// definition's `parameters`, the schema every provider format and MCP
// carry): the shape comes from the schema, never from a second description
// of it. Each tool adds only what a schema cannot say (a length, a slug's
// form, a default) as rules per parameter.
//
// Model input is untrusted: it is looked at once, in order, and the first
// problem is the answer, in one short sentence (render/tools.ts puts it in
// the model's text). The order: not an object; unknown keys; then each
// parameter in the schema's order: missing (when required), its type, its
// range or item count, its items, the tool's own rule.
//
// Optional parameters take `null` as "absent" (OpenAI strict mode sends
// every parameter and spells a left-out one `null`: render/providers.ts).
// What a value must be, and is, is said in words shared with the MCP
// server's check of request params (shared/json-schema.ts).
import { filter, find, some } from '../../shared/arrays.ts';
import { actual, expected, hasType, shownKey, typesOf } from '../../shared/json-schema.ts';
import type { JsonSchemaObject } from '../../shared/tool.ts';
import { typeName } from '../../shared/text.ts';

export type Parsed<T> = { ok: true; args: T } | Refused;

/** A call refused: the first problem with its arguments, the sentence the
 *  model reads. When it is about one parameter, `key` names it and `says`
 *  is what is said of it (`problem` is `"key" says`), so that a front end
 *  can name the parameter its own way (the command line's `TEXT`,
 *  `--tag`). */
export interface Refused {
  ok: false;
  problem: string;
  key?: string;
  says?: string;
}

/** A refusal about the whole call. */
export function refused(problem: string): Refused {
  return { ok: false, problem };
}

/** A refusal about the parameter `key`: `"key" says`. */
export function refusedAt(key: string, says: string): Refused {
  return { ok: false, problem: `"${key}" ${says}`, key, says };
}

/** What a rule finds wrong: a sentence of its own (`problem`), or what is
 *  wrong with its parameter (`says`, after the parameter's name). */
export type RuleProblem = { problem: string } | { says: string };

/** What a tool checks beyond the schema, for one parameter. */
export interface Rule {
  /** Arrays: before the items are looked at, what is wrong with their
   *  number, said of the parameter (or undefined). */
  count?(n: number): string | undefined;
  /** Arrays: how one item is named in a problem (default `"key"[i]`). */
  item?(i: number): string;
  /** Arrays: each item, once its type is right: the problem, or
   *  undefined. */
  each?(item: never, i: number): string | undefined;
  /** The value, once its shape is right: the problem, or the value kept
   *  (normalised). */
  check?(value: never): RuleProblem | { value: unknown };
}

export type Rules = Readonly<Record<string, Rule>>;


/**
 * Checks a call's arguments against `schema` and the tool's `rules`:
 * the arguments as they are to be used (absent and null optional
 * parameters left out, values as the rules kept them), or the first
 * problem.
 */
export function checkArgs(schema: JsonSchemaObject, value: unknown, rules: Rules = {}): Parsed<Record<string, unknown>> {
  const bad = refused;
  if (typeName(value) !== 'object') return bad(`the arguments must be a JSON object, not ${typeName(value)}`);
  const obj = value as Record<string, unknown>;
  if (schema.additionalProperties === false) {
    const unknown = filter(Object.keys(obj), (k) => !Object.hasOwn(schema.properties, k));
    if (unknown.length > 0) {
      const some = unknown.slice(0, 5).map(shownKey).join(', ');
      return bad(`unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.length > 5 ? `${some} and ${unknown.length - 5} more` : some}`);
    }
  }
  const required = schema.required ?? [];
  const args: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(schema.properties)) {
    const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
    const isRequired = required.includes(key);
    if (v === undefined) {
      if (isRequired) return refusedAt(key, 'is required');
      continue;
    }
    if (v === null && !isRequired) continue; // null: absent
    const types = typesOf(s);
    const t = find(types, (x) => hasType(x, v));
    if (t === undefined) return refusedAt(key, `must be ${expected(s, !isRequired)}, not ${actual(s, v)}`);
    const rule = rules[key] ?? {};
    if (typeof v === 'number' && s.minimum !== undefined && s.maximum !== undefined && (v < s.minimum || v > s.maximum)) {
      return refusedAt(key, `must be between ${s.minimum} and ${s.maximum}, not ${v}`);
    }
    if (Array.isArray(v)) {
      if (s.maxItems !== undefined && v.length > s.maxItems) return refusedAt(key, `has ${v.length} items; at most ${s.maxItems}`);
      const many = rule.count?.(v.length);
      if (many !== undefined) return refusedAt(key, many);
      const items = s.items;
      for (let i = 0; i < v.length; i++) {
        if (items !== undefined && !some(typesOf(items), (x) => hasType(x, v[i]))) {
          return bad(`${rule.item?.(i) ?? `"${key}"[${i}]`} must be ${expected(items, false)}, not ${actual(items, v[i])}`);
        }
        const problem = rule.each?.(v[i] as never, i);
        if (problem !== undefined) return bad(problem);
      }
    }
    if (rule.check === undefined) {
      args[key] = v;
      continue;
    }
    const checked = rule.check(v as never);
    if ('problem' in checked) return bad(checked.problem);
    if ('says' in checked) return refusedAt(key, checked.says);
    if (checked.value !== undefined) args[key] = checked.value;
  }
  return { ok: true, args };
}
