// JP_CFG_KB_TOPIC_<ID>_<FIELD>=VALUE: an assignment like --cfg `=`. As in
// JP (`KvAssignment::try_from_env`): a leading `+` merges (a list appends),
// a leading `:` means JSON, both in either order; `\+` and `\:` stand for a
// literal first character. JP_CFG_CONFIG_LOAD_PATHS adds `config_load_paths`
// entries. Other JP_CFG_* variables configure other tools and are ignored.

import { UsageError } from '../shared/errors.ts';
import type { Problem } from './types.ts';
import { assignmentOp, listItems, type Operator } from './assign.ts';
import { KB_KEY, TOPIC_FIELD_DEFS, TOPIC_KEY } from './fields.ts';
import type { Layer } from './merge.ts';
import { topicIdKey } from './topic-id.ts';
import { filter } from '../shared/arrays.ts';

const PREFIX = 'JP_CFG_';
const TOPIC_PREFIX = 'KB_TOPIC_';

export interface EnvResult {
  layers: Layer[];
  diagnostics: Problem[];
  /** JP_CFG_CONFIG_LOAD_PATHS's entries, when set. */
  loadPaths?: string[];
}

/** One layer per variable, in name order (deterministic). `topicIds` are the
 *  topics configured so far, which <ID> is matched against. */
export function envLayers(env: Record<string, string | undefined>, topicIds: readonly string[]): EnvResult {
  const result: EnvResult = { layers: [], diagnostics: [] };
  const names = filter(Object.keys(env), (n) => n.startsWith(PREFIX) && env[n] !== undefined);
  // (Sorted only when there is an order to make: the first sort of a
  // process costs the runtime's comparator set-up.)
  if (names.length > 1) names.sort();
  for (const name of names) {
    const rest = name.slice(PREFIX.length).toUpperCase();
    const where = `env ${name}`;
    if (rest === 'CONFIG_LOAD_PATHS') {
      // JP merges it into the files' list (`append_vec`): `=` adds too.
      const { operator, raw } = splitValue(env[name] as string);
      const fail = (m: string): never => {
        throw new UsageError(m, where);
      };
      let value: unknown = raw;
      if (operator === ':=' || operator === ':+=') {
        try {
          value = JSON.parse(raw);
        } catch (err) {
          fail(`invalid JSON: ${(err as Error).message}`);
        }
      }
      result.loadPaths = listItems(value, 'config_load_paths', fail);
      continue;
    }
    if (rest !== KB_KEY.toUpperCase() && !rest.startsWith('KB_')) continue;
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
    topicIds.find((t) => topicIdKey(t) === upper)
  );
}

/** A variable's value: the operator its first characters give, and the
 *  rest. `+` (merge) and `:` (JSON), each at most once, in either order;
 *  `\+` or `\:` ends them and stands for the character itself. */
export function splitValue(value: string): { operator: Operator; raw: string } {
  let json = false;
  let merge = false;
  let i = 0;
  let lead = '';
  for (; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && (value[i + 1] === '+' || value[i + 1] === ':')) {
      lead = value[i + 1];
      i += 2;
      break;
    }
    if (c === ':' && !json) json = true;
    else if (c === '+' && !merge) merge = true;
    else break;
  }
  const operator: Operator = json ? (merge ? ':+=' : ':=') : merge ? '+=' : '=';
  return { operator, raw: lead + value.slice(i) };
}
