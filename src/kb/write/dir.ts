// The folders a write goes through, held open (docs/guide/search-and-memory.md,
// "Where it never writes"). A path is resolved again by every call that
// takes it, so a folder swapped for a symbolic link between the check and
// the write would take the file elsewhere. Each folder is therefore opened
// once, checked where it really is, and named from then on by a path bound
// to the open folder itself: `/proc/self/fd/N`, which the kernel resolves
// to the open directory whatever its path now leads to (what `openat`
// gives C). Each next folder is opened through its parent's handle, and
// checked again.
//
// Where the system has no such path (or the runtime's descriptors are not
// the kernel's), a handle is named by its real path and re-checked by
// identity (device and inode) before a file is linked: that narrows the
// window to the moment between the check and the link, and cannot close
// it.

import { closeSync, constants, fstatSync, mkdirSync, openSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { realpathSteady } from '../../shared/realpath.ts';
import { sep } from 'node:path';

/** An open folder. */
export interface DirHandle {
  readonly fd: number;
  /** Where the folder really is (messages, and the inside checks). */
  readonly real: string;
  /** A path naming this folder: bound to the open folder when `pinned`,
   *  else its real path (see `unchanged`). */
  readonly at: string;
  readonly pinned: boolean;
}

export type Opened = { ok: true; dir: DirHandle } | { ok: false; code: string };

const O_DIR = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? String(err);
}

function same(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Opens the folder `path` (links followed) and learns where it really
 *  is. */
export function openDir(path: string): Opened {
  let fd: number;
  try {
    fd = openSync(path, O_DIR);
  } catch (err) {
    return { ok: false, code: code(err) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isDirectory()) {
      closeSync(fd);
      return { ok: false, code: 'ENOTDIR' };
    }
    const proc = `/proc/self/fd/${fd}`;
    try {
      // The kernel's own name for the open folder, when the descriptor is
      // the kernel's (it then names the same folder).
      if (same(statSync(proc), st)) {
        const real = readlinkSync(proc);
        if (real.startsWith('/')) return { ok: true, dir: { fd, real: real.replace(/ \(deleted\)$/, ''), at: proc, pinned: true } };
      }
    } catch {
      // No /proc here.
    }
    const real = realpathSteady(path);
    if (!same(statSync(real), st)) {
      closeSync(fd);
      return { ok: false, code: 'ECHANGED' };
    }
    return { ok: true, dir: { fd, real, at: real, pinned: false } };
  } catch (err) {
    closeSync(fd);
    return { ok: false, code: code(err) };
  }
}

/** Opens the folder `name` inside `parent` (through the parent's handle),
 *  making it first when `create`. */
export function openChild(parent: DirHandle, name: string, create: boolean): Opened {
  if (create) {
    try {
      mkdirSync(`${parent.at}/${name}`);
    } catch (err) {
      if (code(err) !== 'EEXIST') return { ok: false, code: code(err) };
    }
  }
  return openDir(`${parent.at}/${name}`);
}

/** Why the folder `dir` no longer is where it was opened (a handle that is
 *  not pinned), or undefined. */
export function unchanged(dir: DirHandle): string | undefined {
  if (dir.pinned) return undefined;
  try {
    if (same(statSync(dir.real), fstatSync(dir.fd))) return undefined;
  } catch {
    // Gone.
  }
  return `the folder ${dir.real} was replaced while writing`;
}

export function closeDir(dir: DirHandle | undefined): void {
  if (dir === undefined) return;
  try {
    closeSync(dir.fd);
  } catch {
    // Closed already.
  }
}

/** A message for an `Opened` failure's code. */
export function openWhy(code: string): string {
  switch (code) {
    case 'ENOENT':
      return 'it does not exist';
    case 'ENOTDIR':
      return 'it is not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'a symbolic link loop';
    case 'ECHANGED':
      return 'it changed while it was opened';
    default:
      return code;
  }
}
