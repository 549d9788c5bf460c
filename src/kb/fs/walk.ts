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

import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Problem } from '../../shared/problem.ts';
import { compareCodeUnits, countText } from '../../shared/text.ts';
import { describeFsError as describe, errorCode as codeOf } from './fserror.ts';
import type { IgnoreRules } from './ignore.ts';

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

type Frame = WalkDir;

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
    return realpathSync(link.abs);
  } catch {
    return '';
  }
}

/** The most directory entries one walk reads (files, folders, links and
 *  anything else together). A link to `/` or `/proc` would otherwise walk a
 *  whole file system. Ten times what a large knowledge base holds. */
export const MAX_WALK_ENTRIES = 200_000;

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
 *  kb/index/cache.ts): every directory read, and every ignore control
 *  file met (`.gitignore`, `.kbignore`, links to them too), as absolute
 *  paths. */
export interface WalkTrace {
  dirs: string[];
  controls: string[];
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
 */
export function walkFiles(dir: string, visit: FileVisitor, opts: WalkOptions = {}): WalkOutcome {
  const notices: Notice[] = [];
  const links: FollowedLink[] = [];
  const out = { notices, links };
  const maxEntries = opts.maxEntries ?? MAX_WALK_ENTRIES;
  const rules = opts.rules;
  const root = resolve(dir);

  // Notices about the directory as a whole have the `where` ''.
  let rootStat: Stats;
  try {
    rootStat = statSync(root);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      notices.push(notice('missing-directory', '', `subjects directory not found: ${dir}`));
    } else if (code === 'ELOOP') {
      notices.push(notice('symlink-loop', '', `subjects directory is a symbolic link loop: ${dir}`));
    } else {
      notices.push(notice('unreadable', '', `cannot read subjects directory ${dir}: ${describe(err)}`, describe(err)));
    }
    return out;
  }
  if (!rootStat.isDirectory()) {
    notices.push(notice('not-a-directory', '', `subjects path is not a directory: ${dir}`));
    return out;
  }
  let rootReal = root;
  try {
    rootReal = realpathSync(root);
  } catch {
    // Keep the resolved path; loop detection still works below it.
  }
  const prefix = rootReal.endsWith(sep) ? rootReal : rootReal + sep;
  /** Whether a real path is in the walked directory's own tree. */
  const inTree = (real: string) => real === rootReal || real.startsWith(prefix);
  /** Where an in-tree directory is walked, relative to the root. */
  const treeRel = (real: string) => (real === rootReal ? '.' : real.slice(prefix.length).split(sep).join('/'));
  /** Directories outside the tree walked so far (device:inode -> where). */
  const outside = new Map<string, string>();

  let entriesLeft = maxEntries;
  const stack: Frame[] = [{ abs: root, rel: '', real: rootReal, parent: null, outside: false }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    opts.trace?.dirs.push(frame.abs);
    let entries: Dirent[];
    try {
      entries = readdirSync(frame.abs, { withFileTypes: true });
    } catch (err) {
      const code = codeOf(err);
      if (frame.rel === '' && (code === 'ENOENT' || code === 'ENOTDIR')) {
        notices.push(notice('vanished', '', `subjects directory vanished while walking: ${dir}`));
      } else if (frame.rel === '') {
        notices.push(notice('unreadable', '', `cannot read subjects directory ${dir}: ${describe(err)}`, describe(err)));
      } else if (code === 'ENOENT' || code === 'ENOTDIR') {
        notices.push(notice('vanished', frame.rel, `directory vanished while walking: ${frame.rel}`));
      } else {
        notices.push(notice('unreadable', frame.rel, `cannot read directory ${frame.rel}: ${describe(err)}`));
      }
      continue;
    }
    if (entries.length > 1) entries.sort((a, b) => compareCodeUnits(a.name, b.name));
    let stop = false;
    if (entries.length > entriesLeft) {
      entries.length = entriesLeft;
      stop = true;
    }
    entriesLeft -= entries.length;
    if (rules !== undefined) rules.enter(frame.abs, frame.rel, frame.parent === null ? null : frame.parent.rel, entries, sep);
    // Every ignore file the rules read (a link to one included).
    if (opts.trace !== undefined) for (const e of entries) if (e.name === '.gitignore' || e.name === '.kbignore') opts.trace.controls.push(frame.abs + sep + e.name);

    const subdirs: Frame[] = [];
    for (const entry of entries) {
      const name = entry.name;
      const abs = frame.abs + sep + name;

      let isFile = entry.isFile();
      let isDir = !isFile && entry.isDirectory();
      let isLink = !isFile && !isDir && entry.isSymbolicLink();
      if (!isFile && !isDir && !isLink && !isSpecial(entry)) {
        // Unknown entry type (some file systems do not report it).
        try {
          const st = lstatSync(abs);
          isFile = st.isFile();
          isDir = st.isDirectory();
          isLink = st.isSymbolicLink();
        } catch (err) {
          notices.push(entryProblem(err, relOf(frame, name)));
          continue;
        }
      }

      if (isFile) {
        if (rules === undefined || !rules.skip(frame.rel, name, false)) visit(frame, name, abs, undefined);
        continue;
      }
      const rel = relOf(frame, name);
      if (isDir) {
        if (rules !== undefined && rules.skip(frame.rel, name, true)) continue;
        const real = frame.real + sep + name;
        if (!frame.outside) {
          subdirs.push({ abs, rel, real, parent: frame, outside: false });
          continue;
        }
        // Below a followed link: a directory of the tree, or one walked
        // already, is not walked again.
        if (inTree(real)) {
          notices.push(notice('walked-elsewhere', rel, `directory walked elsewhere, skipped: ${rel} (walked as ${treeRel(real)})`));
          continue;
        }
        let st: Stats;
        try {
          st = statSync(abs);
        } catch (err) {
          notices.push(entryProblem(err, rel));
          continue;
        }
        const key = `${st.dev}:${st.ino}`;
        const seen = outside.get(key);
        if (seen !== undefined) {
          notices.push(notice('walked-elsewhere', rel, `directory walked elsewhere, skipped: ${rel} (walked as ${seen})`));
          continue;
        }
        outside.set(key, rel);
        subdirs.push({ abs, rel, real, parent: frame, outside: true });
        continue;
      }
      if (!isLink) {
        notices.push(notice('special-file', rel, `not a regular file, skipped: ${rel}`));
        continue;
      }

      // A symbolic link: follow it.
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
        continue;
      }
      if (rules !== undefined && (target.isFile() || target.isDirectory()) && rules.skip(frame.rel, name, target.isDirectory())) continue;
      if (target.isFile()) {
        links.push({ where: rel, from: frame.real, abs });
        visit(frame, name, abs, target.size);
      } else if (target.isDirectory()) {
        let real: string;
        try {
          real = realpathSync(abs);
        } catch (err) {
          notices.push(entryProblem(err, rel));
          continue;
        }
        links.push({ where: rel, from: frame.real, abs, real });
        if (isAncestor(frame, real)) {
          notices.push(notice('symlink-loop', rel, `symbolic link loop skipped: ${rel} -> ${linkTarget(abs)}`));
          continue;
        }
        const key = `${target.dev}:${target.ino}`;
        const seen = inTree(real) ? treeRel(real) : outside.get(key);
        if (seen !== undefined) {
          notices.push(notice('walked-elsewhere', rel, `symbolic link to a directory walked elsewhere skipped: ${rel} -> ${linkTarget(abs)} (walked as ${seen})`));
          continue;
        }
        outside.set(key, rel);
        subdirs.push({ abs, rel, real, parent: frame, outside: true });
      } else {
        notices.push(notice('special-file', rel, `not a regular file, skipped: ${rel}`));
      }
    }
    if (stop) {
      notices.push(
        notice(
          'walk-limit',
          '',
          `the walk stopped after ${countText(maxEntries)} directory entries, its limit; the rest is left out`,
        ),
      );
      break;
    }
    // Depth first, in name order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
  return out;
}

/** Whether the directory `real` is `frame` or one of its ancestors. */
function isAncestor(frame: Frame, real: string): boolean {
  for (let f: Frame | null = frame; f !== null; f = f.parent) if (f.real === real) return true;
  return false;
}

function relOf(frame: Frame, name: string): string {
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
