// The write path (README, "Remembering"): `remember` adds a subject,
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

import type { Topic } from '../config/types.ts';
import { bodyText } from '../kb/content/body.ts';
import { readBody } from '../kb/fs/read.ts';
import { openTopic } from '../kb/index/view.ts';
import { makeDirs, removeFile, sweepTemps, writeNewFile } from '../kb/write/file.ts';
import { STALE_MS, withTopicLock } from '../kb/write/lock.ts';
import { placeNew, realParentInside, realSubjectsDir } from '../kb/write/place.ts';
import { isMissing, makeSubjectsDir, removeEmptyFolders } from '../kb/write/folders.ts';
import { bodyOf, NEAR_THRESHOLD, normalise, profile, similarity } from '../kb/write/similar.ts';
import { slugFromText, uniqueSlug } from '../kb/write/slug.ts';
import type { Similar, Source, WriteFailure, WriteOutcome as WriteData, WriteTool } from '../render/memory.ts';
import { warning, type Problem } from '../shared/problem.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { rank } from './search.ts';

export type { Source, Status, WriteFailure } from '../render/memory.ts';

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

function failed(tool: WriteTool, failure: WriteFailure, problems: Problem[] = []): WriteOutcome {
  return { tool, status: failure.kind === 'near-duplicate' ? 'near-duplicate' : 'error', isError: true, failure, problems };
}

/** The topic a write names, or why it cannot be written. */
function writableTopic(kb: KnowledgeBase, name: string, opts: WriteOptions): Topic | WriteFailure {
  const allowed = kb.topics.filter((t) => t.enable && (opts.writable === undefined || opts.writable.has(t.id)));
  const topic = kb.resolveTopic(name);
  if (topic === undefined) return { kind: 'unknown-topic', topic: name, valid: allowed };
  if (!topic.enable) return { kind: 'disabled-topic', topic: topic.id };
  if (!allowed.includes(topic)) return { kind: 'not-writable', topic: topic.id, writable: allowed.map((t) => t.id) };
  return topic;
}

function relToRoot(kb: KnowledgeBase, topic: Topic, rel: string): string {
  const root = kb.config.root.endsWith('/') ? kb.config.root : `${kb.config.root}/`;
  const abs = `${topic.subjectsDir}/${rel}`;
  return abs.startsWith(root) ? abs.slice(root.length) : abs;
}

/** The default description: the text's first line with words, heading
 *  marks dropped, cut at 160 characters. */
export function descriptionFrom(text: string): string {
  const line = (text.split('\n').find((l) => /[\p{L}\p{N}]/u.test(l)) ?? '').replace(/^\s*#+\s*/, '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length > 160 ? `${chars.slice(0, 159).join('').trimEnd()}…` : line;
}

/** The new file's content: YAML frontmatter (strings JSON-quoted, which
 *  YAML reads as they are), then the text. */
export function subjectFile(args: RememberArgs, source: Source, now: Date): string {
  const lines = ['---'];
  const description = args.description ?? descriptionFrom(args.text);
  if (description !== '') lines.push(`description: ${JSON.stringify(description)}`);
  lines.push(`created: ${now.toISOString()}`);
  if (args.tags.length > 0) lines.push(`tags: [${args.tags.map((t) => JSON.stringify(t)).join(', ')}]`);
  lines.push(`source: ${source}`, '---', '');
  const body = args.text.replace(/\r\n/g, '\n');
  return `${lines.join('\n')}${body.endsWith('\n') ? body : `${body}\n`}`;
}

/** Candidates looked at for duplicates: the best search hits. */
const CANDIDATES = 20;

interface Existing {
  slug: string;
  similarity: number;
  exact: boolean;
}

/** The subject of `topic` that `text` duplicates, exactly or nearly (the
 *  most similar), among the search's best hits and the subject that
 *  `alsoSlug` names. */
async function findDuplicate(kb: KnowledgeBase, topic: Topic, text: string, alsoSlug: string | undefined, problems: Problem[]): Promise<Existing | undefined> {
  const ranked = await rank(kb, [topic], text, CANDIDATES);
  problems.push(...ranked.problems);
  const view = openTopic(topic, {});
  const bySlug = new Map(view.index.subjects.map((s) => [s.slug, s]));
  const seen = new Set<string>();
  const paths: { slug: string; abs: string }[] = [];
  for (const f of ranked.found) if (!seen.has(f.slug)) (seen.add(f.slug), paths.push({ slug: f.slug, abs: f.abs }));
  const also = alsoSlug === undefined ? undefined : bySlug.get(alsoSlug);
  if (also !== undefined && !also.hidden && !seen.has(also.slug) && !topic.disabled.includes(also.slug)) paths.push({ slug: also.slug, abs: also.abs });
  const wanted = normalise(text);
  const mine = profile(text);
  let best: Existing | undefined;
  for (const p of paths) {
    const r = readBody(p.abs, 'text');
    if (r.kind !== 'text') continue;
    const body = bodyOf(bodyText(r.body));
    if (normalise(body) === wanted) return { slug: p.slug, similarity: 1, exact: true };
    const s = similarity(mine, profile(body));
    if (best === undefined || s > best.similarity) best = { slug: p.slug, similarity: s, exact: false };
  }
  return best;
}

/** A new subject, planned: where it goes and what it holds. */
interface WritePlan {
  topic: Topic;
  slug: string;
  /** Its file, relative to the subjects directory. */
  rel: string;
  /** The subjects directory's real path, and the directories to make. */
  real: string;
  dirs: string[];
  content: Uint8Array;
  /** Written although this subject is similar (`force`). */
  near?: Similar;
}

const rounded = (s: Similar) => ({ slug: s.slug, similarity: Math.round(s.similarity * 1000) / 1000 });

/** Remembers a text as a new subject: under the topic's lock, plans the
 *  write (duplicates, the slug, the place), then commits it. */
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
  const real = realSubjectsDir(topic.subjectsDir);
  if (!real.ok) return { ...failed(tool, { kind: 'failed', topic: topic.id, why: real.why }), ...created };
  const locked = await withTopicLock(real.real, async (lost): Promise<WriteOutcome> => {
    const plan = await planRemember(kb, topic, args, opts, problems);
    return 'status' in plan ? plan : commitRemember(kb, plan, lost, problems);
  });
  if (!locked.ok) return { ...failed(tool, { kind: 'failed', topic: topic.id, why: locked.why }, problems), ...created };
  return { ...locked.value, ...created };
}

/** What remembering `args` in `topic` would write, as the files are now
 *  (under the lock): the plan, or the outcome when nothing is to be
 *  written (a duplicate, a near duplicate without `force`, a slug taken, a
 *  place refused). */
async function planRemember(kb: KnowledgeBase, topic: Topic, args: RememberArgs, opts: WriteOptions, problems: Problem[]): Promise<WritePlan | WriteOutcome> {
  const tool = 'remember';
  const view = openTopic(topic, {});
  const derived = args.slug === undefined ? slugFromText(args.text) : undefined;
  const dup = await findDuplicate(kb, topic, args.text, args.slug ?? derived, problems);
  if (dup?.exact) {
    return { tool, status: 'duplicate', isError: false, topic: topic.id, slug: dup.slug, existing: { slug: dup.slug, similarity: 1 }, problems };
  }
  const near = dup !== undefined && dup.similarity >= NEAR_THRESHOLD ? { slug: dup.slug, similarity: dup.similarity } : undefined;
  if (near !== undefined && !args.force) {
    return { ...failed(tool, { kind: 'near-duplicate', topic: topic.id, similar: near, threshold: NEAR_THRESHOLD, source: opts.source }, problems), topic: topic.id, existing: rounded(near) };
  }
  // Taken: any subject's slug or exact name (hidden ones too), a
  // disabled slug, a folder, or a file of that slug on disk.
  const slugs = new Set(view.index.subjects.map((s) => s.slug));
  const disabled = new Set(topic.disabled);
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
    slug = uniqueSlug(derived!, taken);
  }
  const rel = `${slug}.md`;
  const place = placeNew(topic.subjectsDir, rel);
  if (!place.ok) return failed(tool, { kind: 'cannot-place', topic: topic.id, rel, why: place.why }, problems);
  const content = new TextEncoder().encode(subjectFile(args, opts.source, opts.now ?? new Date()));
  return { topic, slug, rel, real: place.real, dirs: place.dirs, content, ...(near !== undefined ? { near } : {}) };
}

/** Writes a planned subject: its directories, then the file, whole or not
 *  at all (temporary files an interrupted write left beside it are swept
 *  first). `lost`: whether the lock was lost meanwhile. */
function commitRemember(kb: KnowledgeBase, plan: WritePlan, lost: () => string | undefined, problems: Problem[]): WriteOutcome {
  const tool = 'remember';
  const { topic, rel } = plan;
  const made = makeDirs(plan.real, plan.dirs);
  if (made !== undefined) return failed(tool, { kind: 'failed', topic: topic.id, why: made }, problems);
  const slash = rel.lastIndexOf('/');
  const dir = slash < 0 ? plan.real : `${plan.real}/${rel.slice(0, slash)}`;
  const name = rel.slice(slash + 1);
  for (const t of sweepTemps(dir, STALE_MS)) {
    problems.push(warning('write-temp', `topic "${topic.id}": removed ${t}, left by an interrupted write`, relToRoot(kb, topic, slash < 0 ? t : `${rel.slice(0, slash)}/${t}`), topic.id));
  }
  const w = writeNewFile(dir, name, plan.content, lost);
  if (!w.ok) return failed(tool, w.exists ? { kind: 'exists', path: relToRoot(kb, topic, rel) } : { kind: 'failed', topic: topic.id, why: w.why }, problems);
  if (w.note !== undefined) problems.push(warning('write-rename', `topic "${topic.id}": ${w.note}`, relToRoot(kb, topic, rel), topic.id));
  return {
    tool,
    status: 'written',
    isError: false,
    topic: topic.id,
    slug: plan.slug,
    path: relToRoot(kb, topic, rel),
    ...(plan.near !== undefined ? { existing: rounded(plan.near), near: plan.near } : {}),
    problems,
  };
}

/** Removes a visible subject. */
export async function forget(kb: KnowledgeBase, args: ForgetArgs, opts: WriteOptions): Promise<WriteOutcome> {
  const tool = 'forget';
  const found = writableTopic(kb, args.topic, opts);
  if (!('id' in found)) return failed(tool, found, []);
  const topic = found;
  const slug = args.slug.replace(/\/+$/, '');
  const real = realSubjectsDir(topic.subjectsDir);
  if (!real.ok) return failed(tool, { kind: 'failed', topic: topic.id, why: real.why }, []);
  const root = real.real;
  const locked = await withTopicLock(root, async (): Promise<WriteOutcome> => {
    const view = openTopic(topic, {});
    const subject = view.index.subjects.find((s) => s.slug === slug);
    if (subject === undefined) {
      const alias = view.index.aliases.get(slug);
      return failed(tool, { kind: 'no-subject', topic: topic.id, slug, ...(alias !== undefined ? { aliasOf: alias.of } : {}) }, []);
    }
    const kept = subject.bundled ? 'bundled' : subject.skill ? 'skill' : subject.hidden ? 'hidden' : topic.disabled.includes(slug) ? 'disabled' : undefined;
    if (kept !== undefined) return failed(tool, { kind: 'kept', topic: topic.id, slug, why: kept }, []);
    const at = realParentInside(root, topic.subjectsDir, subject.path);
    if (!at.ok) return failed(tool, { kind: 'cannot-remove', path: subject.path, why: at.why }, []);
    // The file is removed, never what a link to it points at.
    const why = removeFile(at.dir, at.name);
    if (why !== undefined) return failed(tool, { kind: 'failed', topic: topic.id, why }, []);
    // The folders it emptied go too (never the topic's own).
    const emptied = removeEmptyFolders(root, subject.path).map((f) => relToRoot(kb, topic, f));
    return { tool, status: 'forgotten', isError: false, topic: topic.id, slug, path: relToRoot(kb, topic, subject.path), ...(emptied.length > 0 ? { emptied } : {}), problems: [] };
  });
  if (!locked.ok) return failed(tool, { kind: 'failed', topic: topic.id, why: locked.why }, []);
  return locked.value;
}
