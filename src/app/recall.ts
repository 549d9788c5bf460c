// Recall: the read path of a memory. The subjects most relevant to a text
// (a user's prompt) are searched (search.ts `rank`), then packed within
// the token budget, best first: a whole subject when it fits, else its
// sections most relevant to the text (in their order in the file), else it
// is named in the closing note. The result is a `<knowledge>` block, ready
// to put in front of a prompt (docs/guide/search-and-memory.md, "`kb recall TEXT...`").

import type { RecallCosts } from '../answer/cost.ts';
import type { OperationOptions } from '../shared/pace.ts';
import { formatContent, type Formatted } from '../kb/content/format.ts';
import { htmlText, isHtmlExt, textViewNote, type HtmlView } from '../kb/content/html.ts';
import { estimateTokens } from '../kb/content/tokens.ts';
import { readBody } from '../kb/fs/read.ts';
import { scoreText, sectionsOf } from '../kb/search/snippet.ts';
import { extOf } from '../kb/index/slug.ts';
import { queryTerms } from '../kb/search/tokenize.ts';
import type { RecallLeftOut, RecalledSubject, RecalledTopic } from '../answer/search.ts';
import { filter, map, some } from '../shared/arrays.ts';
import { jsonQuoted } from '../shared/controls.ts';
import { warning, type Problem } from '../shared/problem.ts';
import { BLOCK_TOKENS, tokensText } from './budget.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { fit, type FitCosts } from './fit.ts';
import { lookedUp, namedTopics, QUERY_LIMITS, rank, topicsOf, type Found, type IndexReport, type Ranked } from './search.ts';

export interface RecallOptions extends OperationOptions {
  /** A topic ID or title; undefined: every enabled topic. */
  topic?: string;
  /** Topic IDs or titles: the set recalled from (with `topic`). */
  topics?: readonly string[];
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

/** A candidate read: whole, or some of its sections (`partial`). */
interface Candidate {
  f: Found;
  body: string;
  /** Its format (an HTML page's text is read as Markdown: its headings
   *  are `#` lines). */
  ext: string;
  /** An HTML page, shown as text: the line that says so. */
  note?: string;
  /** Its block's tokens, whole. */
  whole: number;
  partial?: Partial;
}

/** Some sections of a subject: its block's content, the tokens of the
 *  sections and of the note after them, and the sections' names. */
interface Partial {
  content: RecalledSubject;
  tokens: number;
  names: string[];
}

/** Recalls knowledge for `text`: its candidates packed within the budget
 *  (app/fit.ts), each whole, else its sections, else named in the closing
 *  note. */
export async function recall(kb: KnowledgeBase, text: string, opts: RecallOptions = {}): Promise<RecallOutcome> {
  const problems: Problem[] = [];
  const chosen = topicsOf(kb, namedTopics(opts));
  if ('unknown' in chosen) return { topics: [], items: [], leftOut: [], shown: false, budget: kb.maxTokens, problems, indexes: [], error: `unknown topic "${chosen.unknown}"` };
  const topics = chosen.topics;
  const ranked = await rank(kb, topics, queryOf(text, problems), RECALL_CANDIDATES, opts.signal !== undefined ? { signal: opts.signal } : {});
  problems.push(...ranked.problems);
  const costs = await kb.costs.recall();
  const budget = kb.maxTokens;
  const best = ranked.found[0]?.score ?? 0;
  const candidates = readCandidates(filter(ranked.found, (f) => f.score >= best * RECALL_MIN_SHARE).slice(0, RECALL_CANDIDATES), kb.html);
  // In configuration order of the topics, each topic's subjects best first.
  const ordered = (kept: readonly Candidate[]): RecalledTopic[] =>
    filter(
      map(topics, (t) => ({ id: t.id, ...(t.title !== undefined ? { title: t.title } : {}), subjects: map(filter(kept, (c) => c.f.topic === t), subjectOf) })),
      (t) => t.subjects.length > 0,
    );
  const { kept, left } = fit(candidates, budget, packing(costs, ranked, budget, ordered));
  const leftOut = map(left, leftOutOf);
  if (kept.length === 0 && costs.whole([], leftOut, budget) > budget) {
    // Not even the closing note fits: nothing, said on stderr.
    problems.push(warning('budget', `recall: the ${tokensText(budget)}-token budget is too small to name what was found; nothing printed`));
    return { topics: [], items: [], leftOut, shown: false, budget, problems, indexes: ranked.indexes };
  }
  if (leftOut.length > 0) {
    problems.push(warning('budget', `recall: ${leftOut.length} relevant subject${leftOut.length === 1 ? '' : 's'} left out to stay within ${tokensText(budget)} tokens; the model was told`));
  }
  const items = map(kept, itemOf);
  const partials = filter(items, (i) => i.sections !== undefined).length;
  if (partials > 0) {
    problems.push(warning('budget', `recall: ${partials} subject${partials === 1 ? '' : 's'} larger than the room left in ${tokensText(budget)} tokens came as ${partials === 1 ? 'its' : 'their'} most relevant sections; the model was told`));
  }
  return { topics: ordered(kept), items, leftOut, shown: true, budget, problems, indexes: ranked.indexes };
}

/** The text searched: at most QUERY_LIMITS.chars characters of it (and
 *  QUERY_LIMITS.terms words are searched), with a warning past either. */
function queryOf(text: string, problems: Problem[]): string {
  let query = text;
  if (query.length > QUERY_LIMITS.chars) {
    problems.push(warning('recall', `recall: only the first ${QUERY_LIMITS.chars} of ${query.length} characters of the text were used to search`));
    query = query.slice(0, QUERY_LIMITS.chars);
  }
  const all = queryTerms(query);
  if (lookedUp(all).length < all.length) {
    problems.push(warning('recall', `recall: only the first ${QUERY_LIMITS.terms} distinct words of the text were used to search`));
  }
  return query;
}

/** The candidates that can be read (one changed since it was indexed is
 *  left out: the next search indexes it again). An HTML page is recalled
 *  as its text (content/html.ts), whatever view `learn` gives (`html`),
 *  with a line that says so. */
function readCandidates(found: readonly Found[], html: HtmlView): Candidate[] {
  const out: Candidate[] = [];
  for (const f of found) {
    const read = readBody(f.abs, 'text');
    if (read.kind !== 'text') continue;
    let body = read.body as string;
    const ext = extOf(f.path);
    if (isHtmlExt(ext)) {
      const note = textViewNote(html === 'raw');
      body = htmlText(body);
      out.push({ f, body, ext: 'md', note, whole: estimateTokens(note) + estimateTokens(body) + BLOCK_TOKENS });
      continue;
    }
    out.push({ f, body, ext, whole: estimateTokens(body) + BLOCK_TOKENS });
  }
  return out;
}

/** A candidate's content (or the text of some of its sections) as shown. */
function shown(c: Candidate, text: string): Formatted {
  return c.note === undefined ? formatContent(c.ext, text) : { head: c.note, body: text, tail: '' };
}

/** How recalled subjects are packed (app/fit.ts): each costs its block (a
 *  topic's tags with its first subject); one too big for the room left
 *  comes as its most relevant sections that fit, else it is left out and
 *  the next is tried; the whole block is measured, and a subject that came
 *  as sections gives up sections first. */
function packing(costs: RecallCosts, ranked: Ranked, budget: number, ordered: (kept: readonly Candidate[]) => RecalledTopic[]): FitCosts<Candidate> {
  const topicCost = (c: Candidate, kept: readonly Candidate[]) => (some(kept, (k) => k.f.topic === c.f.topic) ? 0 : costs.topic);
  return {
    frame: costs.frame,
    row: (c, kept) => topicCost(c, kept) + (c.partial === undefined ? c.whole : c.partial.tokens + BLOCK_TOKENS),
    skip: true,
    shrink: (c, room, kept) => {
      const matched = ranked.matched.get(c.f.topic) ?? new Set<string>();
      const within = room - topicCost(c, kept) - BLOCK_TOKENS;
      // Too big as a whole: its most relevant sections that fit.
      if (c.partial === undefined) return withPartial(c, partialOf(c, matched, costs, within - 70));
      // Measured over by `room` less: a few sections fewer; a longer note
      // than reckoned, once more with its excess off.
      const target = within - 10;
      let smaller = partialOf(c, matched, costs, target);
      if (smaller !== undefined && smaller.tokens > target) smaller = partialOf(c, matched, costs, 2 * target - smaller.tokens - 5);
      return withPartial(c, smaller);
    },
    whole: (kept, left) => costs.whole(ordered(kept), map(left, leftOutOf), budget),
  };
}

function withPartial(c: Candidate, partial: Partial | undefined): Candidate | undefined {
  return partial === undefined ? undefined : { ...c, partial };
}

/** A candidate's best sections and the note after them, within `within`
 *  tokens (the note taken as about NOTE_TOKENS). */
function partialOf(c: Candidate, matched: ReadonlySet<string>, costs: RecallCosts, within: number): Partial | undefined {
  const picked = within - NOTE_TOKENS > 50 ? pickSections(c.body, c.ext, c.f.index, matched, within - NOTE_TOKENS) : undefined;
  if (picked === undefined) return undefined;
  const partial = { names: picked.names, tokens: c.whole, call: { topic: c.f.topic.id, subjects: [c.f.slug] } };
  return { content: { slug: c.f.slug, content: shown(c, picked.text), partial }, tokens: picked.tokens + (c.note === undefined ? 0 : estimateTokens(c.note)) + costs.partialNote(partial), names: picked.names };
}

function subjectOf(c: Candidate): RecalledSubject {
  return c.partial?.content ?? { slug: c.f.slug, content: shown(c, c.body) };
}

function leftOutOf(c: Candidate): RecallLeftOut {
  return { topic: c.f.topic.id, slug: c.f.slug, ...(c.f.title !== undefined ? { title: c.f.title } : {}), tokens: c.whole };
}

function itemOf(c: Candidate): RecalledItem {
  const f = c.f;
  const base = { topic: f.topic.id, slug: f.slug, ...(f.title !== undefined ? { title: f.title } : {}) };
  const score = Math.round(f.score * 1000) / 1000;
  return c.partial === undefined ? { ...base, tokens: c.whole, whole: c.whole, score } : { ...base, tokens: c.partial.tokens, whole: c.whole, sections: c.partial.names, score };
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
