// Writing and removing subject files safely (docs/guide/search-and-memory.md, "Remembering").
//
// A new file is written to a hidden temporary file in the same directory
// (`.kb-tmp-<pid>-<random>`: hidden, so no listing, search or load by
// glob ever sees it), flushed to disk, then hard-linked to its name, which
// fails if the name exists: the subject appears whole or not at all, and
// never replaces another file. The temporary name is then removed and the
// directory flushed. A process killed on the way leaves at most a hidden
// temporary file, which the next write to that directory removes.

import { chmodSync, closeSync, constants, existsSync, fstatSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

export const TEMP_PREFIX = '.kb-tmp-';

export type WriteResult = { ok: true; note?: string } | { ok: false; exists: boolean; why: string };

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? String(err);
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Not every platform can flush a directory; the data is flushed.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Creates `dir/name` holding `data`; never over an existing entry.
 *  `beforeLink` is asked last whether to go on (a lost lock, a folder
 *  replaced meanwhile say no), given the temporary file's name and its
 *  inode. `shown`: the folder as messages name it (`dir` may be a path
 *  bound to an open folder, kb/write/dir.ts). */
export function writeNewFile(
  dir: string,
  name: string,
  data: Uint8Array,
  beforeLink: (tmpName: string, ino: number) => string | undefined = () => undefined,
  shown = dir,
): WriteResult {
  const final = `${dir}/${name}`;
  const tmpName = `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`;
  const tmp = `${dir}/${tmpName}`;
  let fd: number;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o666);
  } catch (err) {
    return { ok: false, exists: false, why: `cannot create a file in ${shown} (${code(err)})` };
  }
  try {
    let ino: number;
    try {
      for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at);
      fsyncSync(fd);
      ino = fstatSync(fd).ino;
    } finally {
      closeSync(fd);
    }
    pauseForTest('before-check', `${shown}/${tmpName}`);
    const stop = beforeLink(tmpName, ino);
    if (stop !== undefined) return { ok: false, exists: false, why: stop };
    pauseForTest('before-link', `${shown}/${tmpName}`);
    let note: string | undefined;
    try {
      linkSync(tmp, final);
    } catch (err) {
      const c = code(err);
      if (c === 'EEXIST') return { ok: false, exists: true, why: `${name} already exists` };
      if (c !== 'EPERM' && c !== 'ENOTSUP' && c !== 'EOPNOTSUPP' && c !== 'ENOSYS') throw err;
      // No hard links here (some network and FAT file systems): a rename,
      // after checking the name is free, under the topic's lock.
      if (exists(final)) return { ok: false, exists: true, why: `${name} already exists` };
      renameSync(tmp, final);
      note = `this file system has no hard links: ${name} was renamed into place (safe against other kb writers, which take the topic's lock)`;
    }
    syncDir(dir);
    return note === undefined ? { ok: true } : { ok: true, note };
  } catch (err) {
    return { ok: false, exists: false, why: `cannot write ${name} in ${shown} (${code(err)})` };
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // Renamed into place, or already gone.
    }
  }
}

/** Whether `dir/name` is the file of inode `ino` (not followed). */
export function isFile(dir: string, name: string, ino: number): boolean {
  try {
    return lstatSync(`${dir}/${name}`).ino === ino;
  } catch {
    return false;
  }
}

/**
 * A test hook, for kb's own tests only (not a user setting):
 * `KB_TEST_PAUSE_AT=<point>:<marker>` makes a writer that reaches `<point>`
 * write `<marker>` (holding the temporary file's path) and wait while the
 * marker exists, at most 60 s. A test can then look at the directory, or
 * kill the writer, at exactly that point, where a watcher and a signal
 * would race. Points: `before-check` (the temporary file is written and
 * flushed, its folder not checked again yet), `before-link` (checked, its
 * name not linked yet), `before-replace` (replaceFile: the new content is
 * written and flushed, the file it replaces not checked again yet),
 * `before-rename` (replaceFile: the old file found unchanged, not renamed
 * over yet). Read once per file written, never on a read path.
 */
function pauseForTest(point: string, tmp: string): void {
  const spec = process.env.KB_TEST_PAUSE_AT;
  if (spec === undefined || !spec.startsWith(`${point}:`)) return;
  const marker = spec.slice(point.length + 1);
  writeFileSync(marker, tmp);
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (const end = Date.now() + 60_000; Date.now() < end && existsSync(marker); ) Atomics.wait(tick, 0, 0, 10);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Creates the directories `rels` (in order) below `root`; an existing
 *  one is fine. */
export function makeDirs(root: string, rels: readonly string[]): string | undefined {
  for (const rel of rels) {
    try {
      mkdirSync(`${root}/${rel}`);
    } catch (err) {
      if (code(err) !== 'EEXIST') return `cannot create the folder ${rel} (${code(err)})`;
    }
  }
  return undefined;
}

/** Removes `path` and flushes its directory. */
export function removeFile(dir: string, name: string): string | undefined {
  try {
    unlinkSync(`${dir}/${name}`);
  } catch (err) {
    return `cannot remove ${name} (${code(err)})`;
  }
  syncDir(dir);
  return undefined;
}

/** Removes temporary files older than `ageMs` left in `dir` by
 *  interrupted writes; returns their names. Called under the topic's
 *  lock, when no other kb writer can be writing them. */
export function sweepTemps(dir: string, ageMs: number, now = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    try {
      if (now - statSync(`${dir}/${name}`).mtimeMs < ageMs) continue;
      unlinkSync(`${dir}/${name}`);
      removed.push(name);
    } catch {
      // Gone already.
    }
  }
  return removed;
}

/** Replaces the file `dir/name` with `data` at once: a temporary file in
 *  the same directory (mode `mode`), flushed, then renamed over it, so that
 *  a reader sees the old file or the new one, never a part. `unchanged` is
 *  asked last whether the file is still what the caller read (another
 *  editor may have saved it meanwhile); undefined means go on. */
export function replaceFile(dir: string, name: string, data: Uint8Array, mode: number, unchanged: () => string | undefined = () => undefined): string | undefined {
  const tmp = `${dir}/${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`;
  let fd: number;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode & 0o777);
  } catch (err) {
    return `cannot create a file in ${dir} (${code(err)})`;
  }
  let renamed = false;
  try {
    try {
      // The old file's permissions, whatever the umask.
      chmodSync(tmp, mode & 0o777);
      for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    pauseForTest('before-replace', tmp);
    const stop = unchanged();
    if (stop !== undefined) return stop;
    pauseForTest('before-rename', tmp);
    renameSync(tmp, `${dir}/${name}`);
    renamed = true;
    syncDir(dir);
    return undefined;
  } catch (err) {
    return `cannot write ${name} in ${dir} (${code(err)})`;
  } finally {
    if (!renamed) {
      try {
        unlinkSync(tmp);
      } catch {
        // Already gone.
      }
    }
  }
}

/** What identifies a file's content as read: it changed when any differs. */
export interface Seen {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const seen = (st: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number }): Seen => ({ dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });

/** Reads the regular file `dir/name` (never through a symbolic link) to
 *  replace it: its bytes and what identifies them; `missing` when there is
 *  no such file; else why it cannot be (a link, not a regular file, larger
 *  than `limit`). */
export function readToReplace(dir: string, name: string, limit: number): { ok: true; bytes: Uint8Array; seen: Seen; mode: number } | { ok: false; missing: boolean; why: string } {
  let fd: number;
  try {
    const st = lstatSync(`${dir}/${name}`);
    if (st.isSymbolicLink()) return { ok: false, missing: false, why: `${name} is a symbolic link` };
    if (!st.isFile()) return { ok: false, missing: false, why: `${name} is not a regular file` };
    fd = openSync(`${dir}/${name}`, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    return { ok: false, missing: code(err) === 'ENOENT', why: `cannot read ${name} (${code(err)})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, missing: false, why: `${name} is not a regular file` };
    if (st.size > limit) return { ok: false, missing: false, why: `${name} is ${st.size} bytes, more than ${limit}` };
    const bytes = new Uint8Array(st.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return { ok: true, bytes: at === bytes.length ? bytes : bytes.subarray(0, at), seen: seen(st), mode: st.mode };
  } catch (err) {
    return { ok: false, missing: false, why: `cannot read ${name} (${code(err)})` };
  } finally {
    closeSync(fd);
  }
}

/** Why `dir/name` is no longer the file `was` describes (another writer
 *  changed, replaced or removed it), or undefined; `was` undefined: why
 *  there is a file there now. */
export function changedSince(dir: string, name: string, was: Seen | undefined): string | undefined {
  let st;
  try {
    st = lstatSync(`${dir}/${name}`);
  } catch (err) {
    if (code(err) === 'ENOENT') return was === undefined ? undefined : `${name} was removed meanwhile`;
    return `cannot look at ${name} (${code(err)})`;
  }
  if (was === undefined) return `${name} was created meanwhile`;
  const now = seen(st);
  return now.dev === was.dev && now.ino === was.ino && now.size === was.size && now.mtimeMs === was.mtimeMs && now.ctimeMs === was.ctimeMs ? undefined : `${name} was changed meanwhile`;
}
