// Cooperative turns for long loops (a search index build, a learn load, a
// ranking), for a long-lived front end that must stay responsive while one
// runs (`kb mcp` answers a ping, and reads a cancellation, meanwhile).
//
// A loop given a pace calls it once per step (a file read, a topic): it
// returns undefined while the loop has held the event loop for less than
// a slice, and a promise of the next turn once it has (the loop awaits
// it). Once `signal` is aborted, the call throws the signal's reason: the
// loop stops there. Without a signal there is no pace: the CLI's loops
// never await a turn (nothing else waits for the event loop there).
import { setImmediate } from 'node:timers';

/** One step of a long loop: undefined, go on; a promise, await it first.
 *  Throws once the work is cancelled. */
export type Pace = () => Promise<void> | undefined;

/** What an operation of the application layer (learn, search, recall,
 *  a resource's read) takes besides its arguments: `signal` cancels it (it
 *  stops at its next step, throwing the signal's reason), and makes its
 *  long loops take turns. */
export interface OperationOptions {
  signal?: AbortSignal;
}

/** Milliseconds a loop holds the event loop before it lets others in. */
export const SLICE_MS = 8;

/** Steps taken under each signal (by every pace of it): how far an
 *  operation got, for the front end to say where a cancelled one stopped. */
const steps = new WeakMap<AbortSignal, number>();

/** The steps the loops paced by `signal` have taken so far (a step: a
 *  file read, a file indexed, a topic or a term ranked). */
export function stepsTaken(signal: AbortSignal): number {
  return steps.get(signal) ?? 0;
}

/** The pace of a loop that `signal` may cancel; undefined without one. */
export function paceOf(signal: AbortSignal | undefined, slice = SLICE_MS): Pace | undefined {
  if (signal === undefined) return undefined;
  let since = performance.now();
  const turn = (): Promise<void> =>
    new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      signal.throwIfAborted();
      since = performance.now();
    });
  return () => {
    signal.throwIfAborted();
    // Counted on the signal: a search paces its build and its ranking
    // apart, and both count.
    steps.set(signal, (steps.get(signal) ?? 0) + 1);
    return performance.now() - since < slice ? undefined : turn();
  };
}
