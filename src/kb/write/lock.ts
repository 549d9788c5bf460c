// One writer at a time per topic, across processes (docs/search-and-memory.md, "Remembering"):
// a lock directory, `.kb-lock`, in the topic's subjects directory (hidden:
// never a subject), made and refreshed by proper-lockfile (imported only
// when a write runs). A lock left by a killed process stops being
// refreshed and is taken over once it is STALE_MS old.

import type { lock as Lock } from 'proper-lockfile';

export const LOCK_NAME = '.kb-lock';
/** A lock not refreshed for this long belongs to a dead process. */
export const STALE_MS = 10_000;
/** How long a writer waits for the lock, at most (beyond STALE_MS, so
 *  that a dead writer's lock is recovered within the wait). */
export const WAIT_MS = 20_000;

let lib: Promise<{ lock: typeof Lock }> | undefined;

function load(): Promise<{ lock: typeof Lock }> {
  lib ??= import('proper-lockfile').then((m) => ((m as unknown as { default?: { lock: typeof Lock } }).default ?? (m as unknown as { lock: typeof Lock })));
  return lib;
}

export type Locked<T> = { ok: true; value: T } | { ok: false; why: string };

/**
 * Runs `work` holding the lock of the subjects directory `dir` (its real
 * path). `work` is given a function that says why the lock was lost, if it
 * was (then nothing may be written).
 */
export async function withTopicLock<T>(dir: string, work: (lost: () => string | undefined) => Promise<T> | T): Promise<Locked<T>> {
  const { lock } = await load();
  let lostWhy: string | undefined;
  let release: () => Promise<void>;
  const step = 50;
  try {
    release = await lock(dir, {
      lockfilePath: `${dir}/${LOCK_NAME}`,
      realpath: false,
      stale: STALE_MS,
      update: STALE_MS / 4,
      retries: { retries: Math.ceil(WAIT_MS / step), factor: 1, minTimeout: step, maxTimeout: step * 2, randomize: true },
      onCompromised: (err) => {
        lostWhy = `the topic's lock was lost while writing (${err.message})`;
      },
    });
  } catch (err) {
    const c = (err as NodeJS.ErrnoException).code;
    if (c === 'ELOCKED') return { ok: false, why: `another process has been writing to this topic for more than ${WAIT_MS / 1000} s (lock ${dir}/${LOCK_NAME})` };
    return { ok: false, why: `cannot lock the topic for writing (${c ?? (err as Error).message})` };
  }
  try {
    return { ok: true, value: await work(() => lostWhy) };
  } finally {
    try {
      await release();
    } catch {
      // Compromised: already gone.
    }
  }
}
