// The reader thread's probe: listing a topic reads the first 8192 bytes
// of every subject, which is bound by system calls (open, read, close), so
// on a machine with two cores a second thread doing half of them cuts the
// wall time. The thread starts with the first large job and is let go with
// `close()`.
//
// The main thread never depends on it: both take files from the front of a
// job's list by an atomic counter, so whatever the reader thread has not
// taken, the main thread probes itself; a thread that starts late, is slow
// or fails to start only means the main thread does more. The results are
// the same either way (both threads run `probeRaw`, probe.ts), and each file
// is read once (but a rare second read of a head whose frontmatter did not
// fit, below): the 8192-byte bound on binary files holds.
//
// (Loading subjects stays on the main thread: reading ahead in the second
// thread was measured slower, as the two threads and the engine's compiler
// threads then compete for the two cores.)

import { readdirSync, readFileSync } from 'node:fs';
import { titleFormatOfPath } from '../content/title.ts';
import { withinPrefix } from './within.ts';
import { statOrNone } from '../../shared/stat.ts';
import { decodeFront, isRawHead, lastProbedSize, lastProbedStat, PROBED, probeRaw, textResult, TITLES_SKIPPED, UNCLOSED_RESULT, type FeedOptions, type FeedTaker, type Probe, type ProbeFeed, type ProbeResult, type RawHead, type StatJobHandle, type StatPaths } from './probe.ts';
import { decodeTitle, probeFile, TITLES } from './probe-titles.ts';

// --- The protocol the two threads share (probe-worker.ts imports it) -----
//
// A job is a list of files. Both threads take files from the front of the
// list by an atomic counter, a chunk at a time, so either can probe any
// file and none is probed twice. Each file's result is one code byte in
// shared memory (CODE_*: its kind, and whether it has frontmatter, a title
// or a summary). A text file's frontmatter, title and summary (probe.ts)
// go into a second shared region, written by the thread that probed the
// file: their bytes one after the other at an offset taken by an atomic
// counter, the offset and the three lengths in four words per file. When
// the region is full, the file's code says so and the main thread probes
// that file again (a rare second read of its head). A text file's size
// (probe.ts `lastProbedSize`) goes into a third region: one float per
// file, the size plus one (0: not known).

/** Indices into a job's control words (an Int32Array over shared memory). */
export const NEXT = 0; // the first file nobody has taken yet
export const DONE = 1; // files finished, by both threads
export const STOP = 2; // set by the main thread: the job is over
export const SKIP = 3; // set by the main thread: search no head for a title from now on
export const TIMED = 4; // set by the main thread: each file's size and time too (probe.ts `timed`)
export const CONTROL_WORDS = 6; // (even: the floats after them stay 8-byte aligned)

/** Files a thread takes at a time. */
export const PROBE_CHUNK = 16;

/** Probe results, one byte per file (0 while not done yet). */
export const CODE_TEXT = 1;
export const CODE_BINARY = 2;
export const CODE_ERROR = 3;
/** Text with frontmatter, in the frontmatter region. */
export const CODE_FRONT = 4;
/** Text whose frontmatter is not closed within the head. */
export const CODE_UNCLOSED = 5;
/** Text with frontmatter that did not fit the region: probe again. */
export const CODE_AGAIN = 6;
/** Added to CODE_TEXT or CODE_FRONT: a title or summary is in the region. */
export const CODE_HEAD = 0x10;
/** Added to CODE_TEXT or CODE_FRONT: the head was not searched for a title
 *  (ProbeResult.titlesSkipped). */
export const CODE_SKIPPED = 0x20;

/** Words per file in a batch's spans: offset, then the lengths of the
 *  frontmatter, the title and the summary. */
export const SPAN_WORDS = 4;

/** Where frontmatter, titles and summaries cross between the threads: a
 *  pool of bytes shared by every batch of a job (`alloc` is its next free
 *  byte, taken by an atomic add), and per batch each file's offset and
 *  lengths (`spans`, SPAN_WORDS words per file). */
export interface FrontRegion {
  pool: SharedArrayBuffer;
  alloc: Int32Array;
  /** Length-tracking: sees the pool as it grows. */
  bytes: Uint8Array;
  spans: Int32Array;
}

/** A pool starts small and grows as frontmatter arrives (a growable
 *  SharedArrayBuffer: memory is committed only as it grows, where a fixed
 *  one of the largest size would be zeroed up front, about 0.3 ms per MiB).
 *  A file whose frontmatter does not fit the largest pool is probed again
 *  by the main thread. */
const POOL_START = 64 * 1024;
const POOL_MAX = 64 * 1024 * 1024;

/** A frontmatter pool. */
export function frontPool(): SharedArrayBuffer {
  try {
    return new (SharedArrayBuffer as new (n: number, o: { maxByteLength: number }) => SharedArrayBuffer)(POOL_START, { maxByteLength: POOL_MAX });
  } catch {
    return new SharedArrayBuffer(POOL_START); // no growable memory here: small and fixed
  }
}

let seenPool: SharedArrayBuffer | undefined;
let seenLength = 0;

/** Grows `pool` to hold `end` bytes, if it can; whether it does. Either
 *  thread may grow it: a smaller length than the current one is refused,
 *  so a race is settled by reading the length again. */
function reserve(pool: SharedArrayBuffer, end: number): boolean {
  // The length last seen: a pool only grows.
  if (pool === seenPool && end <= seenLength) return true;
  seenPool = pool;
  seenLength = pool.byteLength;
  if (end <= seenLength) return true;
  const g = pool as SharedArrayBuffer & { growable?: boolean; grow?: (n: number) => void };
  if (!g.growable || end > POOL_MAX) return false;
  try {
    g.grow!(Math.min(POOL_MAX, Math.max(end, pool.byteLength * 2)));
  } catch {
    // The other thread grew it meanwhile (or the memory is not there).
  }
  return end <= pool.byteLength;
}

/** The region over a pool and a batch's spans (made when not given). */
export function frontRegion(pool: SharedArrayBuffer, files: number, spans?: Int32Array): FrontRegion {
  spans ??= new Int32Array(new SharedArrayBuffer(4 * SPAN_WORDS * files));
  return { pool, alloc: new Int32Array(pool, 0, 1), bytes: new Uint8Array(pool, 4), spans };
}

/** A probe job's own shared memory, one buffer for the `files` files of
 *  a batch: each SharedArrayBuffer a message carries costs about 17 µs to
 *  post (and about as much to receive), where the rest of a batch's
 *  message costs a few. In it: the control words, three floats per file
 *  (its size as a text file plus one, 0: not known; with TIMED, its size
 *  plus one, 0: not known, and its modification time, from an fstat made
 *  before its head was read), its spans (FrontRegion), and its result
 *  code. */
export interface BatchMemory {
  control: Int32Array;
  sizes: Float64Array;
  spans: Int32Array;
  results: Uint8Array;
}

/** Floats per file in a batch's `sizes` (BatchMemory). */
export const SIZE_FLOATS = 3;

/** The bytes of a batch's memory (BatchMemory) for `files` files. */
export function batchBytes(files: number): number {
  return CONTROL_WORDS * 4 + files * (8 * SIZE_FLOATS + 4 * SPAN_WORDS + 1);
}

/** The views of a batch's memory (`shared`, of `batchBytes(files)`). */
export function batchMemory(shared: SharedArrayBuffer, files: number): BatchMemory {
  // The floats first, where their 8-byte alignment holds (CONTROL_WORDS
  // is even).
  const sizesAt = CONTROL_WORDS * 4;
  const spansAt = sizesAt + 8 * SIZE_FLOATS * files;
  const resultsAt = spansAt + 4 * SPAN_WORDS * files;
  return {
    control: new Int32Array(shared, 0, CONTROL_WORDS),
    sizes: new Float64Array(shared, sizesAt, SIZE_FLOATS * files),
    spans: new Int32Array(shared, spansAt, SPAN_WORDS * files),
    results: new Uint8Array(shared, resultsAt, files),
  };
}


/** File `i`'s probe result (as `probeRaw` gives it) as a code, and its
 *  frontmatter, title and summary in `region`. */
export function probeCode(r: ProbeResult | RawHead, i = 0, region?: FrontRegion): number {
  if (!isRawHead(r)) {
    if (r.kind !== 'text') return r.kind === 'binary' ? CODE_BINARY : CODE_ERROR;
    if (r.front === null) return CODE_UNCLOSED;
    // Decoded results have no bytes here: their file is probed again.
    if (r.front === undefined && r.title === undefined && r.summary === undefined) return r.titlesSkipped ? CODE_TEXT | CODE_SKIPPED : CODE_TEXT;
    return CODE_AGAIN;
  }
  if (region === undefined) return CODE_AGAIN;
  const front = r.front instanceof Uint8Array ? r.front : undefined;
  const f = front?.length ?? 0;
  const t = r.title?.length ?? 0;
  const m = r.summary?.length ?? 0;
  const at = Atomics.add(region.alloc, 0, f + t + m);
  if (!reserve(region.pool, 4 + at + f + t + m)) return CODE_AGAIN;
  if (front !== undefined) region.bytes.set(front, at);
  if (r.title !== undefined) region.bytes.set(r.title, at + f);
  if (r.summary !== undefined) region.bytes.set(r.summary, at + f + t);
  const w = SPAN_WORDS * i;
  region.spans[w] = at;
  region.spans[w + 1] = f;
  region.spans[w + 2] = r.title === undefined ? -1 : t;
  region.spans[w + 3] = r.summary === undefined ? -1 : m;
  const base = (front !== undefined ? CODE_FRONT : r.front === null ? CODE_UNCLOSED : CODE_TEXT) | (r.titlesSkipped ? CODE_SKIPPED : 0);
  return r.title === undefined && r.summary === undefined ? base : base | CODE_HEAD;
}

/** File `i`'s probe result from its code (CODE_AGAIN: probed again). */
export function probeResultOf(code: number, i = 0, region?: FrontRegion, path?: string): ProbeResult {
  const base = code & ~(CODE_HEAD | CODE_SKIPPED);
  const skipped = (code & CODE_SKIPPED) !== 0;
  switch (base) {
    case CODE_TEXT:
    case CODE_FRONT: {
      if (code === CODE_TEXT) return PROBED.text;
      if (code === (CODE_TEXT | CODE_SKIPPED)) return TITLES_SKIPPED;
      if (region === undefined) return PROBED.text;
      const w = SPAN_WORDS * i;
      const at = region.spans[w];
      const f = region.spans[w + 1];
      const t = region.spans[w + 2];
      const m = region.spans[w + 3];
      // Views of the shared bytes (decodeFront copies what it must).
      const bytes = region.bytes;
      const front = base === CODE_FRONT ? decodeFront(bytes.subarray(at, at + f)) : undefined;
      if ((code & CODE_HEAD) === 0) return textResult(front, undefined, undefined, skipped);
      const format = path === undefined ? undefined : titleFormatOfPath(path);
      const title = t < 0 ? undefined : decodeTitle(bytes.subarray(at + f, at + f + t), format);
      const summary = m < 0 ? undefined : decodeTitle(bytes.subarray(at + f + Math.max(0, t), at + f + Math.max(0, t) + m), format);
      return textResult(front, title, summary);
    }
    case CODE_BINARY:
      return PROBED.binary;
    case CODE_UNCLOSED:
      return UNCLOSED_RESULT;
    case CODE_AGAIN:
      return path === undefined ? PROBED.text : probeFile(path);
    default:
      return PROBED.error;
  }
}

export interface ProbeJob {
  kind: 'probe';
  /** The paths, joined by NUL (which no path holds): one string crosses to
   *  the other thread many times faster than an array of thousands. */
  paths: string;
  /** The batch's memory (BatchMemory), `batchBytes` of the number of
   *  paths. */
  shared: SharedArrayBuffer;
  /** The frontmatter pool (FrontRegion); absent: the previous job's. */
  pool?: SharedArrayBuffer;
}

export const PATH_SEPARATOR = '\0';

/** A stat job: every file's size and mtime (a search revalidating its
 *  cached index: one stat per indexed file), the two threads sharing the
 *  list as they share a probe job's. */
export interface StatJob {
  kind: 'stat';
  /** The paths, joined by NUL; or, packed (StatPaths.packed), their
   *  bytes and lengths. */
  paths?: string;
  bytes?: ArrayBuffer;
  lens?: ArrayBuffer;
  gap?: number;
  /** Goes before each path. */
  prefix: string;
  /** Control words (CONTROL_WORDS). */
  control: SharedArrayBuffer;
  /** Two floats per file (STAT_GONE, STAT_PENDING, or the size plus one,
   *  then the mtime in milliseconds). */
  values: SharedArrayBuffer;
}

/** A stat job's first float for a file not there (or not stat-able). */
export const STAT_GONE = -1;
/** ... and for a file not done yet. */
export const STAT_PENDING = 0;

/** One file's size and mtime into `values` (see StatJob). */
function statInto(path: string, values: Float64Array, i: number): void {
  const st = statOrNone(path);
  if (st === undefined) values[2 * i] = STAT_GONE;
  else {
    values[2 * i + 1] = st.mtimeMs;
    values[2 * i] = st.size + 1;
  }
}

/** Paths by index: an array's, or a stat job's packed ones. */
export type PathOf = (i: number) => string;

/** The paths a stat job's message carries (StatJob): path `i` of them. */
export function jobPaths(job: StatJob): PathOf {
  if (job.paths !== undefined) {
    const list = job.paths.split(PATH_SEPARATOR);
    return (i) => list[i];
  }
  return unpack(new Uint8Array(job.bytes ?? new ArrayBuffer(0)), new Uint32Array(job.lens ?? new ArrayBuffer(0)), job.gap ?? 0);
}

/** Path `i` of paths packed as StatPaths.packed gives them. */
export function unpack(bytes: Uint8Array, lens: Uint32Array, gap: number): PathOf {
  const text = new TextDecoder().decode(bytes);
  const at = new Uint32Array(lens.length + 1);
  let p = 0;
  for (let i = 0; i < lens.length; i++) {
    at[i] = p;
    p += lens[i] + gap;
  }
  at[lens.length] = p;
  return (i) => text.slice(at[i], at[i] + lens[i]);
}

/** One thread's share of a stat job (as `probeShare` for a probe job):
 *  `n` files, path `i` given by `pathOf`. */
export function statShare(n: number, pathOf: PathOf, control: Int32Array, values: Float64Array, prefix = ''): number {
  let mine = 0;
  for (;;) {
    if (Atomics.load(control, STOP) !== 0) return mine;
    const from = Atomics.add(control, NEXT, STAT_CHUNK);
    if (from >= n) return mine;
    const to = Math.min(from + STAT_CHUNK, n);
    for (let i = from; i < to; i++) statInto(prefix + pathOf(i), values, i);
    Atomics.add(control, DONE, to - from);
    Atomics.notify(control, DONE);
    mine += to - from;
  }
}

/** Stat jobs with fewer files are done on the main thread alone: a stat
 *  is much cheaper than a probe (a few microseconds), so the thread's
 *  start pays only on a long list. */
export const MIN_STAT_FILES = 1024;

/**
 * Why a stat job is left to the main thread although it is long: the
 * machine has no core to spare (undefined: it has one). The thread's start
 * costs about 10 ms of CPU (its engine, its code, about 1,700 page faults),
 * which a share of the stats pays back only when it runs at once on a core
 * of its own: searching the 10,000-subject bench, alternating, with the
 * thread and without it, 68 against 81 ms at the fastest (a free core) but
 * 99 against 94 ms p50 at load average 2.6 on 2 cores, and 107 against 100
 * at 3.9.
 *
 * From /proc/loadavg (`text`): a one-minute load average below
 * `cores - 0.5` is taken for a core to spare. The average lags by up to a
 * minute, so at or above it the tasks runnable now decide (its fourth
 * field, R of R/T, which counts this process's running threads too):
 * `mine` of them are this process's, and when the others leave a core
 * free beside the main thread (`others <= cores - 2`), there is one.
 * Programs run one after another (a benchmark, a script's loop) raise the
 * average past 1.5 on 2 cores by themselves while nothing else runs;
 * a busy loop on another core keeps `others` at 1 or more. Without
 * `mine` (not Linux's /proc/self) the average alone decides; where
 * there is no /proc/loadavg, a core is taken to be free.
 */
export function busyFrom(text: string | undefined, cores: number, mine?: number): string | undefined {
  const fields = text === undefined ? [] : text.split(' ', 4);
  const load = fields.length === 0 ? NaN : Number.parseFloat(fields[0]!);
  if (!Number.isFinite(load) || load < cores - 0.5) return undefined;
  const average = `load average ${load.toFixed(2)} on ${cores} cores`;
  const runnable = mine === undefined ? NaN : Number.parseInt(fields[3] ?? '', 10);
  if (!Number.isFinite(runnable)) return average;
  const others = Math.max(0, runnable - mine!);
  return others <= cores - 2 ? undefined : `${average}, ${others} other ${others === 1 ? 'task' : 'tasks'} running`;
}

/** This process's threads running now (state R in
 *  /proc/self/task/<tid>/stat): their ids, or undefined where that cannot
 *  be read. */
export function runningThreads(): Set<string> | undefined {
  try {
    const running = new Set<string>();
    for (const tid of readdirSync('/proc/self/task')) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
      } catch {
        continue; // a thread that ended meanwhile
      }
      // "tid (name) S ...": the name may hold ") ", so the last one ends it.
      if (stat.charCodeAt(stat.lastIndexOf(')') + 2) === 82 /* R */) running.add(tid);
    }
    return running;
  } catch {
    return undefined;
  }
}

/** The CPUs this process may use (2 where the runtime does not say). */
function cores(): number {
  return globalThis.navigator?.hardwareConcurrency ?? 2;
}

/** /proc/loadavg's text, or undefined where there is none. */
function readLoadavg(): string | undefined {
  try {
    return readFileSync('/proc/loadavg', 'latin1');
  } catch {
    return undefined; // not Linux: a core is taken to be free
  }
}

/** busyFrom on this machine now: one read of about 20 µs while the load
 *  average is low, made once per long stat job while the thread is not
 *  started. At or above it, the runnable tasks are read again between two
 *  reads of this process's threads; a thread counts as this process's
 *  running one only when it ran at both, so a thread that wakes meanwhile
 *  can only make the machine look busier (about 0.2 ms in all, some ten
 *  small reads). */
export function busyMachine(): string | undefined {
  const n = cores();
  const text = readLoadavg();
  if (busyFrom(text, n) === undefined) return undefined;
  const before = runningThreads();
  const now = readLoadavg();
  const after = runningThreads();
  if (before === undefined || after === undefined) return busyFrom(now ?? text, n);
  let mine = 0;
  for (const tid of after) if (before.has(tid)) mine++;
  return busyFrom(now ?? text, n, Math.max(1, mine));
}

/** Files a thread stats at a time (a stat is cheaper than a probe). */
const STAT_CHUNK = 64;

/** A stat of every file (`prefix` before each path) on this thread
 *  alone, when joined. */
export function statLater(paths: readonly string[] | StatPaths, prefix = ''): StatJobHandle {
  return { join: () => statEach(paths.length, pathsOf(paths), prefix), cancel: () => {} };
}

/** Every file's size and mtime, on this thread alone: [size, mtime] per
 *  file, the size -1 for a file not there. `prefix` goes before each
 *  path. */
export function statFiles(paths: readonly string[], prefix = ''): Float64Array {
  return statEach(paths.length, pathsOf(paths), prefix);
}

function statEach(n: number, pathOf: PathOf, prefix: string): Float64Array {
  const values = new Float64Array(2 * n);
  // Each file's values as this function returns them, at once (not a
  // shared job's, then turned: a second loop over them all).
  const each = (base: string): void => {
    for (let i = 0; i < n; i++) {
      const st = statOrNone(base + pathOf(i));
      if (st === undefined) values[2 * i] = -1;
      else {
        values[2 * i] = st.size;
        values[2 * i + 1] = st.mtimeMs;
      }
    }
  };
  // Relative to the folder they are in, when they all are (within.ts).
  withinPrefix(prefix, each);
  return values;
}

/** A stat job's values as `statFiles` returns them: sizes plus one back
 *  to sizes, -1 for a file not there. */
function unshifted(values: Float64Array): Float64Array {
  for (let i = 0; i < values.length; i += 2) values[i] = values[i] === STAT_GONE ? -1 : values[i] - 1;
  return values;
}

/** One thread's share of a job: takes chunks of files until none is left
 *  (or the job is stopped), probes them, and counts them done. Both threads
 *  run it on the same list. Returns how many files this thread probed. */
export function probeShare(paths: readonly string[], control: Int32Array, results: Uint8Array, region: FrontRegion, sizes?: Float64Array): number {
  const n = paths.length;
  let mine = 0;
  for (;;) {
    if (Atomics.load(control, STOP) !== 0) return mine;
    const from = Atomics.add(control, NEXT, PROBE_CHUNK);
    if (from >= n) return mine;
    const to = Math.min(from + PROBE_CHUNK, n);
    const titles = Atomics.load(control, SKIP) === 0;
    const timed = Atomics.load(control, TIMED) !== 0;
    for (let i = from; i < to; i++) {
      results[i] = probeCode(probeRaw(paths[i], titles ? TITLES : undefined, timed), i, region);
      if (sizes === undefined) continue;
      sizes[SIZE_FLOATS * i] = lastProbedSize() + 1;
      if (!timed) continue;
      const st = lastProbedStat();
      sizes[SIZE_FLOATS * i + 1] = st[0] + 1;
      sizes[SIZE_FLOATS * i + 2] = st[0] < 0 ? 0 : st[1];
    }
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
 *  probes what is missing itself. */
const STALL_MS = 10_000;

/** A probe whose work the main thread and a reader thread share. */
export interface ReaderThread extends Probe {
  /** Probes `paths`, the two threads sharing the work. */
  probe(paths: readonly string[]): ProbeResult[];
  /** Probes files as they are found (while a directory is walked): the
   *  reader thread starts on them in batches, and `finish` does the rest. */
  feed(take?: FeedTaker, opts?: FeedOptions): ProbeFeed;
  /** Files probed so far, and how many of them the reader thread did. */
  stats(): { files: number; byThread: number; started: boolean; /** Why a long stat job was left to the main thread. */ statsHere?: string };
  /** Lets the thread go (when it was started). */
  close(): void;
}

/** A probe job's list and its shared memory: control words, then one
 *  result byte per file. */
interface ProbeBatch {
  paths: readonly string[];
  shared: SharedArrayBuffer;
  pool: SharedArrayBuffer;
  region: FrontRegion;
  control: Int32Array;
  results: Uint8Array;
  /** Sizes plus one (0: not known). */
  sized: Float64Array;
  /** Posted to the reader thread. */
  posted: boolean;
}

function newBatch(paths: readonly string[], pool: SharedArrayBuffer = frontPool()): ProbeBatch {
  const shared = new SharedArrayBuffer(batchBytes(paths.length));
  const memory = batchMemory(shared, paths.length);
  return {
    sized: memory.sizes,
    paths,
    shared,
    pool,
    region: frontRegion(pool, paths.length, memory.spans),
    control: memory.control,
    results: memory.results,
    posted: false,
  };
}

/** The main thread's share of a batch: whatever nobody has taken yet.
 *  Returns how many files that was. */
function probeMainShare(batch: ProbeBatch): number {
  return probeShare(batch.paths, batch.control, batch.results, batch.region, batch.sized);
}

/** Waits for the files the reader thread took; should it stall, probes
 *  what is missing here. Returns how many files that was. */
function awaitBatch(batch: ProbeBatch): number {
  if (!batch.posted) return 0;
  const { paths, control, results, region } = batch;
  const n = paths.length;
  const until = Date.now() + STALL_MS;
  for (let done = Atomics.load(control, DONE); done < n; done = Atomics.load(control, DONE)) {
    if (Date.now() > until) {
      Atomics.store(control, STOP, 1);
      let here = 0;
      for (let i = 0; i < n; i++) {
        if (Atomics.load(results, i) !== 0) continue;
        results[i] = probeCode(probeRaw(paths[i], TITLES), i, region);
        here++;
      }
      return here;
    }
    Atomics.wait(control, DONE, done, 50);
  }
  return 0;
}

/** A finished batch's results, in order. */
function resultsOf(batch: ProbeBatch): ProbeResult[] {
  const out: ProbeResult[] = [];
  resultsInto(batch, out);
  return out;
}

/** Appends a finished batch's results to `out`, telling `take` of each. */
function resultsInto(batch: ProbeBatch, out: ProbeResult[], take?: FeedTaker): void {
  const { paths, results, region, sized } = batch;
  const base = out.length;
  for (let i = 0; i < paths.length; i++) {
    // Most files are plain text, with or without their titles searched.
    const code = results[i];
    const r = code === CODE_TEXT ? PROBED.text : code === (CODE_TEXT | CODE_SKIPPED) ? TITLES_SKIPPED : probeResultOf(code, i, region, paths[i]);
    out[base + i] = r;
    if (take !== undefined) take(base + i, r, sized[SIZE_FLOATS * i] - 1);
  }
}

/** Files per batch of a probe feed. */
const FEED_BATCH = 256;

/** What a reader thread's jobs share: the worker (started by the first
 *  large job), the pool it was last sent, and who probed how many files. */
interface ThreadState {
  url: string;
  minFiles: number;
  worker: Worker | null | undefined; // undefined: not tried yet
  started: boolean;
  /** The pool the thread was last sent: a job with the same one (every
   *  batch of a feed) does not carry it again. */
  sentPool: SharedArrayBuffer | undefined;
  files: number;
  byMain: number;
  /** Why a long stat job was left to the main thread (busyMachine). */
  busy: () => string | undefined;
  /** That reason, once a job was left so. */
  statsHere?: string;
}

/** The worker, started on first use; null where there is none (one CPU,
 *  no workers, or it failed to start). */
function startWorker(state: ThreadState): Worker | null {
  if (state.worker !== undefined) return state.worker;
  state.worker = null;
  try {
    if (cores() < 2) return null;
    const w = new Worker(state.url, { type: 'module' });
    // A worker that fails to load never takes a file: nothing to undo.
    w.onerror = (e) => e.preventDefault?.();
    state.worker = w;
    state.started = true;
  } catch {
    state.worker = null;
  }
  return state.worker;
}

/** Sends a job to the reader thread when `size` files make it worth
 *  starting (and it can start); whether it went. The message (and the
 *  buffers it hands over) is made only then: nothing is joined or packed
 *  for a job that stays on this thread. */
function post(state: ThreadState, size: number, message: () => { job: ProbeJob | StatJob; handed?: ArrayBuffer[] }): boolean {
  if (size < state.minFiles) return false;
  const w = startWorker(state);
  if (w === null) return false;
  try {
    const { job, handed = [] } = message();
    w.postMessage(job, handed);
    return true;
  } catch {
    return false;
  }
}

/** Sends a probe batch to the reader thread (when `size` files make it
 *  worth starting) and notes whether it went. */
function postBatch(state: ThreadState, batch: ProbeBatch, size = batch.paths.length): void {
  batch.posted = post(state, size, () => {
    const job: ProbeJob = { kind: 'probe', paths: batch.paths.join(PATH_SEPARATOR), shared: batch.shared };
    if (batch.pool !== state.sentPool) job.pool = batch.pool;
    return { job };
  });
  if (batch.posted) state.sentPool = batch.pool;
}

/** Probes the batches (the main thread's share, then waits for the rest)
 *  and counts who did what. */
function complete(state: ThreadState, batches: readonly ProbeBatch[], between?: () => void): void {
  for (const batch of batches) {
    state.byMain += probeMainShare(batch);
    between?.();
  }
  for (const batch of batches) {
    state.byMain += awaitBatch(batch);
    state.files += batch.paths.length;
  }
}

/** A feed (ReaderThread.feed): files go out in batches of FEED_BATCH as
 *  they are added, and `finish` probes the rest. */
function probeFeed(state: ThreadState, take: FeedTaker | undefined, timed: boolean): ProbeFeed {
  const batches: ProbeBatch[] = [];
  let pending: string[] = [];
  let fed = 0;
  // One frontmatter pool for the whole feed.
  let pool: SharedArrayBuffer | undefined;
  const poolFor = (): SharedArrayBuffer => (pool ??= frontPool());
  // The results so far, in order: a batch's are decoded once all its
  // files are done, while the walk and the probing go on (the reader
  // thread is probing meanwhile), not all at the end.
  const out: ProbeResult[] = [];
  let ready = 0; // batches whose results are in `out`
  let skipping = false;
  const drain = (all: boolean): void => {
    while (ready < batches.length) {
      const batch = batches[ready];
      if (!all && Atomics.load(batch.control, DONE) < batch.paths.length) return;
      resultsInto(batch, out, take);
      ready++;
    }
  };
  // A full batch goes out; out of `add`, which runs for every file
  // (the engine compiles hot code with what it calls: the less, the
  // cheaper).
  /** The pending files as a batch, told to skip titles if the feed is. */
  const batchOfPending = (): ProbeBatch => {
    const batch = newBatch(pending, poolFor());
    if (skipping) batch.control[SKIP] = 1;
    if (timed) batch.control[TIMED] = 1;
    batches.push(batch);
    return batch;
  };
  const send = (): void => {
    const batch = batchOfPending();
    fed += pending.length;
    pending = [];
    // The thread starts once the feed reaches `minFiles`.
    postBatch(state, batch, fed);
    drain(false);
  };
  return {
    add(path) {
      if (pending.push(path) >= FEED_BATCH) send();
    },
    finish() {
      if (pending.length > 0) batchOfPending();
      pending = [];
      complete(state, batches, () => drain(false));
      drain(true);
      return out;
    },
    skipTitles() {
      skipping = true;
      for (let k = ready; k < batches.length; k++) Atomics.store(batches[k].control, SKIP, 1);
    },
    size(i) {
      // Every batch but the last holds FEED_BATCH files.
      const batch = batches[Math.floor(i / FEED_BATCH)];
      const at = i % FEED_BATCH;
      return batch === undefined || at >= batch.paths.length ? -1 : batch.sized[SIZE_FLOATS * at] - 1;
    },
    stats() {
      let files = 0;
      for (const batch of batches) files += batch.paths.length;
      const values = new Float64Array(2 * files);
      let i = 0;
      for (const batch of batches) {
        const sized = batch.sized;
        for (let at = 0; at < batch.paths.length; at++, i++) {
          values[2 * i] = timed ? sized[SIZE_FLOATS * at + 1] - 1 : -1;
          values[2 * i + 1] = timed ? sized[SIZE_FLOATS * at + 2] : 0;
        }
      }
      return values;
    },
  };
}

/** A stat job (Probe.stat): the reader thread starts on the list at once;
 *  the main thread takes its share when it joins (it does other work
 *  meanwhile). */
function statJob(state: ThreadState, paths: readonly string[] | StatPaths, prefix: string): StatJobHandle {
  const n = paths.length;
  const pathOf = pathsOf(paths);
  // A long job goes to the reader thread, when a core is free to run it.
  const busy = n >= MIN_STAT_FILES && state.worker === undefined ? state.busy() : undefined;
  if (busy !== undefined) state.statsHere = busy;
  const shares = n >= MIN_STAT_FILES && busy === undefined;
  const control = new SharedArrayBuffer(shares ? CONTROL_WORDS * 4 : 0);
  const words = new Int32Array(control);
  const shared = new SharedArrayBuffer(shares ? 16 * n : 0);
  const values = new Float64Array(shared);
  const posted = shares && postStat(state, paths, { kind: 'stat', prefix, control, values: shared });
  // Not shared: the stats made here at once, in one loop (no chunks taken
  // from a shared counter, no values turned after).
  if (!posted) {
    return {
      join() {
        const out = statEach(n, pathOf, prefix);
        state.byMain += n;
        state.files += n;
        return out;
      },
      cancel() {},
    };
  }
  return {
    join() {
      // This thread's share relative to the folder (within.ts); the
      // reader thread's by absolute path.
      state.byMain += withinPrefix(prefix, (base) => statShare(n, pathOf, words, values, base));
      awaitStats(n, pathOf, prefix, words, values);
      state.files += n;
      return unshifted(values);
    },
    cancel() {
      Atomics.store(words, STOP, 1);
    },
  };
}

const isArray = Array.isArray as (x: unknown) => x is readonly string[];

/** Path `i` of an array, or of StatPaths. */
function pathsOf(paths: readonly string[] | StatPaths): PathOf {
  return isArray(paths) ? (i) => paths[i] : (i) => paths.path(i);
}

/** Sends a stat job (`post`): the paths joined (an array's), or packed,
 *  their buffers handed over (StatPaths). */
function postStat(state: ThreadState, paths: readonly string[] | StatPaths, job: StatJob): boolean {
  return post(state, paths.length, () => {
    if (isArray(paths)) {
      job.paths = paths.join(PATH_SEPARATOR);
      return { job };
    }
    const { bytes, lens, gap } = paths.packed();
    job.bytes = bytes;
    job.lens = lens;
    job.gap = gap;
    return { job, handed: [bytes, lens] };
  });
}

/** Waits for the files of a stat job the reader thread took; should it
 *  stall, stats what is missing here. */
function awaitStats(n: number, pathOf: PathOf, prefix: string, words: Int32Array, values: Float64Array): void {
  const until = Date.now() + STALL_MS;
  for (let done = Atomics.load(words, DONE); done < n; done = Atomics.load(words, DONE)) {
    if (Date.now() > until) {
      Atomics.store(words, STOP, 1);
      for (let i = 0; i < n; i++) if (values[2 * i] === STAT_PENDING) statInto(prefix + pathOf(i), values, i);
      return;
    }
    Atomics.wait(words, DONE, done, 50);
  }
}

/** Lets the worker go: every job is over, so the thread is idle.
 *  Terminating it waits for its engine to shut down (about 5 ms in the
 *  binary); where the runtime can let go of it instead (Bun), the process
 *  simply exits without waiting. Deno has no `unref`, so there it is
 *  terminated. */
function closeWorker(state: ThreadState): void {
  const w = state.worker as (Worker & { unref?: () => void }) | null | undefined;
  if (w) {
    if (typeof w.unref === 'function') w.unref();
    else w.terminate();
  }
  state.worker = null;
}

/** A reader thread running the module at `url` (src/reader-thread.ts: the
 *  entry point, whose URL only the entry module can name for both the
 *  sources and the compiled binary), started lazily by the first job with
 *  at least `minFiles` files. With one CPU, or where workers are not
 *  available, every job runs on the main thread. */
export function readerThread(url: string, minFiles = MIN_PARALLEL_FILES, busy: () => string | undefined = busyMachine): ReaderThread {
  const state: ThreadState = { url, minFiles, worker: undefined, started: false, sentPool: undefined, files: 0, byMain: 0, busy };
  return {
    probe(paths) {
      const batch = newBatch(paths);
      postBatch(state, batch);
      complete(state, [batch]);
      return resultsOf(batch);
    },
    feed: (take, opts) => probeFeed(state, take, opts?.times === true),
    stat: (paths, prefix = '') => statJob(state, paths, prefix),
    stats: () => ({ files: state.files, byThread: state.files - state.byMain, started: state.started, ...(state.statsHere !== undefined ? { statsHere: state.statsHere } : {}) }),
    close: () => closeWorker(state),
  };
}
