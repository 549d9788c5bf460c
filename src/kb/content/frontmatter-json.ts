// A skill's frontmatter as the Skills extension carries it: the whole
// mapping, rendered as a JSON object, as a YAML 1.2 parser (the `yaml`
// package, core schema) reads it, so that a host parsing the same text
// finds the same fields. What JSON cannot carry (a key that is not a
// string, `.inf`, `.nan`) makes the frontmatter unservable, said in words.

import { yamlTooDeepAt } from '../../shared/yaml-depth.ts';
import { MAX_FRONTMATTER_DEPTH, NEEDS_YAML, simpleFields, type YamlModule } from './frontmatter.ts';

export type FrontmatterJson = { ok: true; data: Record<string, unknown> } | { ok: false; reason: string };

/** `front` (the text between the fences) as a JSON object; NEEDS_YAML
 *  when it needs the parser and `lib` is not given. Plain `key: value`
 *  lines are read without it (content/frontmatter.ts `simpleFields`,
 *  which gives exactly what the parser gives). */
export function frontmatterJson(front: string, lib?: YamlModule): FrontmatterJson | typeof NEEDS_YAML {
  const simple = simpleFields(front);
  if (simple !== NEEDS_YAML) return { ok: true, data: plain(simple) };
  if (lib === undefined) return NEEDS_YAML;
  const deep = yamlTooDeepAt(front, MAX_FRONTMATTER_DEPTH);
  if (deep > 0) return { ok: false, reason: `it nests more than ${MAX_FRONTMATTER_DEPTH} levels deep at line ${deep}` };
  let value: unknown;
  try {
    const doc = lib.parseDocument(front, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
    const first = doc.errors[0];
    if (first !== undefined) return { ok: false, reason: `it is not valid YAML (${first.message.split('\n')[0]})` };
    value = doc.toJS({ maxAliasCount: 100, mapAsMap: true });
  } catch (err) {
    return { ok: false, reason: `it is not valid YAML (${String((err as Error)?.message ?? err).split('\n')[0]})` };
  }
  if (value === null || value === undefined) return { ok: true, data: {} };
  if (!(value instanceof Map)) return { ok: false, reason: 'it is not a mapping of fields' };
  const problem: string[] = [];
  const data = toJson(value, '', problem) as Record<string, unknown>;
  return problem.length > 0 ? { ok: false, reason: problem[0] } : { ok: true, data };
}

/** A record with a null prototype as an ordinary object (own keys, a
 *  `__proto__` key included, defined rather than assigned). */
function plain(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) define(out, key, fields[key]);
  return out;
}

function define(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A parsed YAML value as JSON; the first thing JSON cannot carry goes
 *  into `problem` (with where it is: `metadata.version`). */
function toJson(v: unknown, at: string, problem: string[]): unknown {
  if (problem.length > 0) return null;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v;
    problem.push(`field ${at} is ${v}, which JSON cannot carry`);
    return null;
  }
  if (Array.isArray(v)) return v.map((x, i) => toJson(x, `${at}[${i}]`, problem));
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) {
      if (typeof k !== 'string') {
        problem.push(`${at === '' ? 'it' : `field ${at}`} has a key that is not a string (${k === null || typeof k !== 'object' ? String(k) : 'a list or mapping'})`);
        return null;
      }
      define(out, k, toJson(x, at === '' ? k : `${at}.${k}`, problem));
    }
    return out;
  }
  problem.push(`field ${at} is a value JSON cannot carry`);
  return null;
}
