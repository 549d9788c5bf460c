// What the main thread and the reader thread (thread.ts, thread-worker.ts)
// share: the job message and the layout of its shared memory.
//
// A job is a list of files. Both threads take files from the front of the
// list by an atomic counter, a chunk at a time, so either can sniff any file
// and none is sniffed twice.

import { sniffFile } from './probe.ts';
import type { SniffResult } from '../index/types.ts';

/** Indices into a job's control words (an Int32Array over shared memory). */
export const NEXT = 0; // the first file nobody has taken yet
export const DONE = 1; // files finished, by both threads
export const STOP = 2; // set by the main thread: the job is over
export const CONTROL_WORDS = 3;

/** Files a thread takes at a time. */
export const SNIFF_CHUNK = 16;

/** Sniff results, one byte per file (0 while not done yet). */
export const SNIFF_TEXT = 1;
export const SNIFF_BINARY = 2;
export const SNIFF_ERROR = 3;

export function sniffCode(r: SniffResult): number {
  return r === 'text' ? SNIFF_TEXT : r === 'binary' ? SNIFF_BINARY : SNIFF_ERROR;
}

export function sniffResult(code: number): SniffResult {
  return code === SNIFF_TEXT ? 'text' : code === SNIFF_BINARY ? 'binary' : 'error';
}

export interface SniffJob {
  kind: 'sniff';
  /** The paths, joined by NUL (which no path holds): one string crosses to
   *  the other thread many times faster than an array of thousands. */
  paths: string;
  /** Control words, then one result byte per file. */
  shared: SharedArrayBuffer;
}

export const PATH_SEPARATOR = '\0';

/** One thread's share of a job: takes chunks of files until none is left
 *  (or the job is stopped), sniffs them, and counts them done. Both threads
 *  run it on the same list. Returns how many files this thread sniffed. */
export function sniffShare(paths: readonly string[], control: Int32Array, results: Uint8Array): number {
  const n = paths.length;
  let mine = 0;
  for (;;) {
    if (Atomics.load(control, STOP) !== 0) return mine;
    const from = Atomics.add(control, NEXT, SNIFF_CHUNK);
    if (from >= n) return mine;
    const to = Math.min(from + SNIFF_CHUNK, n);
    for (let i = from; i < to; i++) results[i] = sniffCode(sniffFile(paths[i]));
    Atomics.add(control, DONE, to - from);
    Atomics.notify(control, DONE);
    mine += to - from;
  }
}
