// The <knowledge> system-prompt section for the configured topics, shared by
// `kb prompt` and the MCP prompt `knowledge`. Returns the section as data
// (render/prompt.ts `renderPrompt` writes it) and what the user should be
// told (on stderr, never to the model).
import { hasListable } from '../kb/index/listing.ts';
import type { PreloadedTopic, Prompt } from '../answer/prompt.ts';
import type { TopicLabel } from '../answer/topic.ts';
import { warning, type Problem } from '../shared/problem.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { MAX_TOKENS_ENV, tokensText } from './budget.ts';
import { skillOf, viewProblems } from './topics.ts';
import { fitCutNames } from './prompt-fit.ts';
import { filter, map, some } from '../shared/arrays.ts';

export interface Section {
  /** The whole section (render/prompt.ts `renderPrompt` writes it; ''
   *  when there is nothing to show). */
  prompt: Prompt;
  problems: Problem[];
  /** Pre-loading stopped at `maxLoaded` (the caller says so). */
  stopped?: boolean;
}

/** The section for `kb`'s topics. Pre-loaded subjects are read until their
 *  text reaches `maxLoaded` characters (a front end that must hold the
 *  whole section bounds it); the rest are not read. Reading subjects
 *  (kb/index/load.ts) is loaded only when some topic pre-loads: most
 *  prompts pre-load nothing, and its imports cost start-up time. */
export async function prompt(kb: KnowledgeBase, maxLoaded = Number.POSITIVE_INFINITY): Promise<Section> {
  let loaded = 0;
  let stopped = false;
  const preloaded: PreloadedTopic[] = [];
  const available: TopicLabel[] = [];
  const problems: Problem[] = [];
  const cutWarnings: { p: Problem; id: string; count: number; tokens: number }[] = [];
  const views = map(filter(kb.topics, (t) => t.enable), (topic) => [topic, kb.view(topic)] as const);
  const loadLearned = some(views, ([, view]) => view.learned.length > 0) ? (await import('../kb/index/load.ts')).loadLearned : undefined;
  for (const [topic, view] of views) {
    problems.push(...viewProblems(view));
    const subjects: PreloadedTopic['subjects'] = [];
    for (const item of stopped || loadLearned === undefined ? [] : loadLearned(view)) {
      if (item.kind === 'subject') {
        const skill = skillOf(kb, topic, item.subject);
        subjects.push(skill === undefined ? { slug: item.slug, content: item.content } : { slug: item.slug, content: item.content, skill });
        loaded += item.content.head.length + item.content.body.length + item.content.tail.length;
        if (loaded >= maxLoaded) {
          stopped = true;
          break;
        }
      } else if (item.kind === 'binary') problems.push(warning('binary-subject', `learned subject "${item.slug}" of topic "${topic.id}" is a binary file; skipped`));
      else if (item.kind === 'unreadable') problems.push(warning('unreadable', `cannot read learned subject "${item.slug}" of topic "${topic.id}": ${item.message}`));
    }
    const cut = kb.preloadedCut(topic);
    if (subjects.length > 0 || cut.length > 0) preloaded.push({ ...topic, subjects, cut: map(cut, (c) => c.slug) });
    if (hasListable(view)) available.push(topic);
    if (cut.length > 0) {
      const tokens = cut.reduce((n, c) => n + c.tokens, 0);
      const p = warning('budget', '');
      cutWarnings.push({ p, id: topic.id, count: cut.length, tokens });
      problems.push(p);
    }
  }
  if (cutWarnings.length > 0) {
    // The names are budgeted too: as many as fit, then a count.
    const costs = await kb.costs.prompt();
    fitCutNames(preloaded, kb.maxTokens, (p) => costs.whole({ preloaded: p, available }));
    for (const w of cutWarnings) {
      const named = preloaded.find((t) => t.id === w.id)?.cut?.length ?? 0;
      const what = named === w.count ? 'named but not expanded' : `not expanded (${named === 0 ? 'none' : tokensText(named)} named, ${tokensText(w.count - named)} counted)`;
      w.p.message = `topic "${w.id}": ${w.count} pre-loaded subject${w.count === 1 ? '' : 's'} (~${tokensText(w.tokens)} tokens) ${what}, to keep the prompt within ${tokensText(kb.maxTokens)} tokens (--max-tokens, ${MAX_TOKENS_ENV})`;
    }
  }
  return { prompt: { preloaded, available }, problems, ...(stopped ? { stopped } : {}) };
}
