// Many stats below one folder, made with paths relative to it: the kernel
// looks up each component of a path, and a path relative to the working
// directory starts where the folder's own components end. Statting the
// 10,021 files of the search benchmark (paths 8 components deep) took
// 39-43 ms by absolute path and 31-34 ms relative to their topic's folder
// (docs/development/performance.md, "Search, warm").
//
// The working directory is the process's: it is moved only on the main
// thread (a worker's code must not move it under the main thread), only for
// a synchronous run (no other code runs meanwhile), and put back after it.

import process from 'node:process';

/** False in a worker (the reader thread's entry says so, `inWorker`): a
 *  worker has no working directory of its own (Node throws, Bun would move
 *  the whole process's). Told, not detected: importing node:worker_threads
 *  to ask costs a search about 6 ms. */
let main = true;

/** Said by a worker's entry before it runs any job. */
export function inWorker(): void {
  main = false;
}

/**
 * Runs `f(base)` with the working directory moved to `dir` where it can
 * be: `base` is '' then (a path relative to `dir` is used as it is), else
 * `dir` with a `/` after it (the run is the same, by absolute paths). The
 * working directory is back where it was when `f` returns or throws.
 * Paths given to `f`'s stats must be relative to `dir` and hold no `..`
 * (the trust check of a cache's paths, search/trust.ts, holds them to it;
 * a stat of another path reads nothing).
 */
export function withinDir<T>(dir: string, f: (base: string) => T): T {
  const slashed = dir.endsWith('/') ? dir : `${dir}/`;
  const back = main && dir.startsWith('/') ? enter(dir) : undefined;
  if (back === undefined) return f(slashed);
  try {
    return f('');
  } finally {
    leave(back);
  }
}

/** `f(prefix)`, `prefix` going before relative paths: within the folder
 *  (`withinDir`) where `prefix` is an absolute folder's path with its
 *  separator, else as it is (a prefix of '' or of names). */
export function withinPrefix<T>(prefix: string, f: (base: string) => T): T {
  return prefix.length > 1 && prefix.startsWith('/') && prefix.endsWith('/') ? withinDir(prefix, f) : f(prefix);
}

/** Moves the working directory to `dir`; returns the one to go back to,
 *  or undefined (not moved). */
function enter(dir: string): string | undefined {
  try {
    const back = process.cwd();
    process.chdir(dir);
    return back;
  } catch {
    return undefined;
  }
}

/** Goes back to `back`. Where it cannot (it was removed meanwhile), to the
 *  root: kb resolves its paths before a search, and a relative path must
 *  not go on resolving in the topic's folder. */
function leave(back: string): void {
  try {
    process.chdir(back);
  } catch {
    try {
      process.chdir('/');
    } catch {
      // nowhere else to go
    }
  }
}
