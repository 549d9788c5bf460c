// The reader thread shares probing with the main thread. Whoever probes a
// file, the verdicts must be exactly `probeKind`'s, in order, and a thread
// that is missing, never answers or is not worth starting must change
// nothing but the time taken.
import { describe, test, expect } from 'bun:test';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBED, probeKind, type ProbeResult } from '../../../src/kb/fs/probe.ts';
import { probeFile } from '../../../src/kb/fs/probe-titles.ts';
import { batchBytes, batchMemory, DONE, SIZE_FLOATS, TIMED, frontPool, frontRegion, MIN_PARALLEL_FILES, MIN_STAT_FILES, PATH_SEPARATOR, probeResultOf, readerThread as startReaderThread, busyFrom, busyMachine, runningThreads, statFiles, statLater, jobPaths, type ProbeJob, type StatJob } from '../../../src/kb/fs/probe-thread.ts';
import { joinedPaths, type StatPaths } from '../../../src/kb/fs/probe.ts';
import { makeTempDir } from '../../support/temp.ts';

/** The reader thread's entry point, as the CLI's entry module names it. */
const READER_THREAD_URL = new URL('../../../src/reader-thread.ts', import.meta.url).href;
/** A reader thread on a machine with a core to spare (`busy`: without). */
const readerThread = (minFiles?: number, busy?: string) => startReaderThread(READER_THREAD_URL, minFiles, () => busy);

/** The kinds of probe results, after checking each is the shared result of
 *  its kind. */
function kinds(results: readonly ProbeResult[]): string[] {
  for (const r of results) expect(r).toBe(PROBED[r.kind]);
  return results.map((r) => r.kind);
}

/** `n` files of every kind probing tells apart, plus paths that fail. */
function files(n: number): string[] {
  const dir = makeTempDir('kb-thread-');
  mkdirSync(join(dir, 'sub'));
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = join(dir, `f${i}`);
    switch (i % 7) {
      case 0: writeFileSync(p, `text ${i}\n`); break;
      case 1: writeFileSync(p, new Uint8Array([0x89, 0x50, 0x00, i & 0xff])); break; // binary
      case 2: writeFileSync(p, new Uint8Array([0xff, 0xfe, 0x41, 0x00])); break; // UTF-16: text
      case 3: writeFileSync(p, ''); break;
      case 4: writeFileSync(p, Buffer.concat([Buffer.alloc(8192, 'a'), Buffer.from([0])])); break; // NUL past 8192: text
      case 5: paths.push(join(dir, 'sub')); continue; // a directory: error
      default: paths.push(join(dir, `missing-${i}`)); continue; // error
    }
    paths.push(p);
  }
  return paths;
}

const N = 3 * MIN_PARALLEL_FILES + 5;

describe('readerThread', () => {
  const paths = files(N);
  const expected = paths.map(probeKind);

  test('the fixture has every verdict', () => {
    expect(new Set(expected)).toEqual(new Set(['text', 'binary', 'error']));
  });

  test('probe gives probeKind\'s verdicts, in order', () => {
    const thread = readerThread();
    try {
      expect(kinds(thread.probe(paths))).toEqual(expected);
      const stats = thread.stats();
      expect(stats.files).toBe(N);
      expect(stats.started).toBe(true);
      expect(stats.byThread).toBeGreaterThanOrEqual(0);
      expect(stats.byThread).toBeLessThanOrEqual(N);
    } finally {
      thread.close();
    }
  });

  test('a feed gives the same verdicts, in the order the files were added', () => {
    const thread = readerThread();
    try {
      const feed = thread.feed();
      for (const p of paths) feed.add(p);
      expect(kinds(feed.finish())).toEqual(expected);
      expect(thread.stats().files).toBe(N);
    } finally {
      thread.close();
    }
  });

  test("a feed knows every text file's size, the ones longer than the head too (a listing that sums folders up stats none)", () => {
    const thread = readerThread();
    try {
      const feed = thread.feed();
      for (const p of paths) feed.add(p);
      const results = feed.finish();
      for (let i = 0; i < paths.length; i++) {
        let size = -1;
        try {
          if (statSync(paths[i]).isFile()) size = statSync(paths[i]).size;
        } catch {
          // missing: not known
        }
        expect([paths[i], feed.size!(i)]).toEqual([paths[i], results[i].kind === 'text' ? size : -1]);
      }
      // The case that needs the fstat: 8193 bytes, text.
      expect(paths.some((p, i) => results[i].kind === 'text' && feed.size!(i) > 8192)).toBe(true);
    } finally {
      thread.close();
    }
  });

  test('a feed tells its taker of every file once, in order, with its result and size, by the end of finish', async () => {
    const thread = readerThread();
    try {
      const told: [number, ProbeResult, number][] = [];
      const feed = thread.feed((i, r, size) => void told.push([i, r, size]));
      // Added slowly enough for the thread to finish batches meanwhile:
      // the taker hears of those before finish. A feed looks at finished
      // batches when it sends one (every 256 files), so the wait for the
      // thread (a second, for a loaded machine) comes before the last 256.
      const last = paths.length - 256;
      for (let i = 0; i < last; i++) {
        feed.add(paths[i]);
        if (i % 64 === 63) await new Promise((r) => setTimeout(r, 5));
      }
      await new Promise((r) => setTimeout(r, 1000));
      for (let i = last; i < paths.length; i++) feed.add(paths[i]);
      const before = told.length;
      const results = feed.finish();
      expect(told.map(([i]) => i)).toEqual(paths.map((_, i) => i));
      expect(told.map(([, r]) => r)).toEqual(results);
      expect(told.map(([, , size]) => size)).toEqual(paths.map((_, i) => feed.size!(i)));
      expect(kinds(results)).toEqual(expected);
      expect(before).toBeGreaterThan(0);
    } finally {
      thread.close();
    }
  });

  test('jobs below the threshold never start the thread', () => {
    const thread = readerThread();
    const few = paths.slice(0, MIN_PARALLEL_FILES - 1);
    expect(kinds(thread.probe(few))).toEqual(expected.slice(0, few.length));
    const feed = thread.feed();
    for (const p of few) feed.add(p);
    expect(kinds(feed.finish())).toEqual(expected.slice(0, few.length));
    expect(thread.stats()).toEqual({ files: 2 * few.length, byThread: 0, started: false });
    thread.close();
  });

  test('without workers (or when one cannot start), the main thread does it all', () => {
    const saved = globalThis.Worker;
    (globalThis as { Worker: unknown }).Worker = class {
      constructor() {
        throw new Error('no workers here');
      }
    };
    try {
      const thread = readerThread();
      expect(kinds(thread.probe(paths))).toEqual(expected);
      expect(thread.stats()).toEqual({ files: N, byThread: 0, started: false });
      thread.close();
    } finally {
      globalThis.Worker = saved;
    }
  });

  test('a thread that takes jobs and never answers costs nothing', () => {
    const saved = globalThis.Worker;
    (globalThis as { Worker: unknown }).Worker = class {
      onerror: unknown = null;
      postMessage(): void {}
      terminate(): void {}
    };
    try {
      const thread = readerThread();
      const feed = thread.feed();
      for (const p of paths) feed.add(p);
      expect(kinds(feed.finish())).toEqual(expected);
      expect(thread.stats()).toEqual({ files: N, byThread: 0, started: true });
      thread.close();
    } finally {
      globalThis.Worker = saved;
    }
  });
});

describe('the reader thread on its own (src/reader-thread.ts)', () => {
  test('probes a whole job posted to it, as probeKind does', async () => {
    const paths = files(200);
    const shared = new SharedArrayBuffer(batchBytes(paths.length));
    const { control, results, spans, sizes } = batchMemory(shared, paths.length);
    const worker = new Worker(READER_THREAD_URL, { type: 'module' });
    try {
      const pool = frontPool();
      const front = frontRegion(pool, paths.length, spans);
      worker.postMessage({ kind: 'probe', paths: paths.join(PATH_SEPARATOR), shared, pool } satisfies ProbeJob);
      const until = Date.now() + 20_000;
      while (Atomics.load(control, DONE) < paths.length && Date.now() < until) await Bun.sleep(5);
      expect(Atomics.load(control, DONE)).toBe(paths.length);
      expect(kinds(Array.from(results, (code, i) => probeResultOf(code, i, front, paths[i])))).toEqual(paths.map(probeKind));
      // Each text file's size, plus one; no stat was asked for.
      expect(paths.map((_, i) => sizes[SIZE_FLOATS * i] - 1)).toEqual(paths.map((p) => (probeKind(p) === 'text' ? statSync(p).size : -1)));
      expect(paths.map((_, i) => sizes[SIZE_FLOATS * i + 1])).toEqual(paths.map(() => 0));
      // A second job without a pool uses the first one's; asked for
      // TIMED, it gives every file's size and time (binaries' too).
      const again = new SharedArrayBuffer(batchBytes(paths.length));
      const second = batchMemory(again, paths.length);
      second.control[TIMED] = 1;
      worker.postMessage({ kind: 'probe', paths: paths.join(PATH_SEPARATOR), shared: again } satisfies ProbeJob);
      while (Atomics.load(second.control, DONE) < paths.length && Date.now() < until) await Bun.sleep(5);
      expect(Atomics.load(second.control, DONE)).toBe(paths.length);
      expect(paths.map((_, i) => [second.sizes[SIZE_FLOATS * i + 1] - 1, second.sizes[SIZE_FLOATS * i + 2]])).toEqual(
        paths.map((p) => {
          // A file not there: -1, its time not set.
          const st = statSync(p, { throwIfNoEntry: false });
          return st === undefined ? [-1, 0] : [st.size, st.mtimeMs];
        }),
      );
      expect(kinds(Array.from(second.results, (code, i) => probeResultOf(code, i, frontRegion(pool, paths.length, second.spans), paths[i])))).toEqual(paths.map(probeKind));
    } finally {
      worker.terminate();
    }
  });
});

describe('frontmatter through the reader thread', () => {
  /** Files with frontmatter of every size up to about 7 KiB (far more, all
   *  together, than a pool starts with), unclosed ones, and plain text. */
  function described(n: number): string[] {
    const dir = makeTempDir('kb-thread-front-');
    const paths: string[] = [];
    for (let i = 0; i < n; i++) {
      const p = join(dir, `d${i}.md`);
      if (i % 5 === 4) writeFileSync(p, `---\ndescription: never closed ${i}\n`);
      else if (i % 5 === 3) writeFileSync(p, `# plain ${i}\n`);
      else writeFileSync(p, `---\ndescription: "é ${i}"\nnotes: ${'x'.repeat((i * 97) % 7000)}\n---\nbody\n`);
      paths.push(p);
    }
    return paths;
  }

  test('the thread and the main thread give probeFile()\'s results, frontmatter included', () => {
    const paths = described(2 * MIN_PARALLEL_FILES);
    const expected = paths.map(probeFile);
    const thread = readerThread();
    try {
      expect(thread.probe(paths)).toEqual(expected);
      expect(thread.stats().started).toBe(true);
      const feed = thread.feed();
      for (const p of paths) feed.add(p);
      expect(feed.finish()).toEqual(expected);
    } finally {
      thread.close();
    }
    expect(expected.filter((r) => typeof r.front === 'string').length).toBeGreaterThan(MIN_PARALLEL_FILES);
    expect(expected.some((r) => r.front === null)).toBe(true);
  });
});

describe('stat jobs', () => {
  /** `n` files of `i` bytes each in one folder, and a name not there. */
  function folder(n: number): { dir: string; names: string[] } {
    const dir = makeTempDir('kb-stat-');
    const names: string[] = [];
    for (let i = 0; i < n; i++) {
      writeFileSync(join(dir, `f${i}`), 'x'.repeat(i % 50));
      names.push(`f${i}`);
    }
    names.push('missing');
    return { dir, names };
  }
  const expected = (dir: string, names: readonly string[]) =>
    names.flatMap((n) => {
      try {
        const st = statSync(join(dir, n));
        return [st.size, st.mtimeMs];
      } catch {
        return [-1, 0];
      }
    });

  test('statFiles puts the prefix before each path', () => {
    const { dir, names } = folder(5);
    expect([...statFiles(names, `${dir}/`)]).toEqual(expected(dir, names));
    expect([...statLater(names, `${dir}/`).join()]).toEqual(expected(dir, names));
  });

  test('a stat job the reader thread shares gives the same sizes and times, the prefix before each path', () => {
    const { dir, names } = folder(MIN_STAT_FILES + 100);
    const thread = readerThread();
    try {
      const values = thread.stat!(names, `${dir}/`).join();
      expect([...values]).toEqual(expected(dir, names));
      expect(thread.stats().started).toBe(true);
    } finally {
      thread.close();
    }
  });

  /** `names` as a cache file holds them: UTF-8, `gap` newlines between two. */
  const packedOf = (names: readonly string[], gap: number): StatPaths => joinedPaths(names, new TextEncoder().encode(names.join('\n'.repeat(gap))), gap);

  test("a stat job's paths packed as a cache file's bytes reach the reader thread as they are, in any script", () => {
    const names = ['f0', 'ünï/çødé 🍎.md', '東京/データ.md', '', 'Ωmega ß'];
    for (const gap of [0, 1]) {
      const { bytes, lens } = packedOf(names, gap).packed();
      const job: StatJob = { kind: 'stat', bytes, lens, gap, prefix: '', control: new SharedArrayBuffer(0), values: new SharedArrayBuffer(0) };
      const pathOf = jobPaths(job);
      expect(names.map((_, i) => pathOf(i))).toEqual(names);
    }
    // A job of joined paths, as an array's are sent.
    const joined = jobPaths({ kind: 'stat', paths: names.join(PATH_SEPARATOR), prefix: '', control: new SharedArrayBuffer(0), values: new SharedArrayBuffer(0) });
    expect(names.map((_, i) => joined(i))).toEqual(names);
  });

  test('a packed stat job the reader thread shares gives the same sizes and times', () => {
    const { dir, names } = folder(MIN_STAT_FILES + 100);
    const thread = readerThread();
    try {
      const values = thread.stat!(packedOf(names, 1), `${dir}/`).join();
      expect([...values]).toEqual(expected(dir, names));
      expect(thread.stats().started).toBe(true);
    } finally {
      thread.close();
    }
    // Where no reader thread is: the same, on this thread.
    expect([...statLater(packedOf(names, 0), `${dir}/`).join()]).toEqual(expected(dir, names));
  });

  test('with no core to spare, a long stat job is left to the main thread, which says why, with the same sizes and times', () => {
    const { dir, names } = folder(MIN_STAT_FILES + 100);
    const thread = readerThread(undefined, 'load average 3.00 on 2 cores');
    try {
      const values = thread.stat!(names, `${dir}/`).join();
      expect([...values]).toEqual(expected(dir, names));
      expect(thread.stats()).toEqual({ files: names.length, byThread: 0, started: false, statsHere: 'load average 3.00 on 2 cores' });
    } finally {
      thread.close();
    }
  });

  test('no core to spare: a one-minute load average of the cores less a half, or more (from /proc/loadavg; none there: a core is free)', () => {
    expect(busyFrom('1.49 0.80 0.50 2/300 1234\n', 2)).toBeUndefined();
    expect(busyFrom('1.50 0.80 0.50 2/300 1234\n', 2)).toBe('load average 1.50 on 2 cores');
    expect(busyFrom('7.50 6.00 5.00 9/300 1234\n', 8)).toBe('load average 7.50 on 8 cores');
    expect(busyFrom('7.49 6.00 5.00 9/300 1234\n', 8)).toBeUndefined();
    expect(busyFrom(undefined, 2)).toBeUndefined();
    expect(busyFrom('', 2)).toBeUndefined();
    expect(busyFrom('garbage', 2)).toBeUndefined();
  });

  test('at or above that average, the tasks runnable now decide: a core is free when the others (R of R/T less this process\'s `mine`) leave one beside the main thread', () => {
    // Programs run one after another: the average is high, only kb runs.
    expect(busyFrom('1.90 1.70 1.20 1/300 1234\n', 2, 1)).toBeUndefined();
    expect(busyFrom('1.90 1.70 1.20 2/300 1234\n', 2, 2)).toBeUndefined();
    // A busy loop beside the main thread takes the other core.
    expect(busyFrom('1.90 1.70 1.20 2/300 1234\n', 2, 1)).toBe('load average 1.90 on 2 cores, 1 other task running');
    expect(busyFrom('2.50 1.70 1.20 5/300 1234\n', 2, 2)).toBe('load average 2.50 on 2 cores, 3 other tasks running');
    expect(busyFrom('7.50 6.00 5.00 7/300 1234\n', 8, 1)).toBeUndefined();
    expect(busyFrom('7.50 6.00 5.00 8/300 1234\n', 8, 1)).toBe('load average 7.50 on 8 cores, 7 other tasks running');
    // More of this process's threads than runnable tasks (they changed between the reads): no others.
    expect(busyFrom('1.90 1.70 1.20 1/300 1234\n', 2, 3)).toBeUndefined();
    // One core has none to spare beside the main thread, however the counts fell.
    expect(busyFrom('0.90 0.70 0.20 1/300 1234\n', 1, 3)).toBe('load average 0.90 on 1 cores, 0 other tasks running');
    // Below the average's bar the tasks now are not asked.
    expect(busyFrom('1.49 1.70 1.20 9/300 1234\n', 2, 1)).toBeUndefined();
    // No count of this process's threads, or no runnable count: the average alone.
    expect(busyFrom('1.90 1.70 1.20 1/300 1234\n', 2)).toBe('load average 1.90 on 2 cores');
    expect(busyFrom('1.90 1.70 1.20\n', 2, 1)).toBe('load average 1.90 on 2 cores');
    expect(busyFrom('1.90 1.70 1.20 x/300 1234\n', 2, 1)).toBe('load average 1.90 on 2 cores');
  });

  test.if(process.platform === 'linux')('this process\'s running threads are read from /proc/self/task: the main thread, which reads them, is one', () => {
    const running = runningThreads();
    expect(running?.has(String(process.pid))).toBe(true);
    const reason = busyMachine();
    if (reason !== undefined) expect(reason).toMatch(/^load average \d+\.\d\d on \d+ cores(, \d+ other tasks? running)?$/);
  });
});

describe('a feed told to skip titles', () => {
  test('probes the files added after without searching their heads for a title, the frontmatter kept', () => {
    const dir = makeTempDir('kb-thread-skip-');
    const paths: string[] = [];
    for (let i = 0; i < 3 * MIN_PARALLEL_FILES; i++) {
      const p = join(dir, `t${i}.md`);
      writeFileSync(p, i % 3 === 0 ? `---\ndescription: d ${i}\n---\n# Title ${i}\n` : i % 3 === 1 ? `# Title ${i}\n` : 'no title\n');
      paths.push(p);
    }
    const full = paths.map(probeFile);
    const thread = readerThread();
    try {
      const feed = thread.feed();
      const first = MIN_PARALLEL_FILES;
      for (const p of paths.slice(0, first)) feed.add(p);
      feed.skipTitles!();
      for (const p of paths.slice(first)) feed.add(p);
      const results = feed.finish();
      results.forEach((r, i) => {
        if (!r.titlesSkipped) expect(r).toEqual(full[i]);
        else expect(r).toEqual(full[i].front === undefined ? { kind: 'text', titlesSkipped: true } : { kind: 'text', front: full[i].front, titlesSkipped: true });
      });
      // Every file added after was probed so.
      expect(results.slice(first).every((r) => r.titlesSkipped)).toBe(true);
    } finally {
      thread.close();
    }
  });
});
