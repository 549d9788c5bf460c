// What the main thread and the reader thread (thread.ts, thread-worker.ts)
// share: the job message and the layout of its shared memory.
//
// A job is a list of files. Both threads take files from the front of the
// list by an atomic counter, a chunk at a time, so either can sniff any file
// and none is sniffed twice.

import type { SniffResult } from './types.ts';

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
