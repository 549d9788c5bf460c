// Recursive, iterative walk of a subjects directory.
//
// Only regular files are collected. Symbolic links to files and directories
// are followed, but each real directory is walked once (see `walkFiles`),
// and at most MAX_WALK_ENTRIES entries are read; a link back to an ancestor
// (a loop), to a directory walked elsewhere, and dangling links are skipped.
// Problems never throw: they become notices. Directory entries are read
// with their types, so only symbolic links (and entries of unknown type, and
// directories below a followed link) cost a `stat`; file sizes are stat'ed
// lazily, on first access.

import { lstatSync, readdirSync, readlinkSync, statSync, type Dirent, type Stats } from 'node:fs';
import { realpathSteady } from '../../shared/realpath.ts';
import { resolve, sep } from 'node:path';
import type { Problem } from '../../shared/problem.ts';
import { byName, namesOf } from '../../shared/arrays.ts';
import { countText } from '../../shared/text.ts';
import { SUSPECT_NAME } from '../../shared/controls.ts';
import { describeFsError as describe, errorCode as codeOf } from './fserror.ts';
import type { IgnoreRules } from './ignore.ts';
import { MAX_WALK_ENTRIES } from './limits.ts';

/** What a notice is about. */
export type NoticeCode =
  | 'dangling-link'
  | 'symlink-loop'
  | 'unreadable'
  | 'vanished'
  | 'slug-collision'
  | 'not-a-directory'
  | 'missing-directory'
  /** A FIFO, socket or device (never opened). */
  | 'special-file'
  /** A file name holding a control character (newline...): left out. */
  | 'control-character'
  /** A directory reached a second time (through a link): not walked again. */
  | 'walked-elsewhere'
  /** The walk read as many entries as it may: the rest is left out. */
  | 'walk-limit'
  /** A subject whose slug is longer than a pattern may be: left out. */
  | 'long-slug';

/** Something the walk or an index build wants the user to know about: a
 *  warning (kb check makes some of them errors, app/check.ts). */
export interface Notice extends Problem {
  code: NoticeCode;
  /** Path relative to the subjects directory; '' for the directory itself
   *  (it is missing or unreadable, or the walk stopped at its limit). */
  where: string;
  /** Why, in a few words (`permission denied`), for a directory that cannot
   *  be read. */
  reason?: string;
}

/** A notice. */
export function notice(code: NoticeCode, where: string, message: string, reason?: string): Notice {
  const n: Notice = { severity: 'warning', code, message, where };
  if (reason !== undefined) n.reason = reason;
  return n;
}

/** A regular file found by the walk. */
export interface WalkedFile {
  /** Relative to the walked directory, `/`-separated, as on disk. */
  readonly path: string;
  /** Absolute path through the walked directory (symlinks as walked). */
  readonly abs: string;
  /** Size in bytes, stat'ed on first access (known at once for files
   *  reached through a symlink); -1 when the file cannot be stat'ed. */
  readonly size: number;
}

export interface WalkResult {
  files: WalkedFile[];
  notices: Notice[];
}

/** Stats `abs` for its size; -1 when it cannot be stat'ed. */
export function statSize(abs: string): number {
  try {
    return statSync(abs).size;
  } catch {
    return -1;
  }
}

// An object literal with a getter: `size` is an own enumerable property, and
// every file shares one object shape (defineProperty on each of 10,000
// objects costs more than the rest of the walk).
function makeFile(path: string, abs: string, known?: number): WalkedFile {
  let size = known;
  return {
    path,
    abs,
    get size(): number {
      if (size === undefined) size = statSize(abs);
      return size;
    },
  };
}

/** A directory being walked. */
export interface WalkDir {
  abs: string;
  /** Relative to the walked directory, `/`-separated ('' for the root). */
  rel: string;
  /** Real path of this directory. */
  real: string;
  parent: WalkDir | null;
  /** Outside the walked directory's own tree (reached through a link). */
  outside: boolean;
}

/** Called for each regular file, in walk order: its directory, its name, its
 *  absolute path, and its size when the walk already knows it (the target of
 *  a symbolic link is stat'ed). */
export type FileVisitor = (dir: WalkDir, name: string, abs: string, size: number | undefined) => void;

/** A symbolic link the walk followed (to a file or a directory). */
export interface FollowedLink {
  /** Relative to the walked directory, as `Notice.where`. */
  where: string;
  /** Where the link is: the real path of its directory. */
  from: string;
  /** Absolute path of the link, as walked. */
  abs: string;
  /** The real path it leads to (directories; files: see `realTarget`). */
  real?: string;
}

/** The real path a followed link leads to ('' when it cannot be found). */
export function realTarget(link: FollowedLink): string {
  if (link.real !== undefined) return link.real;
  try {
    return realpathSteady(link.abs);
  } catch {
    return '';
  }
}

export { MAX_WALK_ENTRIES };

export interface WalkOptions {
  /** The most entries read (default MAX_WALK_ENTRIES): past it the walk
   *  stops, with a `walk-limit` notice. */
  maxEntries?: number;
  /** What ignore files and the built-in defaults leave out (ignore.ts). */
  rules?: IgnoreRules;
  /** Filled with what the walk went through (the search index's cache). */
  trace?: WalkTrace;
}

export interface WalkOutcome {
  notices: Notice[];
  /** Every symbolic link followed, in walk order. */
  links: FollowedLink[];
  /** Some name the walk read holds a control character or U+FFFD
   *  (SUSPECT_NAME): kb/index/clean.ts looks at every path then, and at
   *  none when no name does. */
  oddNames?: true;
  /** The directory entries read (at most WalkOptions.maxEntries): every
   *  file and folder, those left out too. */
  entries?: number;
}

function linkTarget(abs: string): string {
  try {
    return readlinkSync(abs);
  } catch {
    return '?';
  }
}

/** Walks `dir` recursively. Never throws. */
export function walk(dir: string, opts: WalkOptions = {}): WalkResult & { links: FollowedLink[] } {
  const files: WalkedFile[] = [];
  const { notices, links } = walkFiles(
    dir,
    (d, name, abs, size) => {
      files.push(makeFile(d.rel === '' ? name : d.rel + '/' + name, abs, size));
    },
    opts,
  );
  return { files, notices, links };
}

/** What a walk went through, for a cache to revalidate against (the
 *  search index, kb/search/; a long session's topic indexes,
 *  kb/index/cache.ts): every directory read, every ignore control file
 *  met (`.gitignore`, `.kbignore`, links to them too), and every symbolic
 *  link met (followed or not: dangling, a loop, ignored), as absolute
 *  paths. What a link leads to can change with no change in the folder
 *  that holds it, and no file watcher of the topic's tree sees it. */
export interface WalkTrace {
  dirs: string[];
  controls: string[];
  links: string[];
}

/** What a symbolic link leads to, as a number a cache keeps: 0 nothing
 *  the walk follows (dangling, a loop, unreadable), 1 a file, 2 a
 *  directory, 3 anything else (a FIFO, a device). */
export function linkKind(abs: string): number {
  try {
    const st = statSync(abs);
    return st.isFile() ? 1 : st.isDirectory() ? 2 : 3;
  } catch {
    return 0;
  }
}

/** Whether a path is reached through one of `links` (absolute paths, as
 *  the walk met them): it is one of them, or below one. What is reached
 *  through a link is out of sight of a watcher of the topic's own tree
 *  (kb/index/cache.ts), so whatever a long-lived front end keeps of it is
 *  checked again on every request. Time in the path's length. */
export function throughLinks(links: Iterable<string>): (abs: string) => boolean {
  // The walk joins paths with the platform's separator, a subject's path
  // is `/`-separated: both are `/` here.
  const slashed = sep === '/' ? (p: string) => p : (p: string) => p.split(sep).join('/');
  const set = new Set<string>();
  for (const l of links) set.add(slashed(l));
  if (set.size === 0) return () => false;
  return (path) => {
    const abs = slashed(path);
    if (set.has(abs)) return true;
    for (let at = abs.lastIndexOf('/'); at > 0; at = abs.lastIndexOf('/', at - 1)) if (set.has(abs.slice(0, at))) return true;
    return false;
  };
}

/**
 * Walks `dir` recursively, calling `visit` for each regular file (the index
 * builds its subjects this way, without an intermediate object per file).
 * Never throws.
 *
 * Each real directory is walked once. The directory's own tree is walked as
 * it is on disk (a directory there has one path), and a symbolic link that
 * leads back into it is not followed: its target is walked under its own
 * name (or is an ancestor of the link: a loop). A directory outside the
 * tree, reached through a link, is known by its device and inode and walked
 * the first time it is reached only. So links that fan out (two links in
 * each of twenty folders, each to the next) cost one walk of each folder,
 * not 2^20 paths. On top of that, at most `maxEntries` directory entries are
 * read. Each link not followed, and the limit, is a notice.
 *
 * The steps, each a method of `Walker`: open the root (`openRoot`), then
 * per directory, depth first in name order: read it (`readDir`), classify
 * each entry (`classify`), and hand a file to `visit`, a directory to
 * `enterDir`, a symbolic link to `followLink`.
 */
export function walkFiles(dir: string, visit: FileVisitor, opts: WalkOptions = {}): WalkOutcome {
  const w = openRoot(dir, visit, opts);
  if (!(w instanceof Walker)) return w;
  w.run();
  w.out.entries = w.entriesRead();
  return w.out;
}

/** The walk's first step: the root must be a directory. Notices about the
 *  directory as a whole have the `where` ''. */
function openRoot(dir: string, visit: FileVisitor, opts: WalkOptions): Walker | WalkOutcome {
  const root = resolve(dir);
  const fail = (n: Notice): WalkOutcome => ({ notices: [n], links: [] });
  let rootStat: Stats;
  try {
    rootStat = statSync(root);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return fail(notice('missing-directory', '', `subjects directory not found: ${dir}`));
    if (code === 'ELOOP') return fail(notice('symlink-loop', '', `subjects directory is a symbolic link loop: ${dir}`));
    return fail(notice('unreadable', '', `cannot read subjects directory ${dir}: ${describe(err)}`, describe(err)));
  }
  if (!rootStat.isDirectory()) return fail(notice('not-a-directory', '', `subjects path is not a directory: ${dir}`));
  let rootReal = root;
  try {
    rootReal = realpathSteady(root);
  } catch {
    // Keep the resolved path; loop detection still works below it.
  }
  return new Walker(dir, root, rootReal, visit, opts);
}

/** What an entry is, once its type is known (`classify`). */
type Kind = typeof FILE | typeof DIR | typeof LINK | typeof SPECIAL | typeof GONE;
const FILE = 0;
const DIR = 1;
const LINK = 2;
/** A FIFO, socket or device. */
const SPECIAL = 3;
/** Could not be stat'ed: its notice is out already. */
const GONE = 4;

/** One walk's state, and its steps. */
class Walker {
  readonly out: WalkOutcome = { notices: [], links: [] };
  private readonly rules: IgnoreRules | undefined;
  private readonly trace: WalkTrace | undefined;
  private readonly maxEntries: number;
  private entriesLeft: number;
  /** The root's real path, with a trailing separator. */
  private readonly prefix: string;
  /** Directories outside the tree walked so far (device:inode -> where). */
  private readonly outside = new Map<string, string>();
  /** Directories still to walk: the top is next. */
  private readonly stack: WalkDir[];

  constructor(
    /** The directory as given, for notices. */
    private readonly dir: string,
    root: string,
    private readonly rootReal: string,
    private readonly visit: FileVisitor,
    opts: WalkOptions,
  ) {
    this.rules = opts.rules;
    this.trace = opts.trace;
    this.maxEntries = opts.maxEntries ?? MAX_WALK_ENTRIES;
    this.entriesLeft = this.maxEntries;
    this.prefix = rootReal.endsWith(sep) ? rootReal : rootReal + sep;
    this.stack = [{ abs: root, rel: '', real: rootReal, parent: null, outside: false }];
  }

  /** How many directory entries it read. */
  entriesRead(): number {
    return this.maxEntries - this.entriesLeft;
  }

  /** Walks every directory, depth first, in name order, until the stack is
   *  empty or the entry limit is reached. */
  run(): void {
    const { stack, rules } = this;
    while (stack.length > 0) {
      const frame = stack.pop()!;
      const read = this.readDir(frame);
      if (read === undefined) continue;
      const { entries, stop } = read;
      const subdirs: WalkDir[] = [];
      // One string for the folder's part of every entry's path, made once.
      const base = frame.abs + sep;
      for (const entry of entries) {
        const name = entry.name;
        const abs = base + name;
        const kind = this.classify(frame, entry, abs);
        if (kind === FILE) {
          if (rules === undefined || !rules.skip(frame.rel, name, false)) this.visit(frame, name, abs, undefined);
        } else if (kind === DIR) {
          this.enterDir(frame, name, abs, subdirs);
        } else if (kind === LINK) {
          this.followLink(frame, name, abs, subdirs);
        } else if (kind === SPECIAL) {
          const rel = relOf(frame, name);
          this.out.notices.push(notice('special-file', rel, `not a regular file, skipped: ${rel}`));
        }
      }
      if (stop) {
        this.out.notices.push(
          notice('walk-limit', '', `the walk stopped after ${countText(this.maxEntries)} directory entries, its limit; the rest is left out`),
        );
        return;
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
    }
  }

  /** Reads a directory's entries, in name order, at most as many as the
   *  walk may still read (`stop`: the limit is reached), and hands them to
   *  the ignore rules. Undefined (with a notice) when it cannot be read. */
  private readDir(frame: WalkDir): { entries: Dirent[]; stop: boolean } | undefined {
    this.trace?.dirs.push(frame.abs);
    let entries: Dirent[];
    try {
      entries = readdirSync(frame.abs, { withFileTypes: true });
    } catch (err) {
      const code = codeOf(err);
      const notices = this.out.notices;
      const dir = this.dir;
      if (frame.rel === '' && (code === 'ENOENT' || code === 'ENOTDIR')) {
        notices.push(notice('vanished', '', `subjects directory vanished while walking: ${dir}`));
      } else if (frame.rel === '') {
        notices.push(notice('unreadable', '', `cannot read subjects directory ${dir}: ${describe(err)}`, describe(err)));
      } else if (code === 'ENOENT' || code === 'ENOTDIR') {
        notices.push(notice('vanished', frame.rel, `directory vanished while walking: ${frame.rel}`));
      } else {
        notices.push(notice('unreadable', frame.rel, `cannot read directory ${frame.rel}: ${describe(err)}`));
      }
      return undefined;
    }
    if (entries.length > 0) {
      // In name order (byName); the names, as read (flat strings), are
      // tested together first: cheaper than testing the paths made of
      // them later (`oddNames`).
      const names = namesOf(entries);
      if (this.out.oddNames === undefined && SUSPECT_NAME().test(names.join(''))) this.out.oddNames = true;
      if (entries.length > 1) entries = byName(entries, names);
    }
    let stop = false;
    if (entries.length > this.entriesLeft) {
      entries.length = this.entriesLeft;
      stop = true;
    }
    this.entriesLeft -= entries.length;
    if (this.rules !== undefined) this.rules.enter(frame.abs, frame.rel, frame.parent === null ? null : frame.parent.rel, entries, sep);
    // Every ignore file the rules read (a link to one included).
    const trace = this.trace;
    if (trace !== undefined) for (const e of entries) if (e.name === '.gitignore' || e.name === '.kbignore') trace.controls.push(frame.abs + sep + e.name);
    return { entries, stop };
  }

  /** What an entry is. Its type comes with the directory entry; only an
   *  entry of unknown type (some file systems do not report it) costs an
   *  `lstat`. */
  private classify(frame: WalkDir, entry: Dirent, abs: string): Kind {
    if (entry.isFile()) return FILE;
    if (entry.isDirectory()) return DIR;
    if (entry.isSymbolicLink()) return LINK;
    if (isSpecial(entry)) return SPECIAL;
    try {
      const st = lstatSync(abs);
      return st.isFile() ? FILE : st.isDirectory() ? DIR : st.isSymbolicLink() ? LINK : SPECIAL;
    } catch (err) {
      this.out.notices.push(entryProblem(err, relOf(frame, entry.name)));
      return GONE;
    }
  }

  /** Whether a real path is in the walked directory's own tree. */
  private inTree(real: string): boolean {
    return real === this.rootReal || real.startsWith(this.prefix);
  }

  /** Where an in-tree directory is walked, relative to the root. */
  private treeRel(real: string): string {
    return real === this.rootReal ? '.' : real.slice(this.prefix.length).split(sep).join('/');
  }

  /** A directory entry: walked next unless ignored, or (below a followed
   *  link) walked already. */
  private enterDir(frame: WalkDir, name: string, abs: string, subdirs: WalkDir[]): void {
    if (this.rules !== undefined && this.rules.skip(frame.rel, name, true)) return;
    const rel = relOf(frame, name);
    const real = frame.real + sep + name;
    if (!frame.outside) {
      subdirs.push({ abs, rel, real, parent: frame, outside: false });
      return;
    }
    // Below a followed link: a directory of the tree, or one walked
    // already, is not walked again.
    const notices = this.out.notices;
    if (this.inTree(real)) {
      notices.push(notice('walked-elsewhere', rel, `directory walked elsewhere, skipped: ${rel} (walked as ${this.treeRel(real)})`));
      return;
    }
    let st: Stats;
    try {
      st = statSync(abs);
    } catch (err) {
      notices.push(entryProblem(err, rel));
      return;
    }
    const key = `${st.dev}:${st.ino}`;
    const seen = this.outside.get(key);
    if (seen !== undefined) {
      notices.push(notice('walked-elsewhere', rel, `directory walked elsewhere, skipped: ${rel} (walked as ${seen})`));
      return;
    }
    this.outside.set(key, rel);
    subdirs.push({ abs, rel, real, parent: frame, outside: true });
  }

  /** A symbolic link: its target is stat'ed; a file is visited, a
   *  directory walked next unless it is an ancestor (a loop) or walked
   *  elsewhere; a dangling link, a loop and anything else is a notice. */
  private followLink(frame: WalkDir, name: string, abs: string, subdirs: WalkDir[]): void {
    this.trace?.links.push(abs);
    const rel = relOf(frame, name);
    const { notices, links } = this.out;
    let target: Stats;
    try {
      target = statSync(abs);
    } catch (err) {
      const code = codeOf(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        notices.push(notice('dangling-link', rel, `dangling symbolic link skipped: ${rel} -> ${linkTarget(abs)}`));
      } else if (code === 'ELOOP') {
        notices.push(notice('symlink-loop', rel, `symbolic link loop skipped: ${rel} -> ${linkTarget(abs)}`));
      } else {
        notices.push(notice('unreadable', rel, `cannot follow symbolic link ${rel}: ${describe(err)}`));
      }
      return;
    }
    const rules = this.rules;
    if (rules !== undefined && (target.isFile() || target.isDirectory()) && rules.skip(frame.rel, name, target.isDirectory())) return;
    if (target.isFile()) {
      links.push({ where: rel, from: frame.real, abs });
      this.visit(frame, name, abs, target.size);
      return;
    }
    if (!target.isDirectory()) {
      notices.push(notice('special-file', rel, `not a regular file, skipped: ${rel}`));
      return;
    }
    let real: string;
    try {
      real = realpathSteady(abs);
    } catch (err) {
      notices.push(entryProblem(err, rel));
      return;
    }
    links.push({ where: rel, from: frame.real, abs, real });
    if (isAncestor(frame, real)) {
      notices.push(notice('symlink-loop', rel, `symbolic link loop skipped: ${rel} -> ${linkTarget(abs)}`));
      return;
    }
    const key = `${target.dev}:${target.ino}`;
    const seen = this.inTree(real) ? this.treeRel(real) : this.outside.get(key);
    if (seen !== undefined) {
      notices.push(
        notice('walked-elsewhere', rel, `symbolic link to a directory walked elsewhere skipped: ${rel} -> ${linkTarget(abs)} (walked as ${seen})`),
      );
      return;
    }
    this.outside.set(key, rel);
    subdirs.push({ abs, rel, real, parent: frame, outside: true });
  }
}

/** Whether the directory `real` is `frame` or one of its ancestors. */
function isAncestor(frame: WalkDir, real: string): boolean {
  for (let f: WalkDir | null = frame; f !== null; f = f.parent) if (f.real === real) return true;
  return false;
}

function relOf(frame: WalkDir, name: string): string {
  return frame.rel === '' ? name : frame.rel + '/' + name;
}

function isSpecial(entry: Dirent): boolean {
  return entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice();
}

function entryProblem(err: unknown, rel: string): Notice {
  const code = codeOf(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return notice('vanished', rel, `entry vanished while walking: ${rel}`);
  }
  if (code === 'ELOOP') {
    return notice('symlink-loop', rel, `symbolic link loop skipped: ${rel}`);
  }
  return notice('unreadable', rel, `cannot read ${rel}: ${describe(err)}`);
}
