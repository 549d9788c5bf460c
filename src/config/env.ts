// JP_CFG_KB_TOPIC_<ID>_<FIELD>=VALUE: an assignment like --cfg `=`. A value
// starting with `+` appends, `:` means JSON, `+:` appends JSON. Other JP_CFG_*
// variables configure other tools and are ignored.

import type { Problem } from './types.ts';
import { assignmentOp, type Operator } from './assign.ts';
import { KB_KEY, TOPIC_FIELD_DEFS, TOPIC_KEY } from './fields.ts';
import type { Layer } from './merge.ts';

const PREFIX = 'JP_CFG_';
const TOPIC_PREFIX = 'KB_TOPIC_';

export interface EnvResult {
  layers: Layer[];
  diagnostics: Problem[];
}

/** One layer per variable, in name order (deterministic). `topicIds` are the
 *  topics configured so far, which <ID> is matched against. */
export function envLayers(env: Record<string, string | undefined>, topicIds: readonly string[]): EnvResult {
  const result: EnvResult = { layers: [], diagnostics: [] };
  const names = Object.keys(env)
    .filter((n) => n.startsWith(PREFIX) && env[n] !== undefined)
    .sort();
  for (const name of names) {
    const rest = name.slice(PREFIX.length).toUpperCase();
    if (rest !== KB_KEY.toUpperCase() && !rest.startsWith('KB_')) continue;
    const where = `env ${name}`;
    const target = rest.startsWith(TOPIC_PREFIX) ? splitTopicVar(rest.slice(TOPIC_PREFIX.length)) : undefined;
    if (!target) {
      result.diagnostics.push({
        severity: 'error',
        code: 'unknown-key',
        message: `unknown variable ${name}: kb reads JP_CFG_KB_TOPIC_<ID>_<FIELD>, FIELD one of ${TOPIC_FIELD_DEFS.map((f) => f.name.toUpperCase()).join(', ')}`,
        where,
      });
      continue;
    }
    const id = matchTopic(target.id, topicIds) ?? target.id.toLowerCase();
    const { operator, raw } = splitValue(env[name] as string);
    const op = assignmentOp([KB_KEY, TOPIC_KEY, id, target.field], operator, raw, where);
    if (op) result.layers.push({ origin: { source: where, label: where }, ops: [op] });
  }
  return result;
}

/** `<ID>_<FIELD>` (upper case) with FIELD a known field matched at the end;
 *  IDs may contain `_`. */
function splitTopicVar(tail: string): { id: string; field: string } | undefined {
  for (const { name } of TOPIC_FIELD_DEFS) {
    const suffix = `_${name.toUpperCase()}`;
    if (tail.endsWith(suffix) && tail.length > suffix.length) return { id: tail.slice(0, -suffix.length), field: name };
  }
  return undefined;
}

/** A configured topic whose ID equals `id` ignoring case, or, failing that,
 *  once characters a variable name cannot hold (`-`, `.`) read as `_`. */
export function matchTopic(id: string, topicIds: readonly string[]): string | undefined {
  const upper = id.toUpperCase();
  return (
    topicIds.find((t) => t.toUpperCase() === upper) ??
    topicIds.find((t) => t.toUpperCase().replace(/[^A-Z0-9_]/g, '_') === upper)
  );
}

function splitValue(value: string): { operator: Operator; raw: string } {
  if (value.startsWith('+:')) return { operator: ':+=', raw: value.slice(2) };
  if (value.startsWith('+')) return { operator: '+=', raw: value.slice(1) };
  if (value.startsWith(':')) return { operator: ':=', raw: value.slice(1) };
  return { operator: '=', raw: value };
}
