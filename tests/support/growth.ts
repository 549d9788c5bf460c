// How a function's time grows with its input: for the timing properties of
// tests/property (kb's parsers run in time linear in what they read).
//
// The input grows by a factor of 4 a step, from `from` up to `to` (the
// largest the parser accepts, or as far as a test can afford). At each
// step the time per call is a median of batches (each batch runs the call
// until 5 ms have passed, so a fast call is timed over many runs), and the
// ratio to the step before must stay under `4 * slack`: linear work gives
// about 4, quadratic work 16. A step over it is measured again (below), so
// one busy moment on a shared machine does not fail it; work that grows
// faster than linearly is over it every time. The ladder stops at its first
// failure, before the input gets large enough to hang.
//
// A step over the bound is measured up to seven more times, spread over
// about two seconds, each time keeping the fastest figure of either size: the other work of a shared machine only
// ever adds time, so the fastest figures are the parser's own (one 0.2 ms
// call caught by a collection can look 12 times slower than the one
// before).

/** A step where the time grew faster than linearly. */
export interface Superlinear {
  /** The two sizes compared, and the time per call at each (ms). */
  from: number;
  to: number;
  before: number;
  after: number;
  ratio: number;
}

export interface GrowthOptions {
  from: number;
  to: number;
  /** How much more than 4 times slower a 4 times larger input may be. */
  slack?: number;
  /** Batches per measurement (their median counts). */
  batches?: number;
}

/** The least of a few runs' milliseconds of `f(small)` and of `f(large)`,
 *  taken in turn (after a run of each: compiled, the heap grown). */
export function bestOfPair<T>(f: (t: T) => void, small: T, large: T, runs = 5): [number, number] {
  f(small);
  f(large);
  let a = Infinity;
  let b = Infinity;
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    f(small);
    a = Math.min(a, performance.now() - t);
    t = performance.now();
    f(large);
    b = Math.min(b, performance.now() - t);
  }
  return [a, b];
}

/** The median time of one call of `run(input)`, in ms. */
export function timePerCall(run: () => unknown, batches = 5): number {
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    let calls = 0;
    const start = performance.now();
    let now = start;
    do {
      run();
      calls++;
      now = performance.now();
    } while (now - start < 5);
    times.push((now - start) / calls);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Measurements of a step over the bound, at most (superlinearStep). */
const ATTEMPTS = 8;

/** Waits `ms` milliseconds (the timing properties are synchronous). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The first step at which `run(make(n))` grew faster than linearly, or
 *  undefined: it grew linearly all the way to `to`. */
export function superlinearStep(make: (n: number) => unknown, run: (input: any) => unknown, opts: GrowthOptions): Superlinear | undefined {
  const slack = opts.slack ?? 2.5;
  const batches = opts.batches ?? 5;
  let n = opts.from;
  let input = make(n);
  run(input); // warm up
  let before = timePerCall(() => run(input), batches);
  while (n * 4 <= opts.to) {
    const next = make(n * 4);
    run(next);
    let after = Infinity;
    for (let attempt = 0; attempt < ATTEMPTS && after / before > 4 * slack; attempt++) {
      if (attempt > 0) {
        // A busy moment of a shared machine can last longer than a
        // measurement: the attempts are spread over about two seconds.
        pause(Math.min(400, 25 * 2 ** attempt));
        before = Math.min(before, timePerCall(() => run(input), batches));
      }
      after = Math.min(after, timePerCall(() => run(next), batches));
    }
    if (after / before > 4 * slack) return { from: n, to: n * 4, before, after, ratio: after / before };
    n *= 4;
    input = next;
    before = after;
  }
  return undefined;
}
