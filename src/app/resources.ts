// Subjects as resources a client picks from (MCP `resources/list` and
// `resources/read`), and the topics and slugs that complete a reference to
// one (MCP `completion/complete`).
import { statSync } from 'node:fs';
import type { Topic } from '../config/types.ts';
import type { SkillFiles } from '../answer/learn.ts';
import type { LinesShown } from '../answer/learn.ts';
import { bodyText } from '../kb/content/body.ts';
import { fenceTag, PASS_THROUGH, type Formatted } from '../kb/content/format.ts';
import { lineSpan } from '../kb/content/window.ts';
import { parseRange, rangeText } from '../kb/index/line-range.ts';
import { summaries, titles } from '../kb/index/describe.ts';
import { loadExact } from '../kb/index/load.ts';
import type { Subject } from '../kb/index/types.ts';
import { kindOf } from '../kb/index/view.ts';
import type { OperationOptions } from '../shared/pace.ts';
import type { Problem } from '../shared/problem.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { emptyTextProblem, replacedProblem, skillOf } from './topics.ts';

/** One subject of an enabled topic, and what it says it is (`about`:
 *  its description, title or name as written; undefined: nothing). */
export interface SubjectEntry {
  topic: Topic;
  slug: string;
  mimeType: string;
  about?: string;
  /** With `details`: its title (frontmatter `title` or `name`, else the
   *  document's own), its file's size in bytes and when it was last
   *  modified (ISO 8601), where known. */
  title?: string;
  size?: number;
  modified?: string;
}

/** Reading one subject by exact slug: its content, and a skill's files
 *  after it (render/subject.ts `resourceText` writes them as `kb learn
 *  TOPIC SLUG` prints them). */
export type SubjectRead =
  | { kind: 'text'; content: Formatted; skill?: SkillFiles; mimeType: string; problems: Problem[] }
  | { kind: 'not-found'; why: string }
  | { kind: 'error'; message: string };

/** Every visible subject of every enabled topic: hidden, disabled, binary
 *  and unreadable ones are never listed; pre-loaded ones are. Each with
 *  what it says it is (kb/index/describe.ts `summaries`: its description,
 *  title or name), unless `about` is false: then `describeSubjects` adds
 *  it to those a caller shows (a page), and only to them. */
export async function subjects(kb: KnowledgeBase, opts: { details?: boolean; about?: boolean } = {}): Promise<SubjectEntry[]> {
  const out: SubjectEntry[] = [];
  for (const topic of kb.topics) {
    if (!topic.enable) continue;
    const view = kb.view(topic);
    for (const s of view.index.subjects) {
      if (s.hidden || view.disabled.has(s.slug) || kindOf(view, s) !== 'text') continue;
      const entry: SubjectEntry = { topic, slug: s.slug, mimeType: mimeTypeOf(s.ext) };
      subjectOf.set(entry, s);
      out.push(entry);
    }
  }
  if (opts.about !== false) await describeSubjects(kb, out, opts);
  return out;
}

/** The subject of each entry `subjects` made. */
const subjectOf = new WeakMap<SubjectEntry, Subject>();

/** Adds to `entries` (made by `subjects`, in its order: all of them, or a
 *  page) what each says it is and, with `details`, its title, size and
 *  time of last change. A page of a topic of 10,000 subjects asks for its
 *  own details only: each costs a stat. */
export async function describeSubjects(kb: KnowledgeBase, entries: readonly SubjectEntry[], opts: { details?: boolean } = {}): Promise<void> {
  for (let i = 0; i < entries.length; ) {
    // The entries of one topic are next to each other.
    const topic = entries[i].topic;
    let end = i;
    while (end < entries.length && entries[end].topic === topic) end++;
    const group = entries.slice(i, end);
    const shown = group.map((e) => subjectOf.get(e)!);
    const view = kb.view(topic);
    const about = await summaries(view, shown);
    const titled = opts.details === true ? await titles(view, shown) : [];
    group.forEach((entry, k) => {
      if (about[k] !== undefined) entry.about = about[k]!;
      if (opts.details === true) withDetails(entry, shown[k], titled[k]);
    });
    i = end;
  }
}

/** A subject's title, size and time of its last change (one stat). */
function withDetails(entry: SubjectEntry, s: Subject, title: string | undefined): void {
  if (title !== undefined) entry.title = title;
  try {
    const st = statSync(s.abs);
    entry.size = st.size;
    entry.modified = new Date(st.mtimeMs).toISOString();
  } catch {
    // Gone since the walk: what the walk knew of its size, if anything.
    if (s.size >= 0) entry.size = s.size;
  }
}

/** The enabled topics' IDs that start with `prefix`, in the order of the
 *  configuration. */
export function topicsStarting(kb: KnowledgeBase, prefix: string): string[] {
  return kb.topics.filter((t) => t.enable && t.id.startsWith(prefix)).map((t) => t.id);
}

/** The slugs of topic `topicId` that a listing shows (not hidden, not
 *  disabled, text) and that start with `prefix`, in slug order: at most
 *  `max`, and whether there are more. Only those starting with `prefix`
 *  are probed, and only until one past `max` is found. */
export function slugsStarting(kb: KnowledgeBase, topicId: string, prefix: string, max: number): { slugs: string[]; more: boolean } {
  const topic = kb.topics.find((t) => t.enable && t.id === topicId);
  if (topic === undefined) return { slugs: [], more: false };
  const view = kb.view(topic);
  const slugs: string[] = [];
  for (const s of view.index.subjects) {
    if (!s.slug.startsWith(prefix) || s.hidden || view.disabled.has(s.slug) || kindOf(view, s) !== 'text') continue;
    if (slugs.length === max) return { slugs, more: true };
    slugs.push(s.slug);
  }
  return { slugs, more: false };
}

/** One subject by topic ID and exact slug, as `kb learn TOPIC SLUG` reads
 *  it. Hidden subjects are readable; disabled ones, disabled topics and
 *  binary files are not found. */
export function read(kb: KnowledgeBase, topicId: string, slug: string, opts: OperationOptions = {}): SubjectRead {
  opts.signal?.throwIfAborted();
  const topic = kb.topics.find((t) => t.enable && t.id === topicId);
  if (!topic) return { kind: 'not-found', why: `no enabled topic "${topicId}"` };
  const view = kb.view(topic);
  // The walk done, before the file is read.
  opts.signal?.throwIfAborted();
  const item = loadExact(view, slug, 'text');
  if (item?.kind === 'subject') {
    const problems = item.replaced ? [replacedProblem(topic.id, item.slug)] : [];
    if (item.note !== undefined && item.content.body.length === 0) problems.push(emptyTextProblem(topic.id, item.slug));
    const skill = skillOf(kb, topic, item.subject);
    return { kind: 'text', content: item.content, ...(skill !== undefined ? { skill } : {}), mimeType: mimeTypeOf(item.subject.ext), problems };
  }
  if (item?.kind === 'binary') return { kind: 'not-found', why: 'a binary file' };
  if (item?.kind === 'unreadable') return { kind: 'error', message: item.message };
  return { kind: 'not-found', why: `topic "${topic.id}" has no subject "${slug}"` };
}

/** Lines of a subject read (`kb://topic/slug?lines=120-160`): the window
 *  `kb learn TOPIC SLUG:120-160` shows, its note's facts. */
export type LinesRead =
  | { kind: 'lines'; slug: string; fenceTag: string | undefined; body: string; from: number; to: number; total: number; range: LinesShown; mimeType: string; problems: Problem[] }
  | { kind: 'past-end'; lines: number }
  | { kind: 'bad-lines'; problem: string }
  | Exclude<SubjectRead, { kind: 'text' }>;

/** Lines `lines` (`120-160`, `120-`, `120`: kb/index/line-range.ts) of
 *  one subject by topic ID and exact slug, as `read` finds it; `past-end`
 *  when it has fewer lines than the range's first. */
export function readLines(kb: KnowledgeBase, topicId: string, slug: string, lines: string, opts: OperationOptions = {}): LinesRead {
  opts.signal?.throwIfAborted();
  const asked = parseRange(lines);
  if (asked === undefined) return { kind: 'bad-lines', problem: `${JSON.stringify(lines.slice(0, 40))} is not a range` };
  if ('problem' in asked) return { kind: 'bad-lines', problem: asked.problem };
  const range = asked.range;
  const topic = kb.topics.find((t) => t.enable && t.id === topicId);
  if (!topic) return { kind: 'not-found', why: `no enabled topic "${topicId}"` };
  const item = loadExact(kb.view(topic), slug, 'bytes');
  if (item?.kind === 'binary') return { kind: 'not-found', why: 'a binary file' };
  if (item?.kind === 'unreadable') return { kind: 'error', message: item.message };
  if (item?.kind !== 'subject') return { kind: 'not-found', why: `topic "${topic.id}" has no subject "${slug}"` };
  const bytes = typeof item.body === 'string' ? new TextEncoder().encode(item.body) : item.body;
  const span = lineSpan(bytes, range.first, range.last);
  if (span.from === undefined) return { kind: 'past-end', lines: span.lines };
  const past = range.last !== undefined && range.last > span.lines;
  return {
    kind: 'lines',
    slug: item.slug,
    fenceTag: fenceTag(item.subject.ext),
    body: bodyText(bytes.subarray(span.from, span.to)),
    from: span.from,
    to: span.to,
    total: bytes.length,
    range: { first: range.first, last: span.last, lines: span.lines, ...(past ? { asked: rangeText(range) } : {}) },
    mimeType: mimeTypeOf(item.subject.ext),
    problems: item.replaced ? [replacedProblem(topic.id, item.slug)] : [],
  };
}

/** Markdown and fenced formats are Markdown; the other pass-through formats
 *  are plain text. */
export function mimeTypeOf(ext: string): string {
  const e = ext.toLowerCase();
  return PASS_THROUGH.has(e) && e !== 'md' ? 'text/plain' : 'text/markdown';
}
