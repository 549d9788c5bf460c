// Search results and recalled knowledge as text for a model, and search
// results as JSON for scripts (docs/guide/search-and-memory.md, "Search and
// recall"; schemas/kb-search-output.schema.json). Pure.

import type { RecallCosts, SearchCosts } from '../answer/cost.ts';
import type { PartialNote, RecallLeftOut, RecalledTopic, SearchFound, SearchResult, SearchScope } from '../answer/search.ts';
import type { Passage } from '../kb/search/snippet.ts';
import type { SearchAnswer, ToolForms, Write } from '../answer/tool.ts';
import { formattedText } from '../kb/content/format.ts';
import { estimateTokens, tokensAtMost } from '../kb/content/tokens.ts';
import { isStopWord } from '../kb/search/tokenize.ts';
import { filter, map } from '../shared/arrays.ts';
import { escapeControls, jsonDocument, jsonQuoted, quoted } from '../shared/controls.ts';
import { aboutTokens, countText } from '../shared/text.ts';
import { subjectBlock } from './subject.ts';
import { headingOf, renderUnknownTopic } from './topic.ts';
import { refusedJson, renderRefused, topicsJson, wholeData } from './tools.ts';

export interface ResultRow {
  topic: string;
  slug: string;
  /** Its title, where it says more than the slug. */
  title?: string;
  description?: string;
  /** Where it answers: each passage's first line and its lines. */
  passages: readonly Passage[];
  /** Its size, `~T tokens` (shared/text.ts aboutTokens). */
  tokens: string;
  /** `created 2025-01-14` or `updated 2025-02-01`, from its frontmatter. */
  when?: string;
}

/** One result, numbered: `N. topic: slug (~T tokens)`, then what it is
 *  and its passages, indented, each line after its number (`> 120: ...`),
 *  the number `learn` takes (`slug:120-160`). What it is, as a listing
 *  says it: its description (or man-page summary), else its title where
 *  the title says more than the slug. */
export function renderResult(n: number, r: ResultRow): string {
  const lines = [`${n}. ${escapeControls(r.topic)}: ${escapeControls(r.slug)} (${r.tokens}${r.when === undefined ? '' : `, ${escapeControls(r.when)}`})`];
  const about = r.description ?? r.title;
  if (about !== undefined) lines.push(`   ${oneLine(about)}`);
  for (const p of r.passages) {
    const ls = p.text.split('\n');
    for (let k = 0; k < ls.length; k++) lines.push(`   > ${p.line + k}: ${escapeControls(ls[k])}`);
  }
  return lines.join('\n');
}

function oneLine(s: string): string {
  // A run of white space that holds a line break becomes one space (one
  // pass: `/\s*\n\s*/g` took time quadratic in a long run of spaces).
  const t = escapeControls(s.replace(/\s+/g, (w) => (w.includes('\n') ? ' ' : w)).trim());
  return t.length > 300 ? `${t.slice(0, 299)}…` : t;
}

/** The line above the results. */
export function renderSearchHead(query: string, where: SearchScope, total: number, shown: number): string {
  const q = jsonQuoted(query.length > 200 ? `${query.slice(0, 200)}…` : query);
  const scope = scopeText(where);
  if (total === 0) return `No subjects match ${q}${scope}.`;
  const count = total === 1 ? '1 subject matches' : `${total} subjects match`;
  const which = shown === total ? (total === 1 ? '' : ', best first') : `; the ${shown} best, best first`;
  return `${count} ${q}${scope}${which}. Load one with the \`learn\` tool (topic and slug as shown), or some of its lines (\`slug:120-160\`).`;
}

/** ` in topic "a"`, ` in topics "a" and "b"`, then the filters:
 *  ` tagged "x" and "y", of type "note", with status "draft"`. */
export function scopeText(s: SearchScope): string {
  const quote = (xs: readonly string[]) => both(map(xs, (x) => jsonQuoted(x.length > 100 ? `${x.slice(0, 100)}…` : x)));
  const where = s.where !== undefined ? ` in topic ${quote([s.where])}` : s.topics !== undefined ? ` in topics ${quote(s.topics)}` : '';
  const f = s.filters;
  if (f === undefined) return where;
  const parts = [
    ...(f.tags !== undefined && f.tags.length > 0 ? [`tagged ${quote(f.tags)}`] : []),
    ...(f.type !== undefined ? [`of type ${quote([f.type])}`] : []),
    ...(f.status !== undefined ? [`with status ${quote([f.status])}`] : []),
  ];
  return `${where}${where !== '' ? ',' : ''} ${parts.join(', ')}`;
}

/** `a`, `a and b`, `a, b and c`. */
function both(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words.join('');
}

/** What a search says besides its results, one bracketed line each. */
export interface SearchNotes {
  /** Query terms found nowhere. */
  unknown: string[];
  /** Query terms read with typos: what they matched. */
  corrected: [string, string[]][];
  /** Results left out by the limit. */
  beyondLimit: number;
  /** Results left out by the token budget, and the budget. */
  cut?: { results: number; budget: string };
}

export function renderSearchNotes(n: SearchNotes): string[] {
  const out: string[] = [];
  for (const [q, terms] of n.corrected.slice(0, 5)) out.push(`[No subject has the word ${jsonQuoted(q)}; also searched for ${map(terms.slice(0, 5), (t) => jsonQuoted(t)).join(', ')}.]`);
  if (n.corrected.length > 5) out.push(`[${n.corrected.length - 5} more words were also looked up with typos.]`);
  // A query of common words alone (`if`, `which`) is looked up as it is,
  // and the index holds no such word: it is too common, not missing.
  const common = n.unknown.length === 0 ? n.unknown : filter(n.unknown, isStopWord);
  const unknown = common.length === 0 ? n.unknown : filter(n.unknown, (t) => !isStopWord(t));
  if (common.length > 0) {
    const shown = map(common.slice(0, 10), (t) => jsonQuoted(t)).join(', ');
    out.push(`[${shown}${common.length > 10 ? ` and ${common.length - 10} more` : ''} ${common.length === 1 ? 'is a word' : 'are words'} too common to be searched for; a subject named so loads by its name with the \`learn\` tool.]`);
  }
  if (unknown.length > 0) {
    const shown = map(unknown.slice(0, 10), (t) => jsonQuoted(t)).join(', ');
    out.push(`[No subject has ${unknown.length === 1 ? 'the word' : 'the words'} ${shown}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ''}.]`);
  }
  if (n.cut !== undefined) {
    out.push(`[${n.cut.results} more result${n.cut.results === 1 ? '' : 's'} left out to stay within the ${n.cut.budget}-token budget; search with fewer words or a smaller limit to see others.]`);
  }
  if (n.beyondLimit > 0) out.push(`[${n.beyondLimit} more subject${n.beyondLimit === 1 ? '' : 's'} match beyond the limit; raise \`limit\` to see them.]`);
  return out;
}

/** When nothing matches: how to go on. */
export const NO_MATCH_HINT = 'Try other words, or list a topic with the `learn` tool.';
/** When nothing matches with filters given. */
export const NO_MATCH_FILTERED_HINT = 'Try other words or fewer filters, or list a topic with the `learn` tool.';

export function resultRow(r: SearchResult): ResultRow {
  const when = whenOf(r);
  return {
    topic: r.topic,
    slug: r.slug,
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    passages: r.passages,
    tokens: aboutTokens(r.tokens),
    ...(when !== undefined ? { when } : {}),
  };
}

/** When a subject was last written, by the day: `updated D` once revised
 *  (an `updated` other than its `created`), else `created D`. */
export function whenOf(t: { created?: string; updated?: string }): string | undefined {
  if (t.updated !== undefined && t.updated !== t.created) return `updated ${t.updated.slice(0, 10)}`;
  const at = t.created ?? t.updated;
  return at === undefined ? undefined : `${t.created !== undefined ? 'created' : 'updated'} ${at.slice(0, 10)}`;
}

/** The bracketed lines after the results. */
export function searchNotes(f: SearchFound): string[] {
  if (f.unknownTopic !== undefined) return [];
  const notes = renderSearchNotes({
    unknown: f.unknown,
    corrected: f.corrected,
    beyondLimit: Math.max(0, f.total - f.results.length - f.cut),
    ...(f.cut > 0 ? { cut: { results: f.cut, budget: countText(f.budget) } } : {}),
  });
  if (f.total === 0) notes.push(f.filters !== undefined ? NO_MATCH_FILTERED_HINT : NO_MATCH_HINT);
  return notes;
}

/** A search's text for the model: the head line, the numbered results,
 *  the notes; or the unknown topic's error. */
export function renderSearch(f: SearchFound): string {
  // An answer is not changed once made: the text measured for the budget
  // (SEARCH_COSTS) is the text written (about 0.4 ms of a search of long
  // documents).
  let text = rendered.get(f);
  if (text === undefined) {
    text = renderSearchOnce(f);
    rendered.set(f, text);
  }
  return text;
}
const rendered = new WeakMap<SearchFound, string>();

function renderSearchOnce(f: SearchFound): string {
  if (f.unknownTopic !== undefined) return renderUnknownTopic(f.unknownTopic.topic, f.unknownTopic.valid);
  const parts = [renderSearchHead(f.query, f, f.total, f.results.length + f.cut)];
  if (f.results.length > 0) parts.push(map(f.results, (r, i) => renderResult(i + 1, resultRow(r))).join('\n\n'));
  const notes = searchNotes(f);
  if (notes.length > 0) parts.push(notes.join('\n'));
  return `${parts.join('\n\n')}\n`;
}

/** A search as data, for scripts (schemas/kb-search-output.schema.json):
 *  what was asked, what was found, and what was left out, as values (the
 *  text's notes are the model's). */
export function searchJson(f: SearchAnswer): Record<string, unknown> {
  const out: Record<string, unknown> = { query: f.query };
  if (f.unknownTopic !== undefined) {
    out.topic = f.unknownTopic.topic;
    out.error = { kind: 'unknown-topic', topic: f.unknownTopic.topic, topics: topicsJson(f.unknownTopic.valid) };
    return out;
  }
  if (f.where !== undefined) out.topic = f.where;
  if (f.topics !== undefined) out.topics = f.topics;
  if (f.filters !== undefined) out.filters = f.filters;
  out.total = f.total;
  out.results = f.results;
  out.left_out = f.cut;
  if (f.cut > 0) out.budget = f.budget;
  out.beyond_limit = Math.max(0, f.total - f.results.length - f.cut);
  out.unknown_words = f.unknown;
  out.corrected = map(f.corrected, ([word, also]) => ({ word, also }));
  return out;
}

/** A search's two forms (render/forms.ts): its answer comes whole. */
export const SEARCH_FORMS: ToolForms<'search'> = {
  text: (write: Write) => ({
    event: () => undefined,
    end: (f) => write(renderSearch(f)),
    refused: (r, tool) => write(renderRefused(r, tool)),
  }),
  json: (write: Write) => ({
    event: () => undefined,
    end: (f) => write(`${jsonDocument(searchJson(f))}\n`),
    refused: (r) => write(`${jsonDocument(refusedJson(r))}\n`),
  }),
  data: () => wholeData(searchJson, refusedJson),
};

/** What a search's text costs (answer/cost.ts): the line above the
 *  results and room for the notes below them; a result and the blank line
 *  after it; the whole. */
export const SEARCH_COSTS: SearchCosts = {
  frame: (query, where, total, shown) => estimateTokens(renderSearchHead(query, where, total, shown)) + 60,
  row: (r, n) => estimateTokens(renderResult(n, resultRow(r))) + 1,
  whole: (f) => estimateTokens(renderSearch(f)),
  // The text holds the rows' texts (and the head's, which `frame`
  // counts), so it bounds the whole and the rows' sum at once: each row
  // adds at most a half for rounding and one for its separator.
  surelyWithin: (f, frame, budget) => {
    const rows = f.results.length;
    return frame + tokensAtMost(renderSearch(f).length) + 1.5 * rows <= budget;
  },
};

// ---------------------------------------------------------------------------
// recall

/** The note after a subject that came as some of its sections. */
export function renderPartialNote(p: PartialNote): string {
  const names = p.names.length > 6 ? `${p.names.slice(0, 6).join('; ')} and ${p.names.length - 6} more` : p.names.join('; ');
  return `[Only the sections most relevant to the request (${names}); the whole subject has ${aboutTokens(p.tokens)}: learn ${jsonQuoted(p.call)}]`;
}

/** The closing note naming what was left out ('' for nothing). */
export function renderRecallLeftOut(leftOut: readonly RecallLeftOut[], budget: number): string[] {
  if (leftOut.length === 0) return [];
  const named = leftOut.slice(0, 10).map((l) => `${escapeControls(l.topic)}: ${escapeControls(l.slug)} (${l.title === undefined ? '' : `${oneLine(l.title)}, `}${aboutTokens(l.tokens)})`);
  const list = leftOut.length > 10 ? `${named.join(', ')} and ${leftOut.length - 10} more` : named.join(', ');
  return [`[Also relevant, left out to stay within the ${countText(budget)}-token budget (load them with \`learn\`): ${list}.]`];
}

export const RECALL_HEAD = 'The following knowledge was recalled from the knowledge base as relevant to this request:';

/** The recalled knowledge as a `<knowledge>` block, like the prompt
 *  section's pre-loaded topics; '' when nothing was recalled and nothing
 *  left out. */
export function renderRecall(topics: readonly RecalledTopic[], leftOut: readonly RecallLeftOut[], budget: number): string {
  const blocks = filter(topics, (t) => t.subjects.length > 0);
  const notes = renderRecallLeftOut(leftOut, budget);
  if (blocks.length === 0 && notes.length === 0) return '';
  const parts = [RECALL_HEAD];
  for (const t of blocks) {
    const inner = map(t.subjects, (s) => formattedText(subjectBlock('', s.slug, s.content, s.partial === undefined ? '' : `${renderPartialNote(s.partial)}\n`)));
    parts.push(`<topic ${quoted(headingOf(t))}>\n${inner.join('\n\n')}\n</topic>`);
  }
  parts.push(...notes);
  return `<knowledge>\n${parts.join('\n\n')}\n</knowledge>\n`;
}

/** A recall's `<knowledge>` block (app/recall.ts `RecallOutcome`): '' when
 *  nothing is shown. */
export function recallText(r: { shown: boolean; topics: readonly RecalledTopic[]; leftOut: readonly RecallLeftOut[]; budget: number }): string {
  return r.shown ? renderRecall(r.topics, r.leftOut, r.budget) : '';
}

/** What a recall's text costs (answer/cost.ts): the line above the
 *  subjects and room for the closing note; a topic's tags; the note after a
 *  subject that came as some of its sections; the whole block. */
export const RECALL_COSTS: RecallCosts = {
  frame: estimateTokens(RECALL_HEAD) + 40,
  topic: 10,
  partialNote: (p) => estimateTokens(renderPartialNote(p)),
  whole: (topics, leftOut, budget) => estimateTokens(renderRecall(topics, leftOut, budget)),
};
