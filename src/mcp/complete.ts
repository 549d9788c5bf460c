// `completion/complete` (MCP server/utilities/completion): what completes
// the `knowledge` prompt's argument and the subject template's arguments.
// Topics first, then the slugs of the topic named, by prefix: what a
// listing shows (hidden and disabled subjects, binary files, disabled
// topics never), at most MAX_VALUES, in the order of the configuration and
// of the slugs.
import { slugsStarting, topicsStarting } from '../app/resources.ts';
import type { KnowledgeBase } from '../app/knowledge-base.ts';
import { jsonQuoted } from '../shared/controls.ts';
import { INVALID_PARAMS } from './jsonrpc.ts';
import { RequestError } from './errors.ts';

/** Values in one answer (the protocol's most). */
export const MAX_VALUES = 100;
/** The longest value completed: a longer one is refused, not read. */
export const MAX_COMPLETED = 4096;

/** What is completed: a prompt by name, or a resource template by URI. */
export interface CompleteRef {
  type: string;
  name?: string;
  uri?: string;
}

export interface Completion {
  completion: { values: string[]; total?: number; hasMore: boolean };
}

/** The names kb serves (session.ts), handed in. */
export interface Served {
  prompt: string;
  argument: string;
  template: string;
}

const bad = (what: string) => new RequestError(INVALID_PARAMS, `invalid params: ${what}`);
const clip = (s: string) => jsonQuoted(s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** The completions of `argument` of `ref`, in `kb`. `context`: the
 *  template's arguments given already (its `topic`, to complete a slug). */
export function complete(kb: KnowledgeBase, served: Served, ref: CompleteRef, argument: { name: string; value: string }, context: Readonly<Record<string, string>>): Completion {
  const value = argument.value;
  if (value.length > MAX_COMPLETED) throw bad(`the value to complete is ${value.length} characters long; at most ${MAX_COMPLETED} are completed`);
  if (ref.type === 'ref/prompt') {
    if (ref.name !== served.prompt) throw bad(`unknown prompt ${clip(String(ref.name))}; the only prompt is "${served.prompt}"`);
    if (argument.name !== served.argument) throw bad(`the prompt "${served.prompt}" has no argument ${clip(argument.name)}; its argument is "${served.argument}"`);
    return knowledgeValues(kb, value);
  }
  if (ref.type === 'ref/resource') {
    if (ref.uri !== served.template) throw bad(`no resource template ${clip(String(ref.uri))}; the only one is ${served.template}`);
    if (argument.name === 'topic') return answer(topicsStarting(kb, value), false);
    if (argument.name === 'slug') {
      const topic = context.topic;
      if (topic === undefined) return answer([], false);
      const { slugs, more } = slugsStarting(kb, topic, value, MAX_VALUES);
      return answer(slugs, more);
    }
    throw bad(`the template ${served.template} has no argument ${clip(argument.name)}; its arguments are "topic" and "slug"`);
  }
  throw bad(`"ref"."type" must be "ref/prompt" or "ref/resource", not ${clip(ref.type)}`);
}

/** The prompt's argument: TOPIC/PATTERN values separated by commas or new
 *  lines. Its last value is completed (a topic, then a slug of it); the
 *  values before it are kept as written. Inside braces (`a/{b,c`) nothing
 *  is completed. */
function knowledgeValues(kb: KnowledgeBase, value: string): Completion {
  let open = 0;
  for (const c of value) open += c === '{' ? 1 : c === '}' ? -1 : 0;
  if (open > 0) return answer([], false);
  const cut = Math.max(value.lastIndexOf(','), value.lastIndexOf('\n'), value.lastIndexOf('\r'));
  const rest = value.slice(cut + 1);
  const last = rest.trimStart();
  const head = value.slice(0, value.length - last.length);
  const slash = last.indexOf('/');
  if (slash < 0) return answer(topicsStarting(kb, last).map((t) => `${head}${t}/`), false);
  const topic = last.slice(0, slash);
  const { slugs, more } = slugsStarting(kb, topic, last.slice(slash + 1), MAX_VALUES);
  return answer(slugs.map((s) => `${head}${topic}/${s}`), more);
}

function answer(values: string[], more: boolean): Completion {
  const shown = values.slice(0, MAX_VALUES);
  const hasMore = more || values.length > MAX_VALUES;
  return { completion: { values: shown, ...(hasMore ? {} : { total: shown.length }), hasMore } };
}
