// The learn tool, shared by `kb learn` (which streams the text to stdout)
// and `kb mcp` (which returns it as a tool result): a validated call against
// the configured topics produces events (answer/learn.ts `LearnEvent`: a
// listing, a subject, a window, a note, a summary of what was left out, a
// problem) into a sink, one subject at a time, so a large load never has to
// be held in memory by `kb learn`. render/learn.ts `learnText` alone turns
// them into the model's text.
import { paceOf, type OperationOptions, type Pace } from '../shared/pace.ts';
import type { Topic } from '../config/types.ts';
import { compilePatterns, type CompiledPattern } from '../glob/index.ts';
import { bodyText, type Body } from '../kb/content/body.ts';
import { fenceTag } from '../kb/content/format.ts';
import { estimateTokensOfBody, estimateTokensOfBytes } from '../kb/content/tokens.ts';
import { charStart, lineAt, lineSpan, windowEnd } from '../kb/content/window.ts';
import { rangeText, splitLineRange, type LineRange } from '../kb/index/line-range.ts';
import { planPatterns, type Fallback } from '../kb/index/near.ts';
import { findExact } from '../kb/index/resolve.ts';
import { mayBeGlob, withoutDotSlash } from '../glob/index.ts';
import { fallbackSummary, ignoredSentence } from '../kb/index/sentences.ts';
import { isRaw, loadOrder, loadPatterns, type LoadItem, type ReadAs } from '../kb/index/load.ts';
import type { MissHint, Notice } from '../kb/index/types.ts';
import type { TopicView } from '../kb/index/view.ts';
import type { LearnCall, LearnEvent, LinesShown, Note } from '../answer/learn.ts';
import { warning, type Problem } from '../shared/problem.ts';
import { BLOCK_TOKENS, BYTES_PER_TOKEN_ESTIMATE, tokensText } from './budget.ts';
import { fitWords, titleWatch, topicListing, type TopicListing } from './listing.ts';
import type { LearnArgs } from './args.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { directoryNotes, directoryNotices, emptyTextProblem, replacedProblem, skillOf } from './topics.ts';
import { some } from '../shared/arrays.ts';
import { trimEndChars } from '../shared/text.ts';

/** Where a learn call's events go. */
export interface LearnSink {
  /** How subject bodies are wanted: `bytes` (as read, to stream them) or
   *  `text`. */
  readonly as: ReadAs;
  /** The next event. A subject's or window's body may be a view into a
   *  buffer that the next read reuses: write or copy it now. A promise
   *  (a problem being reported) is awaited. */
  event(e: LearnEvent): void | Promise<void>;
  /** True once the sink takes no more text (a bound on one result, which
   *  the sink itself reports): no further subject is read. */
  full?(): boolean;
}

/**
 * Runs one learn call and returns whether it is an error: an unknown topic,
 * a listing of a topic whose directory cannot be walked (missing,
 * unreadable), or subjects asked for and none returned nor a folder listed
 * (`kb learn` exits 1, MCP sets `isError`). What the model is told about
 * the topic's directory (answer/learn.ts `TopicNote`) is also told to the
 * user.
 *
 * Patterns that match nothing as written go through the near-miss rules
 * (kb/index/near.ts): each fallback is a note for the model, after the
 * subjects and before the other notes, and a warning for the user. A call
 * rescued by a fallback is never raw: its subject comes in a
 * `<subject "slug">` block, which names the real slug.
 */
export async function learn(kb: KnowledgeBase, args: LearnArgs, sink: LearnSink, opts: OperationOptions = {}): Promise<boolean> {
  opts.signal?.throwIfAborted();
  const emit = async (e: LearnEvent): Promise<void> => {
    const waiting = sink.event(e);
    if (waiting) await waiting;
  };
  const problem = (p: Problem) => emit({ kind: 'problem', problem: p });
  /** Tells the user (stderr) what the model is told about the topic's
   *  directory as a whole: missing, unreadable, or walked only in part. */
  const noteDirectory = async (topic: Topic, view: TopicView) => {
    for (const n of directoryNotices(view)) await problem(warning(n.code, `topic "${topic.id}": ${n.message}`));
  };
  const topic = kb.resolveTopic(args.topic);
  if (!topic) {
    await emit({ kind: 'unknown-topic', topic: args.topic, valid: kb.topics.filter((t) => t.enable) });
    return true;
  }
  const folder = args.subjects === null ? undefined : folderOf(args.subjects);
  if (args.subjects === null || folder !== undefined) {
    await kb.settle();
    const { listing, notices } = await listingOf(kb, topic, folder);
    for (const n of notices) await problem(warning(n.code, `topic "${topic.id}": ${n.message}`));
    if (listing !== undefined) {
      const { items, learned, topicNotes } = listing;
      await emit({ kind: 'listing', topic, items, learned, ...(listing.fit !== undefined ? { fit: listing.fit } : {}), ...(folder !== undefined ? { folder } : {}), topicNotes });
      if (listing.fit !== undefined) {
        await problem(warning('budget', `learn ${topic.id}: the listing of ${listing.subjects} subjects was shortened to stay within ${tokensText(kb.maxTokens)} tokens (${fitWords(listing.fit)})`));
      }
      return some(topicNotes, (n) => n.kind === 'no-directory');
    }
  }
  const { patterns: given, from } = continuation(args.subjects ?? []);
  const view = kb.view(topic);
  // Lines of a subject (`slug:120-160`) are taken off their slugs first.
  const lined = withRanges(view, given);
  const plan = await planPatterns(view, await compilePatterns(lined.patterns));
  const { patterns, fallbacks } = plan;
  const ranges = rangesBySlug(view, lined.ranges, fallbacks);
  // A continuation is never raw: its notes must be there; nor are lines
  // of a subject: their note says which.
  const raw = from === undefined && fallbacks.length === 0 && ranges.size === 0 && isRaw(view, patterns);
  await noteDirectory(topic, view);
  for (const f of fallbacks) await emit({ kind: 'note', topic: topic.id, note: f });
  for (const f of fallbacks) await problem(warning('near-miss', `topic "${topic.id}": ${fallbackSummary(f)}`));
  for (const n of lined.refused) await emit({ kind: 'note', topic: topic.id, note: n });
  const pace = paceOf(opts.signal);
  const loaded = await loadSubjects({ kb, topic, view, call: { given, patterns, hints: plan.hints, from, raw, ranges, ...(pace !== undefined ? { pace } : {}) }, sink, emit, budget: kb.maxTokens });
  // A raw result (one exact subject, found) is the content alone: the walk
  // limit did not keep it from the model.
  await emit({ kind: 'end', topic: topic.id, topicNotes: raw && loaded > 0 ? [] : directoryNotes(view, kb.walkLimit), raw });
  return loaded === 0 && !some(fallbacks, (f) => f.kind === 'folder');
}

/** A whole topic's listing kept by a long-lived front end (`kb mcp`):
 *  what it was made of (`of`: the topic's configuration and the limits),
 *  the listing, and the notices about the topic's directory. */
interface KeptListing {
  of: string;
  listing: TopicListing | undefined;
  notices: readonly Notice[];
}

/** The listing of `topic` (or of its `folder`), and the notices about its
 *  directory. A long-lived front end keeps a whole topic's listing while
 *  its file watcher tells of no change in the topic and the topic's
 *  configuration is the same (kb/index/cache.ts `keep`; await
 *  `kb.settle()` first): a listing of 10,000 subjects is made once, not on
 *  every call. Not kept where the topic has symbolic links (what they
 *  lead to is out of the watcher's sight), nor for a folder's listing. */
async function listingOf(kb: KnowledgeBase, topic: Topic, folder: string | undefined): Promise<{ listing: TopicListing | undefined; notices: readonly Notice[] }> {
  const resident = folder === undefined ? kb.resident : undefined;
  const at = resident?.changes(topic.subjectsDir);
  const key = `listing\0${topic.id}`;
  const of = at === undefined ? '' : JSON.stringify([topic, kb.maxTokens, kb.walkLimit, kb.html]);
  if (at !== undefined) {
    const kept = resident!.kept(topic.subjectsDir, key) as KeptListing | undefined;
    if (kept !== undefined && kept.of === of) return { listing: kept.listing === undefined ? undefined : { ...kept.listing, topic }, notices: kept.notices };
  }
  // A whole topic's listing within a budget may find that it can show no
  // title: the probe then stops searching heads for them.
  const costs = await kb.costs.listing();
  const titles = folder === undefined && Number.isFinite(kb.maxTokens) ? titleWatch(kb.maxTokens, new Set(topic.disabled), costs) : undefined;
  // A folder's listing probes only the folder's files (listableUnder).
  const view = kb.view(topic, folder === undefined, titles);
  const notices = directoryNotices(view);
  const listing = await topicListing(topic, view, kb.walkLimit, kb.maxTokens, costs, folder, titles);
  if (at !== undefined && view.index.links.length === 0) {
    // Shared by the calls to come: frozen, so that none can change it.
    if (listing !== undefined) for (const part of [listing.items, listing.learned, listing.topicNotes]) Object.freeze(part);
    resident!.keep(topic.subjectsDir, key, at, { of, listing, notices: Object.freeze(notices) } satisfies KeptListing);
  }
  return { listing, notices };
}

/** A learn call with subjects, once its patterns are planned. */
interface LoadCall {
  /** The patterns as given (a continuation's call repeats them). */
  given: readonly string[];
  patterns: readonly CompiledPattern[];
  hints: ReadonlyMap<string, MissHint>;
  from: { slug: string; offset: number } | undefined;
  raw: boolean;
  /** The lines asked for of some subjects, by slug. */
  ranges: ReadonlyMap<string, LineRange>;
  /** A turn between subjects read (a cancelled call reads no further
   *  file). */
  pace?: Pace;
}

type Emit = (e: LearnEvent) => Promise<void>;

/** What loading a call's subjects goes by: the call, its topic and view,
 *  where the events go, and the budget (tokens; Infinity: none). */
interface LoadContext {
  kb: KnowledgeBase;
  topic: Topic;
  view: TopicView;
  call: LoadCall;
  sink: LearnSink;
  emit: Emit;
  budget: number;
}

/**
 * Loads the subjects a call selects into `sink`, within the budget, and
 * returns how many were loaded (a window counts). The loop does the common
 * case, a subject returned whole, and hands the rest (notes, the budget's
 * cut, windows) to functions of their own: a large load runs the loop
 * thousands of times, so the engine compiles the function that holds it,
 * and this one is a fraction of `learn` (whose compilation, when it held
 * the loop, took 6 to 7 ms of a compiler thread). A subject's event is
 * awaited only when the sink returns a promise: an `await` per subject
 * cost a promise and a turn of the microtask queue each.
 */
async function loadSubjects(ctx: LoadContext): Promise<number> {
  const { kb, topic, view, call, sink, budget } = ctx;
  // Without a budget (0, Infinity) nothing compares a subject's tokens:
  // the estimate would be a pass over every loaded byte for nothing.
  const limited = Number.isFinite(budget);
  const { from, raw } = call;
  let loaded = 0;
  let used = 0;
  const pace = call.pace;
  // The names of the files that share the slugs of subjects globs loaded.
  const shared: SharedByGlobs = { subjects: 0, files: 0, names: [] };
  // Paced, every file read is a step (binaries a glob matched too).
  for (const item of loadPatterns(view, call.patterns, sink.as, call.hints, from?.slug, pace !== undefined)) {
    // Before the next file is read (the generator reads it as it yields).
    const turn = pace?.();
    if (turn !== undefined) await turn;
    if (item.kind === 'read') continue;
    if (item.kind !== 'subject') {
      await noteItem(ctx, item);
      continue;
    }
    const start = from !== undefined && item.slug === from.slug ? from.offset : 0;
    const range = call.ranges.size > 0 ? call.ranges.get(item.slug) : undefined;
    if (range !== undefined) {
      // Lines of a subject: a window of them (or the first of several).
      const more = await loadLines(ctx, item, range, start, used, loaded);
      if (more === undefined) continue;
      loaded++;
      if (more < 0) break;
      used += more;
      continue;
    }
    const tokens = !limited && start === 0 ? 0 : tokensFrom(item.content.body, item.body, start) + BLOCK_TOKENS;
    if (loaded > 0 && used + tokens > budget) {
      // Over the budget: this subject and the rest wait for the next call.
      await leaveOut(ctx, item.slug);
      break;
    }
    if (item.replaced) await ctx.emit({ kind: 'problem', problem: replacedProblem(topic.id, item.slug) });
    if (item.note !== undefined && item.content.body.length === 0) await ctx.emit({ kind: 'problem', problem: emptyTextProblem(topic.id, item.slug) });
    if (start > 0 || tokens > budget) {
      // One subject larger than the budget (or a later window of one).
      loaded++;
      await noteShared(ctx, item, shared);
      const more = await loadWindow(ctx, item, start, used);
      if (more < 0) break;
      used += more;
      continue;
    }
    const skill = skillOf(kb, topic, item.subject);
    const waiting = sink.event(skill === undefined ? { kind: 'subject', slug: item.slug, content: item.content, raw } : { kind: 'subject', slug: item.slug, content: item.content, skill, raw });
    if (waiting) await waiting;
    loaded++;
    used += tokens;
    if (view.index.shared !== undefined) await noteShared(ctx, item, shared);
    // The front end holds no more (MCP's cap on one result, for when there
    // is no budget).
    if (sink.full?.()) break;
  }
  if (shared.subjects > 0) {
    await ctx.emit({ kind: 'note', topic: topic.id, note: { kind: 'shared-slugs', subjects: shared.subjects, names: shared.names, more: shared.files - shared.names.length } });
  }
  return loaded;
}

/** Names of the files sharing a slug a model is told, at most, in one
 *  note (a slug shared by more files, or globs that load more such
 *  subjects, say how many more there are). */
export const SHARED_NAMES_SHOWN = 20;

/** The files that share the slugs of the subjects globs loaded. */
interface SharedByGlobs {
  subjects: number;
  /** The other files, and the names of the first SHARED_NAMES_SHOWN. */
  files: number;
  names: string[];
}

/** A loaded subject whose slug other files share: named exactly, a note
 *  of its own names them; loaded by a glob, they go into one note for the
 *  call (`globs`). */
async function noteShared({ view, topic, emit }: LoadContext, item: Extract<LoadItem, { kind: 'subject' }>, globs: SharedByGlobs): Promise<void> {
  const found = view.index.shared?.get(item.slug);
  if (found === undefined) return;
  const names = found.others.map((o) => o.name);
  if (!item.exact) {
    globs.subjects++;
    globs.files += names.length;
    for (const name of names) if (globs.names.length < SHARED_NAMES_SHOWN) globs.names.push(name);
    return;
  }
  const others = names.slice(0, SHARED_NAMES_SHOWN);
  await emit({ kind: 'note', topic: topic.id, note: { kind: 'shared-slug', slug: item.slug, path: found.path, others, more: names.length - others.length } });
}

/** A note among the loaded items (and a warning for an ignored file). */
async function noteItem({ topic, emit }: LoadContext, item: Exclude<LoadItem, { kind: 'subject' }>): Promise<void> {
  await emit({ kind: 'note', topic: topic.id, note: item });
  if (item.kind === 'no-match' && item.hint?.ignored !== undefined) await emit({ kind: 'problem', problem: warning('ignored', `topic "${topic.id}": ${ignoredSentence(item.hint.ignored)}`) });
}

/** The tokens of a subject's block from byte `start` of its body on. */
function tokensFrom(content: Body, body: Body, start: number): number {
  return start === 0 ? estimateTokensOfBody(content) : estimateTokensOfBody(sliceBody(body, start));
}

/** The call that continues at byte `offset` of subject `slug`. */
function callFrom({ topic, call }: LoadContext, slug: string, offset: number): LearnCall {
  return { topic: topic.id, subjects: [...call.given, `${FROM_PREFIX}${offset}:${slug}`] };
}

/** Subject `slug` and the rest are left out to stay within the budget:
 *  the model is told how to continue, the user that they were left out. */
async function leaveOut(ctx: LoadContext, slug: string): Promise<void> {
  const { topic, view, call, budget, emit } = ctx;
  const rest = restOf(view, call.patterns, slug, 0);
  await emit({ kind: 'left-out', count: rest.count, tokens: rest.tokens, budget, call: callFrom(ctx, slug, 0) });
  const s = rest.count === 1 ? '' : 's';
  await emit({ kind: 'problem', problem: warning('budget', `learn ${topic.id}: ${rest.count} more subject${s} (~${tokensText(rest.tokens)} tokens) matched but ${rest.count === 1 ? 'was' : 'were'} left out to stay within ${tokensText(budget)} tokens; the model was told how to continue`) });
}

/** A window of a subject larger than the budget (or a later window of
 *  one) from byte `from` on, and the call for the next. Returns the tokens
 *  it used, or -1 when there is a next window (the load ends there). */
async function loadWindow(ctx: LoadContext, item: Extract<LoadItem, { kind: 'subject' }>, from: number, used: number, lined?: Lined): Promise<number> {
  const { topic, view, call, budget, emit } = ctx;
  const as = ctx.sink.as;
  const bytes = lined?.bytes ?? bodyBytes(item.body);
  // Lines of a subject end where they end; a subject, at its end.
  const stop = lined?.to ?? bytes.length;
  const start = charStart(bytes, from);
  const end = Math.min(stop, windowEnd(bytes.subarray(0, stop), start, Math.max(1, budget - BLOCK_TOKENS - used)));
  const next = end < stop ? callFrom(ctx, item.slug, end) : undefined;
  const window = as === 'bytes' ? bytes.subarray(start, end) : bodyText(bytes.subarray(start, end));
  const lines: [number, number] = [lineAt(bytes, start), lineAt(bytes, Math.max(start, end - 1))];
  const range = lined?.range;
  const shape = item.note === undefined ? { fenceTag: fenceTag(item.subject.ext) } : { fenceTag: undefined, note: item.note };
  await emit({ kind: 'window', slug: item.slug, ...shape, body: window, from: start, to: end, total: bytes.length, lines, budget, ...(next !== undefined ? { next } : {}), ...(range !== undefined ? { range } : {}) });
  if (next === undefined) return estimateTokensOfBytes(bytes, start, end) + BLOCK_TOKENS;
  const rest = restOf(view, call.patterns, item.slug, 1);
  if (rest.count > 0) await emit({ kind: 'left-after', count: rest.count, tokens: rest.tokens, slug: item.slug });
  const what = range === undefined ? `subject "${item.slug}" is` : `lines ${range.first}-${range.last} of subject "${item.slug}" are`;
  await emit({ kind: 'problem', problem: warning('budget', `learn ${topic.id}: ${what} larger than the ${tokensText(budget)}-token budget; returned bytes ${start}-${end} of ${bytes.length} (lines ${lines[0]}-${lines[1]}), the model was told how to continue`) });
  return -1;
}

/** Lines of a subject being loaded: its bytes, where the lines end in
 *  them, and what the window says of them. */
interface Lined {
  bytes: Uint8Array;
  to: number;
  range: LinesShown;
}

/**
 * Lines of a subject (`slug:120-160`): a window of them, within the budget
 * like a subject (the first thing loaded always comes; a later one that
 * does not fit is left out with the rest), in windows when they are larger
 * than the budget, each window's call continuing within them. Returns the
 * tokens used, -1 when the load ends there (a next window, or left out),
 * or undefined when the subject has fewer lines than the range's first
 * (a note says so; nothing is loaded).
 */
async function loadLines(ctx: LoadContext, item: Extract<LoadItem, { kind: 'subject' }>, range: LineRange, from: number, used: number, loaded: number): Promise<number | undefined> {
  const { topic, emit, budget } = ctx;
  const bytes = bodyBytes(item.body);
  const span = lineSpan(bytes, range.first, range.last);
  if (span.from === undefined) {
    await emit({ kind: 'note', topic: topic.id, note: { kind: 'lines-past-end', slug: item.slug, asked: rangeText(range), lines: span.lines } });
    await emit({ kind: 'problem', problem: warning('lines', `learn ${topic.id}: subject "${item.slug}" has ${span.lines} line${span.lines === 1 ? '' : 's'}; lines ${rangeText(range)} were asked for`) });
    return undefined;
  }
  const start = Math.max(span.from, from);
  if (loaded > 0 && used + estimateTokensOfBytes(bytes, start, span.to) + BLOCK_TOKENS > budget) {
    await leaveOut(ctx, item.slug);
    return -1;
  }
  if (item.replaced) await emit({ kind: 'problem', problem: replacedProblem(topic.id, item.slug) });
  const past = range.last !== undefined && range.last > span.lines;
  const shown: LinesShown = { first: range.first, last: span.last, lines: span.lines, ...(past ? { asked: rangeText(range) } : {}) };
  return loadWindow(ctx, item, start, used, { bytes, to: span.to, range: shown });
}

/** A call's patterns with the line ranges taken off their slugs
 *  (kb/index/line-range.ts): the patterns to resolve, each range by the
 *  slug it was given with, and a note for each range refused. A pattern
 *  that names a subject as it is written (a slug that ends in `:120`) is
 *  that subject. */
function withRanges(view: TopicView, given: readonly string[]): { patterns: string[]; ranges: Map<string, LineRange>; refused: Note[] } {
  const patterns: string[] = [];
  const ranges = new Map<string, LineRange>();
  const refused: Note[] = [];
  const { subjects, aliases } = view.index;
  for (const p of given) {
    const r = p.includes(':') ? splitLineRange(p) : undefined;
    if (r === undefined || findExact(subjects, withoutDotSlash(p), view.disabled, aliases) !== undefined) {
      patterns.push(p);
      continue;
    }
    if ('problem' in r) refused.push({ kind: 'invalid-pattern', pattern: p, reason: r.problem });
    else if (mayBeGlob(r.slug)) refused.push({ kind: 'invalid-pattern', pattern: p, reason: 'a line range takes one subject by its exact slug, never a glob' });
    else if (ranges.has(r.slug)) refused.push({ kind: 'invalid-pattern', pattern: p, reason: `one range of a subject per call: ${JSON.stringify(`${r.slug}:${rangeText(ranges.get(r.slug)!)}`)} comes first` });
    else {
      patterns.push(r.slug);
      ranges.set(r.slug, r.range);
    }
  }
  return { patterns, ranges, refused };
}

/** The ranges by the slug of the subject each pattern names: as written,
 *  or as a near miss read it (kb/index/near.ts). */
function rangesBySlug(view: TopicView, byPattern: ReadonlyMap<string, LineRange>, fallbacks: readonly Fallback[]): Map<string, LineRange> {
  const out = new Map<string, LineRange>();
  for (const [pattern, range] of byPattern) {
    const exact = findExact(view.index.subjects, withoutDotSlash(pattern), view.disabled, view.index.aliases);
    const slug = exact?.slug ?? fallbacks.find((f): f is Extract<Fallback, { kind: 'read-as' }> => f.kind === 'read-as' && f.pattern === pattern)?.slug;
    if (slug !== undefined && !out.has(slug)) out.set(slug, range);
  }
  return out;
}

/** A call whose one pattern is a folder (`folder/`, no glob characters)
 *  lists inside that folder: the folder, else undefined. */
function folderOf(subjects: readonly string[]): string | undefined {
  if (subjects.length !== 1) return undefined;
  const p = subjects[0];
  if (!p.endsWith('/') || p.length < 2 || /[*?[\]{}!]/.test(p)) return undefined;
  const folder = trimEndChars(p.replace(/^\.\//, ''), '/');
  return folder === '' ? undefined : folder;
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

/** The subjects the patterns select from `slug` on (`skip` 0: it
 *  included; 1: those after it), and their tokens, estimated from their
 *  sizes. */
function restOf(view: TopicView, patterns: readonly CompiledPattern[], slug: string, skip: 0 | 1): { count: number; tokens: number } {
  const order = loadOrder(view, patterns);
  const at = order.findIndex((s) => s.slug === slug);
  const rest = at < 0 ? [] : order.slice(at + skip);
  return { count: rest.length, tokens: rest.reduce((n, s) => n + Math.ceil(Math.max(0, s.size) / BYTES_PER_TOKEN_ESTIMATE), 0) };
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
