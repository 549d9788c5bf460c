// Recursive, iterative walk of a subjects directory.
//
// Only regular files are collected. Symbolic links to files and directories
// are followed; a directory whose real path is already on the path being
// walked (a loop) is skipped, and so are dangling links. Problems never
// throw: they become notices. Directory entries are read with their types,
// so only symbolic links (and entries of unknown type) cost a `stat`; file
// sizes are stat'ed lazily, on first access.

import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Problem } from '../../shared/problem.ts';
import { compareCodeUnits } from '../../shared/text.ts';
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
  | 'control-character';

/** Something the walk or an index build wants the user to know about: a
 *  warning (kb check makes some of them errors, app/check.ts). */
export interface Notice extends Problem {
  code: NoticeCode;
  /** Path relative to the subjects directory (or the directory itself). */
  where: string;
}

/** A notice. */
export function notice(code: NoticeCode, where: string, message: string): Notice {
  return { severity: 'warning', code, message, where };
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
}

/** Called for each regular file, in walk order: its directory, its name, its
 *  absolute path, and its size when the walk already knows it (the target of
 *  a symbolic link is stat'ed). */
export type FileVisitor = (dir: WalkDir, name: string, abs: string, size: number | undefined) => void;

type Frame = WalkDir;

function linkTarget(abs: string): string {
  try {
    return readlinkSync(abs);
  } catch {
    return '?';
  }
}

/** Walks `dir` recursively. Never throws. */
export function walk(dir: string): WalkResult {
  const files: WalkedFile[] = [];
  const notices = walkFiles(dir, (d, name, abs, size) => {
    files.push(makeFile(d.rel === '' ? name : d.rel + '/' + name, abs, size));
  });
  return { files, notices };
}

/** What a walk went through, for a cache to revalidate against (the
 *  search index, kb/search/): every directory read, and every ignore
 *  control file met (`.gitignore`, `.kbignore`), as absolute paths. */
export interface WalkTrace {
  dirs: string[];
  controls: string[];
}

/** Walks `dir` recursively, calling `visit` for each regular file (the index
 *  builds its subjects this way, without an intermediate object per file).
 *  Returns the notices. Never throws. */
export function walkFiles(dir: string, visit: FileVisitor, rules?: IgnoreRules, trace?: WalkTrace): Notice[] {
  const notices: Notice[] = [];
  const root = resolve(dir);

  let rootStat: Stats;
  try {
    rootStat = statSync(root);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      notices.push(notice('missing-directory', dir, `subjects directory not found: ${dir}`));
    } else if (code === 'ELOOP') {
      notices.push(notice('symlink-loop', dir, `subjects directory is a symbolic link loop: ${dir}`));
    } else {
      notices.push(notice('unreadable', dir, `cannot read subjects directory ${dir}: ${describe(err)}`));
    }
    return notices;
  }
  if (!rootStat.isDirectory()) {
    notices.push(notice('not-a-directory', dir, `subjects path is not a directory: ${dir}`));
    return notices;
  }
  let rootReal = root;
  try {
    rootReal = realpathSync(root);
  } catch {
    // Keep the resolved path; loop detection still works below it.
  }

  const stack: Frame[] = [{ abs: root, rel: '', real: rootReal, parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    trace?.dirs.push(frame.abs);
    let entries: Dirent[];
    try {
      entries = readdirSync(frame.abs, { withFileTypes: true });
    } catch (err) {
      const code = codeOf(err);
      const where = frame.rel === '' ? dir : frame.rel;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        notices.push(notice('vanished', where, `directory vanished while walking: ${where}`));
      } else {
        notices.push(notice('unreadable', where, `cannot read directory ${where}: ${describe(err)}`));
      }
      continue;
    }
    if (entries.length > 1) entries.sort((a, b) => compareCodeUnits(a.name, b.name));
    if (rules !== undefined) rules.enter(frame.abs, frame.rel, frame.parent === null ? null : frame.parent.rel, entries, sep);

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
        if (trace !== undefined && (name === '.gitignore' || name === '.kbignore')) trace.controls.push(abs);
        if (rules === undefined || !rules.skip(frame.rel, name, false)) visit(frame, name, abs, undefined);
        continue;
      }
      const rel = relOf(frame, name);
      if (isDir) {
        if (rules !== undefined && rules.skip(frame.rel, name, true)) continue;
        subdirs.push({ abs, rel, real: frame.real + sep + name, parent: frame });
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
        visit(frame, name, abs, target.size);
      } else if (target.isDirectory()) {
        let real: string;
        try {
          real = realpathSync(abs);
        } catch (err) {
          notices.push(entryProblem(err, rel));
          continue;
        }
        let onPath = false;
        for (let f: Frame | null = frame; f !== null; f = f.parent) {
          if (f.real === real) {
            onPath = true;
            break;
          }
        }
        if (onPath) {
          notices.push(notice('symlink-loop', rel, `symbolic link loop skipped: ${rel} -> ${linkTarget(abs)}`));
        } else {
          subdirs.push({ abs, rel, real, parent: frame });
        }
      } else {
        notices.push(notice('special-file', rel, `not a regular file, skipped: ${rel}`));
      }
    }
    // Depth first, in name order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
  return notices;
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
