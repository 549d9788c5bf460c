// Recall: the read path of a memory. The subjects most relevant to a text
// (a user's prompt) are searched (search.ts `rank`), then packed within
// the token budget, best first: a whole subject when it fits, else its
// sections most relevant to the text (in their order in the file), else it
// is named in the closing note. The result is a `<knowledge>` block, ready
// to put in front of a prompt (docs/search-and-memory.md, "`kb recall TEXT...`").

import { formatContent } from '../kb/content/format.ts';
import { estimateTokens } from '../kb/content/tokens.ts';
import { readBody } from '../kb/fs/read.ts';
import { scoreText, sectionsOf } from '../kb/search/snippet.ts';
import { queryTerms } from '../kb/search/tokenize.ts';
import { renderPartialNote, renderRecall, RECALL_HEAD, type RecallLeftOut, type RecalledSubject, type RecalledTopic } from '../render/search.ts';
import { jsonQuoted } from '../shared/controls.ts';
import { warning, type Problem } from '../shared/problem.ts';
import { BLOCK_TOKENS, tokensText } from './budget.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { lookedUp, QUERY_LIMITS, rank, type IndexReport } from './search.ts';

export interface RecallOptions {
  /** A topic ID or title; undefined: every enabled topic. */
  topic?: string;
}

/** Subjects considered at most, and how relevant one must be against the
 *  best (its score's share of the best score). */
export const RECALL_CANDIDATES = 20;

/** Tokens reckoned for the note after a subject's sections. */
const NOTE_TOKENS = 80;
export const RECALL_MIN_SHARE = 0.3;

export interface RecalledItem {
  topic: string;
  slug: string;
  /** Its title, where it says more than the slug. */
  title?: string;
  /** What went in (the sections' tokens, for a partial subject). */
  tokens: number;
  /** The whole subject's tokens. */
  whole: number;
  /** Whole, or which sections (headings or line numbers). */
  sections?: string[];
  score: number;
}

/** What was recalled, as data: render/search.ts `renderRecall(topics,
 *  leftOut, budget)` writes the `<knowledge>` block ('' when nothing is
 *  relevant, or when the budget cannot hold even the closing note:
 *  `topics` and `leftOut` are then both empty in what is rendered). */
export interface RecallOutcome {
  /** The recalled subjects by topic, in configuration order. */
  topics: RecalledTopic[];
  items: RecalledItem[];
  /** Relevant subjects left out by the budget. */
  leftOut: RecallLeftOut[];
  /** False when not even the closing note fits: nothing is shown. */
  shown: boolean;
  budget: number;
  problems: Problem[];
  indexes: IndexReport[];
  /** An unknown topic: the message. */
  error?: string;
}

/** Recalls knowledge for `text`. */
export async function recall(kb: KnowledgeBase, text: string, opts: RecallOptions = {}): Promise<RecallOutcome> {
  const problems: Problem[] = [];
  let topics = kb.topics.filter((t) => t.enable);
  if (opts.topic !== undefined) {
    const t = kb.resolveTopic(opts.topic);
    if (t === undefined) return { topics: [], items: [], leftOut: [], shown: false, budget: kb.maxTokens, problems, indexes: [], error: `unknown topic "${opts.topic}"` };
    topics = [t];
  }
  let query = text;
  if (query.length > QUERY_LIMITS.chars) {
    problems.push(warning('recall', `recall: only the first ${QUERY_LIMITS.chars} of ${query.length} characters of the text were used to search`));
    query = query.slice(0, QUERY_LIMITS.chars);
  }
  const all = queryTerms(query);
  if (lookedUp(all).length < all.length) {
    problems.push(warning('recall', `recall: only the first ${QUERY_LIMITS.terms} distinct words of the text were used to search`));
  }
  const ranked = await rank(kb, topics, query, RECALL_CANDIDATES);
  problems.push(...ranked.problems);
  const best = ranked.found[0]?.score ?? 0;
  const candidates = ranked.found.filter((f) => f.score >= best * RECALL_MIN_SHARE).slice(0, RECALL_CANDIDATES);
  const budget = kb.maxTokens;
  let used = estimateTokens(RECALL_HEAD) + 40;
  const byTopic = new Map<string, RecalledTopic>();
  const items: RecalledItem[] = [];
  const leftOut: RecallLeftOut[] = [];
  /** For a subject that came as sections: its sections within fewer tokens. */
  const shrinkers = new Map<string, { topic: string; partialOf: (within: number) => { content: RecalledSubject; tokens: number; names: string[] } | undefined }>();
  for (const f of candidates) {
    const read = readBody(f.abs, 'text');
    if (read.kind !== 'text') continue; // changed since indexed: the next search indexes it again
    const body = read.body as string;
    const ext = f.path.includes('.') ? f.path.slice(f.path.lastIndexOf('.') + 1).toLowerCase() : '';
    const tokens = estimateTokens(body) + BLOCK_TOKENS;
    const topic = byTopic.get(f.topic.id) ?? { id: f.topic.id, ...(f.topic.title !== undefined ? { title: f.topic.title } : {}), subjects: [] };
    const topicCost = byTopic.has(f.topic.id) ? 0 : 10;
    if (used + topicCost + tokens <= budget) {
      topic.subjects.push({ slug: f.slug, content: formatContent(ext, body) });
      byTopic.set(f.topic.id, topic);
      used += topicCost + tokens;
      items.push({ topic: f.topic.id, slug: f.slug, ...(f.title !== undefined ? { title: f.title } : {}), tokens, whole: tokens, score: Math.round(f.score * 1000) / 1000 });
      continue;
    }
    // Too big: its most relevant sections that fit.
    const room = budget - used - topicCost - BLOCK_TOKENS - 70;
    const matched = ranked.matched.get(f.topic) ?? new Set<string>();
    /** Its best sections and the note after them, within `within` tokens
     *  (the note taken as about NOTE_TOKENS). */
    const partialOf = (within: number): { content: RecalledSubject; tokens: number; names: string[] } | undefined => {
      const picked = within - NOTE_TOKENS > 50 ? pickSections(body, ext, f.index, matched, within - NOTE_TOKENS) : undefined;
      if (picked === undefined) return undefined;
      const partial = { names: picked.names, tokens, call: { topic: f.topic.id, subjects: [f.slug] } };
      return { content: { slug: f.slug, content: formatContent(ext, picked.text), partial }, tokens: picked.tokens + estimateTokens(renderPartialNote(partial)), names: picked.names };
    };
    const first = partialOf(room);
    if (first === undefined) {
      leftOut.push({ topic: f.topic.id, slug: f.slug, ...(f.title !== undefined ? { title: f.title } : {}), tokens });
      continue;
    }
    topic.subjects.push(first.content);
    byTopic.set(f.topic.id, topic);
    used += topicCost + first.tokens + BLOCK_TOKENS;
    items.push({ topic: f.topic.id, slug: f.slug, ...(f.title !== undefined ? { title: f.title } : {}), tokens: first.tokens, whole: tokens, sections: first.names, score: Math.round(f.score * 1000) / 1000 });
    shrinkers.set(f.slug, { topic: f.topic.id, partialOf });
  }
  // In configuration order of the topics, each topic's subjects best first.
  const ordered = (): RecalledTopic[] => topics.map((t) => byTopic.get(t.id)).filter((t): t is RecalledTopic => t !== undefined && t.subjects.length > 0);
  // Rendered to be measured.
  const render = (): string => renderRecall(ordered(), leftOut, budget);
  let out = render();
  // The estimates above are per part: the whole is checked, and the least
  // relevant subjects go to the closing note until it fits.
  // A subject that came as sections first gives up sections.
  while (estimateTokens(out) > budget && items.length > 0) {
    const last = items[items.length - 1];
    const t = byTopic.get(last.topic)!;
    const shrink = last.sections !== undefined ? shrinkers.get(last.slug) : undefined;
    const target = last.tokens - (estimateTokens(out) - budget) - 10;
    let smaller = shrink?.partialOf(target);
    // A longer note than reckoned: once more, with its excess off.
    if (smaller !== undefined && smaller.tokens > target) smaller = shrink?.partialOf(2 * target - smaller.tokens - 5);
    if (smaller !== undefined && smaller.tokens < last.tokens) {
      t.subjects = t.subjects.map((x) => (x.slug === last.slug ? smaller.content : x));
      last.tokens = smaller.tokens;
      last.sections = smaller.names;
    } else {
      items.pop();
      t.subjects = t.subjects.filter((x) => x.slug !== last.slug);
      leftOut.unshift({ topic: last.topic, slug: last.slug, ...(last.title !== undefined ? { title: last.title } : {}), tokens: last.whole });
    }
    out = render();
  }
  if (estimateTokens(out) > budget) {
    // Not even the closing note fits: nothing, said on stderr.
    problems.push(warning('budget', `recall: the ${tokensText(budget)}-token budget is too small to name what was found; nothing printed`));
    return { topics: [], items: [], leftOut, shown: false, budget, problems, indexes: ranked.indexes };
  }
  if (leftOut.length > 0) {
    problems.push(warning('budget', `recall: ${leftOut.length} relevant subject${leftOut.length === 1 ? '' : 's'} left out to stay within ${tokensText(budget)} tokens; the model was told`));
  }
  const partials = items.filter((i) => i.sections !== undefined).length;
  if (partials > 0) {
    problems.push(warning('budget', `recall: ${partials} subject${partials === 1 ? '' : 's'} larger than the room left in ${tokensText(budget)} tokens came as ${partials === 1 ? 'its' : 'their'} most relevant sections; the model was told`));
  }
  return { topics: ordered(), items, leftOut, shown: true, budget, problems, indexes: ranked.indexes };
}

/** The sections of `body` most relevant to the matched terms that fit in
 *  `room` tokens, in file order; undefined when none has a matched term or
 *  none fits. */
function pickSections(
  body: string,
  ext: string,
  index: { idf(t: string): number },
  matched: ReadonlySet<string>,
  room: number,
): { text: string; names: string[]; tokens: number } | undefined {
  const weights = new Map<string, number>();
  for (const t of matched) weights.set(t, index.idf(t));
  const sections = sectionsOf(body, ext).map((s) => ({ ...s, score: scoreText(body.slice(s.start, s.end), weights) }));
  const order = sections.map((_, i) => i).filter((i) => sections[i].score > 0).sort((a, b) => sections[b].score - sections[a].score || a - b);
  const chosen: number[] = [];
  let tokens = 0;
  for (const i of order) {
    const t = estimateTokens(body.slice(sections[i].start, sections[i].end)) + 2;
    if (tokens + t > room) continue;
    chosen.push(i);
    tokens += t;
  }
  if (chosen.length === 0) return undefined;
  chosen.sort((a, b) => a - b);
  const parts: string[] = [];
  let prevEnd = 0;
  for (const i of chosen) {
    const s = sections[i];
    if (s.start > prevEnd) parts.push('[…]\n');
    parts.push(body.slice(s.start, s.end));
    prevEnd = s.end;
  }
  if (prevEnd < body.length) parts.push('\n[…]');
  const names = chosen.map((i) => (sections[i].heading !== undefined ? jsonQuoted(sections[i].heading) : `line ${sections[i].line}`));
  return { text: parts.join(''), names, tokens };
}
