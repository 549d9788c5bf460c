// The prompt's budget over pre-loaded subjects: which are expanded and which
// only named. Apart from knowledge-base.ts, so that a command whose topics
// pre-load nothing (or that has no budget) loads none of it: reading the
// subjects, estimating their tokens. KnowledgeBase.open loads it when a
// topic pre-loads within a finite budget.
import type { Topic } from '../config/types.ts';
import type { PromptCosts } from '../answer/cost.ts';
import { estimateTokensOfBody } from '../kb/content/tokens.ts';
import { loadLearned } from '../kb/index/load.ts';
import type { TopicView } from '../kb/index/view.ts';
import { BLOCK_TOKENS, promptReserve } from './budget.ts';
import { skillOf } from './topics.ts';
import { map } from '../shared/arrays.ts';

/** A pre-loaded subject the prompt's budget leaves out. */
export interface CutSubject {
  slug: string;
  tokens: number;
}

/** What the cut needs of the knowledge base. */
export interface CutSource {
  readonly config: { root: string };
  readonly maxTokens: number;
  view(topic: Topic): TopicView;
}

/** Cuts the pre-loaded subjects of `enabled` to the budget into `cut`
 *  (`cutPreloaded` with the prompt's costs). */
export type CutPreloaded = (kb: CutSource, enabled: readonly Topic[], cut: Map<Topic, CutSubject[]>) => void;

/**
 * The prompt section stays within the budget: pre-loaded subjects of the
 * `enabled` topics are expanded in configuration order (topic by topic,
 * each in learned order) while they fit; from the first that does not, the
 * rest are only named, and put in `cut`. Those are taken out of their
 * views' pre-loaded sets, so every front end treats them alike. Reads no
 * file while the pre-loaded files together have fewer bytes than the budget
 * has tokens (a token is never less than a byte). What the section's text
 * costs is render's (`costs`).
 */
export function cutPreloaded(kb: CutSource, enabled: readonly Topic[], cut: Map<Topic, CutSubject[]>, costs: PromptCosts): void {
  if (!Number.isFinite(kb.maxTokens)) return;
  const views = map(enabled, (t) => [t, kb.view(t)] as const);
  // What the section holds besides the expanded subjects: its
  // sentences, each topic's lines, and a note per topic naming what
  // is not expanded (budgeted by app/prompt-fit.ts).
  let frame = promptReserve(enabled.length);
  for (const t of enabled) frame += costs.topic(t);
  const budget = kb.maxTokens - frame;
  let bytes = 0;
  for (const [, v] of views) for (const m of v.learned) bytes += Math.max(0, m.subject.size);
  if (bytes <= budget) return;
  let used = 0;
  let over = false;
  for (const [topic, view] of views) {
    const out: CutSubject[] = [];
    for (const item of loadLearned(view)) {
      if (item.kind !== 'subject') continue;
      // The block as the prompt has it: its tags, the skill's files.
      const tokens = over ? estimateTokensOfBody(item.content.body) + BLOCK_TOKENS : estimateTokensOfBody(item.content.body) + costs.subject(item.slug, skillOf(kb, topic, item.subject));
      if (!over && used + tokens <= budget) {
        used += tokens;
        continue;
      }
      over = true;
      out.push({ slug: item.slug, tokens });
    }
    if (out.length === 0) continue;
    cut.set(topic, out);
    const gone = new Set(out.map((c) => c.slug));
    for (const slug of gone) view.learnedSlugs.delete(slug);
    view.learned = view.learned.filter((m) => !gone.has(m.subject.slug));
  }
}
