// The folders a write makes or leaves behind (docs/guide/search-and-memory.md,
// "Remembering"): a topic's subjects directory that does not exist yet is
// created by the first `remember`, inside the workspace only and never
// through a symbolic link; `forget` removes the folders it emptied, up to
// (never including) the topic's directory.

import { lstatSync, mkdirSync, rmdirSync } from 'node:fs';
import { realpathSteady } from '../../shared/realpath.ts';
import { isAbsolute, relative, sep } from 'node:path';

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? String(err);
}

/** Whether `path` does not exist at all (a dangling link exists). */
export function isMissing(path: string): boolean {
  try {
    lstatSync(path);
    return false;
  } catch (err) {
    return code(err) === 'ENOENT';
  }
}

/**
 * Creates the missing subjects directory `dir` below the workspace root
 * `root`, one folder at a time. Every folder on the way that exists must be
 * a real folder (not a symbolic link). Returns `dir` relative to `root`
 * (`/`-separated), or why it was not created.
 */
export function makeSubjectsDir(root: string, dir: string): { ok: true; created: string } | { ok: false; why: string } {
  const rel = relative(root, dir);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return { ok: false, why: 'its subjects directory does not exist (kb creates one only inside the workspace)' };
  }
  const parts = rel.split(sep);
  let at = root;
  for (let i = 0; i < parts.length; i++) {
    at = `${at}${sep}${parts[i]}`;
    const shown = parts.slice(0, i + 1).join('/');
    try {
      mkdirSync(at);
      continue;
    } catch (err) {
      if (code(err) !== 'EEXIST') return { ok: false, why: `its subjects directory does not exist and ${shown} cannot be created (${code(err)})` };
    }
    let st;
    try {
      st = lstatSync(at);
    } catch {
      st = undefined;
    }
    if (st?.isSymbolicLink()) return { ok: false, why: `its subjects directory does not exist, and kb creates none through a symbolic link (${shown})` };
    if (st === undefined || !st.isDirectory()) return { ok: false, why: `its subjects directory does not exist, and ${shown} is not a folder` };
  }
  return { ok: true, created: parts.join('/') };
}

/**
 * Removes the folders of `rel` (a subject file's path below the real
 * subjects directory `root`) that are empty now, deepest first, stopping at
 * the first that is not (or is reached through a symbolic link); never
 * `root` itself. Returns the folders removed, relative to `root`.
 */
export function removeEmptyFolders(root: string, rel: string): string[] {
  const removed: string[] = [];
  for (let slash = rel.lastIndexOf('/'); slash > 0; slash = rel.lastIndexOf('/', slash - 1)) {
    const folder = rel.slice(0, slash);
    const abs = `${root}/${folder}`;
    try {
      // Reached through a link: what the link points at is never touched.
      if (realpathSteady(abs) !== abs.split('/').join(sep)) break;
      rmdirSync(abs);
    } catch {
      break; // not empty (or gone, or not ours): the folders above are not empty either
    }
    removed.push(folder);
  }
  return removed;
}
