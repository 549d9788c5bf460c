// The write path (docs/guide/search-and-memory.md, "Remembering"): `remember` adds a subject,
// `forget` removes one. Shared by `kb remember` / `kb forget` (source
// `user`) and the MCP tools of the same names (source `model`, only for
// the topics the server was started with: `kb mcp --write TOPIC`).
//
// Every write to a topic holds the topic's lock (kb/write/lock.ts), looks at
// the files as they are under it, and writes a new file whole or not at
// all (kb/write/file.ts): never outside the topic, never over an existing
// file, never to a hidden, disabled or ignored path. Before writing, kb
// searches the topic: an identical subject is not written again; a similar
// one is named back and needs `force`.

import { hasWord } from '../kb/content/markup.ts';
import type { Topic } from '../config/types.ts';
import { bodyText } from '../kb/content/body.ts';
import { statSync } from 'node:fs';
import { realpathSteady } from '../shared/realpath.ts';
import { readBody } from '../kb/fs/read.ts';
import type { Subject } from '../kb/index/types.ts';
import { openTopic, type TopicView } from '../kb/index/view.ts';
import { closeDir, isInside, openChild, openDir, openWhy, unchanged, type DirHandle } from '../kb/write/dir.ts';
import { isFile, removeFile, sweepTemps, writeNewFile } from '../kb/write/file.ts';
import { reservedName } from '../kb/write/given.ts';
import { STALE_MS, withTopicLock } from '../kb/write/lock.ts';
import { outsideWorkspace, placeNew } from '../kb/write/place.ts';
import { isMissing, makeSubjectsDir, removeEmptyFolders } from '../kb/write/folders.ts';
import { bodyOf, compared, judge, type Judgement } from '../kb/write/similar.ts';
import { slugFromText, uniqueSlug } from '../kb/write/slug.ts';
import type { Checked, Similar, Source, WriteFailure, WriteOutcome as WriteData, WriteTool } from '../answer/write.ts';
import { warning, type Problem } from '../shared/problem.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { rank } from './search.ts';
import { trimEndChars } from '../shared/text.ts';

export type { Source, Status, WriteFailure } from '../answer/write.ts';

export interface RememberArgs {
  topic: string;
  text: string;
  slug?: string;
  description?: string;
  tags: string[];
  force: boolean;
}

export interface ForgetArgs {
  topic: string;
  slug: string;
}

/** What a remember or forget call did, as data (render/memory.ts
 *  `renderWriteOutcome` writes its text), and the problems the user should
 *  know. */
export interface WriteOutcome extends WriteData {
  problems: Problem[];
}

/** Which topics a call may write (MCP: the `--write` topics); undefined:
 *  every enabled one (the command line). */
export interface WriteOptions {
  writable?: ReadonlySet<string>;
  source: Source;
  /** The `created` time (tests). */
  now?: Date;
}

export function failed(tool: WriteTool, failure: WriteFailure, problems: Problem[] = []): WriteOutcome {
  const status = failure.kind === 'near-duplicate' || failure.kind === 'update' ? failure.kind : 'error';
  return { tool, status, isError: true, failure, problems };
}

/** The topic a write names, or why it cannot be written. */
export function writableTopic(kb: KnowledgeBase, name: string, opts: WriteOptions): Topic | WriteFailure {
  const allowed = kb.topics.filter((t) => t.enable && (opts.writable === undefined || opts.writable.has(t.id)));
  const topic = kb.resolveTopic(name);
  if (topic === undefined) return { kind: 'unknown-topic', topic: name, valid: allowed };
  if (!topic.enable) return { kind: 'disabled-topic', topic: topic.id };
  if (!allowed.includes(topic)) return { kind: 'not-writable', topic: topic.id, writable: allowed.map((t) => t.id) };
  return topic;
}

export function relToRoot(kb: KnowledgeBase, topic: Topic, rel: string): string {
  const root = kb.config.root.endsWith('/') ? kb.config.root : `${kb.config.root}/`;
  const abs = `${topic.subjectsDir}/${rel}`;
  return abs.startsWith(root) ? abs.slice(root.length) : abs;
}

/** The default description: the text's first line with words, heading
 *  marks dropped, cut at 160 characters. */
export function descriptionFrom(text: string): string {
  const line = (text.split('\n').find((l) => hasWord(l)) ?? '').replace(/^\s*#+\s*/, '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length > 160 ? `${chars.slice(0, 159).join('').trimEnd()}…` : line;
}

/** What the frontmatter of a subject kb writes holds. */
export interface Frontmatter {
  description: string;
  /** ISO 8601 times: when the subject was first written, last written. */
  created: string;
  updated: string;
  tags: readonly string[];
  source: Source;
}

/** A subject file kb writes: YAML frontmatter (strings JSON-quoted, which
 *  YAML reads as they are), then the text. */
export function fileWith(front: Frontmatter, text: string): string {
  const lines = ['---'];
  if (front.description !== '') lines.push(`description: ${JSON.stringify(front.description)}`);
  lines.push(`created: ${front.created}`, `updated: ${front.updated}`);
  if (front.tags.length > 0) lines.push(`tags: [${front.tags.map((t) => JSON.stringify(t)).join(', ')}]`);
  lines.push(`source: ${front.source}`, '---', '');
  const body = text.replace(/\r\n/g, '\n');
  return `${lines.join('\n')}${body.endsWith('\n') ? body : `${body}\n`}`;
}

/** The new file's content (remember): created and updated now. */
export function subjectFile(args: RememberArgs, source: Source, now: Date): string {
  const at = now.toISOString();
  return fileWith({ description: args.description ?? descriptionFrom(args.text), created: at, updated: at, tags: args.tags, source }, args.text);
}

/** Candidates looked at for duplicates: the best search hits. */
const CANDIDATES = 20;

/** Bytes of subjects read, at most, to compare a new text with while the
 *  topic is locked (twice the largest text): the search ran before the
 *  lock was taken, so the lock is held for the comparison alone, and a
 *  topic of huge subjects cannot make other writers give up. */
export const LOCKED_READ_BYTES = 16 * 1024 * 1024;

/** A file changed this close to the search may have been missed by it (a
 *  file system's coarse clock). */
const RACY_MS = 2000;

interface Existing {
  slug: string;
  similarity: number;
  judgement: Judgement;
}

/** What the search found before the lock was taken. */
interface Searched {
  /** The best hits, best first. */
  hits: { slug: string; path: string }[];
  /** When the search started (ms since the epoch). */
  at: number;
}

/** Searches `topic` for `text` (before the lock: building a cold index
 *  may take seconds, and holds no other writer up). */
async function searchFirst(kb: KnowledgeBase, topic: Topic, text: string, problems: Problem[]): Promise<Searched> {
  const at = Date.now();
  const ranked = await rank(kb, [topic], text, CANDIDATES);
  problems.push(...ranked.problems);
  return { hits: ranked.found.map((f) => ({ slug: f.slug, path: f.path })), at };
}

/** The subjects changed since `at` (created, written, renamed): those the
 *  search before the lock may not have seen. */
function changedSince(subjects: readonly Subject[], at: number): Subject[] {
  const out: Subject[] = [];
  for (const s of subjects) {
    if (s.hidden) continue;
    try {
      const st = statSync(s.abs);
      if (Math.max(st.mtimeMs, st.ctimeMs) >= at - RACY_MS) out.push(s);
    } catch {
      // Gone.
    }
  }
  return out;
}

/**
 * The subject of `topic` that `text` duplicates, exactly or nearly (the
 * most similar), as the files are now (under the lock), among the subject
 * that `alsoSlug` names, the subjects changed since the search, and the
 * search's best hits, in that order, reading at most LOCKED_READ_BYTES:
 * `checked` says how many were compared and left out when that bound cut
 * the list.
 */
function findDuplicate(view: TopicView, topic: Topic, text: string, alsoSlug: string | undefined, searched: Searched): { existing?: Existing; checked?: Checked } {
  const bySlug = new Map(view.index.subjects.map((s) => [s.slug, s]));
  const disabled = view.disabled;
  const seen = new Set<string>();
  const list: Subject[] = [];
  const add = (s: Subject | undefined) => {
    if (s === undefined || s.hidden || disabled.has(s.slug) || seen.has(s.slug)) return;
    seen.add(s.slug);
    list.push(s);
  };
  if (alsoSlug !== undefined) add(bySlug.get(alsoSlug));
  for (const s of changedSince(view.index.subjects, searched.at)) add(s);
  for (const h of searched.hits) {
    const s = bySlug.get(h.slug);
    if (s !== undefined && s.path === h.path) add(s);
  }
  const mine = compared(text);
  // The first exact one; else the most similar duplicate; else the most
  // similar update.
  let best: Existing | undefined;
  const rank = (j: Judgement) => (j.kind === 'duplicate' ? 2 : j.kind === 'update' ? 1 : 0);
  let budget = LOCKED_READ_BYTES;
  let compares = 0;
  let left = 0;
  for (const s of list) {
    if (s.size > budget) {
      left++;
      continue;
    }
    const r = readBody(s.abs, 'text');
    if (r.kind !== 'text') continue;
    const raw = bodyText(r.body);
    budget -= Math.max(s.size, raw.length);
    compares++;
    const j = judge(compared(bodyOf(raw)), mine);
    if (j.kind === 'exact') return { existing: { slug: s.slug, similarity: 1, judgement: j } };
    if (rank(j) === 0) continue;
    if (best === undefined || rank(j) > rank(best.judgement) || (rank(j) === rank(best.judgement) && j.similarity > best.similarity)) best = { slug: s.slug, similarity: j.similarity, judgement: j };
  }
  return { ...(best !== undefined ? { existing: best } : {}), ...(left > 0 ? { checked: { compared: compares, left, limit: LOCKED_READ_BYTES } } : {}) };
}

/** A new subject, planned: where it goes and what it holds. */
interface WritePlan {
  topic: Topic;
  slug: string;
  /** Its file, relative to the subjects directory. */
  rel: string;
  /** The directories to make (relative, in order). */
  dirs: string[];
  content: Uint8Array;
  /** Written although this subject is similar (`force`). */
  near?: Similar;
  /** ... and `near` looks like an older version of it. */
  updateOf?: boolean;
  /** The duplicate check was bounded. */
  checked?: Checked;
}

const rounded = (s: Similar) => ({ slug: s.slug, similarity: Math.round(s.similarity * 1000) / 1000 });

/** The topic's subjects directory, opened for writing: where it really is
 *  must be inside the workspace (links resolved), or nothing is written
 *  (reads follow such a link; kb check warns about it). */
export function openSubjects(kb: KnowledgeBase, topic: Topic): { ok: true; dir: DirHandle } | { ok: false; failure: WriteFailure } {
  const out = outsideWorkspace(kb.config.root, topic.subjectsDir);
  if (out !== undefined) return { ok: false, failure: { kind: 'outside-workspace', topic: topic.id, subjects: topic.subjects, ...out } };
  const o = openDir(topic.subjectsDir);
  if (!o.ok) {
    const why = o.code === 'ENOENT' ? 'its subjects directory does not exist' : o.code === 'ENOTDIR' ? 'its subjects path is not a directory' : `its subjects directory cannot be used (${o.code})`;
    return { ok: false, failure: { kind: 'failed', topic: topic.id, why } };
  }
  // The folder opened decides, wherever its path led a moment before.
  let root = kb.config.root;
  try {
    root = realpathSteady(root);
  } catch {
    // Compared as configured.
  }
  if (!isInside(root, o.dir.real)) {
    closeDir(o.dir);
    return { ok: false, failure: { kind: 'outside-workspace', topic: topic.id, subjects: topic.subjects, real: o.dir.real } };
  }
  return { ok: true, dir: o.dir };
}

/** Remembers a text as a new subject: searches the topic, then, under
 *  the topic's lock, plans the write (duplicates, the slug, the place) and
 *  commits it. */
export async function remember(kb: KnowledgeBase, args: RememberArgs, opts: WriteOptions): Promise<WriteOutcome> {
  const tool = 'remember';
  const found = writableTopic(kb, args.topic, opts);
  if (!('id' in found)) return failed(tool, found);
  const topic = found;
  const problems: Problem[] = [];
  // The first write to a topic whose folder is not there yet makes it.
  let created: { created: string } | undefined;
  if (isMissing(topic.subjectsDir)) {
    const made = makeSubjectsDir(kb.config.root, topic.subjectsDir);
    if (!made.ok) return failed(tool, { kind: 'failed', topic: topic.id, why: made.why });
    created = { created: made.created };
  }
  const opened = openSubjects(kb, topic);
  if (!opened.ok) return { ...failed(tool, opened.failure), ...created };
  const root = opened.dir;
  try {
    const searched = await searchFirst(kb, topic, args.text, problems);
    const locked = await withTopicLock(root.at, root.real, async (lost): Promise<WriteOutcome> => {
      const plan = planRemember(topic, args, opts, searched, problems);
      return 'status' in plan ? plan : commitRemember(kb, root, plan, lost, problems);
    });
    if (!locked.ok) return { ...failed(tool, { kind: 'failed', topic: topic.id, why: locked.why }, problems), ...created };
    return { ...locked.value, ...created };
  } finally {
    closeDir(root);
  }
}

/** What remembering `args` in `topic` would write, as the files are now
 *  (under the lock): the plan, or the outcome when nothing is to be
 *  written (a duplicate, a near duplicate without `force`, a slug taken, a
 *  place refused). */
function planRemember(topic: Topic, args: RememberArgs, opts: WriteOptions, searched: Searched, problems: Problem[]): WritePlan | WriteOutcome {
  const tool = 'remember';
  const view = openTopic(topic, {});
  const derived = args.slug === undefined ? slugFromText(args.text) : undefined;
  const { existing: dup, checked } = findDuplicate(view, topic, args.text, args.slug ?? derived, searched);
  if (dup?.judgement.kind === 'exact') {
    return { tool, status: 'duplicate', isError: false, topic: topic.id, slug: dup.slug, existing: { slug: dup.slug, similarity: 1 }, problems };
  }
  if (checked !== undefined) {
    problems.push(
      warning(
        'duplicate-check-bounded',
        `topic "${topic.id}": the duplicate check compared the text with ${checked.compared} subject${checked.compared === 1 ? '' : 's'} and left ${checked.left} out (at most ${checked.limit / 1048576} MiB of subjects are read while the topic is locked)`,
        undefined,
        topic.id,
      ),
    );
  }
  const near = dup !== undefined ? { slug: dup.slug, similarity: dup.similarity } : undefined;
  const updateOf = dup?.judgement.kind === 'update';
  if (dup !== undefined && near !== undefined && !args.force) {
    const failure: WriteFailure = updateOf
      ? { kind: 'update', topic: topic.id, similar: near, was: dup.judgement.was ?? [], now: dup.judgement.now ?? [], source: opts.source }
      : { kind: 'near-duplicate', topic: topic.id, similar: near, source: opts.source };
    return { ...failed(tool, failure, problems), topic: topic.id, existing: rounded(near) };
  }
  // Taken: any subject's slug or exact name (hidden ones too), a
  // disabled slug, a folder, or a file of that slug on disk.
  const slugs = new Set(view.index.subjects.map((s) => s.slug));
  const disabled = view.disabled;
  const taken = (slug: string): boolean => {
    if (slugs.has(slug) || view.index.aliases.has(slug) || disabled.has(slug) || slugs.has(`${slug}/`)) return true;
    for (const s of slugs) if (s.startsWith(`${slug}/`)) return true;
    return false;
  };
  let slug: string;
  if (args.slug !== undefined) {
    if (taken(args.slug)) return failed(tool, { kind: 'slug-taken', topic: topic.id, slug: args.slug, disabled: disabled.has(args.slug) }, problems);
    slug = args.slug;
  } else {
    // A name kb never creates (SKILL) is passed over like a taken one.
    slug = uniqueSlug(derived!, (s) => taken(s) || reservedName(`${s}.md`) !== undefined);
  }
  const rel = `${slug}.md`;
  const place = placeNew(topic.subjectsDir, rel);
  if (!place.ok) return failed(tool, { kind: 'cannot-place', topic: topic.id, rel, why: place.why }, problems);
  const content = new TextEncoder().encode(subjectFile(args, opts.source, opts.now ?? new Date()));
  return { topic, slug, rel, dirs: place.dirs, content, ...(near !== undefined ? { near, ...(updateOf ? { updateOf } : {}) } : {}), ...(checked !== undefined ? { checked } : {}) };
}

/**
 * Opens the folder of `rel` (a file's path below the subjects directory)
 * through the topic's open directory, one folder at a time, each checked
 * to be inside the topic where it really is (a folder swapped for a link
 * meanwhile is caught here, and nothing is written through it); `make`:
 * the folders to create. The caller closes what `opened` collects.
 */
export function folderOf(root: DirHandle, rel: string, make: readonly string[], opened: DirHandle[]): { ok: true; dir: DirHandle } | { ok: false; why: string } {
  const parts = rel.split('/').slice(0, -1);
  let dir = root;
  for (let i = 0; i < parts.length; i++) {
    const relDir = parts.slice(0, i + 1).join('/');
    const create = make.includes(relDir);
    const o = openChild(dir, parts[i], create);
    if (!o.ok) return { ok: false, why: `cannot ${create ? 'create' : 'open'} the folder ${relDir} (${openWhy(o.code)})` };
    opened.push(o.dir);
    if (!isInside(root.real, o.dir.real)) return { ok: false, why: `the folder ${relDir} leads outside the topic's directory, to ${o.dir.real}` };
    dir = o.dir;
  }
  return { ok: true, dir };
}

/** Writes a planned subject: its directories, then the file, whole or not
 *  at all (temporary files an interrupted write left beside it are swept
 *  first), every step through open folders. `lost`: whether the lock was
 *  lost meanwhile. */
function commitRemember(kb: KnowledgeBase, root: DirHandle, plan: WritePlan, lost: () => string | undefined, problems: Problem[]): WriteOutcome {
  const tool = 'remember';
  const { topic, rel } = plan;
  const opened: DirHandle[] = [];
  try {
    const at = folderOf(root, rel, plan.dirs, opened);
    if (!at.ok) return failed(tool, { kind: 'cannot-place', topic: topic.id, rel, why: at.why }, problems);
    const dir = at.dir;
    const slash = rel.lastIndexOf('/');
    const name = rel.slice(slash + 1);
    for (const t of sweepTemps(dir.at, STALE_MS)) {
      problems.push(warning('write-temp', `topic "${topic.id}": removed ${t}, left by an interrupted write`, relToRoot(kb, topic, slash < 0 ? t : `${rel.slice(0, slash)}/${t}`), topic.id));
    }
    const check = (tmpName: string, ino: number): string | undefined =>
      lost() ?? unchanged(dir) ?? (dir.pinned || isFile(dir.at, tmpName, ino) ? undefined : `the folder ${dir.real} was replaced while writing`);
    const w = writeNewFile(dir.at, name, plan.content, check, dir.real);
    if (!w.ok) return failed(tool, w.exists ? { kind: 'exists', path: relToRoot(kb, topic, rel) } : { kind: 'failed', topic: topic.id, why: w.why }, problems);
    if (w.note !== undefined) problems.push(warning('write-rename', `topic "${topic.id}": ${w.note}`, relToRoot(kb, topic, rel), topic.id));
    return {
      tool,
      status: 'written',
      isError: false,
      topic: topic.id,
      slug: plan.slug,
      path: relToRoot(kb, topic, rel),
      ...(plan.near !== undefined ? { existing: rounded(plan.near), near: plan.near, ...(plan.updateOf ? { updateOf: true } : {}) } : {}),
      ...(plan.checked !== undefined ? { checked: plan.checked } : {}),
      problems,
    };
  } finally {
    for (const d of opened) closeDir(d);
  }
}

/** Removes a visible subject. */
export async function forget(kb: KnowledgeBase, args: ForgetArgs, opts: WriteOptions): Promise<WriteOutcome> {
  const tool = 'forget';
  const found = writableTopic(kb, args.topic, opts);
  if (!('id' in found)) return failed(tool, found, []);
  const topic = found;
  const slug = trimEndChars(args.slug, '/');
  const opened = openSubjects(kb, topic);
  if (!opened.ok) return failed(tool, opened.failure, []);
  const root = opened.dir;
  try {
    const locked = await withTopicLock(root.at, root.real, async (): Promise<WriteOutcome> => {
      const view = openTopic(topic, {});
      const subject = view.index.subjects.find((s) => s.slug === slug);
      if (subject === undefined) {
        const alias = view.index.aliases.get(slug);
        return failed(tool, { kind: 'no-subject', topic: topic.id, slug, ...(alias !== undefined ? { aliasOf: alias.of } : {}) }, []);
      }
      const kept = subject.bundled ? 'bundled' : subject.skill ? 'skill' : subject.hidden ? 'hidden' : view.disabled.has(slug) ? 'disabled' : undefined;
      if (kept !== undefined) return failed(tool, { kind: 'kept', topic: topic.id, slug, why: kept }, []);
      const folders: DirHandle[] = [];
      try {
        const at = folderOf(root, subject.path, [], folders);
        if (!at.ok) return failed(tool, { kind: 'cannot-remove', path: subject.path, why: at.why }, []);
        // The file is removed, never what a link to it points at.
        const why = removeFile(at.dir.at, subject.path.slice(subject.path.lastIndexOf('/') + 1));
        if (why !== undefined) return failed(tool, { kind: 'failed', topic: topic.id, why }, []);
      } finally {
        for (const d of folders) closeDir(d);
      }
      // The folders it emptied go too (never the topic's own).
      const emptied = removeEmptyFolders(root.real, subject.path).map((f) => relToRoot(kb, topic, f));
      return { tool, status: 'forgotten', isError: false, topic: topic.id, slug, path: relToRoot(kb, topic, subject.path), ...(emptied.length > 0 ? { emptied } : {}), problems: [] };
    });
    if (!locked.ok) return failed(tool, { kind: 'failed', topic: topic.id, why: locked.why }, []);
    return locked.value;
  } finally {
    closeDir(root);
  }
}
