// A probe whose feed keeps what the heads said (head-cache.ts): a listing
// of a topic whose files did not change stats each file instead of
// reading its head. On 10,000 subjects a stat is one system call where a
// probe is four (open, read, fstat, close); the stats are shared with the
// reader thread as a search's are (Probe.stat).
//
// A feed over a subjects directory (`root`) with a cache file:
// - every file the cache file names is stat'ed at once (by its path
//   relative to the folder, the reader thread starting on them while the
//   walk goes on); the walk's files are only noted as it finds them, and
//   at its end a file whose size and time are its entry's takes the
//   entry's result; the others are probed (by the inner probe's feed when
//   there are many, else here), and each result is told in the order the
//   files were found, as a feed tells them;
// - an entry whose head was not searched for a title (the listing that
//   wrote it had no room for titles) stands only once this listing has
//   said it needs no more titles (ProbeFeed.skipTitles); before that its
//   file is probed again, with its title;
// - the file is written again when anything changed: a file probed, an
//   entry gone.
// Without a cache file, the inner probe's feed does the work as the walk
// goes on, each probe with an fstat of the open file before its head is
// read (FeedOptions.times), and one is written from what they found. A
// cache file that cannot be read or written is said (the front end's
// warnings), and the listing is the same.

import { sep } from 'node:path';
import { encodeHeads, MAX_HEADS_BYTES, headsFile, RACY_MS, readHeads, type Heads, type HeadsColumns } from './head-cache.ts';
import { lastProbedSize, type FeedTaker, type Probe, type ProbeFeed, type ProbeResult, type StatJobHandle, type StatPaths } from './probe.ts';
import { probeFile } from './probe-titles.ts';
import { statLater } from './probe-thread.ts';
import { cacheFolderFor, writeCacheFile } from '../../shared/cache-file.ts';

/** Files that changed beyond this many are probed by the inner probe's
 *  feed (the reader thread), fewer here, one after the other. */
export const HERE_AT_MOST = 64;

export interface HeadsOptions {
  /** The cache directory (head-cache.ts). */
  dir: string;
  /** The build (its commit): a cache written by another is not read. */
  build: string;
  /** The clock (tests). */
  now?: () => number;
}

/** What the feeds did, for `--verbose`. */
export interface HeadsStats {
  /** Files whose kept result stood. */
  kept: number;
  /** Files probed (changed, new, or without a kept title). */
  probed: number;
  /** Whether a cache file was written. */
  wrote: boolean;
}

export interface HeadsProbe extends Probe {
  /** What the front end says on stderr: a cache file that could not be
   *  read (its heads were read instead) or written, each once. */
  problems(): readonly string[];
  stats(): HeadsStats;
}

/** `inner`, with its feeds' results kept in `opts.dir`. */
export function keptHeads(inner: Probe, opts: HeadsOptions): HeadsProbe {
  const now = opts.now ?? Date.now;
  const stats: HeadsStats = { kept: 0, probed: 0, wrote: false };
  const problems: string[] = [];
  const unwritten = (why: string): void => {
    problems.push(`the listing's cache could not be written (${why}); the next listing reads every file's head again`);
  };
  const innerFeed = inner.feed;
  const probe: HeadsProbe = {
    probe: (paths) => inner.probe(paths),
    problems: () => problems,
    stats: () => stats,
  };
  if (inner.stat !== undefined) probe.stat = (paths, prefix) => inner.stat!(paths, prefix);
  if (innerFeed === undefined) return probe;
  const ctx: FeedContext = { inner, now, stats };
  probe.feed = (take, feedOpts) => {
    const root = feedOpts?.root;
    if (root === undefined) return innerFeed.call(inner, take, feedOpts);
    const file = headsFile(opts.dir, root);
    const prefix = root.endsWith(sep) ? root : root + sep;
    const save: Save = {
      put(cols) {
        const bytes = encodeHeads(cols, root, opts.build);
        const why = bytes === undefined ? `what the heads said would take more than ${MAX_HEADS_BYTES >> 20} MiB` : writeCacheFile(file, bytes);
        if (why === undefined) stats.wrote = true;
        else unwritten(why);
      },
      can() {
        const why = cacheFolderFor(file);
        if (why !== undefined) unwritten(why);
        return why === undefined;
      },
    };
    const old = readHeads(file, root, opts.build);
    if (typeof old === 'string') problems.push(`the listing's cache ${file} could not be read (${old}); every head was read again, and the file is written anew`);
    return old === undefined || typeof old === 'string' ? firstFeed(ctx, take, prefix, save) : keptFeed(ctx, take, prefix, old, save);
  };
  return probe;
}

/** Where a feed's entries go: `can` says whether the cache's folder is
 *  there or could be made (else the reason is the problem, and a first
 *  feed stats nothing for a file it could not write). */
interface Save {
  put(cols: HeadsColumns): void;
  can(): boolean;
}

interface FeedContext {
  inner: Probe;
  now: () => number;
  stats: HeadsStats;
}

/** The paths of `abs` relative to `prefix`; undefined when one is not
 *  below it. */
function relativeTo(abs: readonly string[], prefix: string): string[] | undefined {
  const rels: string[] = [];
  for (const p of abs) {
    if (!p.startsWith(prefix) || p.length === prefix.length) return undefined;
    rels.push(p.slice(prefix.length));
  }
  return rels;
}

/** The files below a feed's root, as it was given them: each one's
 *  folder and name (ProbeFeed.add), or its whole path cut from the
 *  absolute one (`names`, `folders` undefined). */
interface Below {
  folders: readonly string[] | undefined;
  names: readonly string[];
}

/** Each file's path below the root, made whole (joined where it came in
 *  two parts: only when the listing writes what it found). */
function joined({ folders, names }: Below): readonly string[] {
  if (folders === undefined) return names;
  const rels: string[] = new Array(names.length);
  for (let i = 0; i < names.length; i++) rels[i] = folders[i] + names[i];
  return rels;
}

/** `abs` below `prefix`, each path whole; undefined when one is not
 *  below it. */
function cutBelow(abs: readonly string[], prefix: string): Below | undefined {
  const names = relativeTo(abs, prefix);
  return names === undefined ? undefined : { folders: undefined, names };
}

/** A stat of each file, shared with the reader thread where the inner
 *  probe has one; joined, it gives [size, time] per file (size -1: not
 *  there). */
function statJob(inner: Probe, rels: readonly string[] | StatPaths, prefix: string): StatJobHandle {
  return inner.stat?.(rels, prefix) ?? statLater(rels, prefix);
}

/** What to keep: the results that are not errors, of files whose time is
 *  at least RACY_MS before `since` (`values`: [size, time] per file, as a
 *  stat job gives them). */
function columnsOf(rels: readonly string[], results: readonly ProbeResult[], values: Float64Array, since: number): HeadsColumns {
  const keep: number[] = [];
  const before = since - RACY_MS;
  for (let i = 0; i < rels.length; i++) {
    if (values[2 * i] < 0 || !(values[2 * i + 1] < before) || results[i].kind === 'error') continue;
    keep.push(i);
  }
  return { rels, results, values, keep };
}

/** No cache file: the inner feed as it is, asked for each file's size
 *  and time as an fstat said before its head was read (a file written
 *  since has another time: the next listing reads it again). */
function firstFeed(ctx: FeedContext, take: FeedTaker | undefined, prefix: string, save: Save): ProbeFeed {
  const since = ctx.now();
  const feed = ctx.inner.feed!(take, { times: true });
  const paths: string[] = [];
  const out: ProbeFeed = {
    add(path) {
      paths.push(path);
      feed.add(path);
    },
    finish() {
      const results = feed.finish();
      ctx.stats.probed += paths.length;
      const rels = relativeTo(paths, prefix);
      if (rels === undefined || rels.length === 0 || !save.can()) return results;
      save.put(columnsOf(rels, results, feed.stats?.() ?? statJob(ctx.inner, rels, prefix).join(), since));
      return results;
    },
  };
  if (feed.size !== undefined) out.size = (i) => feed.size!(i);
  if (feed.skipTitles !== undefined) out.skipTitles = () => feed.skipTitles!();
  return out;
}

/** A cache file read: the files its entries name are stat'ed at once
 *  (the reader thread starts on them while the walk goes on); the walk's
 *  files are noted, and each takes its entry's result at the end when
 *  its stat is the entry's. */
function keptFeed(ctx: FeedContext, take: FeedTaker | undefined, prefix: string, old: Heads, save: Save): ProbeFeed {
  const since = ctx.now();
  const job = statJob(ctx.inner, old.paths(), prefix);
  const paths: string[] = [];
  // Each file's folder and name below the root, while every file came
  // with them (else `folders` is undefined and each path is cut).
  let folders: string[] | undefined = [];
  const names: string[] = [];
  let skipping = false;
  let sizes: Float64Array | undefined;
  return {
    add(path, folder, name) {
      paths.push(path);
      if (folders === undefined) return;
      if (folder === undefined || name === undefined) folders = undefined;
      else {
        folders.push(folder);
        names.push(name);
      }
    },
    skipTitles() {
      skipping = true;
    },
    size: (i) => sizes![i],
    finish() {
      const below = folders !== undefined ? { folders, names } : cutBelow(paths, prefix);
      // A file outside the folder (not met: the walk's paths are all in
      // it): the inner feed does it all, and nothing is kept.
      if (below === undefined || paths.length === 0) {
        job.cancel();
        return innerFeedOf(ctx, take, paths, (s) => (sizes = s));
      }
      const n = paths.length;
      const { entry, values, misses } = matchEntries(old, below, job.join());
      // Many changed files: probed by the inner feed (both threads).
      const batch = misses > HERE_AT_MOST ? probeMisses(ctx.inner, paths, entry, misses) : undefined;
      const results: ProbeResult[] = new Array(n);
      sizes = new Float64Array(n);
      let changed = misses > 0 || n - misses !== old.count;
      let hits = 0;
      // Which results are their entries' (the file is written only when
      // what it would keep is not just those).
      const fromOld = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const e = entry[i];
        let r = e >= 0 ? old.result(e) : undefined;
        let size = values[2 * i];
        if (r !== undefined && r.titlesSkipped === true && !skipping) r = undefined;
        if (r !== undefined) {
          hits++;
          fromOld[i] = 1;
        } else if (e < 0 && batch !== undefined) {
          const k = batch.at[i];
          r = batch.results[k];
          size = batch.size(k);
        } else {
          r = probeFile(paths[i]);
          size = lastProbedSize();
          changed = true;
        }
        results[i] = r;
        sizes[i] = r.kind === 'text' ? size : -1;
        take?.(i, r, sizes[i]);
      }
      ctx.stats.kept += hits;
      ctx.stats.probed += n - hits;
      if (!changed) return results;
      const rels = joined(below);
      statAfter(values, rels, prefix);
      const cols = columnsOf(rels, results, values, since);
      // Nothing new to keep (a file read again is an error, or was written
      // within two seconds, each time): the file stays as it is.
      if (cols.keep.length === old.count && cols.keep.every((i) => fromOld[i] === 1)) return results;
      save.put(cols);
      return results;
    },
  };
}

/** Each file's entry (-1: none, or its stat is not the entry's): the
 *  next one, as files come in the order they came last time, else looked
 *  up. Its [size, time] (`values`) is the entry's file's stat (`kept`),
 *  made before any head was read; -1 for a file with no entry. */
function matchEntries(old: Heads, { folders, names }: Below, kept: Float64Array): { entry: Int32Array; values: Float64Array; misses: number } {
  const n = names.length;
  const entry = new Int32Array(n);
  const values = new Float64Array(2 * n);
  let next = 0;
  let misses = 0;
  for (let i = 0; i < n; i++) {
    const folder = folders === undefined ? '' : folders[i];
    const e = next < old.count && old.is(next, folder, names[i]) ? next : old.find(folder + names[i]);
    entry[i] = -1;
    if (e < 0) values[2 * i] = -1;
    else {
      next = e + 1;
      const size = kept[2 * e];
      const time = kept[2 * e + 1];
      values[2 * i] = size;
      values[2 * i + 1] = time;
      if (size >= 0 && size === old.sizes[e] && time === old.times[e]) entry[i] = e;
    }
    if (entry[i] < 0) misses++;
  }
  return { entry, values, misses };
}

/** The files with no stat in `values` (no entry, or gone), stat'ed now
 *  that their heads are read: one written since is not kept (its time is
 *  after the feed began). */
function statAfter(values: Float64Array, rels: readonly string[], prefix: string): void {
  const todo: number[] = [];
  for (let i = 0; i < rels.length; i++) if (values[2 * i] < 0) todo.push(i);
  if (todo.length === 0) return;
  const later = statLater(todo.map((i) => rels[i]), prefix).join();
  for (let k = 0; k < todo.length; k++) {
    values[2 * todo[k]] = later[2 * k];
    values[2 * todo[k] + 1] = later[2 * k + 1];
  }
}

/** The files with no entry (`entry` -1), probed by the inner probe's
 *  feed: their results and sizes, and where each file's is (`at`). */
function probeMisses(inner: Probe, paths: readonly string[], entry: Int32Array, misses: number): { results: ProbeResult[]; at: Int32Array; size(k: number): number } {
  const feed = inner.feed!();
  const at = new Int32Array(paths.length).fill(-1);
  let k = 0;
  for (let i = 0; i < paths.length; i++) {
    if (entry[i] >= 0) continue;
    at[i] = k++;
    feed.add(paths[i]);
  }
  const results = feed.finish();
  if (results.length !== misses) throw new Error('a feed lost files');
  return { results, at, size: (j) => feed.size?.(j) ?? -1 };
}

/** Every file by the inner feed, told in order (nothing kept). */
function innerFeedOf(ctx: FeedContext, take: FeedTaker | undefined, paths: readonly string[], sized: (s: Float64Array) => void): ProbeResult[] {
  const feed = ctx.inner.feed!(take);
  for (const p of paths) feed.add(p);
  const results = feed.finish();
  const sizes = new Float64Array(paths.length);
  for (let i = 0; i < paths.length; i++) sizes[i] = feed.size?.(i) ?? -1;
  sized(sizes);
  ctx.stats.probed += paths.length;
  return results;
}
