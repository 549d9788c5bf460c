// Search: subjects ranked by what they say (kb/search/), shared by `kb
// search` and the MCP tool `search`, and the first step of `kb recall`.
// Each topic's index comes from the cache when the files are unchanged
// (kb/search/topic.ts). Results are bounded by the limit and the token
// budget; every cut is said in the text and once on stderr.

import type { Topic } from '../config/types.ts';
import { facetTest, filters, type FacetFilter } from '../kb/content/facets.ts';
import { timesIn } from '../kb/content/frontmatter.ts';
import { informativeTitle } from '../kb/content/title.ts';
import { disabledTest } from '../kb/index/disabled.ts';
import { estimateTokensOfBody, estimateTokensOfBytes } from '../kb/content/tokens.ts';
import { readBody, readSubjectHead } from '../kb/fs/read.ts';
import { htmlTextLines, isHtmlExt, textViewNote, type HtmlView } from '../kb/content/html.ts';
import { searchedText, withoutSoftHyphens } from '../kb/content/searched.ts';
import { KIND_TEXT, planQuery, type SearchIndex } from '../kb/search/engine.ts';
import { passagesOf, SNIPPET_BYTES } from '../kb/search/snippet.ts';
import { isSpaceless, queryTerms, snippetTerms, unknownWords } from '../kb/search/tokenize.ts';
import { linkedCheck, topicIndex, type TopicIndex } from '../kb/search/topic.ts';
import type { IndexReport, SearchFound, SearchResult, SearchScope } from '../answer/search.ts';
import { filter, map } from '../shared/arrays.ts';
import { paceOf, type OperationOptions, type Pace } from '../shared/pace.ts';
import { warning, type Problem } from '../shared/problem.ts';
import { QUERY_LIMITS } from './args.ts';
import { tokensText } from './budget.ts';
import { fit } from './fit.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { usedNotice } from './topics.ts';

export interface SearchArgs {
  query: string;
  /** A topic ID or title; with `topics`, one more of the set searched;
   *  neither: every enabled topic. */
  topic?: string;
  /** Topic IDs or titles: the set searched (with `topic`, if given). */
  topics?: readonly string[];
  /** Only subjects with each of these tags (a tag `a` holds `a/b` too). */
  tags?: readonly string[];
  /** Only subjects of this `type`, with this `status` (frontmatter). */
  type?: string;
  status?: string;
  limit: number;
}

export { QUERY_LIMITS } from './args.ts';

export type { IndexReport } from '../answer/search.ts';

/** A subject found, ranked. */
export interface Found {
  topic: Topic;
  index: SearchIndex;
  doc: number;
  slug: string;
  /** Relative to the topic's subjects directory. */
  path: string;
  abs: string;
  /** Its title, where it says more than the slug. */
  title?: string;
  description?: string;
  /** Its token estimate, when the index has it. */
  tokens?: number;
  score: number;
}

export interface Ranked {
  /** The best subjects of every topic searched, best first. */
  found: Found[];
  /** How many subjects matched in all. */
  total: number;
  /** Index terms matched, by topic (snippets and sections). */
  matched: Map<Topic, Set<string>>;
  unknown: string[];
  corrected: [string, string[]][];
  indexes: IndexReport[];
  problems: Problem[];
}

/** The topics a call searches: those it names (each by ID, then title;
 *  each once, in the order named), or every enabled one; the first name
 *  of no topic, if any. */
export function topicsOf(kb: KnowledgeBase, names: readonly string[]): { topics: Topic[] } | { unknown: string } {
  if (names.length === 0) return { topics: filter(kb.topics, (t) => t.enable) };
  const topics: Topic[] = [];
  for (const name of names) {
    const t = kb.resolveTopic(name);
    if (t === undefined) return { unknown: name };
    if (!topics.includes(t)) topics.push(t);
  }
  return { topics };
}

/** The topic names of a call: `topic`, then `topics`. */
export function namedTopics(args: { topic?: string; topics?: readonly string[] }): string[] {
  return [...(args.topic !== undefined ? [args.topic] : []), ...(args.topics ?? [])];
}

/** The filter of a call's `tags`, `type` and `status`; undefined when it
 *  gives none. */
export function filterOf(args: { tags?: readonly string[]; type?: string; status?: string }): FacetFilter | undefined {
  const f: FacetFilter = {
    ...(args.tags !== undefined && args.tags.length > 0 ? { tags: [...args.tags] } : {}),
    ...(args.type !== undefined ? { type: args.type } : {}),
    ...(args.status !== undefined ? { status: args.status } : {}),
  };
  return filters(f) ? f : undefined;
}

/** The terms of a query that are looked up: those of its first
 *  QUERY_LIMITS.terms distinct words, where a character or pair of
 *  characters of text written without spaces counts a quarter (a word of
 *  such text, about two characters, is about four of them). */
export function lookedUp(terms: readonly string[]): string[] {
  let words = 0;
  let n = 0;
  for (; n < terms.length; n++) {
    words += isSpaceless(terms[n].charCodeAt(0)) ? 0.25 : 1;
    if (words > QUERY_LIMITS.terms) break;
  }
  return n === terms.length ? [...terms] : terms.slice(0, n);
}

/** The `top` subjects matching `query` in `topics`, best first, and how
 *  many matched. The topics are ranked as one collection (engine.ts
 *  planQuery): a score means the same in every topic, and a word is
 *  unknown (or looked up with typos) only when no searched topic has it. */
export async function rank(kb: KnowledgeBase, topics: readonly Topic[], query: string, top: number, opts: OperationOptions & { filter?: FacetFilter } = {}): Promise<Ranked> {
  const words = new Map<string, string>();
  const terms = lookedUp(queryTerms(query, words));
  const got: Awaited<ReturnType<typeof topicIndex>>[] = [];
  try {
    return await rankIn(kb, topics, terms, words, top, got, paceOf(opts.signal), opts.filter);
  } finally {
    // An index read from the cache reads its postings from the file until
    // released; nothing past this point reads them.
    for (const g of got) g.index.release();
  }
}

/** `rank`, filling `got` with the indexes it reads. */
async function rankIn(
  kb: KnowledgeBase,
  topics: readonly Topic[],
  terms: string[],
  words: Map<string, string>,
  top: number,
  got: Awaited<ReturnType<typeof topicIndex>>[],
  /** A turn between files and topics, where the search may be cancelled. */
  pace?: Pace,
  /** Only the subjects whose facets (kept in the index) it holds. */
  filter?: FacetFilter,
): Promise<Ranked> {
  const found: Found[] = [];
  const matched = new Map<Topic, Set<string>>();
  const indexes: IndexReport[] = [];
  const problems: Problem[] = [];
  let total = 0;
  await readIndexes(kb, topics, got, indexes, problems, pace);
  const ready = pace?.();
  if (ready !== undefined) await ready;
  const opts = { prefix: true, fuzzy: true, top };
  const plan = planQuery(
    map(got, (g) => g.index),
    terms,
    opts,
  );
  for (let t = 0; t < topics.length; t++) {
    // Each topic ranked in a turn of its own (a cancelled search ranks no
    // further topic).
    const next = pace?.();
    if (next !== undefined) await next;
    const topic = topics[t];
    const { index } = got[t];
    const asked = { ...opts, exclude: excluded(topic, index, filter) };
    // Given a pace, ranked in steps too (a term's postings, a block of
    // documents): a cancelled search stops ranking there.
    const r = pace === undefined ? index.run(plan, asked) : await index.runPaced(plan, asked, pace);
    total += r.total;
    matched.set(topic, r.matched);
    total -= collectHits(kb, topic, got[t], r.hits, found, problems);
  }
  found.sort((a, b) => b.score - a.score || (a.topic.id < b.topic.id ? -1 : a.topic.id > b.topic.id ? 1 : a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const unknown = unknownWords(terms, plan.unknown, words);
  // A loop over the map, not a spread of it (whose first use, the runtime's
  // own iteration code, costs about 0.25 ms).
  const corrected: [string, string[]][] = [];
  for (const [q, s] of plan.corrected) corrected.push([words.get(q) ?? q, s]);
  return { found, total, matched, unknown, corrected, indexes, problems };
}

/** Each topic's index, into `got` (kept by a long-lived front end, read
 *  from the cache, or built), with its report and problems. */
async function readIndexes(kb: KnowledgeBase, topics: readonly Topic[], got: TopicIndex[], indexes: IndexReport[], problems: Problem[], pace?: Pace): Promise<void> {
  // A long-lived front end keeps each topic's index from one search to
  // the next while its file watcher tells of no change in the topic: then
  // the index is neither read from the cache nor revalidated (a stat per
  // file), but for what the watcher cannot see (what the topic's symbolic
  // links lead to: `linkedCheck`, a stat per file there). The events of
  // changes made before this search are in first.
  const resident = kb.resident;
  if (resident !== undefined) await kb.settle();
  for (const topic of topics) {
    const turn = pace?.();
    if (turn !== undefined) await turn;
    const started = performance.now();
    const at = resident?.changes(topic.subjectsDir);
    const kept = at === undefined ? undefined : (resident!.kept(topic.subjectsDir, residentKey(topic)) as TopicIndex | undefined);
    let g: TopicIndex;
    if (kept !== undefined) g = { ...kept, status: 'kept', read: 0, times: { load: 0, check: 0, build: 0 } };
    else {
      g = await topicIndex(topic, { cacheDir: kb.searchCacheDir, stat: kb.statFiles, ...(pace !== undefined ? { pace } : {}) });
      if (at !== undefined && g.index.post.length <= RESIDENT_POSTINGS) {
        // Held whole in memory (the postings read from the cache file
        // while it is open), said once: its warnings are not kept.
        g.index.readAll();
        const kept = { index: g.index, status: g.status, read: 0, times: g.times, ...(g.file !== undefined ? { file: g.file } : {}), ...(g.vet !== undefined ? { vet: g.vet } : {}) } satisfies TopicIndex;
        resident!.keep(topic.subjectsDir, residentKey(topic), at, kept, linkedCheck(topic, g));
      }
    }
    got.push(g);
    indexes.push({ topic: topic.id, status: g.status, subjects: g.index.count, read: g.read, ms: performance.now() - started, times: g.times });
    if (g.cacheProblem !== undefined) problems.push(warning('search-cache', `topic "${topic.id}": ${g.cacheProblem}`));
    for (const n of g.notices ?? []) if (usedNotice(n)) problems.push(warning(n.code, `topic "${topic.id}": ${n.message}`));
  }
}

/** Adds the text subjects among `hits` of `topic` (its index `g`) to
 *  `found`; returns how many a path check left out (each said in
 *  `problems`). */
function collectHits(kb: KnowledgeBase, topic: Topic, g: TopicIndex, hits: readonly { doc: number; score: number }[], found: Found[], problems: Problem[]): number {
  const { index, vet, file } = g;
  let vetoedCount = 0;
  for (const h of hits) {
    const d = h.doc;
    if (index.kinds[d] !== KIND_TEXT) continue;
    // A path from the cache that the topic's ignore files leave out.
    const vetoed = vet?.(h.doc);
    if (vetoed !== undefined) {
      // The index is not kept either: the next search reads the topic
      // again.
      kb.resident?.forget(topic.subjectsDir, residentKey(topic));
      vetoedCount++;
      problems.push(warning('search-cache', `topic "${topic.id}": the search cache ${file} was not used for one result (${vetoed}); it is left out, and the cache removed`));
      continue;
    }
    found.push(new Hit(topic, index, d, h.score));
  }
  return vetoedCount;
}

/** A subject found: its title and description are read from the index
 *  when first asked (a search ranks a few more than it shows, and a title
 *  is decoded and compared with the slug: about 20 µs a result in a
 *  one-shot process). */
class Hit implements Found {
  readonly slug: string;
  readonly path: string;
  readonly abs: string;
  readonly tokens?: number;
  #title?: { value?: string };
  #description?: { value?: string };
  constructor(
    readonly topic: Topic,
    readonly index: SearchIndex,
    readonly doc: number,
    readonly score: number,
  ) {
    this.slug = index.slugOf(doc);
    this.path = index.pathOf(doc);
    this.abs = `${topic.subjectsDir}/${this.path}`;
    this.tokens = index.tokensOf(doc);
  }

  get title(): string | undefined {
    this.#title ??= { value: informativeTitle(this.index.titleOf(this.doc), this.slug) };
    return this.#title.value;
  }

  get description(): string | undefined {
    this.#description ??= { value: this.index.descriptionOf(this.doc) ?? undefined };
    return this.#description.value;
  }
}

/** What a topic's ranking leaves out: its disabled subjects, and those a
 *  filter does not hold (tested on the facets the index keeps: no file is
 *  read); undefined for nothing. */
function excluded(topic: Topic, index: SearchIndex, filter: FacetFilter | undefined): ((d: number) => boolean) | undefined {
  const off = topic.disabled.length === 0 ? undefined : disabledTest(new Set(topic.disabled), pathBySlug(index));
  const held = filter === undefined ? undefined : facetTest(filter);
  if (held === undefined) return off === undefined ? undefined : (d) => off(index.slugOf(d), index.pathOf(d));
  if (off === undefined) return (d) => !held(index.facetsOf(d));
  return (d) => !held(index.facetsOf(d)) || off(index.slugOf(d), index.pathOf(d));
}

/** The largest postings of an index kept between searches (a topic of
 *  about 130,000 subjects of the benchmark's kind): a larger one is read
 *  from the cache for each search, as in a one-shot command. */
const RESIDENT_POSTINGS = 64 * 1024 * 1024;

/** What a topic's index is kept under (its subjects directory is the
 *  other key): the index depends on the topic's ID only through the cache
 *  file it was read from. */
function residentKey(topic: Topic): string {
  return `search\0${topic.id}`;
}

/** The path of the document of a slug in `index`: the documents by slug
 *  are put in a map when first asked (only for a match below a disabled
 *  slug, kb/index/disabled.ts). */
function pathBySlug(index: SearchIndex): (slug: string) => string | undefined {
  let bySlug: Map<string, number> | undefined;
  return (slug) => {
    if (bySlug === undefined) {
      bySlug = new Map();
      for (let d = 0; d < index.count; d++) bySlug.set(index.slugOf(d), d);
    }
    const d = bySlug.get(slug);
    return d === undefined ? undefined : index.pathOf(d);
  };
}

export type { SearchResult } from '../answer/search.ts';

/** A search's outcome, as data: render/search.ts `renderSearch` writes the
 *  model's text. */
export interface SearchOutcome extends SearchFound {
  isError: boolean;
  problems: Problem[];
  indexes: IndexReport[];
}

const NONE: ReadonlySet<string> = new Set();

/** Runs one search. An unknown topic is an error result; no match is
 *  not (the text says so). The results are fitted to the budget with
 *  render's costs of a search's text (app/fit.ts). */
export async function search(kb: KnowledgeBase, args: SearchArgs, opts: OperationOptions = {}): Promise<SearchOutcome> {
  const budget = kb.maxTokens;
  const named = namedTopics(args);
  const chosen = topicsOf(kb, named);
  if ('unknown' in chosen) {
    const unknownTopic = { topic: chosen.unknown, valid: kb.topics.filter((t) => t.enable) };
    return { query: args.query, total: 0, results: [], cut: 0, budget, unknown: [], corrected: [], unknownTopic, isError: true, problems: [], indexes: [] };
  }
  const topics = chosen.topics;
  const filter = filterOf(args);
  // A few more than the limit: a result whose file changed since it was
  // indexed is left out.
  const ranked = await rank(kb, topics, args.query, args.limit + 16, { ...opts, ...(filter !== undefined ? { filter } : {}) });
  const costs = await kb.costs.search();
  const problems = [...ranked.problems];
  const scope: SearchScope = {
    ...(named.length === 1 || (named.length > 0 && topics.length === 1) ? { where: topics[0].id } : {}),
    ...(named.length > 0 && topics.length > 1 ? { topics: map(topics, (t) => t.id) } : {}),
    ...(filter !== undefined ? { filters: filter } : {}),
  };
  const frame = costs.frame(args.query, scope, ranked.total, Math.min(ranked.total, args.limit));
  const read = readResults(ranked, args.limit, problems, kb.html, args.query.includes('_'));
  const outcome = (results: SearchResult[], cut: number): SearchOutcome => ({
    query: args.query,
    ...scope,
    total: read.total,
    results,
    cut,
    budget,
    unknown: ranked.unknown,
    corrected: ranked.corrected,
    isError: false,
    problems,
    indexes: ranked.indexes,
  });
  // Each result weighed by its block; the whole measured too. Unless the
  // whole text is surely within the budget by its length: then every
  // result is kept, as weighing them would keep them (the estimates' loops
  // took about 2 ms of a search of long documents).
  const whole = outcome(read.results, 0);
  // Measured by its text: the same answer is given (its text, rendered
  // once, is what render/search.ts gives for it again).
  if (costs.surelyWithin(whole, frame, budget)) return whole;
  const { kept, left } = fit(read.results, budget, {
    frame,
    row: (r, before) => costs.row(r, before.length + 1),
    whole: (shown, cut) => costs.whole(outcome(shown as SearchResult[], cut.length)),
  });
  if (left.length > 0) {
    problems.push(warning('budget', `search: ${left.length} result${left.length === 1 ? '' : 's'} left out to stay within ${tokensText(budget)} tokens; the model was told`));
  }
  return outcome(kept, left.length);
}

/** The first `limit` results of `ranked` that can be read, each with its
 *  snippet, and how many subjects matched, those that could not be read
 *  (changed since they were indexed) taken off with a warning. An HTML
 *  page's snippet comes from its text, and its tokens are those `learn`
 *  gives in view `html` (content/html.ts). */
function readResults(ranked: Ranked, limit: number, problems: Problem[], html: HtmlView, underscores: boolean): { results: SearchResult[]; total: number } {
  const results: SearchResult[] = [];
  let total = ranked.total;
  for (let i = 0; i < ranked.found.length && results.length < limit; i++) {
    const f = ranked.found[i];
    const ext = f.path.slice(f.path.lastIndexOf('.') + 1).toLowerCase();
    const page = isHtmlExt(ext);
    // A snippet comes from the file's first SNIPPET_BYTES. The index counts
    // every text file's tokens (kb/search/topic.ts); should it have no
    // count (or be a page shown as text), a longer file is read whole to
    // count them.
    let read = readSubjectHead(f.abs, SNIPPET_BYTES);
    if (read.kind === 'text' && !read.whole && (f.tokens === undefined || (page && html === 'text'))) {
      const all = readBody(f.abs, 'text');
      read = all.kind === 'text' ? { kind: 'text', text: all.body as string, whole: true } : all;
    }
    if (read.kind !== 'text') {
      // Changed since it was indexed (the next search indexes it again).
      total--;
      problems.push(warning('search-stale', `topic "${f.topic.id}": subject "${f.slug}" could not be read for its snippet (${read.kind === 'error' ? read.message : 'now binary'}); left out`));
      continue;
    }
    // A page's passages come from its text, numbered by the page as
    // written where `learn` loads it so (content/html.ts htmlTextLines):
    // the numbers a result gives are the lines `slug:N-M` loads.
    const lined = page && html === 'raw' ? htmlTextLines(read.text) : undefined;
    const text = lined !== undefined ? withoutSoftHyphens(lined.text) : searchedText(read.text, ext);
    // From the index (counted when the file was indexed, the same file by
    // its size and time), else counted here: on the bytes just read, where
    // they are exactly the text's UTF-8 (the same number, counted faster
    // than on the text; the read's buffer, used before the next read),
    // else on the text.
    const tokens =
      page && html === 'text'
        ? estimateTokensOfBody(textViewNote(false)) + estimateTokensOfBody(text)
        : (f.tokens ?? (read.utf8 !== undefined ? estimateTokensOfBytes(read.utf8) : estimateTokensOfBody(read.text)));
    // Words joined by an underscore count in a passage's place where the
    // query joins words so (`SERVER_NAME`): elsewhere, looking at every
    // identifier of a text cost a search 3% (snippet.ts `passagesOf`).
    const passages = passagesOf(text, snippetTerms(ranked.matched.get(f.topic) ?? NONE), underscores);
    if (lined !== undefined) for (const p of passages) p.line = lined.pageLine(p.line);
    results.push({
      topic: f.topic.id,
      slug: f.slug,
      ...(f.title !== undefined ? { title: f.title } : {}),
      ...(f.description !== undefined ? { description: f.description } : {}),
      snippet: passages[0]?.text ?? '',
      ...(passages.length > 0 ? { line: passages[0].line } : {}),
      passages,
      tokens,
      score: Math.round(f.score * 1000) / 1000,
      ...timesIn(read.text),
    });
  }
  return { results, total };
}
