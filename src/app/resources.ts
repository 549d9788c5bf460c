// Subjects as resources a client picks from (MCP `resources/list` and
// `resources/read`).
import type { Topic } from '../config/types.ts';
import type { SkillFiles } from '../answer/learn.ts';
import { PASS_THROUGH, type Formatted } from '../kb/content/format.ts';
import { summaries } from '../kb/index/describe.ts';
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
 *  title or name). */
export async function subjects(kb: KnowledgeBase): Promise<SubjectEntry[]> {
  const out: SubjectEntry[] = [];
  for (const topic of kb.topics) {
    if (!topic.enable) continue;
    const view = kb.view(topic);
    const shown: Subject[] = [];
    for (const s of view.index.subjects) {
      if (s.hidden || view.disabled.has(s.slug) || kindOf(view, s) !== 'text') continue;
      shown.push(s);
    }
    const about = await summaries(view, shown);
    shown.forEach((s, i) => {
      const entry: SubjectEntry = { topic, slug: s.slug, mimeType: mimeTypeOf(s.ext) };
      if (about[i] !== undefined) entry.about = about[i]!;
      out.push(entry);
    });
  }
  return out;
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

/** Markdown and fenced formats are Markdown; the other pass-through formats
 *  are plain text. */
export function mimeTypeOf(ext: string): string {
  const e = ext.toLowerCase();
  return PASS_THROUGH.has(e) && e !== 'md' ? 'text/plain' : 'text/markdown';
}
