// The per-topic view: the subject index, the disabled slugs, the
// pre-loaded (`learned`) subjects, and the operations of the `learn` tool on
// top of them. It takes plain data (a `TopicSpec`, compiled patterns), never
// configuration types.
//
// What a file is (text, binary, unreadable) is found out lazily by the
// view's probe (fs/probe.ts, reading at most the first 8192 bytes), and each
// file is probed at most once per view. Learned-pattern resolution reads no
// files; a glob-matched binary is dropped when the subjects are loaded, so
// it neither counts as pre-loaded nor as learnable.

import { MAX_PATTERN_LENGTH, type CompiledPattern } from '../../glob/index.ts';
import { CONTROL, controlWord, escapeControls } from '../../shared/controls.ts';
import { formatContent } from '../content/format.ts';
import { PROBED, probeHere, type Probe, type ProbeKind, type ProbeResult } from '../fs/probe.ts';
import { readBody } from '../fs/read.ts';
import { findExact, resolvePatterns } from './resolve.ts';
import type { IndexCache } from './cache.ts';
import { indexSubjects, type FileFound } from './subjects.ts';
import { notice, type Notice, type WalkTrace } from '../fs/walk.ts';
import type { LoadItem, Match, MissHint, PatternResult, Subject, SubjectIndex } from './types.ts';

export type { LoadItem } from './types.ts';

/** What the view needs of a topic. */
export interface TopicSpec {
  readonly id: string;
  /** Absolute path of the subjects directory. */
  readonly subjectsDir: string;
  /** Exact slugs that nothing selects. */
  readonly disabled: readonly string[];
  /** The subjects directory as configured (relative to the workspace
   *  root): a pattern that repeats it is a near miss (near.ts). */
  readonly subjects?: string;
}

export interface OpenOptions {
  /** The topic's `learned` patterns, compiled (glob/index.ts). */
  learned?: readonly CompiledPattern[];
  /** Probes the files (default: `probeHere`, on the main thread). */
  probe?: Probe;
  /** Probe every non-hidden file as the walk finds it (a listing needs
   *  nearly every verdict): with a probe that has a feed, the probing
   *  starts while the walk goes on. */
  probeAll?: boolean;
  /** Indexes kept between calls (a long-lived front end's). */
  cache?: IndexCache;
  /** The most directory entries the walk reads (fs/walk.ts). */
  maxEntries?: number;
  /** Filled with the directories and ignore files the walk went through
   *  (a cache revalidates against them: kb/search/). */
  trace?: WalkTrace;
}

export interface TopicView {
  topic: TopicSpec;
  index: SubjectIndex;
  disabled: Set<string>;
  /** Learned-pattern matches, non-disabled, in learned order (exact learned
   *  patterns may pre-load hidden subjects). May include binaries matched by
   *  a glob; those are dropped when loaded. */
  learned: Match[];
  learnedSlugs: Set<string>;
  /** One per `learned` pattern, in order. */
  learnedPatterns: PatternResult[];
  /** The view's probe, and what it found, by slug. */
  probe: Probe;
  probed: Map<string, ProbeResult>;
}

/** Subjects whose path holds a control character are left out, with a
 *  notice: in a listing or a `<subject "...">` tag, a name holding a newline
 *  could forge a line or a closing tag, one holding a bidirectional or
 *  zero-width character would show as another name (shared/controls.ts).
 *  So are subjects whose slug is longer than a pattern may be: no call could
 *  load them by the name a listing shows. Every notice is made printable on
 *  one line. */
function sanitize(index: SubjectIndex): SubjectIndex {
  const notices: Notice[] = index.notices.map((n) =>
    CONTROL.test(n.message) || CONTROL.test(n.where) ? { ...n, where: escapeControls(n.where), message: escapeControls(n.message) } : n,
  );
  // One test per name in the common case: neither a control character nor
  // U+FFFD (what undecodable() looks for) is in it, and it is short.
  const suspect = (s: Subject) => (SUSPECT.test(s.path) && (CONTROL.test(s.path) || undecodable(s))) || s.slug.length > MAX_PATTERN_LENGTH;
  if (!index.subjects.some(suspect)) return { ...index, notices };
  const subjects: Subject[] = [];
  for (const s of index.subjects) {
    if (CONTROL.test(s.path)) {
      const path = escapeControls(s.path);
      notices.push(notice('control-character', path, `file name contains ${controlWord(s.path)}, skipped: ${path}`));
    } else if (undecodable(s)) {
      notices.push(notice('unreadable', s.path, `file name is not valid UTF-8, skipped: ${s.path}`));
    } else if (s.slug.length > MAX_PATTERN_LENGTH) {
      notices.push(
        notice(
          'long-slug',
          s.path,
          `slug longer than ${MAX_PATTERN_LENGTH} characters (${s.slug.length}), skipped: no pattern can name it: ${s.path.slice(0, 60)}...`,
        ),
      );
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
 *  patterns. Reads no file contents (but with `probeAll`, file heads). */
export function openTopic(topic: TopicSpec, opts: OpenOptions = {}): TopicView {
  const probe = opts.probe ?? probeHere;
  const feed = opts.probeAll ? probe.feed?.() : undefined;
  const slugs: string[] = [];
  const fed: Parameters<FileFound>[3][] = [];
  const found: FileFound | undefined =
    feed === undefined
      ? undefined
      : (abs, slug, hidden, subject) => {
          if (hidden) return;
          feed.add(abs);
          slugs.push(slug);
          fed.push(subject);
        };
  const cached = opts.cache?.get(topic.subjectsDir);
  let index: SubjectIndex;
  if (cached !== undefined) index = cached;
  else {
    // What the walk went through: the cache revalidates against it.
    const trace = opts.trace ?? (opts.cache === undefined ? undefined : { dirs: [], controls: [] });
    index = sanitize(indexSubjects(topic.subjectsDir, found, { maxEntries: opts.maxEntries, trace }));
    if (opts.cache !== undefined) opts.cache.set(topic.subjectsDir, index, trace!);
  }
  const disabled = new Set(topic.disabled);
  const { matches, perPattern } = resolvePatterns(index.subjects, opts.learned ?? [], disabled, index.aliases);
  const view: TopicView = {
    topic,
    index,
    disabled,
    learned: matches,
    learnedSlugs: new Set(matches.map((m) => m.subject.slug)),
    learnedPatterns: perPattern,
    probe,
    probed: new Map(),
  };
  if (feed !== undefined) {
    const results = feed.finish();
    const cache = view.probed;
    const shared: string[] = [];
    for (let i = 0; i < slugs.length; i++) {
      const before = cache.size;
      cache.set(slugs[i], results[i]);
      if (cache.size === before) shared.push(slugs[i]); // the slug was there already
    }
    // Two files with one slug: which verdict is the subject's is not known
    // here, so the subject is probed again when asked about.
    for (const slug of shared) cache.delete(slug);
    // Sizes the probe learnt (files shorter than its read): a listing that
    // sums folders up needs no stat of them.
    if (feed.size !== undefined) {
      for (let i = 0; i < fed.length; i++) {
        const size = feed.size(i);
        if (size >= 0) fed[i].knowSize(size);
      }
    }
  }
  return view;
}

/** 'text', 'binary' or 'error' (unreadable); probed once per view. */
export function kindOf(view: TopicView, subject: Subject): ProbeKind {
  let result = view.probed.get(subject.slug);
  if (result === undefined) view.probed.set(subject.slug, (result = view.probe.probe([subject.abs])[0]));
  return result.kind;
}

function isPreloaded(view: TopicView, subject: Subject): boolean {
  return view.learnedSlugs.size > 0 && view.learnedSlugs.has(subject.slug) && kindOf(view, subject) !== 'binary';
}

function isListableCheap(view: TopicView, s: Subject): boolean {
  return !s.hidden && !view.disabled.has(s.slug) && !view.learnedSlugs.has(s.slug);
}

/** Probes those of `subjects` not probed yet, all at once. */
function probeUnknown(view: TopicView, subjects: readonly Subject[]): void {
  const cache = view.probed;
  const todo = subjects.filter((s) => !cache.has(s.slug));
  if (todo.length === 0) return;
  const results = view.probe.probe(todo.map((s) => s.abs));
  for (let i = 0; i < todo.length; i++) cache.set(todo[i].slug, results[i]);
}

/** The subjects `learn` lists: non-hidden, non-disabled, not pre-loaded,
 *  readable text (each is probed, all at once), in slug order. */
export function listable(view: TopicView): Subject[] {
  // One pass in the common case (every verdict known, as after opening
  // with `probeAll`): a listing walks thousands of subjects.
  const cache = view.probed;
  const { disabled, learnedSlugs } = view;
  const filterSets = disabled.size > 0 || learnedSlugs.size > 0;
  const out: Subject[] = [];
  let unknown: Subject[] | undefined;
  for (const s of view.index.subjects) {
    if (s.hidden || (filterSets && (disabled.has(s.slug) || learnedSlugs.has(s.slug)))) continue;
    const verdict = cache.get(s.slug);
    if (verdict === undefined) (unknown ??= []).push(s);
    else if (verdict.kind === 'text') out.push(s);
  }
  if (unknown === undefined) return out;
  // Some were not probed yet: probe them (all at once), then filter again,
  // in slug order.
  probeUnknown(view, unknown);
  return view.index.subjects.filter((s) => isListableCheap(view, s) && kindOf(view, s) === 'text');
}

/** The listable subjects (as `listable`) below the folder `folder`
 *  (slugs starting with `folder/`), in slug order. Probes only those. */
export function listableUnder(view: TopicView, folder: string): Subject[] {
  const prefix = `${folder}/`;
  const all = view.index.subjects;
  // Slugs with one prefix are contiguous in slug order: find the first.
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (all[mid].slug < prefix) lo = mid + 1;
    else hi = mid;
  }
  const below: Subject[] = [];
  for (let i = lo; i < all.length && all[i].slug.startsWith(prefix); i++) if (isListableCheap(view, all[i])) below.push(all[i]);
  probeUnknown(view, below);
  return below.filter((s) => kindOf(view, s) === 'text');
}

/** Whether `listable(view)` is non-empty; stops at the first text subject. */
export function hasListable(view: TopicView): boolean {
  return view.index.subjects.some((s) => isListableCheap(view, s) && kindOf(view, s) === 'text');
}

/** Whether some subject is neither disabled, nor pre-loaded, nor binary (nor
 *  unreadable). Hidden subjects count: they stay loadable by exact slug.
 *  Stops at the first one. */
export function hasLearnable(view: TopicView): boolean {
  return view.index.subjects.some(
    (s) => !view.disabled.has(s.slug) && !view.learnedSlugs.has(s.slug) && kindOf(view, s) === 'text',
  );
}

/** How loaded subjects' bodies are read: as text, or as the UTF-8 bytes
 *  of that text (content/body.ts). */
export type ReadAs = 'text' | 'bytes';

/** Reads one matched subject. Returns undefined for a silently dropped
 *  (glob-matched) binary. */
function load(view: TopicView, match: Match, as: ReadAs): LoadItem | undefined {
  const { subject, exact } = match;
  // Known to be binary already: not read again (at most 8192 bytes of a
  // binary file are ever read).
  if (view.probed.get(subject.slug)?.kind === 'binary') return exact ? { kind: 'binary', slug: subject.slug } : undefined;
  const result = readBody(subject.abs, as);
  if (result.kind === 'text') {
    // Not recorded as sniffed: nothing sniffs a subject once it is loaded,
    // and a glob over a whole topic loads thousands.
    return {
      kind: 'subject',
      slug: subject.slug,
      subject,
      content: formatContent(subject.ext, result.body),
      body: result.body,
      replaced: result.replaced,
    };
  }
  if (result.kind === 'binary') {
    view.probed.set(subject.slug, PROBED.binary);
    return exact ? { kind: 'binary', slug: subject.slug } : undefined;
  }
  view.probed.set(subject.slug, PROBED.error);
  return { kind: 'unreadable', slug: subject.slug, message: result.message };
}

/** One subject by its exact slug, read as a learn call reads it (a hidden
 *  subject included; a binary yields `binary`, an unreadable file
 *  `unreadable`), pre-loaded or not; undefined when no subject, or a
 *  disabled one, has that slug. */
export function loadExact(view: TopicView, slug: string, as: ReadAs): LoadItem | undefined {
  const subject = findExact(view.index.subjects, slug, view.disabled, view.index.aliases);
  if (subject === undefined) return undefined;
  return load(view, { subject, exact: true }, as);
}

/** The pre-loaded subjects' contents, in learned order, one file read per
 *  item. Exactly named binaries yield `binary`, glob-matched ones nothing;
 *  files that cannot be read yield `unreadable`. */
export function* loadLearned(view: TopicView): Generator<LoadItem> {
  for (const match of view.learned) {
    const item = load(view, match, 'text');
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
 *    silently unless another pattern names them exactly). A `no-match`
 *    carries the near-miss details: `hints` by raw pattern (near.ts
 *    `planPatterns`), and for a glob the hidden subjects it skipped.
 */
export function* loadPatterns(
  view: TopicView,
  patterns: readonly CompiledPattern[],
  as: ReadAs,
  hints?: ReadonlyMap<string, MissHint>,
  from?: string,
): Generator<LoadItem> {
  const { matches: all, perPattern } = resolvePatterns(view.index.subjects, patterns, view.disabled, view.index.aliases);
  // A continuation starts at the subject `from`: the ones before it are
  // neither read nor noted.
  let matches = all;
  if (from !== undefined) {
    const at = all.findIndex((m) => m.subject.slug === from);
    if (at < 0) {
      yield { kind: 'from-missing', slug: from };
      return;
    }
    matches = all.slice(at);
  }
  const learnedNotes: LoadItem[] = [];
  const binaryNotes: LoadItem[] = [];
  const unreadableNotes: LoadItem[] = [];
  const binaries = new Set<string>();

  for (const match of matches) {
    const slug = match.subject.slug;
    if (isPreloaded(view, match.subject)) {
      learnedNotes.push({ kind: 'already-learned', slug });
      continue;
    }
    const item = load(view, match, as);
    if (item === undefined || item.kind === 'binary') binaries.add(slug);
    if (item === undefined) continue;
    if (item.kind === 'subject') yield item;
    else if (item.kind === 'unreadable') unreadableNotes.push(item);
    else binaryNotes.push(item);
  }

  yield* learnedNotes;
  yield* binaryNotes;
  yield* unreadableNotes;
  for (let i = 0; i < perPattern.length; i++) {
    const p = perPattern[i];
    if (p.kind === 'invalid') yield { kind: 'invalid-pattern', pattern: p.pattern, reason: p.reason ?? 'invalid pattern' };
    else if (selectedNothing(p, patterns[i].pattern, binaries)) yield noMatch(p, hints);
  }
}

/** The subjects a learn call with `patterns` loads, in order (pre-loaded
 *  ones left out: they are noted, not loaded). Reads no file. */
export function loadOrder(view: TopicView, patterns: readonly CompiledPattern[]): Subject[] {
  const { matches } = resolvePatterns(view.index.subjects, patterns, view.disabled, view.index.aliases);
  return matches.filter((m) => !view.learnedSlugs.has(m.subject.slug)).map((m) => m.subject);
}

/** The `no-match` item of a pattern, with its near-miss details if any. */
function noMatch(p: PatternResult, hints: ReadonlyMap<string, MissHint> | undefined): LoadItem {
  const hint: MissHint = { ...hints?.get(p.pattern) };
  if (p.hiddenSkipped !== undefined) hint.hidden = p.hiddenSkipped;
  return hint.suggestions === undefined && hint.hidden === undefined ? { kind: 'no-match', pattern: p.pattern } : { kind: 'no-match', pattern: p.pattern, hint };
}

/** A valid pattern selected nothing but binaries it did not name exactly
 *  (`literal`: the pattern, normalised). */
function selectedNothing(p: PatternResult, literal: string, binaries: ReadonlySet<string>): boolean {
  if (p.kind === 'exact') return p.slugs.length === 0;
  return p.slugs.every((slug) => binaries.has(slug) && slug !== literal);
}

/** The raw content is returned only when the call has exactly one
 *  pattern, that pattern is exact, and it names one subject that is neither
 *  disabled nor pre-loaded. Reads no files. */
export function isRaw(view: TopicView, patterns: readonly CompiledPattern[]): boolean {
  if (patterns.length !== 1) return false;
  const c = patterns[0];
  if (c.kind !== 'exact') return false;
  const subject = findExact(view.index.subjects, c.pattern, view.disabled, view.index.aliases);
  return subject !== undefined && !view.learnedSlugs.has(subject.slug);
}
