// The per-topic view used by the commands: the subject index, the disabled
// slugs, the pre-loaded (`learned`) subjects, and the operations of the
// `learn` tool on top of them.
//
// Binary files are found out lazily (sniffing the first 8192 bytes), and each
// file is sniffed at most once per view. Learned-pattern resolution reads no
// files; a glob-matched binary is dropped when the subjects are loaded, so
// it neither counts as pre-loaded nor as learnable.

import type { Topic } from '../../config/types.ts';
import type { LoadItem, Match, Notice, PatternResult, SniffResult, Subject, SubjectIndex } from './types.ts';
import { classifyPattern } from '../../glob/pattern.ts';
import { CONTROL, escapeControls } from '../../shared/controls.ts';
import { readSubject } from '../fs/read.ts';
import { findBySlug, resolvePatterns } from './resolve.ts';
import { sniffFile } from '../fs/probe.ts';
import { formatContent } from '../content/format.ts';
import { indexSubjects, type FileFound } from './subjects.ts';
import type { SniffFeed } from '../fs/probe-thread.ts';

export type { LoadItem } from './types.ts';

export interface TopicView {
  topic: Topic;
  index: SubjectIndex;
  disabled: Set<string>;
  /** Learned-pattern matches, non-disabled, in learned order (exact learned
   *  patterns may pre-load hidden subjects). May include binaries matched by
   *  a glob; those are dropped when loaded. */
  learned: Match[];
  learnedSlugs: Set<string>;
  /** One per `topic.learned` pattern, in order. */
  learnedPatterns: PatternResult[];
}

const sniffCache = new WeakMap<TopicView, Map<string, SniffResult>>();

function cacheOf(view: TopicView): Map<string, SniffResult> {
  let cache = sniffCache.get(view);
  if (cache === undefined) sniffCache.set(view, (cache = new Map()));
  return cache;
}

/** Subjects whose path holds a control character are left out, with a
 *  notice: in a listing or a `<subject "...">` tag, a name holding a newline
 *  could forge a line or a closing tag. Every notice is made printable on
 *  one line. */
function sanitize(index: SubjectIndex): SubjectIndex {
  const notices: Notice[] = index.notices.map((n) =>
    CONTROL.test(n.message) || CONTROL.test(n.path) ? { ...n, path: escapeControls(n.path), message: escapeControls(n.message) } : n,
  );
  // One test per name in the common case: neither a control character nor
  // U+FFFD (what undecodable() looks for) is in it.
  if (!index.subjects.some((s) => SUSPECT.test(s.path) && (CONTROL.test(s.path) || undecodable(s)))) return { ...index, notices };
  const subjects: Subject[] = [];
  for (const s of index.subjects) {
    if (CONTROL.test(s.path)) {
      const path = escapeControls(s.path);
      notices.push({ kind: 'control-character', path, message: `file name contains a control character, skipped: ${path}` });
    } else if (undecodable(s)) {
      notices.push({ kind: 'unreadable', path: s.path, message: `file name is not valid UTF-8, skipped: ${s.path}` });
    } else {
      subjects.push(s);
    }
  }
  return { ...index, subjects, notices };
}

/** A control character (CONTROL) or U+FFFD. */
const SUSPECT = new RegExp(`${CONTROL.source.slice(0, -1)}\\uFFFD]`);

/** A name whose bytes are not UTF-8 reaches kb with U+FFFD in place of
 *  them, so the path no longer names the file: it cannot be stat'ed. (Only
 *  paths holding U+FFFD are stat'ed here.) */
function undecodable(s: Subject): boolean {
  return s.path.includes('\uFFFD') && s.size === -1;
}

/** Walks the topic's subjects directory and resolves its `learned`
 *  patterns. Reads no file contents. */
export function openTopic(topic: Topic, found?: FileFound): TopicView {
  const index = sanitize(indexSubjects(topic.subjectsDir, found));
  const disabled = new Set(topic.disabled);
  const { matches, perPattern } = resolvePatterns(index.subjects, topic.learned, disabled);
  return {
    topic,
    index,
    disabled,
    learned: matches,
    learnedSlugs: new Set(matches.map((m) => m.subject.slug)),
    learnedPatterns: perPattern,
  };
}

/** `openTopic`, sniffing every non-hidden file as the walk finds it (a
 *  reader thread starts on them while the walk goes on): a listing needs
 *  the verdict of nearly every file. */
export function openTopicSniffing(topic: Topic, feed: SniffFeed): TopicView {
  const slugs: string[] = [];
  const view = openTopic(topic, (abs, slug, hidden) => {
    if (hidden) return;
    feed.add(abs);
    slugs.push(slug);
  });
  const results = feed.finish();
  const cache = cacheOf(view);
  const shared: string[] = [];
  for (let i = 0; i < slugs.length; i++) {
    const before = cache.size;
    cache.set(slugs[i], results[i]);
    if (cache.size === before) shared.push(slugs[i]); // the slug was there already
  }
  // Two files with one slug: which verdict is the subject's is not known
  // here, so the subject is sniffed again when asked about.
  for (const slug of shared) cache.delete(slug);
  return view;
}

/** 'text', 'binary' or 'error' (unreadable); sniffed once per view. */
export function sniffSubject(view: TopicView, subject: Subject): SniffResult {
  const cache = cacheOf(view);
  let result = cache.get(subject.slug);
  if (result === undefined) cache.set(subject.slug, (result = sniffFile(subject.abs)));
  return result;
}

function isPreloaded(view: TopicView, subject: Subject): boolean {
  return view.learnedSlugs.size > 0 && view.learnedSlugs.has(subject.slug) && sniffSubject(view, subject) !== 'binary';
}

function isListableCheap(view: TopicView, s: Subject): boolean {
  return !s.hidden && !view.disabled.has(s.slug) && !view.learnedSlugs.has(s.slug);
}

/** Sniffs many files at once (a reader thread shares the work, thread.ts). */
export type SniffMany = (paths: readonly string[]) => SniffResult[];

/** Sniffs those of `subjects` not sniffed yet, all at once. */
function sniffAll(view: TopicView, subjects: readonly Subject[], sniffMany: SniffMany): void {
  const cache = cacheOf(view);
  const todo = subjects.filter((s) => !cache.has(s.slug));
  if (todo.length === 0) return;
  const results = sniffMany(todo.map((s) => s.abs));
  for (let i = 0; i < todo.length; i++) cache.set(todo[i].slug, results[i]);
}

/** The subjects `learn` lists: non-hidden, non-disabled, not pre-loaded,
 *  readable text (each is sniffed, by `sniffMany` when given), in slug
 *  order. */
export function listable(view: TopicView, sniffMany?: SniffMany): Subject[] {
  // One pass in the common case (every verdict known, as after
  // `openTopicSniffing`): a listing walks thousands of subjects.
  const cache = cacheOf(view);
  const { disabled, learnedSlugs } = view;
  const filterSets = disabled.size > 0 || learnedSlugs.size > 0;
  const out: Subject[] = [];
  let unknown: Subject[] | undefined;
  for (const s of view.index.subjects) {
    if (s.hidden || (filterSets && (disabled.has(s.slug) || learnedSlugs.has(s.slug)))) continue;
    const verdict = cache.get(s.slug);
    if (verdict === 'text') out.push(s);
    else if (verdict === undefined) (unknown ??= []).push(s);
  }
  if (unknown === undefined) return out;
  // Some were not sniffed yet: sniff them (all at once when possible), then
  // filter again, in slug order.
  if (sniffMany) sniffAll(view, unknown, sniffMany);
  for (const s of unknown) sniffSubject(view, s);
  return view.index.subjects.filter((s) => isListableCheap(view, s) && cache.get(s.slug) === 'text');
}

/** Whether `listable(view)` is non-empty; stops at the first text subject. */
export function hasListable(view: TopicView): boolean {
  return view.index.subjects.some((s) => isListableCheap(view, s) && sniffSubject(view, s) === 'text');
}

/** Whether some subject is neither disabled, nor pre-loaded, nor binary (nor
 *  unreadable). Hidden subjects count: they stay loadable by exact slug.
 *  Stops at the first one. */
export function hasLearnable(view: TopicView): boolean {
  return view.index.subjects.some(
    (s) => !view.disabled.has(s.slug) && !view.learnedSlugs.has(s.slug) && sniffSubject(view, s) === 'text',
  );
}

/** Reads a subject's file and formats its content (binary and unreadable
 *  files as `readSubject` reports them). */
export type ContentReader<C> = (subject: Subject) =>
  | { kind: 'text'; content: C; replaced: boolean }
  | { kind: 'binary' }
  | { kind: 'error'; message: string };

/** The content as text: `readSubject`, then `formatContent`. */
export const readText: ContentReader<string> = (subject) => {
  const result = readSubject(subject.abs);
  return result.kind === 'text' ? { kind: 'text', content: formatContent(subject.ext, result.text), replaced: result.replaced } : result;
};

/** Reads one matched subject. Returns undefined for a silently dropped
 *  (glob-matched) binary. */
function load<C>(view: TopicView, match: Match, read: ContentReader<C>): LoadItem<C> | undefined {
  const { subject, exact } = match;
  const result = read(subject);
  if (result.kind === 'text') {
    // Not recorded as sniffed: nothing sniffs a subject once it is loaded,
    // and a glob over a whole topic loads thousands.
    return {
      kind: 'subject',
      slug: subject.slug,
      subject,
      content: result.content,
      replaced: result.replaced,
    };
  }
  const cache = cacheOf(view);
  if (result.kind === 'binary') {
    cache.set(subject.slug, 'binary');
    return exact ? { kind: 'binary', slug: subject.slug } : undefined;
  }
  cache.set(subject.slug, 'error');
  return { kind: 'unreadable', slug: subject.slug, message: result.message };
}

/** The pre-loaded subjects' contents, in learned order, one file read per
 *  item. Exactly named binaries yield `binary`, glob-matched ones nothing;
 *  files that cannot be read yield `unreadable`. */
export function* loadLearned(view: TopicView): Generator<LoadItem> {
  for (const match of view.learned) {
    const item = load(view, match, readText);
    if (item !== undefined) yield item;
  }
}

/**
 * Executes a `learn` call with subjects. Streams: one file is read per
 * yielded subject, so memory does not grow with the knowledge base.
 *
 * Order of the items:
 * 1. `subject` items, in match order (pattern order, each pattern's matches
 *    in slug order, first occurrence wins);
 * 2. `already-learned` notes, in match order;
 * 3. `binary` notes (exactly named binaries only), in match order;
 * 4. `unreadable` notes, in match order;
 * 5. per pattern, in pattern order: `invalid-pattern`, or `no-match` when the
 *    pattern selected nothing at all, or only binaries it did not name
 *    exactly (a glob that matched only binaries; the binaries are dropped
 *    silently unless another pattern names them exactly).
 */
export function loadPatterns(view: TopicView, patterns: readonly string[]): Generator<LoadItem>;
/** The same, each subject's content read by `read` (bytes.ts streams bytes). */
export function loadPatterns<C>(view: TopicView, patterns: readonly string[], read: ContentReader<C>): Generator<LoadItem<C>>;
export function* loadPatterns<C>(view: TopicView, patterns: readonly string[], read?: ContentReader<C>): Generator<LoadItem<C>> {
  const reader = read ?? (readText as unknown as ContentReader<C>);
  const { matches, perPattern } = resolvePatterns(view.index.subjects, patterns, view.disabled);
  const learnedNotes: LoadItem<C>[] = [];
  const binaryNotes: LoadItem<C>[] = [];
  const unreadableNotes: LoadItem<C>[] = [];
  const binaries = new Set<string>();

  for (const match of matches) {
    const slug = match.subject.slug;
    if (isPreloaded(view, match.subject)) {
      learnedNotes.push({ kind: 'already-learned', slug });
      continue;
    }
    const item = load(view, match, reader);
    if (item === undefined || item.kind === 'binary') binaries.add(slug);
    if (item === undefined) continue;
    if (item.kind === 'subject') yield item;
    else if (item.kind === 'unreadable') unreadableNotes.push(item);
    else binaryNotes.push(item);
  }

  yield* learnedNotes;
  yield* binaryNotes;
  yield* unreadableNotes;
  for (const p of perPattern) {
    if (p.kind === 'invalid') yield { kind: 'invalid-pattern', pattern: p.pattern, reason: p.reason ?? 'invalid pattern' };
    else if (selectedNothing(p, binaries)) yield { kind: 'no-match', pattern: p.pattern };
  }
}

/** A valid pattern selected nothing but binaries it did not name exactly. */
function selectedNothing(p: PatternResult, binaries: ReadonlySet<string>): boolean {
  if (p.kind === 'exact') return p.slugs.length === 0;
  const literal = classifyPattern(p.pattern).pattern;
  return p.slugs.every((slug) => binaries.has(slug) && slug !== literal);
}

/** NOTES 7: the raw content is returned only when the call has exactly one
 *  pattern, that pattern is exact, and it names one subject that is neither
 *  disabled nor pre-loaded. Reads no files. */
export function isRaw(view: TopicView, patterns: readonly string[]): boolean {
  if (patterns.length !== 1) return false;
  const c = classifyPattern(patterns[0]);
  if (c.kind !== 'exact') return false;
  const subject = findBySlug(view.index.subjects, c.pattern);
  return subject !== undefined && !view.disabled.has(subject.slug) && !view.learnedSlugs.has(subject.slug);
}
