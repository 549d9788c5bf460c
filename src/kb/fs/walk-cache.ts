// A topic's walk, kept on disk between listings beside what its files'
// heads said (head-cache.ts): one file per subjects directory in the same
// folder of the user's cache directory, never in the workspace. A listing
// that finds every directory the last walk read as it was (its
// modification time, its change time and its inode, each stat'ed), and
// every ignore file it read as it was (its size and times), takes that
// walk's files and what its rules left out instead of reading the
// directories again: on 10,000 files in 405 folders, 405 stats instead of
// 405 directory reads, sorts and ignore checks
// (docs/development/performance.md).
//
// Why a directory's stat tells: a file or folder made, removed or renamed
// in it changes its modification time, and a change of its mode (one it
// can no longer be read with) its change time, which nothing can set back;
// a directory put in another's place has another inode. A file edited in
// place changes none of them: the heads' stat of each file sees that, and
// an ignore file's own stat sees its edit. What the walk does is a
// function of those alone: the folders' entries and the rules.
//
// A walk is kept when it followed no symbolic link (what a link leads to
// can change with no folder of the topic changing), said nothing (nothing
// unreadable, no FIFO, no rule it could not apply, no walk limit reached)
// and read no odd name (walk.ts `oddNames`); anything else is walked each
// time, as before. Nor is a walk kept when a directory or ignore file it
// read was modified after the walk began, or within RACY_MS before (a
// change in the same tick of a coarse clock would keep its time): the next
// listing walks, and keeps its walk.
//
// Reading never throws: no file, or one another build or version of kb
// wrote, is no kept walk; one that does not add up (a count, a number, a
// name with a `/`, a folder before its parent) is no kept walk, with the
// reason, which the front end says. Writing goes through a temporary file
// renamed into place (shared/cache-file.ts).
//
// The layout, UTF-8 text, tokens separated by NUL (which no name holds):
//   "KBW1", version, build, subjects directory, entries read, folders,
//   ignore files, entries left out;
//   per folder: its path below the subjects directory ('/' between
//   names, '' for the subjects directory itself), its modification time,
//   change time and inode, and its files' count;
//   per ignore file: its path below the subjects directory, its size,
//   modification time and change time;
//   per entry left out (ignore.ts Ignored): its path, the file of the rule
//   or `built-in`, the rule, its line ('' for none);
//   then every folder's files' names, in order, joined by `/` (which no
//   name holds either), and an empty token.

import { resolve, sep } from 'node:path';
import { statOrNone } from '../../shared/stat.ts';
import { SUSPECT_NAME } from '../../shared/controls.ts';
import { writeCacheFile } from '../../shared/cache-file.ts';
import { IGNORE_FILES, LOCK_NAME } from './ignore-names.ts';
import type { Ignored, IgnoreRules } from './ignore.ts';
import { MAX_WALK_ENTRIES } from './limits.ts';
import { keptFile, RACY_MS, readCacheBytes } from './head-cache.ts';
import type { FileVisitor, WalkDir, WalkOutcome } from './walk.ts';

/** Bump when the layout changes, or what a walk takes in (walk.ts, what
 *  makes a walk one to keep): a file of another version is not read. */
export const WALK_VERSION = 1;
const MAGIC = 'KBW1';

/** A file larger than this is not read: a name is at most 255 bytes, so
 *  the most entries a walk reads take less. */
export const MAX_WALK_BYTES = 64 << 20;

/** The header's tokens. */
const HEAD = 8;

/** The most tokens a kept walk holds: the header's, five per folder, four
 *  per ignore file (at most two a folder) and four per entry left out,
 *  folders and entries at most MAX_WALK_ENTRIES + 1 each, then the names
 *  and an empty one. */
const MAX_TOKENS = HEAD + 13 * (MAX_WALK_ENTRIES + 1) + 2;

/** A name a walk never keeps, in the names joined by `/`: an empty one,
 *  `.` or `..` (or, on Windows, one with a backslash). */
const BAD_NAME = sep === '/' ? /(?:^|\/)\.{0,2}(?:\/|$)/ : /(?:^|\/)\.{0,2}(?:\/|$)|\\/;

/** A file no walk ever visits (kb's own: ignore-names.ts `isKbOwn`), in
 *  the names joined by `/`: literal names between separators
 *  (scripts/check-regexps.mjs checks the one made). */
let kbOwn: RegExp | undefined;
export const KB_OWN = (): RegExp => (kbOwn ??= new RegExp(`(?:^|/)(?:${literals([...IGNORE_FILES, LOCK_NAME])})(?:/|$)`));

/** `names` as alternatives of a pattern, each matched as written (a loop:
 *  no array method compiled on a listing's path). */
function literals(names: readonly string[]): string {
  let out = '';
  for (const n of names) out += (out === '' ? '' : '|') + n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return out;
}

/** A walk to keep, as the index saw it: each directory it read, in the
 *  order it read them, and the files it found there, in that order; the
 *  ignore files it read, and what their rules and the defaults left out. */
export interface WalkShape {
  dirs: readonly { rel: string; names: readonly string[] }[];
  /** Below the subjects directory, `/`-separated. */
  controls: readonly string[];
  /** In walk order (ignore.ts IgnoreRules.ignored). */
  ignored: readonly Ignored[];
  /** The directory entries it read (its files and folders, and those it
   *  left out: walk.ts WalkOutcome.entries). */
  entries: number;
}

/** A walk as kept: its shape, with each directory's and ignore file's
 *  stat. */
export interface KeptWalk {
  dirs: readonly KeptDir[];
  controls: readonly KeptControl[];
  ignored: readonly Ignored[];
  entries: number;
}

export interface KeptDir {
  /** Below the subjects directory, `/`-separated; '' for it. */
  rel: string;
  names: readonly string[];
  mtime: number;
  ctime: number;
  ino: number;
}

export interface KeptControl {
  rel: string;
  size: number;
  mtime: number;
  ctime: number;
}

/** The kept walk's file of the subjects directory `root` in `dir`. */
export function walkFile(dir: string, root: string): string {
  return keptFile(dir, 'walk', root);
}

/** The walk kept for `root`; undefined when there is no file, or another
 *  build or version wrote it; why it cannot be used when it does not add
 *  up. Its directories are not stat'ed here (`unchanged`). */
export function readKeptWalk(file: string, root: string, build: string): KeptWalk | string | undefined {
  const buf = readCacheBytes(file, MAX_WALK_BYTES);
  if (buf === undefined || typeof buf === 'string') return buf;
  return decodeKeptWalk(new TextDecoder().decode(buf), root, build);
}

const BAD = 'its counts, numbers or names do not add up';

/** Decodes a kept walk's text (readKeptWalk): in time linear in its
 *  length, its tokens at most MAX_TOKENS. */
export function decodeKeptWalk(text: string, root: string, build: string): KeptWalk | string | undefined {
  const t = text.split('\0', MAX_TOKENS + 1);
  if (t.length < HEAD || t[0] !== MAGIC) return 'not a kept walk';
  if (t[1] !== String(WALK_VERSION) || t[2] !== build) return t[3] === root ? undefined : 'not a kept walk of this folder';
  if (t[3] !== root) return 'not a kept walk of this folder';
  const [entries, ndirs, ncontrols, nignored] = [count(t[4]), count(t[5]), count(t[6]), count(t[7])];
  if (entries === undefined || ndirs === undefined || ncontrols === undefined || nignored === undefined || ndirs === 0) return BAD;
  // The header, five a folder, four an ignore file and an entry left
  // out, the names, and the empty one after them.
  const ignoredAt = HEAD + 5 * ndirs + 4 * ncontrols;
  if (t.length !== ignoredAt + 4 * nignored + 2 || t[t.length - 1] !== '') return BAD;
  // Every name at once: none empty, `.` or `..`, none kb's own, and none
  // holding a control character or U+FFFD (a kept walk read no odd
  // name: walk.ts `oddNames`).
  const joined = t[t.length - 2];
  if (joined !== '' && (BAD_NAME.test(joined) || KB_OWN().test(joined) || SUSPECT_NAME().test(joined))) return BAD;
  const names = joined === '' ? [] : joined.split('/', MAX_WALK_ENTRIES + 1);
  const dirs = keptDirs(t, ndirs, names);
  if (dirs === undefined) return BAD;
  const seen = new Set<string>();
  for (const d of dirs) seen.add(d.rel);
  const controls = keptControls(t, HEAD + 5 * ndirs, ncontrols, seen);
  const ignored = keptIgnored(t, ignoredAt, nignored);
  if (controls === undefined || ignored === undefined || entries < names.length + ndirs - 1 + nignored) return BAD;
  return { dirs, controls, ignored, entries };
}

/** The folders (from token HEAD): the subjects directory first, then
 *  each folder after its parent, and their files' counts adding up to
 *  `names`. */
function keptDirs(t: readonly string[], ndirs: number, names: readonly string[]): KeptDir[] | undefined {
  const dirs: KeptDir[] = [];
  const seen = new Set<string>();
  let files = 0;
  for (let d = 0, at = HEAD; d < ndirs; d++, at += 5) {
    const rel = t[at];
    const n = count(t[at + 4]);
    const [mtime, ctime, ino] = [Number(t[at + 1]), Number(t[at + 2]), Number(t[at + 3])];
    const cut = rel.lastIndexOf('/');
    const placed = d === 0 ? rel === '' : isName(rel.slice(cut + 1)) && rel.slice(cut + 1) !== LOCK_NAME && seen.has(cut < 0 ? '' : rel.slice(0, cut));
    if (!placed || seen.has(rel) || n === undefined || files + n > names.length || !Number.isFinite(mtime) || !Number.isFinite(ctime) || !Number.isFinite(ino)) return undefined;
    seen.add(rel);
    dirs.push({ rel, names: names.slice(files, files + n), mtime, ctime, ino });
    files += n;
  }
  return files === names.length ? dirs : undefined;
}

/** The ignore files (from token `at`): each in a kept folder, named as
 *  one. */
function keptControls(t: readonly string[], at: number, n: number, folders: ReadonlySet<string>): KeptControl[] | undefined {
  const controls: KeptControl[] = [];
  for (let k = 0; k < n; k++, at += 4) {
    const rel = t[at];
    const cut = rel.lastIndexOf('/');
    const [size, mtime, ctime] = [Number(t[at + 1]), Number(t[at + 2]), Number(t[at + 3])];
    if (!(IGNORE_FILES as readonly string[]).includes(rel.slice(cut + 1)) || !folders.has(cut < 0 ? '' : rel.slice(0, cut))) return undefined;
    if (!Number.isFinite(size) || !Number.isFinite(mtime) || !Number.isFinite(ctime)) return undefined;
    controls.push({ rel, size, mtime, ctime });
  }
  return controls;
}

/** The entries left out (from token `at`): a path, a source, a rule, and
 *  a line when the source is a file. */
function keptIgnored(t: readonly string[], at: number, n: number): Ignored[] | undefined {
  const ignored: Ignored[] = [];
  for (let k = 0; k < n; k++, at += 4) {
    const [path, source, rule, line] = [t[at], t[at + 1], t[at + 2], t[at + 3]];
    if (path === '' || source === '') return undefined;
    if (line === '') ignored.push({ path, source, rule });
    else {
      const n = count(line);
      if (n === undefined) return undefined;
      ignored.push({ path, source, rule, line: n });
    }
  }
  return ignored;
}

/** A count written by `encodeKeptWalk`: digits only, at most the walk's
 *  limit. */
function count(s: string): number | undefined {
  if (s.length === 0 || s.length > 7 || !/^[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return n <= MAX_WALK_ENTRIES + 1 ? n : undefined;
}

/** A directory entry's name: not empty, not `.` or `..`, no separator,
 *  no control character. */
function isName(s: string): boolean {
  return s.length > 0 && !BAD_NAME.test(s) && !s.includes('/') && !SUSPECT_NAME().test(s);
}

/** The kept walk's text. */
export function encodeKeptWalk(walk: KeptWalk, root: string, build: string): string {
  const t: (string | number)[] = [MAGIC, WALK_VERSION, build, root, walk.entries, walk.dirs.length, walk.controls.length, walk.ignored.length];
  const names: string[] = [];
  for (const d of walk.dirs) {
    t.push(d.rel, d.mtime, d.ctime, d.ino, d.names.length);
    for (const name of d.names) names.push(name);
  }
  for (const c of walk.controls) t.push(c.rel, c.size, c.mtime, c.ctime);
  for (const x of walk.ignored) t.push(x.path, x.source, x.rule, x.line ?? '');
  t.push(names.join('/'), '');
  return t.join('\0');
}

/** At least how many code units `encodeKeptWalk` would write (its
 *  numbers each counted as one). */
export function unitsOf(walk: KeptWalk): number {
  let units = 0;
  for (const d of walk.dirs) {
    units += d.rel.length + 5;
    for (const name of d.names) units += name.length + 1;
  }
  for (const c of walk.controls) units += c.rel.length + 4;
  for (const x of walk.ignored) units += x.path.length + x.source.length + x.rule.length + 4;
  return units;
}

/** The absolute path of a kept folder or ignore file below `root`. */
function absOf(root: string, rel: string): string {
  return rel === '' ? root : root + sep + (sep === '/' ? rel : rel.replaceAll('/', sep));
}

/** Whether every folder and ignore file of `walk` below `root` stats as
 *  it did. */
export function unchanged(walk: KeptWalk, root: string): boolean {
  for (const d of walk.dirs) {
    const st = statOrNone(absOf(root, d.rel));
    if (st === undefined || !st.isDirectory() || st.mtimeMs !== d.mtime || st.ctimeMs !== d.ctime || st.ino !== d.ino) return false;
  }
  for (const c of walk.controls) {
    const st = statOrNone(absOf(root, c.rel));
    if (st === undefined || st.size !== c.size || st.mtimeMs !== c.mtime || st.ctimeMs !== c.ctime) return false;
  }
  return true;
}

/** `shape` with each folder's and ignore file's stat, taken now:
 *  undefined when one cannot be stat'ed, or was modified at or after
 *  `since - RACY_MS`. (Its change time is compared, not held to that:
 *  setting a time back, as a copy that keeps times does, changes it to
 *  now, and a change made in the same tick after the walk modifies the
 *  folder or file too.) Undefined too when a rule's text holds a NUL, which
 *  the file could not keep. */
export function keptOf(shape: WalkShape, root: string, since: number): KeptWalk | undefined {
  const before = since - RACY_MS;
  const dirs: KeptDir[] = [];
  for (const { rel, names } of shape.dirs) {
    const st = statOrNone(absOf(root, rel));
    if (st === undefined || !(st.mtimeMs < before)) return undefined;
    dirs.push({ rel, names, mtime: st.mtimeMs, ctime: st.ctimeMs, ino: st.ino });
  }
  const controls: KeptControl[] = [];
  for (const rel of shape.controls) {
    const st = statOrNone(absOf(root, rel));
    if (st === undefined || !(st.mtimeMs < before)) return undefined;
    controls.push({ rel, size: st.size, mtime: st.mtimeMs, ctime: st.ctimeMs });
  }
  for (const x of shape.ignored) if (x.path.includes('\0') || x.source.includes('\0') || x.rule.includes('\0')) return undefined;
  return dirs.length === 0 ? undefined : { dirs, controls, ignored: shape.ignored, entries: shape.entries };
}

/** The walk of `dir` as `walk` kept it: each file told to `visit` in the
 *  order the walk found it, in its folder (WalkDir: `real` is its path,
 *  as nothing below a kept walk's root is reached through a link), and
 *  what it left out added to `rules` (IgnoreRules.ignored). */
export function replayWalk(dir: string, walk: KeptWalk, visit: FileVisitor, rules: IgnoreRules): WalkOutcome {
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
  for (const x of walk.ignored) rules.ignored.push(x);
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
   *  IndexOptions): the kept walk to replay, when every directory and
   *  ignore file it read is as it was and the limit lets it read as much;
   *  else what the walk's shape is told to, when it is one to keep (its
   *  time starts now). */
  begin(root: string, maxEntries: number): { replay(visit: FileVisitor, rules: IgnoreRules): WalkOutcome } | { shape(shape: WalkShape): void };
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
      if (typeof old === 'string') problems.push(`the kept walk ${file} could not be read (${old}); the folders were read again`);
      else if (old !== undefined && old.entries <= maxEntries && unchanged(old, root)) {
        stats.kept++;
        return { replay: (visit, rules) => replayWalk(dir, old, visit, rules) };
      }
      stats.walked++;
      return {
        shape(shape) {
          // (A limit raised past the default, KB_WALK_LIMIT, may read more
          // than a kept walk holds: such a walk is not kept.)
          if (shape.entries > MAX_WALK_ENTRIES) return;
          const walk = keptOf(shape, root, since);
          if (walk === undefined || walk.entries > maxEntries) return;
          // Found before anything is joined: UTF-8 takes at least a byte
          // per UTF-16 code unit.
          if (unitsOf(walk) > MAX_WALK_BYTES) {
            problems.push(`the walk could not be kept (it would take more than ${MAX_WALK_BYTES >> 20} MiB); the next call reads every folder again`);
            return;
          }
          const why = writeCacheFile(file, new TextEncoder().encode(encodeKeptWalk(walk, root, opts.build)));
          if (why === undefined) stats.wrote++;
          else problems.push(`the walk could not be kept (${why}); the next call reads every folder again`);
        },
      };
    },
    problems: () => problems,
    stats: () => stats,
  };
}
