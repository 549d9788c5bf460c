// A topic's walk, kept on disk between listings beside what its files'
// heads said (head-cache.ts): one file per subjects directory in the same
// folder of the user's cache directory, never in the workspace. A listing
// that finds every directory the last walk read as it was (its
// modification time, its change time and its inode, each stat'ed) takes
// that walk's files instead of reading the directories again: on 10,000
// files in 405 folders, 405 stats instead of 405 directory reads, sorts
// and ignore checks (docs/development/performance.md).
//
// Why a directory's stat tells: a file or folder made, removed or renamed
// in it changes its modification time, and a change of its mode (one it
// can no longer be read with) its change time, which nothing can set back;
// a directory put in another's place has another inode. A file edited in
// place changes none of them: the heads' stat of each file sees that.
//
// Only a plain walk is kept: no ignore file met, nothing left out by the
// built-in defaults, no symbolic link, no notice (nothing unreadable, no
// FIFO, no walk limit reached) and no odd name (walk.ts `oddNames`). A
// walk of anything else is read again each time, as before. Nor is a walk
// kept when a directory it read was modified after the walk began, or
// within RACY_MS before (a change in the same tick of a coarse clock would
// keep its time): the next listing walks, and keeps its walk.
//
// Reading never throws: no file, or one another build or version of kb
// wrote, is no kept walk; one that does not add up (a count, a number, a
// name with a `/`, a folder before its parent) is no kept walk, with the
// reason, which the front end says. Writing goes through a temporary file
// renamed into place (shared/cache-file.ts).
//
// The layout, UTF-8 text, tokens separated by NUL (which no name holds):
//   "KBW1", version, build, subjects directory, entries read, folders;
//   per folder: its path below the subjects directory ('/' between
//   names, '' for the subjects directory itself), its modification time,
//   change time and inode, and its files' count; then every folder's
//   files' names, in order, joined by `/` (which no name holds either),
//   and an empty token.

import { statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { hash128 } from '../../shared/hash.ts';
import { SUSPECT_NAME } from '../../shared/controls.ts';
import { writeCacheFile } from '../../shared/cache-file.ts';
import { DEFAULT_DIRS, DEFAULT_FILES, IGNORE_FILES, LOCK_NAME } from './ignore-names.ts';
import { MAX_WALK_ENTRIES } from './limits.ts';
import { RACY_MS, readCacheBytes } from './head-cache.ts';
import type { FileVisitor, WalkDir, WalkOutcome } from './walk.ts';

/** Bump when the layout changes, or what a walk takes in (walk.ts, what
 *  makes a walk plain): a file of another version is not read. */
export const WALK_VERSION = 1;
const MAGIC = 'KBW1';

/** A file larger than this is not read: a name is at most 255 bytes, so
 *  the most entries a walk reads take less. */
export const MAX_WALK_BYTES = 64 << 20;

/** The most tokens a kept walk holds: six, five per folder (at most
 *  MAX_WALK_ENTRIES + 1 of them), the names and an empty one. */
const MAX_TOKENS = 6 + 5 * (MAX_WALK_ENTRIES + 1) + 2;

/** A name a walk never keeps, in the names joined by `/`: an empty one,
 *  `.` or `..` (or, on Windows, one with a backslash). */
const BAD_NAME = sep === '/' ? /(?:^|\/)\.{0,2}(?:\/|$)/ : /(?:^|\/)\.{0,2}(?:\/|$)|\\/;

/** A file a walk always leaves out (kb's own, a default-ignored
 *  lockfile: ignore-names.ts), in the names joined by `/`: literal names
 *  between separators (scripts/check-regexps.mjs checks the one made). */
let leftOut: RegExp | undefined;
export const LEFT_OUT = (): RegExp => (leftOut ??= new RegExp(`(?:^|/)(?:${literals([...IGNORE_FILES, LOCK_NAME, ...DEFAULT_FILES])})(?:/|$)`));

/** `names` as alternatives of a pattern, each matched as written (a loop:
 *  no array method compiled on a listing's path). */
function literals(names: readonly string[]): string {
  let out = '';
  for (const n of names) out += (out === '' ? '' : '|') + n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return out;
}

/** A plain walk, as the index saw it: each directory it read, in the
 *  order it read them, and the files it found there, in that order. */
export interface WalkShape {
  dirs: readonly { rel: string; names: readonly string[] }[];
  /** The directory entries it read (its files and folders, and kb's
   *  own that it passed over: walk.ts WalkOutcome.entries). */
  entries: number;
}

/** A walk as kept: its shape, with each directory's stat. */
export interface KeptWalk extends WalkShape {
  dirs: readonly KeptDir[];
}

export interface KeptDir {
  /** Below the subjects directory, `/`-separated; '' for it. */
  rel: string;
  names: readonly string[];
  mtime: number;
  ctime: number;
  ino: number;
}

/** The kept walk's file of the subjects directory `root` in `dir`. */
export function walkFile(dir: string, root: string): string {
  return join(dir, `${hash128(`walk\0${root}`)}.walk`);
}

/** The walk kept for `root`; undefined when there is no file, or another
 *  build or version wrote it; why it cannot be used when it does not add
 *  up. Its directories are not stat'ed here (`unchanged`). */
export function readKeptWalk(file: string, root: string, build: string): KeptWalk | string | undefined {
  const buf = readCacheBytes(file, MAX_WALK_BYTES);
  if (buf === undefined || typeof buf === 'string') return buf;
  return decodeKeptWalk(new TextDecoder().decode(buf), root, build);
}

/** Decodes a kept walk's text (readKeptWalk): in time linear in its
 *  length, its tokens at most MAX_TOKENS. */
export function decodeKeptWalk(text: string, root: string, build: string): KeptWalk | string | undefined {
  const t = text.split('\0', MAX_TOKENS + 1);
  if (t.length < 6 || t[0] !== MAGIC) return 'not a kept walk';
  if (t[1] !== String(WALK_VERSION) || t[2] !== build) return t[3] === root ? undefined : 'not a kept walk of this folder';
  if (t[3] !== root) return 'not a kept walk of this folder';
  const bad = 'its counts, numbers or names do not add up';
  const entries = count(t[4]);
  const ndirs = count(t[5]);
  // Six, five a folder, the names, and the empty one after them.
  if (entries === undefined || ndirs === undefined || ndirs === 0 || t.length !== 6 + 5 * ndirs + 2 || t[t.length - 1] !== '') return bad;
  // Every name at once: none empty, `.` or `..`, none a walk always
  // leaves out, and none holding a control character or U+FFFD (a plain
  // walk's index says so: walk.ts `oddNames`).
  const joined = t[t.length - 2];
  if (joined !== '' && (BAD_NAME.test(joined) || LEFT_OUT().test(joined) || SUSPECT_NAME().test(joined))) return bad;
  const names = joined === '' ? [] : joined.split('/', MAX_WALK_ENTRIES + 1);
  const dirs: KeptDir[] = [];
  const seen = new Set<string>();
  let files = 0;
  for (let d = 0, at = 6; d < ndirs; d++, at += 5) {
    const rel = t[at];
    const mtime = Number(t[at + 1]);
    const ctime = Number(t[at + 2]);
    const ino = Number(t[at + 3]);
    const n = count(t[at + 4]);
    // The subjects directory first, then each folder after its parent.
    const cut = rel.lastIndexOf('/');
    const name = rel.slice(cut + 1);
    const folder = name !== '' && !BAD_NAME.test(name) && !SUSPECT_NAME().test(name) && !DEFAULT_DIRS.has(name) && name !== LOCK_NAME;
    const placed = d === 0 ? rel === '' : folder && seen.has(cut < 0 ? '' : rel.slice(0, cut));
    if (!placed || seen.has(rel) || n === undefined || files + n > names.length || !Number.isFinite(mtime) || !Number.isFinite(ctime) || !Number.isFinite(ino)) return bad;
    seen.add(rel);
    dirs.push({ rel, names: names.slice(files, files + n), mtime, ctime, ino });
    files += n;
  }
  if (files !== names.length || entries < files + ndirs - 1) return bad;
  return { dirs, entries };
}

/** A count written by `encodeKeptWalk`: digits only, at most the walk's
 *  limit. */
function count(s: string): number | undefined {
  if (s.length === 0 || s.length > 7 || !/^[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return n <= MAX_WALK_ENTRIES + 1 ? n : undefined;
}

/** The kept walk's text. */
export function encodeKeptWalk(walk: KeptWalk, root: string, build: string): string {
  const t: (string | number)[] = [MAGIC, WALK_VERSION, build, root, walk.entries, walk.dirs.length];
  const names: string[] = [];
  for (const d of walk.dirs) {
    t.push(d.rel, d.mtime, d.ctime, d.ino, d.names.length);
    for (const name of d.names) names.push(name);
  }
  t.push(names.join('/'), '');
  return t.join('\0');
}

/** The absolute path of a kept directory below `root`. */
function absOf(root: string, rel: string): string {
  return rel === '' ? root : root + sep + (sep === '/' ? rel : rel.replaceAll('/', sep));
}

/** Whether every directory of `walk` below `root` stats as it did. */
export function unchanged(walk: KeptWalk, root: string): boolean {
  for (const d of walk.dirs) {
    let st;
    try {
      st = statSync(absOf(root, d.rel), { throwIfNoEntry: false });
    } catch {
      return false;
    }
    if (st === undefined || !st.isDirectory() || st.mtimeMs !== d.mtime || st.ctimeMs !== d.ctime || st.ino !== d.ino) return false;
  }
  return true;
}

/** `shape` with each directory's stat, taken now: undefined when one
 *  cannot be stat'ed, or was modified at or after `since - RACY_MS`. (Its
 *  change time is compared, not held to that: setting a time back, as a
 *  copy that keeps times does, changes it to now, and a change made in
 *  the same tick after the walk modifies the directory too.) */
export function keptOf(shape: WalkShape, root: string, since: number): KeptWalk | undefined {
  const dirs: KeptDir[] = [];
  const before = since - RACY_MS;
  for (const { rel, names } of shape.dirs) {
    let st;
    try {
      st = statSync(absOf(root, rel), { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (st === undefined || !(st.mtimeMs < before)) return undefined;
    dirs.push({ rel, names, mtime: st.mtimeMs, ctime: st.ctimeMs, ino: st.ino });
  }
  return dirs.length === 0 ? undefined : { dirs, entries: shape.entries };
}

/** The walk of `dir` as `walk` kept it: each file told to `visit` in the
 *  order the walk found it, in its folder (WalkDir: `real` is its path,
 *  as nothing below a plain walk's root is reached through a link). */
export function replayWalk(dir: string, walk: KeptWalk, visit: FileVisitor): WalkOutcome {
  const root = resolve(dir);
  const frames = new Map<string, WalkDir>();
  for (const d of walk.dirs) {
    const cut = d.rel.lastIndexOf('/');
    const parent = d.rel === '' ? null : frames.get(cut < 0 ? '' : d.rel.slice(0, cut))!;
    const abs = absOf(root, d.rel);
    const frame: WalkDir = { abs, rel: d.rel, real: abs, parent, outside: false };
    frames.set(d.rel, frame);
    const base = abs + sep;
    for (const name of d.names) visit(frame, name, base + name, undefined);
  }
  return { notices: [], links: [], entries: walk.entries };
}

/** What a listing's walks did, for `--verbose`. */
export interface WalkStats {
  /** Walks taken as kept. */
  kept: number;
  /** Walks made (none kept, or a directory changed). */
  walked: number;
  /** Walks written to be kept. */
  wrote: number;
}

/** Where walks are kept, for a view (kb/index/view.ts `indexOf`). */
export interface WalkKeeper {
  /** Before a walk of `root` allowed `maxEntries` (kb/index/subjects.ts
   *  IndexOptions): the kept walk to replay, when every directory it read
   *  is as it was and the limit lets it read as much; else what the
   *  walk's shape is told to, when plain, to be kept (its time starts
   *  now). */
  begin(root: string, maxEntries: number): { replay(visit: FileVisitor): WalkOutcome } | { shape(shape: WalkShape): void };
  /** A kept walk that could not be read or written, each once. */
  problems(): readonly string[];
  stats(): WalkStats;
}

/** Keeps walks in `dir` (the heads' folder), as `build` wrote them. */
export function walkKeeper(opts: { dir: string; build: string; now?: () => number }): WalkKeeper {
  const now = opts.now ?? Date.now;
  const problems: string[] = [];
  const stats: WalkStats = { kept: 0, walked: 0, wrote: 0 };
  return {
    begin(dir, maxEntries) {
      const since = now();
      const root = resolve(dir);
      const file = walkFile(opts.dir, root);
      const old = readKeptWalk(file, root, opts.build);
      if (typeof old === 'string') problems.push(`the listing's kept walk ${file} could not be read (${old}); the folders were read again`);
      else if (old !== undefined && old.entries <= maxEntries && unchanged(old, root)) {
        stats.kept++;
        return { replay: (visit) => replayWalk(dir, old, visit) };
      }
      stats.walked++;
      return {
        shape(shape) {
          // (A limit raised past the default, KB_WALK_LIMIT, may read more
          // than a kept walk holds: such a walk is not kept.)
          if (shape.entries > MAX_WALK_ENTRIES) return;
          const walk = keptOf(shape, root, since);
          if (walk === undefined || walk.entries > maxEntries) return;
          const why = writeCacheFile(file, new TextEncoder().encode(encodeKeptWalk(walk, root, opts.build)));
          if (why === undefined) stats.wrote++;
          else problems.push(`the listing's walk could not be kept (${why}); the next listing reads every folder again`);
        },
      };
    },
    problems: () => problems,
    stats: () => stats,
  };
}
