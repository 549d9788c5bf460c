// The reader thread's probe: listing a topic reads the first 8192 bytes
// of every subject, which is bound by system calls (open, read, close), so
// on a machine with two cores a second thread doing half of them cuts the
// wall time. The thread starts with the first large job and is let go with
// `close()`.
//
// The main thread never depends on it: both take files from the front of a
// job's list by an atomic counter, so whatever the reader thread has not
// taken, the main thread sniffs itself; a thread that starts late, is slow
// or fails to start only means the main thread does more. The verdicts are
// the same either way (both threads run `sniffFile`), and each file is read
// once: the 8192-byte bound on binary files holds.
//
// (Loading subjects stays on the main thread: reading ahead in the second
// thread was measured slower, as the two threads and the engine's compiler
// threads then compete for the two cores.)

import { PROBED, sniffFile, type Probe, type ProbeFeed, type ProbeKind, type ProbeResult } from './probe.ts';

// --- The protocol the two threads share (probe-worker.ts imports it) -----
//
// A job is a list of files. Both threads take files from the front of the
// list by an atomic counter, a chunk at a time, so either can probe any
// file and none is probed twice. Each file's result is one byte in shared
// memory: the kind. (Facts beyond the kind will need a second shared
// region, written by the thread that probed the file.)

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

export function sniffCode(r: ProbeKind): number {
  return r === 'text' ? SNIFF_TEXT : r === 'binary' ? SNIFF_BINARY : SNIFF_ERROR;
}

export function probeResultOf(code: number): ProbeResult {
  return PROBED[code === SNIFF_TEXT ? 'text' : code === SNIFF_BINARY ? 'binary' : 'error'];
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

// --- The main thread's side ----------------------------------------------

/** Jobs with fewer files are done on the main thread alone: starting the
 *  thread costs about as much as a few hundred reads. */
export const MIN_PARALLEL_FILES = 256;

/** How long the main thread waits for the reader thread's files before it
 *  sniffs what is missing itself. */
const STALL_MS = 10_000;

/** A probe whose work the main thread and a reader thread share. */
export interface ReaderThread extends Probe {
  /** Probes `paths`, the two threads sharing the work. */
  probe(paths: readonly string[]): ProbeResult[];
  /** Probes files as they are found (while a directory is walked): the
   *  reader thread starts on them in batches, and `finish` does the rest. */
  feed(): ProbeFeed;
  /** Files sniffed so far, and how many of them the reader thread did. */
  stats(): { files: number; byThread: number; started: boolean };
  /** Lets the thread go (when it was started). */
  close(): void;
}

/** A sniff job's list and its shared memory: control words, then one
 *  result byte per file. */
interface SniffBatch {
  paths: readonly string[];
  shared: SharedArrayBuffer;
  control: Int32Array;
  results: Uint8Array;
  /** Posted to the reader thread. */
  posted: boolean;
}

function sniffBatch(paths: readonly string[]): SniffBatch {
  const shared = new SharedArrayBuffer(CONTROL_WORDS * 4 + paths.length);
  return { paths, shared, control: new Int32Array(shared, 0, CONTROL_WORDS), results: new Uint8Array(shared, CONTROL_WORDS * 4, paths.length), posted: false };
}

/** The main thread's share of a batch: whatever nobody has taken yet.
 *  Returns how many files that was. */
function sniffHere(batch: SniffBatch): number {
  return sniffShare(batch.paths, batch.control, batch.results);
}

/** Waits for the files the reader thread took; should it stall, sniffs
 *  what is missing here. Returns how many files that was. */
function awaitBatch(batch: SniffBatch): number {
  if (!batch.posted) return 0;
  const { paths, control, results } = batch;
  const n = paths.length;
  const until = Date.now() + STALL_MS;
  for (let done = Atomics.load(control, DONE); done < n; done = Atomics.load(control, DONE)) {
    if (Date.now() > until) {
      Atomics.store(control, STOP, 1);
      let here = 0;
      for (let i = 0; i < n; i++) {
        if (Atomics.load(results, i) !== 0) continue;
        results[i] = sniffCode(sniffFile(paths[i]));
        here++;
      }
      return here;
    }
    Atomics.wait(control, DONE, done, 50);
  }
  return 0;
}

/** Files per batch of a sniff feed. */
const FEED_BATCH = 256;

/** A reader thread running the module at `url` (src/reader-thread.ts: the
 *  entry point, whose URL only the entry module can name for both the
 *  sources and the compiled binary), started lazily by the first job with
 *  at least `minFiles` files. With one CPU, or where workers are not
 *  available, every job runs on the main thread. */
export function readerThread(url: string, minFiles = MIN_PARALLEL_FILES): ReaderThread {
  let worker: Worker | null | undefined; // undefined: not tried yet
  let started = false;
  const start = (): Worker | null => {
    if (worker !== undefined) return worker;
    worker = null;
    try {
      if ((globalThis.navigator?.hardwareConcurrency ?? 2) < 2) return null;
      const w = new Worker(url, { type: 'module' });
      // A worker that fails to load never takes a file: nothing to undo.
      w.onerror = (e) => e.preventDefault?.();
      worker = w;
      started = true;
    } catch {
      worker = null;
    }
    return worker;
  };
  const post = (job: SniffJob, size: number): boolean => {
    if (size < minFiles) return false;
    const w = start();
    if (w === null) return false;
    try {
      w.postMessage(job);
      return true;
    } catch {
      return false;
    }
  };
  const postBatch = (batch: SniffBatch, size = batch.paths.length): void => {
    batch.posted = post({ kind: 'sniff', paths: batch.paths.join(PATH_SEPARATOR), shared: batch.shared }, size);
  };
  let files = 0;
  let byMain = 0;
  /** Sniffs the batches (the main thread's share, then waits for the
   *  rest) and counts who did what. */
  const complete = (batches: readonly SniffBatch[]): void => {
    for (const batch of batches) byMain += sniffHere(batch);
    for (const batch of batches) {
      byMain += awaitBatch(batch);
      files += batch.paths.length;
    }
  };

  return {
    probe(paths) {
      const batch = sniffBatch(paths);
      postBatch(batch);
      complete([batch]);
      return Array.from(batch.results, probeResultOf);
    },

    feed() {
      const batches: SniffBatch[] = [];
      let pending: string[] = [];
      let fed = 0;
      return {
        add(path) {
          pending.push(path);
          if (pending.length < FEED_BATCH) return;
          const batch = sniffBatch(pending);
          batches.push(batch);
          fed += pending.length;
          pending = [];
          // The thread starts once the feed reaches `minFiles`.
          postBatch(batch, fed);
        },
        finish() {
          if (pending.length > 0) batches.push(sniffBatch(pending));
          pending = [];
          complete(batches);
          const out: ProbeResult[] = [];
          for (const batch of batches) for (const code of batch.results) out.push(probeResultOf(code));
          return out;
        },
      };
    },

    stats() {
      return { files, byThread: files - byMain, started };
    },

    close() {
      // Every job is over, so the thread is idle. Terminating it waits for
      // its engine to shut down (about 5 ms in the binary); where the
      // runtime can let go of it instead (Bun), the process simply exits
      // without waiting. Deno has no `unref`, so there it is terminated.
      const w = worker as (Worker & { unref?: () => void }) | null | undefined;
      if (w) {
        if (typeof w.unref === 'function') w.unref();
        else w.terminate();
      }
      worker = null;
    },
  };
}
