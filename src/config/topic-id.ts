// What makes a topic ID easy to use everywhere kb takes one, and how one is
// made from a folder's name (`kb init`). Any TOML key is a topic ID, but an
// ID outside these rules cannot be named everywhere:
//
//   - `-k TOPIC/PATTERN` splits on the first `/` (knowledge.ts);
//   - `--cfg kb.topic.<id>.<field>=...` splits the key on `.` (assign.ts);
//   - `JP_CFG_KB_TOPIC_<ID>_<FIELD>` matches an ID ignoring case, with every
//     character a variable name cannot hold read as `_` (env.ts): two IDs
//     that differ only there cannot be told apart;
//   - a bare TOML key is `[A-Za-z0-9_-]+`; anything else must be quoted;
//   - control characters are shown escaped (`kb check` warns).
//
// So a made ID is lower case ASCII letters, digits, `-` and `_`, starting
// with a letter or digit, and unique as an environment variable reads it.

import { trimEndChars } from '../shared/text.ts';

/** A made ID's length, at most. */
export const MAX_TOPIC_ID = 64;

/** What a made ID is when the name holds no letter or digit kb can keep. */
export const FALLBACK_TOPIC_ID = 'topic';

/** How `JP_CFG_KB_TOPIC_<ID>_...` reads an ID: upper case, characters a
 *  variable name cannot hold as `_`. Two IDs with the same key are one
 *  topic to the environment. */
export function topicIdKey(id: string): string {
  return id.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

/** Whether `id` follows the rules above (a made ID always does). */
export function isPlainTopicId(id: string): boolean {
  return id.length <= MAX_TOPIC_ID && /^[a-z0-9][a-z0-9_-]*$/.test(id);
}

/** A topic ID from a folder's name: accents dropped, lower case, every run
 *  of other characters one `-`, no `-` or `_` at either end, at most
 *  MAX_TOPIC_ID characters; FALLBACK_TOPIC_ID when nothing is left. */
export function topicIdFrom(name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-');
  const trimmed = trimEndChars(folded.replace(/^[-_]+/, '').slice(0, MAX_TOPIC_ID), '-_');
  return trimmed === '' ? FALLBACK_TOPIC_ID : trimmed;
}

/** `base`, or `base-2`, `base-3`...: the first whose key no ID in `taken`
 *  has (the keys of topicIdKey). */
export function uniqueTopicId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(topicIdKey(base))) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const id = `${trimEndChars(base.slice(0, MAX_TOPIC_ID - suffix.length), '-_')}${suffix}`;
    if (!taken.has(topicIdKey(id))) return id;
  }
}
