// The learn tool, shared by `kb learn` (which streams the text to stdout)
// and `kb mcp` (which returns it as a tool result): a validated call against
// the configured topics writes the model-facing text into a sink, chunk by
// chunk, one subject at a time, so a large load never has to be held in
// memory by `kb learn`.
import type { Topic } from '../config/types.ts';
import { compilePatterns, type CompiledPattern } from '../glob/index.ts';
import { bodyText, type Body } from '../kb/content/body.ts';
import { fenceTag } from '../kb/content/format.ts';
import { estimateTokensOfBody, estimateTokensOfBytes } from '../kb/content/tokens.ts';
import { charStart, lineAt, windowEnd } from '../kb/content/window.ts';
import { descriptions } from '../kb/index/describe.ts';
import { planPatterns } from '../kb/index/near.ts';
import { isRaw, listable, loadOrder, loadPatterns, kindOf, type ReadAs, type TopicView } from '../kb/index/view.ts';
import {
  fallbackSummary,
  rawContent,
  renderBadArguments,
  renderListing,
  renderLeftOut,
  renderNote,
  renderTopicNote,
  renderWindowNote,
  windowBlock,
  renderUnknownTopic,
  subjectBlock,
  type Chunk,
  type ListingFit,
  type Note,
} from '../render/learn.ts';
import { warning, type Problem } from '../shared/problem.ts';
import { BLOCK_TOKENS, BYTES_PER_TOKEN_ESTIMATE, tokensText } from './budget.ts';
import { fitListing } from './listing.ts';
import { validateLearnArgs, type LearnArgs } from './args.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { directoryNotes, directoryNotices, replacedProblem, skillFiles } from './topics.ts';

/** Where a learn call's result goes. */
export interface LearnSink {
  /** How subject bodies are wanted: `bytes` (as read, to stream them) or
   *  `text`. */
  readonly as: ReadAs;
  /** The next chunk of the model-facing text. A bytes chunk may be a view
   *  into a buffer that the next read reuses: write or copy it now. */
  write(chunk: Chunk): void;
  /** Something the user should know (stderr, never the model). */
  problem(p: Problem): void | Promise<void>;
  /** True once the sink takes no more text (a bound on one result, which
   *  the sink itself reports): no further subject is read. */
  full?(): boolean;
}

/** Tells the user (stderr) what the model is told about the topic's
 *  directory as a whole: missing, unreadable, or walked only in part. */
async function noteDirectory(topic: Topic, view: TopicView, sink: LearnSink): Promise<void> {
  for (const n of directoryNotices(view)) {
    const waiting = sink.problem(warning(n.code, `topic "${topic.id}": ${n.message}`));
    if (waiting) await waiting;
  }
}

/**
 * Runs one learn call and returns whether it is an error: an unknown topic,
 * a listing of a topic whose directory cannot be walked (missing,
 * unreadable), or subjects asked for and none returned nor a folder listed
 * (`kb learn` exits 1, MCP sets `isError`). What the model is told about
 * the topic's directory (render/learn.ts `TopicNote`) is also told to the
 * user.
 *
 * Patterns that match nothing as written go through the near-miss rules
 * (kb/index/near.ts): each fallback is a note for the model, after the
 * subjects and before the other notes, and a warning for the user. A call
 * rescued by a fallback is never raw: its subject comes in a
 * `<subject "slug">` block, which names the real slug.
 */
export async function learn(kb: KnowledgeBase, args: LearnArgs, sink: LearnSink): Promise<boolean> {
  const topic = kb.resolveTopic(args.topic);
  if (!topic) {
    sink.write(renderUnknownTopic(args.topic, kb.topics.filter((t) => t.enable)));
    return true;
  }
  const folder = args.subjects === null ? undefined : folderOf(args.subjects);
  if (args.subjects === null || folder !== undefined) {
    const view = kb.view(topic, true);
    await noteDirectory(topic, view, sink);
    // Binaries matched by a learned glob were never pre-loaded: not named.
    const learned = view.learned.filter((m) => kindOf(view, m.subject) !== 'binary');
    let available = listable(view);
    if (folder !== undefined) available = available.filter((s) => s.slug.startsWith(`${folder}/`));
    if (folder === undefined || available.length > 0) {
      const about = await descriptions(view, available);
      const topicNotes = directoryNotes(view, kb.walkLimit);
      const listing = fitListing(topic, available, about, folder === undefined ? learned.map((m) => m.subject.slug) : [], kb.maxTokens, folder, topicNotes);
      sink.write(listing.text);
      if (listing.fit !== undefined) {
        await problem(sink, warning('budget', `learn ${topic.id}: the listing of ${available.length} subjects was shortened to stay within ${tokensText(kb.maxTokens)} tokens (${fitWords(listing.fit)})`));
      }
      return topicNotes.some((n) => n.kind === 'no-directory');
    }
  }
  const { patterns: given, from } = continuation(args.subjects ?? []);
  const view = kb.view(topic);
  const plan = await planPatterns(view, await compilePatterns(given));
  const { patterns, fallbacks } = plan;
  const budget = kb.maxTokens;
  const limited = Number.isFinite(budget);
  // A continuation is never raw: its notes must be there.
  const raw = from === undefined && fallbacks.length === 0 && isRaw(view, patterns);
  await noteDirectory(topic, view, sink);
  const notes: Note[] = [...fallbacks];
  for (const f of fallbacks) await problem(sink, warning('near-miss', `topic "${topic.id}": ${fallbackSummary(f)}`));
  const tail: string[] = [];
  let loaded = 0;
  let used = 0;
  let windowed = false;
  const callFrom = (slug: string, offset: number) => callText(topic.id, given, slug, offset);
  for (const item of loadPatterns(view, patterns, sink.as, plan.hints, from?.slug)) {
    if (item.kind !== 'subject') {
      notes.push(item);
      continue;
    }
    let start = from !== undefined && item.slug === from.slug ? from.offset : 0;
    // Without a budget (0, Infinity) nothing compares a subject's tokens:
    // the estimate would be a pass over every loaded byte for nothing.
    const tokens = !limited && start === 0 ? 0 : (start === 0 ? estimateTokensOfBody(item.content.body) : estimateTokensOfBody(sliceBody(item.body, start))) + BLOCK_TOKENS;
    if (loaded > 0 && used + tokens > budget) {
      // Over the budget: this subject and the rest wait for the next call.
      tail.push(leftOut(kb, view, patterns, item.slug, callFrom(item.slug, 0)));
      break;
    }
    if (item.replaced) {
      const waiting = sink.problem(replacedProblem(topic.id, item.slug));
      if (waiting) await waiting;
    }
    const prefix = loaded > 0 ? '\n\n' : '';
    if (start > 0 || tokens > budget) {
      // One subject larger than the budget (or a later window of one):
      // a window of it, and the call for the next.
      const bytes = bodyBytes(item.body);
      start = charStart(bytes, start);
      const end = windowEnd(bytes, start, Math.max(1, budget - BLOCK_TOKENS - used));
      const out = windowBlock(prefix, item.slug, fenceTag(item.subject.ext), sink.as === 'bytes' ? bytes.subarray(start, end) : bodyText(bytes.subarray(start, end)));
      sink.write(out.head);
      sink.write(out.body);
      sink.write(out.tail);
      loaded++;
      windowed = true;
      const next = end < bytes.length ? callFrom(item.slug, end) : undefined;
      tail.push(renderWindowNote(item.slug, start, end, bytes.length, [lineAt(bytes, start), lineAt(bytes, Math.max(start, end - 1))], tokensText(budget), next));
      if (next !== undefined) {
        const rest = leftOutAfter(kb, view, patterns, item.slug);
        if (rest !== undefined) tail.push(rest);
        await problem(sink, warning('budget', `learn ${topic.id}: subject "${item.slug}" is larger than the ${tokensText(budget)}-token budget; returned bytes ${start}-${end} of ${bytes.length}, the model was told how to continue`));
        break;
      }
      used += estimateTokensOfBytes(bytes, start, end) + BLOCK_TOKENS;
      continue;
    }
    const after = skillFiles(kb, topic, item.subject);
    const out = raw ? rawContent(item.content, after) : subjectBlock(prefix, item.slug, item.content, after);
    sink.write(out.head);
    sink.write(out.body);
    sink.write(out.tail);
    loaded++;
    used += tokens;
    // The front end holds no more (MCP's cap on one result, for when there
    // is no budget).
    if (sink.full?.()) break;
  }
  if (tail.length > 0 && tail[0].startsWith('[') && !tail[0].startsWith('[Subject')) {
    await problem(sink, warning('budget', `learn ${topic.id}: ${tail[0].slice(1, tail[0].indexOf(' to stay'))} to stay within ${tokensText(budget)} tokens; the model was told how to continue`));
  }
  // The directory notes first; a raw result (one exact subject, found) is
  // the content alone: the walk limit did not keep it from the model.
  const lines = raw && loaded > 0 ? [] : directoryNotes(view, kb.walkLimit).map((n) => renderTopicNote(n, topic.id));
  for (const n of notes) lines.push(renderNote(n, topic.id));
  lines.push(...tail);
  if (lines.length > 0) sink.write(`${loaded > 0 ? '\n\n' : ''}${lines.join('\n')}`);
  if (!raw || loaded === 0 || windowed || lines.length > 0) sink.write('\n');
  return loaded === 0 && !fallbacks.some((f) => f.kind === 'folder');
}

/** A call whose one pattern is a folder (`folder/`, no glob characters)
 *  lists inside that folder: the folder, else undefined. */
function folderOf(subjects: readonly string[]): string | undefined {
  if (subjects.length !== 1) return undefined;
  const p = subjects[0];
  if (!p.endsWith('/') || p.length < 2 || /[*?[\]{}!]/.test(p)) return undefined;
  const folder = p.replace(/^\.\//, '').replace(/\/+$/, '');
  return folder === '' ? undefined : folder;
}

function fitWords(fit: ListingFit): string {
  const words: string[] = [];
  if (fit.descriptionChars !== undefined) words.push(fit.descriptionChars === 0 ? 'descriptions left out' : `descriptions cut to ${fit.descriptionChars} characters`);
  if (fit.collapsed) words.push('folders summed up');
  if (fit.omitted) words.push(`${fit.omitted} subjects not listed`);
  return words.join(', ');
}

/** The `subjects` element that continues a cut result: `@from:OFFSET:SLUG`
 *  starts at subject SLUG (at byte OFFSET of it, for the next window of a
 *  large one), skipping what the patterns select before it. */
export const FROM_PREFIX = '@from:';

/** A call's patterns and its continuation point, if any. */
function continuation(subjects: readonly string[]): { patterns: string[]; from?: { slug: string; offset: number } } {
  let from: { slug: string; offset: number } | undefined;
  const patterns: string[] = [];
  for (const s of subjects) {
    const m = s.startsWith(FROM_PREFIX) ? /^@from:(\d{1,15}):(.+)$/s.exec(s) : null;
    if (m === null) patterns.push(s);
    else from = { offset: Number(m[1]), slug: m[2] };
  }
  return from === undefined ? { patterns } : { patterns, from };
}

/** The arguments of the call that continues at `slug` (byte `offset`). */
function callText(topic: string, patterns: readonly string[], slug: string, offset: number): string {
  return JSON.stringify({ topic, subjects: [...patterns, `${FROM_PREFIX}${offset}:${slug}`] });
}

/** The note for what is left from `slug` on (it included). */
function leftOut(kb: KnowledgeBase, view: TopicView, patterns: readonly CompiledPattern[], slug: string, call: string): string {
  const order = loadOrder(view, patterns);
  const at = order.findIndex((s) => s.slug === slug);
  const rest = at < 0 ? [] : order.slice(at);
  const tokens = rest.reduce((n, s) => n + Math.ceil(Math.max(0, s.size) / BYTES_PER_TOKEN_ESTIMATE), 0);
  return renderLeftOut(rest.length, tokensText(tokens), tokensText(kb.maxTokens), call);
}

/** The note for the subjects after `slug`, when a window of it ends a
 *  result (undefined when there are none): they come after its last
 *  window. */
function leftOutAfter(kb: KnowledgeBase, view: TopicView, patterns: readonly CompiledPattern[], slug: string): string | undefined {
  const order = loadOrder(view, patterns);
  const at = order.findIndex((s) => s.slug === slug);
  const rest = at < 0 ? [] : order.slice(at + 1);
  if (rest.length === 0) return undefined;
  const tokens = rest.reduce((n, s) => n + Math.ceil(Math.max(0, s.size) / BYTES_PER_TOKEN_ESTIMATE), 0);
  return `[${rest.length} more subject${rest.length === 1 ? '' : 's'} (~${tokensText(tokens)} tokens) follow${rest.length === 1 ? 's' : ''} after the last window of ${JSON.stringify(slug)}.]`;
}

async function problem(sink: LearnSink, p: Problem): Promise<void> {
  const waiting = sink.problem(p);
  if (waiting) await waiting;
}

const encoder = new TextEncoder();

/** A body as UTF-8 bytes. */
function bodyBytes(body: Body): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

/** A body from byte `start` on. */
function sliceBody(body: Body, start: number): Uint8Array {
  return bodyBytes(body).subarray(start);
}

export interface LearnResult {
  /** Exactly what `kb learn` prints on stdout for the same call. */
  text: string;
  isError: boolean;
  problems: Problem[];
}

/** A whole learn call, arguments exactly as a model sent them (untrusted):
 *  bad arguments are an error result, like an unknown topic. The text is
 *  joined. */
export async function call(kb: KnowledgeBase, value: unknown): Promise<LearnResult> {
  const parsed = validateLearnArgs(value);
  if (!parsed.ok) return { text: renderBadArguments(parsed.problem), isError: true, problems: [] };
  const parts: string[] = [];
  const problems: Problem[] = [];
  const sink: LearnSink = {
    as: 'text',
    write: (chunk) => {
      if (chunk.length > 0) parts.push(chunk as string);
    },
    problem: (p) => {
      problems.push(p);
    },
  };
  const isError = await learn(kb, parsed.args, sink);
  return { text: parts.join(''), isError, problems };
}

/** The reader thread's probe (kb/fs/probe-thread.ts), for a front end that
 *  lists large topics to plug in (`KnowledgeBase.open(…, { probe })`). Here,
 *  beside the one operation that wants it, so that no other command loads
 *  it. */
export { readerThread, type ReaderThread } from '../kb/fs/probe-thread.ts';
