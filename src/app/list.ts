// `kb list`: every topic and its subjects, for people.
import { descriptions } from '../kb/index/describe.ts';
import { kindOf } from '../kb/index/view.ts';
import type { ListTopic } from '../render/list.ts';
import type { KnowledgeBase } from './knowledge-base.ts';

export interface ListOptions {
  /** Show what ignore files and the built-in defaults left out. */
  ignored?: boolean;
}

/** Each topic's subjects with their marks (hidden, disabled, learned,
 *  binary, skill, bundled), sizes and descriptions, and what its walk
 *  noticed. `relativeDir` shows a subjects directory as the front end
 *  wants it. */
export async function list(kb: KnowledgeBase, relativeDir: (dir: string) => string, opts: ListOptions = {}): Promise<ListTopic[]> {
  const out: ListTopic[] = [];
  for (const topic of kb.topics) {
    const view = kb.view(topic);
    const subjects = view.index.subjects;
    const about = await descriptions(view, subjects);
    out.push({
      id: topic.id,
      title: topic.title,
      enabled: topic.enable,
      dir: relativeDir(topic.subjectsDir),
      rows: subjects.map((s, i) => {
        const marks: string[] = [];
        if (s.skill) marks.push('skill');
        if (s.bundled) marks.push('bundled');
        else if (s.hidden) marks.push('hidden');
        if (view.disabled.has(s.slug)) marks.push('disabled');
        else if (view.learnedSlugs.has(s.slug)) marks.push('learned');
        if (kindOf(view, s) === 'binary') marks.push('binary');
        const row = { slug: s.slug, size: s.size, marks };
        return about[i] === undefined ? row : { ...row, description: about[i] };
      }),
      problems: view.index.notices.map((n) => n.message),
      ...(opts.ignored ? { ignored: view.index.ignored.map((x) => ({ path: x.path, source: x.source, rule: x.rule })) } : {}),
    });
  }
  return out;
}
