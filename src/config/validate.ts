// Merged configuration -> topics and diagnostics, driven by fields.ts. Pure:
// reads nothing but the tree (file texts ride along in the origins, to name
// lines in messages).

import { resolve } from 'node:path';
import type { Problem, Topic, TopicField } from './types.ts';
import { KB_KEY, TOPIC_FIELD_DEFS, TOPIC_KEY, article, fieldDef, typeLabel, tomlTypeName } from './fields.ts';
import { whereOf } from './locate.ts';
import { type Node, type Table, lookup } from './merge.ts';
import { closest } from './suggest.ts';
import { filter, map } from '../shared/arrays.ts';
import { jsonQuoted } from '../shared/controls.ts';
import { trimEndChars } from '../shared/text.ts';

export interface Validated {
  topics: Topic[];
  diagnostics: Problem[];
}

const FIELD_NAMES = map(TOPIC_FIELD_DEFS, (f) => f.name);

/** The IDs under `kb.topic` whose value is a table, in configuration order. */
export function topicIds(tree: Table): string[] {
  const topics = lookup(tree, [KB_KEY, TOPIC_KEY]);
  if (topics?.kind !== 'table') return [];
  const ids: string[] = [];
  for (const [id, node] of topics.entries) if (node.kind === 'table') ids.push(id);
  return ids;
}

export function validate(tree: Table, root: string): Validated {
  const out: Validated = { topics: [], diagnostics: [] };
  const kb = tree.entries.get(KB_KEY);
  if (!kb || !expectTable(kb, [KB_KEY], out.diagnostics)) return out;

  for (const [key, node] of kb.entries) {
    if (key === TOPIC_KEY) continue;
    out.diagnostics.push({
      severity: 'error',
      code: 'unknown-key',
      message: unknownKeyMessage(key),
      where: whereAt(node, [KB_KEY, key]),
    });
  }

  const topics = kb.entries.get(TOPIC_KEY);
  if (!topics || !expectTable(topics, [KB_KEY, TOPIC_KEY], out.diagnostics)) return out;
  for (const [id, node] of topics.entries) {
    if (!expectTable(node, [KB_KEY, TOPIC_KEY, id], out.diagnostics, id)) continue;
    const topic = validateTopic(id, node, root, out.diagnostics);
    if (topic) out.topics.push(topic);
  }
  return out;
}

/** A topic, or undefined when it has no usable `subjects`. */
function validateTopic(id: string, table: Table, root: string, diagnostics: Problem[]): Topic | undefined {
  const topic: Topic = { id, enable: true, subjects: '', subjectsDir: '', learned: [], disabled: [], sources: {} };
  const fields = topic as unknown as Record<TopicField, unknown>;
  let badSubjects = false;
  // Where each field is set, found when `topic.where` is first read.
  const located: [TopicField, Node, string[]][] = [];

  for (const [key, node] of table.entries) {
    const path = [KB_KEY, TOPIC_KEY, id, key];
    const def = fieldDef(key);
    if (!def) {
      diagnostics.push({ severity: 'error', code: 'unknown-key', message: unknownKeyMessage(key, id), where: whereAt(node, path), topic: id });
      continue;
    }
    const value = node.kind === 'leaf' ? node.value : TABLE;
    if (def.type === 'string[]' && Array.isArray(value)) {
      // Keep the strings; report each other item where it was set.
      fields[def.name] = filter(value as unknown[], (item, i) => {
        if (typeof item === 'string') return true;
        diagnostics.push(wrongType(`${path.join('.')}[${i}]`, 'a string', item, whereAt(node, path, i), id));
        return false;
      });
    } else if (def.type !== 'string[]' && typeof value === def.type) {
      fields[def.name] = value;
    } else {
      diagnostics.push(wrongType(path.join('.'), article(typeLabel(def.type)), value, whereAt(node, path), id));
      badSubjects ||= def.name === 'subjects';
      continue;
    }
    topic.sources[def.name] = node.origin.source;
    located.push([def.name, node, path]);
  }
  whereWhenRead(topic, located);

  if (topic.subjects === '') {
    // A wrong-typed `subjects` was reported already.
    if (!badSubjects) {
      diagnostics.push({
        severity: 'error',
        code: 'missing-subjects',
        message: `topic \`${id}\` has no \`subjects\`: set it to the directory holding the topic's files, relative to the workspace root`,
        where: whereAt(table, [KB_KEY, TOPIC_KEY, id]),
        topic: id,
      });
    }
    return undefined;
  }
  topic.subjectsDir = resolve(root, topic.subjects);
  disabledGlobs(topic, table, diagnostics);
  return topic;
}

/** A `disabled` entry that looks like a glob (`_common/*`): `disabled`
 *  takes exact slugs (the RFD), so it disables at most a subject of
 *  exactly that name, and every command says so, pointing to the topic's
 *  `.kbignore`, which leaves files out by pattern. */
function disabledGlobs(topic: Topic, table: Table, diagnostics: Problem[]): void {
  const node = table.entries.get('disabled');
  if (node?.kind !== 'leaf' || !Array.isArray(node.value)) return;
  const kbignore = `${trimEndChars(topic.subjects, '/')}/.kbignore`;
  const items: unknown[] = node.value;
  for (let i = 0; i < items.length; i++) {
    const entry = items[i];
    if (typeof entry !== 'string' || !looksLikeGlob(entry)) continue;
    diagnostics.push({
      severity: 'warning',
      code: 'disabled-glob',
      message: `topic "${topic.id}": disabled entry ${jsonQuoted(entry)} looks like a glob, but disabled takes exact slugs: it disables only a subject named exactly that; to leave files out by pattern, write the pattern in ${kbignore} (gitignore syntax)`,
      where: whereAt(node, [KB_KEY, TOPIC_KEY, topic.id, 'disabled'], i),
      topic: topic.id,
    });
  }
}

/** Whether `s` looks like a glob: it holds `*` or `?`, a `[` closed
 *  later by `]`, a `{` with a `,` before a later `}`, or an extglob's
 *  `@(`, `!(` or `+(`. One pass. */
export function looksLikeGlob(s: string): boolean {
  let bracket = false;
  let brace = false;
  let comma = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 42 || c === 63) return true; // * ?
    if (c === 91) bracket = true; // [
    else if (c === 93 && bracket) return true; // ]
    else if (c === 123) brace = true; // {
    else if (c === 44 && brace) comma = true; // ,
    else if (c === 125 && comma) return true; // }
    else if (c === 40 && i > 0 && (s[i - 1] === '@' || s[i - 1] === '!' || s[i - 1] === '+')) return true; // @( !( +(
  }
  return false;
}

/** What an unknown key in `kb` (no `topic`) or in a topic is told, with
 *  the closest known key when there is one. */
export function unknownKeyMessage(key: string, topic?: string): string {
  if (topic === undefined) {
    const hint = closest(key, [TOPIC_KEY]) ? 'did you mean `topic`?' : '`kb` only holds `topic`';
    return `unknown key \`${key}\` in \`kb\`; ${hint}`;
  }
  const suggestion = closest(key, FIELD_NAMES);
  const hint = suggestion ? `did you mean \`${suggestion}\`?` : `known keys: ${FIELD_NAMES.join(', ')}`;
  return `unknown key \`${key}\` in topic \`${topic}\`; ${hint}`;
}

/** Stands for a table value in "got <type>" messages. */
const TABLE = {};

function wrongType(key: string, expected: string, value: unknown, where: string, topic?: string): Problem {
  return {
    severity: 'error',
    code: 'wrong-type',
    message: `\`${key}\` must be ${expected}, got ${tomlTypeName(value)}`,
    where,
    ...(topic ? { topic } : {}),
  };
}

/** Reports a wrong-type unless `node` is a table. */
function expectTable(node: Node, path: string[], diagnostics: Problem[], topic?: string): node is Table {
  if (node.kind === 'table') return true;
  diagnostics.push(wrongType(path.join('.'), 'a table', node.value, whereAt(node, path), topic));
  return false;
}

/** `topic.where`, each field's location (`file:line`), found when first
 *  read (kb check, --verbose): finding it scans the configuration's text
 *  for its keys, which no other command needs (with the empty pattern
 *  lists not compiled, 10 functions fewer run by a `kb schema`: 0.99x its
 *  time). */
function whereWhenRead(topic: Topic, located: readonly [TopicField, Node, string[]][]): void {
  let where: Partial<Record<TopicField, string>> | undefined;
  Object.defineProperty(topic, 'where', {
    get() {
      if (where === undefined) {
        where = {};
        for (const [field, node, path] of located) where[field] = whereAt(node, path);
      }
      return where;
    },
    enumerable: true,
    configurable: true,
  });
}

/** The location of a node (or of one array item). */
function whereAt(node: Node, path: string[], item?: number): string {
  const origin = item !== undefined && node.kind === 'leaf' ? (node.items?.[item] ?? node.origin) : node.origin;
  return whereOf(origin, path);
}
