// `kb list`: every topic and its subjects, for people.
import { estimateTokensOfBody } from '../kb/content/tokens.ts';
import { readBody } from '../kb/fs/read.ts';
import { descriptions, timesOf } from '../kb/index/describe.ts';
import { inSiteOrder } from '../kb/index/site-order.ts';
import { kindOf } from '../kb/index/view.ts';
import type { ListTopic } from '../answer/list.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { binarySummary } from './binary.ts';

export interface ListOptions {
  /** Show what ignore files and the built-in defaults left out. */
  ignored?: boolean;
}

/** Each topic's subjects with their marks (hidden, disabled, learned,
 *  binary, skill, bundled), sizes and descriptions, and what its walk
 *  noticed. `relativeDir` shows a subjects directory as the front end
 *  wants it. */
/** A text file's estimated tokens (read as bytes: no decoding); undefined
 *  when it cannot be read. */
function tokensOf(abs: string): number | undefined {
  const r = readBody(abs, 'bytes');
  return r.kind === 'text' ? estimateTokensOfBody(r.body) : undefined;
}

export async function list(kb: KnowledgeBase, relativeDir: (dir: string) => string, opts: ListOptions = {}): Promise<ListTopic[]> {
  const out: ListTopic[] = [];
  for (const topic of kb.topics) {
    const view = kb.view(topic);
    // In the site's order, as a listing shows them (kb/index/order.ts).
    const subjects = inSiteOrder(view, view.index.subjects);
    const about = await descriptions(view, subjects);
    const times = await timesOf(view, subjects);
    const binaries: string[] = [];
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
        let tokens: number | undefined;
        if (kindOf(view, s) === 'binary') {
          marks.push('binary');
          binaries.push(s.ext);
        } else tokens = tokensOf(s.abs);
        const row = { slug: s.slug, size: s.size, marks, ...(tokens === undefined ? {} : { tokens }), ...times[i] };
        return about[i] === undefined ? row : { ...row, description: about[i] };
      }),
      problems: view.index.notices.map((n) => n.message),
      ...(binaries.length > 0 ? { binary: binarySummary(binaries) } : {}),
      ...(opts.ignored ? { ignored: view.index.ignored.map((x) => ({ path: x.path, source: x.source, rule: x.rule })) } : {}),
    });
  }
  return out;
}
