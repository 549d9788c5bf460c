// The per-topic view: the subject index, the disabled slugs, the
// pre-loaded (`learned`) subjects, and what the view's probe found. This
// module opens a view (walks, or takes the index from a cache) and probes
// its subjects, each at most once per view; the operations of the `learn`
// tool sit on top of it: the listing queries (listing.ts) and the loading
// (load.ts). An index is cleaned (clean.ts) before any of them sees it. It
// takes plain data (a `TopicSpec`, compiled patterns), never configuration
// types.
//
// What a file is (text, binary, unreadable) is found out lazily by the
// view's probe (fs/probe.ts, reading at most the first 8192 bytes), and each
// file is probed at most once per view. Learned-pattern resolution reads no
// files; a glob-matched binary is dropped when the subjects are loaded, so
// it neither counts as pre-loaded nor as learnable.

import type { CompiledPattern } from '../../glob/index.ts';
import type { HtmlView } from '../content/html.ts';
import { probeKinds, type Probe, type ProbeKind, type ProbeResult } from '../fs/probe.ts';
import type { WalkTrace } from '../fs/walk.ts';
import type { WalkKeeper } from '../fs/walk-cache.ts';
import type { FrontKeeper, TopicFronts } from '../fs/front-cache.ts';
import { MAX_WALK_ENTRIES } from '../fs/limits.ts';
import type { IndexCache } from './cache.ts';
import { cleanIndex } from './clean.ts';
import { disabledSlugs } from './disabled.ts';
import { placeIn } from './order.ts';
import { resolvePatterns } from './resolve.ts';
import { indexSubjects, type FileFound } from './subjects.ts';
import type { Match, PatternResult, Subject, SubjectIndex } from './types.ts';
import { map } from '../../shared/arrays.ts';

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
  /** Probes the files (default: `probeKinds`, on the main thread, which
   *  searches no head for a title: describe.ts probes again those whose
   *  titles it needs; a knowledge base that shows titles plugs in
   *  fs/probe-titles.ts `probeHere`). */
  probe?: Probe;
  /** Probe every non-hidden file as the walk finds it (a listing needs
   *  nearly every verdict): with a probe that has a feed, the probing
   *  starts while the walk goes on. */
  probeAll?: boolean;
  /** Indexes kept between calls (a long-lived front end's). */
  cache?: IndexCache;
  /** When the request arrived (performance.now()), for `cache` (see
   *  IndexCache.get). */
  since?: number;
  /** The most directory entries the walk reads (fs/walk.ts). */
  maxEntries?: number;
  /** Filled with the directories and ignore files the walk went through
   *  (a cache revalidates against them: kb/search/). */
  trace?: WalkTrace;
  /** Where a one-shot listing keeps its walk (kb/fs/walk-cache.ts): not
   *  with `cache` or `trace`, which need a walk of their own. */
  walks?: WalkKeeper;
  /** Where it keeps what its frontmatter said (kb/fs/front-cache.ts). */
  fronts?: FrontKeeper;
  /** How loaded HTML pages are shown (default: as written). */
  html?: HtmlView;
  /** With `probeAll`: told of each file the walk finds and of each
   *  result that holds frontmatter, a title or a summary (no other
   *  describes its subject), until it answers that titles can no longer
   *  be shown; from then on the probe searches no head for one
   *  (ProbeFeed.skipTitles). */
  titles?: TitleWatch;
}

/** What a listing that may not show titles watches (app/listing.ts
 *  `titleWatch`): each answer says whether titles are no longer needed. */
export interface TitleWatch {
  /** `folder`: the slug's folder part, with its `/` (Subject.folder). */
  found(slug: string, folder?: string): boolean;
  /** `result`: one that holds frontmatter, a title or a summary. */
  probed(slug: string, result: ProbeResult): boolean;
  /** The first slug whose result (`probed`) describes its subject
   *  (describe.ts `resultDescribes`), disabled ones aside; undefined while
   *  none has. */
  firstDescribed?(): string | undefined;
}

export interface TopicView {
  topic: TopicSpec;
  index: SubjectIndex;
  /** The slugs disabled: the topic's, and the bundled files of a disabled
   *  skill (disabled.ts). */
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
  /** Set when this view's walk probed every visible subject (`probeAll`,
   *  nothing kept from earlier requests, no two files with one slug): the
   *  slugs whose verdict was not text. A listing then looks up no verdict
   *  per subject (listing.ts `listable`). */
  walkedNonText?: readonly string[];
  /** Set with `walkedNonText`, when no verdict of the walk holds
   *  frontmatter, a title or a summary (every head searched for them):
   *  no visible subject says anything about itself, and a listing asks
   *  no subject what it says (describe.ts). */
  walkedPlain?: boolean;
  /** Set with `walkedNonText`, when no verdict of the walk holds front
   *  matter that gives its subject a place in its site's order (order.ts
   *  `placeIn`): a listing then keeps slug order without looking a
   *  verdict up per subject (site-order.ts). */
  walkedUnplaced?: boolean;
  /** How loaded HTML pages are shown (load.ts): as written, or as text
   *  (content/html.ts). */
  html: HtmlView;
  /** What the topic's frontmatter said, kept between listings
   *  (OpenOptions.fronts; describe.ts). */
  fronts?: TopicFronts;
}

/** Walks the topic's subjects directory and resolves its `learned`
 *  patterns. Reads no file contents (but with `probeAll`, file heads). */
export function openTopic(topic: TopicSpec, opts: OpenOptions = {}): TopicView {
  const probe = opts.probe ?? probeKinds;
  const walk = opts.probeAll ? probingWalk(probe, opts.titles, topic.subjectsDir) : undefined;
  const { index, subjects } = indexOf(topic, opts, walk?.found);
  // Probe results kept from earlier requests while the directory is
  // watched (kb/index/cache.ts), else this view's own.
  const kept = opts.cache?.probes(topic.subjectsDir, index);
  // The disabled slugs, a disabled skill's bundled files among them
  // (disabled.ts): every question put to the view goes by this set.
  const disabled = topic.disabled.length === 0 ? new Set<string>() : disabledSlugs(topic.disabled, index.subjects);
  const { matches, perPattern } = resolvePatterns(index.subjects, opts.learned ?? [], disabled, index.aliases);
  const view: TopicView = {
    topic,
    index,
    disabled,
    learned: matches,
    learnedSlugs: new Set(map(matches, (m) => m.subject.slug)),
    learnedPatterns: perPattern,
    probe,
    probed: kept ?? new Map(),
    html: opts.html ?? 'raw',
  };
  if (opts.fronts !== undefined) view.fronts = opts.fronts.of(topic.subjectsDir);
  // (The probing goes on meanwhile: the walk's results are taken last.)
  walk?.settle(view, kept, subjects);
  return view;
}

/** The topic's index: the cache's, or a walk's (`found` told of each
 *  file), with how many subjects that walk found (undefined: cached). */
function indexOf(topic: TopicSpec, opts: OpenOptions, found: FileFound | undefined): { index: SubjectIndex; subjects?: number } {
  const cached = opts.cache?.get(topic.subjectsDir, opts.since);
  if (cached !== undefined) return { index: cached };
  // What the walk went through: the cache revalidates against it. Its
  // watcher starts first, so that a change during the walk is seen.
  const trace = opts.trace ?? (opts.cache === undefined ? undefined : { dirs: [], controls: [], links: [] });
  opts.cache?.begin(topic.subjectsDir);
  // (A trace, given or the cache's, wants a walk of its own.)
  const kept = trace === undefined ? opts.walks?.begin(topic.subjectsDir, opts.maxEntries ?? MAX_WALK_ENTRIES) : undefined;
  const walked = indexSubjects(topic.subjectsDir, found, { maxEntries: opts.maxEntries, trace, ...kept });
  const index = cleanIndex(walked);
  if (opts.cache !== undefined) opts.cache.set(topic.subjectsDir, index, trace!);
  return { index, subjects: walked.subjects.length };
}

/** A walk that probes every non-hidden file as it finds it (`found`, for
 *  the walk), through the probe's feed; `settle` gives the view the
 *  verdicts. Undefined when the probe has no feed. */
function probingWalk(probe: Probe, watch: TitleWatch | undefined, root: string): { found: FileFound; settle(view: TopicView, kept: Map<string, ProbeResult> | undefined, subjects: number | undefined): void } | undefined {
  const slugs: string[] = [];
  const fed: Parameters<FileFound>[3][] = [];
  // The walk's results, in the order of `slugs` (the feed's, at its
  // finish), are put in a map by slug only when asked for: a listing of
  // a walk whose every file is its own subject asks none (listing.ts
  // `listable`, describe.ts), and a map of thousands costs about 1 ms.
  const nonText: string[] = [];
  // Files the walk found (hidden ones too), and whether one was found
  // under another slug than its own (a skill's SKILL.md).
  let files = 0;
  let renamed = false;
  let taken = 0;
  // Whether every result so far says nothing about its subject, and
  // whether none gives its subject a place (order.ts).
  let plain = true;
  let unplaced = true;
  let skipping = false;
  const skip = () => {
    skipping = true;
    feed?.skipTitles?.();
  };
  // The watch is told of the files found only once some result can
  // describe (until then its answer is no, whatever the names cost): then
  // of the `due` files found so far at once, in order, and of each next
  // one as it is found. Most topics describe nothing: none is told.
  let watching = false;
  let due = 0;
  const watchFound = (k: number): boolean => {
    const slug = slugs[k];
    // (A skill's file is found under its folder's slug.)
    return watch!.found(slug, slug === fed[k].slug ? fed[k].folder : undefined);
  };
  const take = (i: number, r: ProbeResult, size: number) => {
    taken++;
    const slug = slugs[i];
    // Only a result with frontmatter, a title or a summary can describe.
    if (r.front != null || r.title !== undefined || r.summary !== undefined) {
      plain = false;
      if (unplaced && typeof r.front === 'string' && placeIn(r.front) !== undefined) unplaced = false;
      if (watch !== undefined && !watching) {
        watching = true;
        for (let k = 0; k < due && !skipping; k++) if (watchFound(k)) skip();
      }
      if (watch !== undefined && !skipping && watch.probed(slug, r)) skip();
    } else if (r.titlesSkipped === true) plain = false;
    if (r.kind !== 'text') nonText.push(slug);
    // Sizes the probe learnt (every text file): a listing that sums
    // folders up needs no stat of them.
    if (size >= 0) fed[i].knowSize(size);
  };
  const feed = probe.feed?.(take, { root });
  if (feed === undefined) return undefined;
  return {
    found(abs, slug, hidden, subject, below, name) {
      files++;
      if (hidden) return;
      if (slug !== subject.slug) renamed = true;
      slugs.push(slug);
      fed.push(subject);
      feed.add(abs, below, name);
      due++;
      if (watching && !skipping && watchFound(due - 1)) skip();
    },
    settle(view, kept, subjects) {
      const results = feed.finish();
      // What a feed did not tell `take` of (it need not).
      for (let i = taken; i < slugs.length; i++) take(i, results[i], feed.size?.(i) ?? -1);
      // As many subjects as files (no two files of the walk share a
      // slug), each found under its own slug: every result is its
      // subject's.
      const own = kept === undefined && subjects === files && !renamed;
      keepVerdicts(view, kept, { slugs, results, nonText, plain, unplaced }, own);
    },
  };
}

/** Gives `view` the verdicts of its walk (`own`: each file found is its
 *  own subject, under its own slug, and nothing was kept from earlier
 *  requests). */
function keepVerdicts(view: TopicView, kept: Map<string, ProbeResult> | undefined, walk: { slugs: string[]; results: ProbeResult[]; nonText: string[]; plain: boolean; unplaced: boolean }, own: boolean): void {
  const { slugs, results, nonText, plain, unplaced } = walk;
  if (own) {
    probedLater(view, slugs, results);
    view.walkedNonText = nonText;
    if (plain) view.walkedPlain = true;
    if (unplaced) view.walkedUnplaced = true;
    return;
  }
  const fresh = bySlug(slugs, results);
  // Two files with one slug: which verdict is the subject's is not known
  // here, so the subject is probed again when asked about.
  const shared = fresh.size === slugs.length ? [] : sharedSlugs(slugs);
  for (const slug of shared) fresh.delete(slug);
  const cache = view.probed;
  // Kept results are replaced by the walk's.
  if (kept === undefined) {
    view.probed = fresh;
    if (shared.length === 0) {
      view.walkedNonText = nonText;
      if (plain) view.walkedPlain = true;
      if (unplaced) view.walkedUnplaced = true;
    }
  } else {
    for (const slug of shared) cache.delete(slug);
    for (const [slug, r] of fresh) cache.set(slug, r);
  }
}

/** Makes `view.probed` the map of `results` by `slugs` (each slug once)
 *  when first read (or what is assigned to it). */
function probedLater(view: TopicView, slugs: readonly string[], results: readonly ProbeResult[]): void {
  let probed: Map<string, ProbeResult> | undefined;
  Object.defineProperty(view, 'probed', {
    get(): Map<string, ProbeResult> {
      probed ??= bySlug(slugs, results);
      return probed;
    },
    set(m: Map<string, ProbeResult>) {
      probed = m;
    },
    enumerable: true,
    configurable: true,
  });
}

/** `results` by `slugs` (a slug found twice: its last result). */
function bySlug(slugs: readonly string[], results: readonly ProbeResult[]): Map<string, ProbeResult> {
  const map = new Map<string, ProbeResult>();
  for (let i = 0; i < slugs.length; i++) map.set(slugs[i], results[i]);
  return map;
}

/** The slugs found more than once in `slugs`. */
function sharedSlugs(slugs: readonly string[]): string[] {
  const seen = new Set<string>();
  const shared: string[] = [];
  for (const slug of slugs) {
    if (seen.has(slug)) shared.push(slug);
    else seen.add(slug);
  }
  return shared;
}

/** 'text', 'binary' or 'error' (unreadable); probed once per view. */
export function kindOf(view: TopicView, subject: Subject): ProbeKind {
  let result = view.probed.get(subject.slug);
  if (result === undefined) view.probed.set(subject.slug, (result = view.probe.probe([subject.abs])[0]));
  return result.kind;
}

/** Probes those of `subjects` not probed yet, all at once. */
export function probeUnknown(view: TopicView, subjects: readonly Subject[]): void {
  const cache = view.probed;
  const todo = subjects.filter((s) => !cache.has(s.slug));
  if (todo.length === 0) return;
  const results = view.probe.probe(todo.map((s) => s.abs));
  for (let i = 0; i < todo.length; i++) cache.set(todo[i].slug, results[i]);
}
