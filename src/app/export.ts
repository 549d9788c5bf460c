// `kb export`: every visible subject of the topics asked for, whole, one
// record at a time (an async generator: the front end writes each before
// the next is read, so memory does not grow with the knowledge base).
// Hidden subjects only when asked; disabled ones never; binary and
// unreadable files are skipped and said, never silently.
import { join, relative, sep } from 'node:path';
import type { Topic } from '../config/types.ts';
import { loadYaml, type YamlModule } from '../kb/content/frontmatter.ts';
import { decodeText } from '../kb/fs/decode.ts';
import { probeBytes } from '../kb/fs/probe-titles.ts';
import { readSubjectRaw } from '../kb/fs/read.ts';
import { aboutOfProbe, type About } from '../kb/index/describe.ts';
import { slugLowerBound } from '../kb/index/slug.ts';
import type { Subject } from '../kb/index/types.ts';
import type { TopicView } from '../kb/index/view.ts';
import type { ExportItem, ExportRecord, ExportSummary } from '../answer/export.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { noticeProblems } from './topics.ts';

export interface ExportOptions {
  /** Also the hidden subjects (skills' bundled files among them). */
  hidden?: boolean;
}

/** The topics `names` name (IDs or titles, each once, in the order named),
 *  or every enabled topic when none is named; an unknown or disabled topic
 *  is the error's message. */
export function exportTopics(kb: KnowledgeBase, names: readonly string[]): { topics: Topic[] } | { error: string } {
  if (names.length === 0) return { topics: kb.topics.filter((t) => t.enable) };
  const topics: Topic[] = [];
  for (const name of names) {
    const t = kb.resolveTopic(name) ?? kb.topics.find((x) => x.id === name);
    if (t === undefined) return { error: `unknown topic "${name}"; the topics are ${kb.topics.map((x) => x.id).join(', ') || '(none)'}` };
    if (!t.enable) return { error: `topic "${t.id}" is disabled` };
    if (!topics.includes(t)) topics.push(t);
  }
  return { topics };
}

/** Every subject of `topics` to export, exported or skipped, in topic
 *  order and slug order within a topic (files that lost their slug to
 *  another, `Cargo.lock` beside `Cargo.toml`, after them, under the slug
 *  plus extension learn loads them by); last, the summary. */
export async function* exportSubjects(kb: KnowledgeBase, topics: readonly Topic[], opts: ExportOptions = {}): AsyncGenerator<ExportItem> {
  const summary: ExportSummary = { topics: topics.map((t) => t.id), exported: 0, replaced: 0, binary: 0, unreadable: 0, hidden: 0, disabled: 0 };
  const yaml: { lib?: YamlModule } = {};
  for (const topic of topics) {
    const view = kb.view(topic);
    for (const problem of noticeProblems(view)) yield { kind: 'problem', problem };
    for (const [slug, s] of exported(view)) {
      if (view.disabled.has(s.slug) || view.disabled.has(slug)) {
        summary.disabled++;
        continue;
      }
      if (s.hidden && !opts.hidden) {
        summary.hidden++;
        continue;
      }
      const item = await exportOne(kb, topic, slug, s, yaml);
      count(summary, item);
      yield item;
    }
  }
  yield { kind: 'summary', summary };
}

/** Each subject of `view` under the name learn loads it by: the indexed
 *  subjects, then the files that share a slug with another (under their
 *  alias; a skill's `<dir>/SKILL` is its subject again, left out). */
function* exported(view: TopicView): Generator<[string, Subject]> {
  const subjects = view.index.subjects;
  for (const s of subjects) yield [s.slug, s];
  for (const [alias, a] of view.index.aliases) {
    const at = slugLowerBound(subjects, a.of);
    const owner = at < subjects.length && subjects[at].slug === a.of ? subjects[at] : undefined;
    if (owner === undefined || owner.path !== a.subject.path) yield [alias, a.subject];
  }
}

function count(summary: ExportSummary, item: ExportItem): void {
  if (item.kind === 'subject') {
    summary.exported++;
    if (item.replaced) summary.replaced++;
  } else if (item.kind === 'skipped') summary[item.why]++;
}

/** Reads one subject whole: its record, or why it is skipped. The YAML
 *  parser is loaded the first time a subject's frontmatter needs it. */
async function exportOne(kb: KnowledgeBase, topic: Topic, slug: string, s: Subject, yaml: { lib?: YamlModule }): Promise<ExportItem> {
  const path = relative(kb.config.root, join(topic.subjectsDir, s.path)).split(sep).join('/');
  const raw = readSubjectRaw(s.abs);
  if (raw.kind === 'binary') return { kind: 'skipped', topic: topic.id, slug, path, why: 'binary' };
  if (raw.kind === 'error') return { kind: 'skipped', topic: topic.id, slug, path, why: 'unreadable', message: raw.message };
  // The bytes are a view into a buffer the next read reuses: probed and
  // decoded before any other read.
  const bytes = raw.bytes;
  const probe = probeBytes(bytes, s.path);
  let about = aboutOfProbe(probe, yaml.lib);
  const { text, replaced } = decodeText(bytes);
  const size = bytes.length;
  if (about === undefined) {
    yaml.lib = await loadYaml();
    about = aboutOfProbe(probe, yaml.lib) ?? {};
  }
  return { kind: 'subject', record: recordOf(topic.id, slug, path, size, text, about), replaced };
}

function recordOf(topic: string, slug: string, path: string, size: number, text: string, about: About): ExportRecord {
  return {
    topic,
    slug,
    title: about.title ?? null,
    description: about.description ?? about.summary ?? null,
    tags: about.tags === undefined ? [] : [...about.tags],
    path,
    size,
    text,
  };
}
