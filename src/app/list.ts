// `kb list`: every topic and its subjects, for people.
import { kindOf } from '../kb/index/view.ts';
import type { ListTopic } from '../render/list.ts';
import type { KnowledgeBase } from './knowledge-base.ts';

/** Each topic's subjects with their marks (hidden, disabled, learned,
 *  binary) and sizes, and what its walk noticed. `relativeDir` shows a
 *  subjects directory as the front end wants it. */
export function list(kb: KnowledgeBase, relativeDir: (dir: string) => string): ListTopic[] {
  return kb.topics.map((topic) => {
    const view = kb.view(topic);
    return {
      id: topic.id,
      title: topic.title,
      enabled: topic.enable,
      dir: relativeDir(topic.subjectsDir),
      rows: view.index.subjects.map((s) => {
        const marks: string[] = [];
        if (s.hidden) marks.push('hidden');
        if (view.disabled.has(s.slug)) marks.push('disabled');
        else if (view.learnedSlugs.has(s.slug)) marks.push('learned');
        if (kindOf(view, s) === 'binary') marks.push('binary');
        return { slug: s.slug, size: s.size, marks };
      }),
      problems: view.index.notices.map((n) => n.message),
    };
  });
}
