// Revising a subject (docs/guide/search-and-memory.md, "`kb revise TOPIC SLUG TEXT...`"): its text
// replaced by a new version, its slug kept, its earlier text kept in a
// hidden history file beside it (kb/write/history.ts). Shared by `kb
// revise` (source `user`) and the MCP tool of the same name (source
// `model`, only for the `--write` topics).
//
// Under the topic's lock: the subject is read (a regular file, never
// through a link), its history read and extended, then the history and
// the subject are each replaced at once (a temporary file renamed over
// it), the history first: a writer killed between the two leaves the
// subject as it was and its earlier text kept twice, never lost. Before
// each replace the subject must still be the file that was read: an
// editor that saved it meanwhile wins, and nothing is replaced.

import { statSync } from 'node:fs';
import { loadYaml, NEEDS_YAML, parseFrontmatter, simpleFields } from '../kb/content/frontmatter.ts';
import { openTopic } from '../kb/index/view.ts';
import type { Subject } from '../kb/index/types.ts';
import { closeDir, unchanged, type DirHandle } from '../kb/write/dir.ts';
import { changedSince, readToReplace, replaceFile, sweepTemps, type Seen } from '../kb/write/file.ts';
import { HISTORY_BYTES, HISTORY_VERSIONS, historyName, parseHistory, renderHistory, withLatest } from '../kb/write/history.ts';
import { STALE_MS, withTopicLock } from '../kb/write/lock.ts';
import { normalise, splitFrontmatter } from '../kb/write/similar.ts';
import type { Source, WriteFailure } from '../answer/write.ts';
import { warning, type Problem } from '../shared/problem.ts';
import { trimEndChars } from '../shared/text.ts';
import type { Topic } from '../config/types.ts';
import { REMEMBER_MAX_BYTES } from './args.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { descriptionFrom, failed, fileWith, folderOf, openSubjects, relToRoot, writableTopic, type WriteOptions, type WriteOutcome } from './memory.ts';

export interface ReviseArgs {
  topic: string;
  slug: string;
  text: string;
  /** Replaces the description; omitted: a description made from the old
   *  text is made again from the new one, one given earlier is kept. */
  description?: string;
  /** Replace the tags; omitted: kept. */
  tags?: string[];
  /** Revise a subject kb did not write. */
  force: boolean;
}

/** The largest subject kb revises (bytes): what remember writes at most. */
export const REVISE_MAX_BYTES = REMEMBER_MAX_BYTES;
/** The largest history file kb reads (bytes): its bound, and the one
 *  text always kept beyond it. */
const HISTORY_READ_MAX = HISTORY_BYTES + REVISE_MAX_BYTES + 64 * 1024;

/** The frontmatter `source` values of the subjects kb writes. */
const OURS: ReadonlySet<unknown> = new Set(['user', 'model']);

const tool = 'revise';

/** Replaces subject `args.slug` of `args.topic` with `args.text`. */
export async function revise(kb: KnowledgeBase, args: ReviseArgs, opts: WriteOptions): Promise<WriteOutcome> {
  const found = writableTopic(kb, args.topic, opts);
  if (!('id' in found)) return failed(tool, found);
  const topic = found;
  const slug = trimEndChars(args.slug, '/');
  const opened = openSubjects(kb, topic);
  if (!opened.ok) return failed(tool, opened.failure);
  const root = opened.dir;
  try {
    const locked = await withTopicLock(root.at, root.real, (lost) => reviseLocked(kb, topic, root, { ...args, slug }, opts, lost));
    if (!locked.ok) return failed(tool, { kind: 'failed', topic: topic.id, why: locked.why });
    return locked.value;
  } finally {
    closeDir(root);
  }
}

/** The subject `slug` names, or why it cannot be revised. */
function subjectToRevise(topic: Topic, slug: string): Subject | WriteFailure {
  const view = openTopic(topic, {});
  const subject = view.index.subjects.find((s) => s.slug === slug);
  if (subject === undefined) {
    const alias = view.index.aliases.get(slug);
    return { kind: 'no-subject', topic: topic.id, slug, ...(alias !== undefined ? { aliasOf: alias.of } : {}) };
  }
  const kept = subject.bundled ? 'bundled' : subject.skill ? 'skill' : subject.hidden ? 'hidden' : topic.disabled.includes(slug) ? 'disabled' : undefined;
  if (kept !== undefined) return { kind: 'kept', topic: topic.id, slug, why: kept };
  if (subject.ext !== 'md' && subject.ext !== 'markdown') return { kind: 'cannot-revise', topic: topic.id, slug, why: `is ${subject.path}, not a Markdown file (kb writes Markdown subjects, with frontmatter)` };
  return subject;
}

/** The revision, under the topic's lock. */
async function reviseLocked(kb: KnowledgeBase, topic: Topic, root: DirHandle, args: ReviseArgs, opts: WriteOptions, lost: () => string | undefined): Promise<WriteOutcome> {
  const problems: Problem[] = [];
  const refused = (why: string) => failed(tool, { kind: 'cannot-revise', topic: topic.id, slug: args.slug, why }, problems);
  const subject = subjectToRevise(topic, args.slug);
  if (!('abs' in subject)) return failed(tool, subject, problems);
  const folders: DirHandle[] = [];
  try {
    const at = folderOf(root, subject.path, [], folders);
    if (!at.ok) return refused(`cannot be reached (${at.why})`);
    const dir = at.dir;
    const name = subject.path.slice(subject.path.lastIndexOf('/') + 1);
    const read = readToReplace(dir.at, name, REVISE_MAX_BYTES);
    if (!read.ok) return refused(read.why.startsWith(name) ? `cannot be revised: ${read.why}` : `cannot be revised (${read.why})`);
    let old: string;
    try {
      old = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
    } catch {
      return refused('is not valid UTF-8 (kb keeps earlier texts byte for byte)');
    }
    const { front, body } = splitFrontmatter(old);
    const fields = front === undefined ? {} : await fieldsOf(front);
    if (!OURS.has(fields.source) && !args.force) return failed(tool, { kind: 'not-ours', topic: topic.id, slug: args.slug, source: opts.source }, problems);
    const now = (opts.now ?? new Date()).toISOString();
    const next = fileWith(
      {
        description: args.description ?? keptDescription(fields.description, body, args.text),
        created: typeof fields.created === 'string' && fields.created !== '' ? fields.created : modified(subject),
        updated: now,
        tags: args.tags ?? tagsOf(fields.tags),
        source: opts.source,
      },
      args.text,
    );
    if (normalise(body) === normalise(args.text) && args.description === undefined && args.tags === undefined) {
      return { tool, status: 'unchanged', isError: false, topic: topic.id, slug: args.slug, path: relToRoot(kb, topic, subject.path), problems };
    }
    return commit(kb, topic, { dir, name, subject, seen: read.seen, mode: read.mode, old, next, now }, args, lost, problems);
  } finally {
    for (const d of folders) closeDir(d);
  }
}

/** A subject read and its next text, to be written. */
interface Revision {
  dir: DirHandle;
  name: string;
  subject: Subject;
  seen: Seen;
  mode: number;
  old: string;
  next: string;
  now: string;
}

/** Writes the history, then the subject, each at once, as long as the
 *  subject is still the file that was read and the lock is held. */
function commit(kb: KnowledgeBase, topic: Topic, r: Revision, args: ReviseArgs, lost: () => string | undefined, problems: Problem[]): WriteOutcome {
  const refused = (why: string) => failed(tool, { kind: 'cannot-revise', topic: topic.id, slug: args.slug, why }, problems);
  const { dir, name } = r;
  const folder = r.subject.path.includes('/') ? r.subject.path.slice(0, r.subject.path.lastIndexOf('/') + 1) : '';
  for (const t of sweepTemps(dir.at, STALE_MS)) {
    problems.push(warning('write-temp', `topic "${topic.id}": removed ${t}, left by an interrupted write`, relToRoot(kb, topic, `${folder}${t}`), topic.id));
  }
  const hname = historyName(name);
  const hist = readToReplace(dir.at, hname, HISTORY_READ_MAX);
  if (!hist.ok && !hist.missing) return refused(`cannot keep its earlier text: ${hist.why}; move that file away to revise`);
  let entries = hist.ok ? parseHistory(new TextDecoder().decode(hist.bytes)) : [];
  if (entries === undefined) return refused(`cannot keep its earlier text: ${hname} is not a history as kb writes it (edited by hand?); move that file away to revise`);
  const kept = withLatest({ replaced: r.now, text: r.old }, entries);
  entries = kept.entries;
  const still = (): string | undefined => lost() ?? unchanged(dir) ?? changedSince(dir.at, name, r.seen);
  const bytes = (text: string) => new TextEncoder().encode(text);
  // History first: the earlier text is kept before it is replaced.
  const hwhy = replaceFile(dir.at, hname, bytes(renderHistory(name, entries)), hist.ok ? hist.mode : r.mode, () => still() ?? changedSince(dir.at, hname, hist.ok ? hist.seen : undefined));
  if (hwhy !== undefined) return refused(`was not replaced: ${hwhy}`);
  const why = replaceFile(dir.at, name, bytes(r.next), r.mode, still);
  if (why !== undefined) return refused(`was not replaced: ${why} (its earlier text is in ${hname} all the same)`);
  return {
    tool,
    status: 'revised',
    isError: false,
    topic: topic.id,
    slug: args.slug,
    path: relToRoot(kb, topic, r.subject.path),
    history: { path: relToRoot(kb, topic, `${folder}${hname}`), kept: entries.length, dropped: kept.dropped, limit: HISTORY_VERSIONS },
    problems,
  };
}

/** The subject's frontmatter fields (none when it cannot be read). */
async function fieldsOf(front: string): Promise<Record<string, unknown>> {
  const simple = simpleFields(front);
  if (simple !== NEEDS_YAML) return simple;
  const parsed = parseFrontmatter(front, await loadYaml());
  return parsed.ok ? parsed.data : {};
}

/** The description to keep: one made from the old text is made again from
 *  the new text; one written on purpose is kept. */
function keptDescription(old: unknown, oldBody: string, text: string): string {
  if (typeof old !== 'string' || old === '' || old === descriptionFrom(oldBody)) return descriptionFrom(text);
  return old;
}

function tagsOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string' && t.trim() !== '') : [];
}

/** When a subject kb did not write was last written, as its `created`. */
function modified(subject: Subject): string {
  try {
    return statSync(subject.abs).mtime.toISOString();
  } catch {
    return new Date().toISOString();
  }
}

