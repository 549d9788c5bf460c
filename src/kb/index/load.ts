// Loading subjects of a view (view.ts): the pre-loaded ones, one by its
// exact slug, and the subjects a `learn` call's patterns select, streamed
// one file read at a time, with the notes about what was not loaded.

import type { CompiledPattern } from '../../glob/index.ts';
import { formatContent } from '../content/format.ts';
import { htmlTextView, isHtmlExt } from '../content/html.ts';
import { PROBED } from '../fs/probe.ts';
import { readBody } from '../fs/read.ts';
import { every, filter, map } from '../../shared/arrays.ts';
import { findIgnored } from './ignored.ts';
import { findExact, resolvePatterns } from './resolve.ts';
import type { LoadItem, Match, MissHint, PatternResult, Subject } from './types.ts';
import { kindOf, type TopicView } from './view.ts';

export type { LoadItem } from './types.ts';

/** What `loadPatterns` yields, when asked for its steps, for a file it
 *  read that gives no item there (a binary a glob matched, or one noted
 *  after the subjects): a step of the load, where a caller that paces it
 *  may take a turn or stop. */
export interface FileRead {
  kind: 'read';
}

const FILE_READ: FileRead = Object.freeze({ kind: 'read' });

function isPreloaded(view: TopicView, subject: Subject): boolean {
  return view.learnedSlugs.size > 0 && view.learnedSlugs.has(subject.slug) && kindOf(view, subject) !== 'binary';
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
    // Not recorded as probed: nothing probes a subject once it is loaded,
    // and a glob over a whole topic loads thousands.
    if (view.html === 'text' && isHtmlExt(subject.ext)) {
      // An HTML page in the text view: its windows are cut from the text.
      const content = htmlTextView(result.body);
      return { kind: 'subject', slug: subject.slug, subject, content, body: content.body, replaced: result.replaced, exact, note: content.head };
    }
    return {
      kind: 'subject',
      slug: subject.slug,
      subject,
      content: formatContent(subject.ext, result.body),
      body: result.body,
      replaced: result.replaced,
      exact,
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
 * yielded subject, so memory does not grow with the knowledge base. With
 * `steps`, each file read that gives no subject yields a `FileRead` as it
 * is read, so that every read is a step of its own (a glob over thousands
 * of binaries too).
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
export function loadPatterns(view: TopicView, patterns: readonly CompiledPattern[], as: ReadAs, hints?: ReadonlyMap<string, MissHint>, from?: string): Generator<LoadItem>;
export function loadPatterns(view: TopicView, patterns: readonly CompiledPattern[], as: ReadAs, hints: ReadonlyMap<string, MissHint> | undefined, from: string | undefined, steps: boolean): Generator<LoadItem | FileRead>;
export function* loadPatterns(
  view: TopicView,
  patterns: readonly CompiledPattern[],
  as: ReadAs,
  hints?: ReadonlyMap<string, MissHint>,
  from?: string,
  steps = false,
): Generator<LoadItem | FileRead> {
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
    if (item?.kind === 'subject') {
      yield item;
      continue;
    }
    if (item?.kind === 'unreadable') unreadableNotes.push(item);
    else if (item !== undefined) binaryNotes.push(item);
    // A file was read (a binary's first 8192 bytes, or an attempt).
    if (steps) yield FILE_READ;
  }

  yield* learnedNotes;
  yield* binaryNotes;
  yield* unreadableNotes;
  for (let i = 0; i < perPattern.length; i++) {
    const p = perPattern[i];
    if (p.kind === 'invalid') yield { kind: 'invalid-pattern', pattern: p.pattern, reason: p.reason ?? 'invalid pattern' };
    else if (selectedNothing(p, patterns[i].pattern, binaries)) yield noMatch(view, patterns[i], p, hints);
  }
}

/** The subjects a learn call with `patterns` loads, in order (pre-loaded
 *  ones left out: they are noted, not loaded). Reads no file. */
export function loadOrder(view: TopicView, patterns: readonly CompiledPattern[]): Subject[] {
  const { matches } = resolvePatterns(view.index.subjects, patterns, view.disabled, view.index.aliases);
  return map(filter(matches, (m) => !view.learnedSlugs.has(m.subject.slug)), (m) => m.subject);
}

/** The `no-match` item of a pattern, with its near-miss details if any. */
function noMatch(view: TopicView, c: CompiledPattern, p: PatternResult, hints: ReadonlyMap<string, MissHint> | undefined): LoadItem {
  const hint: MissHint = { ...hints?.get(p.pattern) };
  if (p.hiddenSkipped !== undefined) hint.hidden = p.hiddenSkipped;
  if (p.bundledSkipped !== undefined) hint.bundled = p.bundledSkipped;
  // A file an ignore rule leaves out: looked for on a miss only.
  const ignored = findIgnored(view.index.dir, view.index.ignored, c);
  if (ignored !== undefined) hint.ignored = ignored;
  return hint.suggestions === undefined && hint.hidden === undefined && hint.bundled === undefined && hint.ignored === undefined ? { kind: 'no-match', pattern: p.pattern } : { kind: 'no-match', pattern: p.pattern, hint };
}

/** A valid pattern selected nothing but binaries it did not name exactly
 *  (`literal`: the pattern, normalised). */
function selectedNothing(p: PatternResult, literal: string, binaries: ReadonlySet<string>): boolean {
  if (p.kind === 'exact') return p.slugs.length === 0;
  return every(p.slugs, (slug) => binaries.has(slug) && slug !== literal);
}

/** The raw content is returned only when the call has exactly one
 *  pattern, that pattern is exact, and it names one subject that is neither
 *  disabled nor pre-loaded, and whose slug no other file shares (the note
 *  that names those follows the subject's block). Reads no files. */
export function isRaw(view: TopicView, patterns: readonly CompiledPattern[]): boolean {
  if (patterns.length !== 1) return false;
  const c = patterns[0];
  if (c.kind !== 'exact') return false;
  const subject = findExact(view.index.subjects, c.pattern, view.disabled, view.index.aliases);
  return subject !== undefined && !view.learnedSlugs.has(subject.slug) && view.index.shared?.has(subject.slug) !== true;
}
