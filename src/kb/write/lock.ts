// One writer at a time per topic, across processes (docs/guide/search-and-memory.md,
// "Safe under concurrency and crashes"): a lock directory, `.kb-lock`, in
// the topic's subjects directory (never walked: kb/fs/ignore.ts), made and
// refreshed by proper-lockfile (imported only when a write runs). A lock
// left by a killed process stops being refreshed and is taken over once
// it is STALE_MS old. `kb init` takes the same lock in `.jp/`, for the
// workspace's configuration file (app/init.ts).
//
// Only a lock held by another writer is waited for, WAIT_MS at most; any
// other error (a read-only folder, a `.kb-lock` that is a file, a link or
// a folder holding files: not a lock kb made) is answered at once.

import { lstatSync, readdirSync } from 'node:fs';
import type { lock as Lock } from 'proper-lockfile';
import { LOCK_NAME } from '../fs/ignore.ts';

export { LOCK_NAME };
/** A lock not refreshed for this long belongs to a dead process. */
export const STALE_MS = 10_000;
/** How long a writer waits for a held lock, at most (beyond STALE_MS, so
 *  that a dead writer's lock is recovered within the wait). */
export const WAIT_MS = 20_000;

let lib: Promise<{ lock: typeof Lock }> | undefined;

function load(): Promise<{ lock: typeof Lock }> {
  lib ??= import('proper-lockfile').then((m) => ((m as unknown as { default?: { lock: typeof Lock } }).default ?? (m as unknown as { lock: typeof Lock })));
  return lib;
}

/**
 * The wait for a held lock: WAIT_MS, or, for kb's own tests only (not a
 * user setting), `KB_TEST_LOCK_WAIT_MS`, so that a test can measure the
 * bound without waiting 20 s. Read once per write.
 */
function waitMs(): number {
  const v = process.env.KB_TEST_LOCK_WAIT_MS;
  return v !== undefined && /^\d{1,6}$/.test(v) ? Number(v) : WAIT_MS;
}

export type Locked<T> = { ok: true; value: T } | { ok: false; why: string };

/** What a lock guards, as messages name it. */
export interface LockTarget {
  /** `the topic` */
  the: string;
  /** `this topic` */
  this: string;
}

const TOPIC: LockTarget = { the: 'the topic', this: 'this topic' };

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException)?.code;
}

/** Why the entry at `path` is not a lock kb made (a lock is an empty
 *  directory), or undefined. */
function notALock(path: string, shown: string, what: LockTarget): string | undefined {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return `${shown} is a symbolic link, not kb's lock; remove it to write to ${what.this}`;
    if (!st.isDirectory()) return `${shown} is a file, not kb's lock; remove it to write to ${what.this}`;
    if (readdirSync(path).length > 0) return `${shown} is a folder holding files, not kb's lock (an empty folder); remove it to write to ${what.this}`;
  } catch {
    // Gone, or unreadable: the lock's own error says it.
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `work` holding the lock of the subjects directory `dir`: `dir` is a
 * path bound to the open directory (kb/write/dir.ts), `shown` its real
 * path for messages. `work` is given a function that says why the lock was
 * lost, if it was (then nothing may be written). `what`: what the lock
 * guards, for messages.
 */
export async function withTopicLock<T>(dir: string, shown: string, work: (lost: () => string | undefined) => Promise<T> | T, what: LockTarget = TOPIC): Promise<Locked<T>> {
  const { lock } = await load();
  let lostWhy: string | undefined;
  let release: (() => Promise<void>) | undefined;
  const path = `${dir}/${LOCK_NAME}`;
  const lockShown = `${shown}/${LOCK_NAME}`;
  const wait = waitMs();
  const deadline = Date.now() + wait;
  while (release === undefined) {
    try {
      release = await lock(dir, {
        lockfilePath: path,
        realpath: false,
        stale: STALE_MS,
        update: STALE_MS / 4,
        retries: 0,
        onCompromised: (err) => {
          lostWhy = `the topic's lock was lost while writing (${err.message})`;
        },
      });
    } catch (err) {
      const c = code(err);
      const odd = c === 'ENOENT' ? undefined : notALock(path, lockShown, what);
      if (odd !== undefined) return { ok: false, why: odd };
      if (c !== 'ELOCKED') return { ok: false, why: `cannot lock ${what.the} for writing (${c ?? (err as Error).message}; lock ${lockShown})` };
      const left = deadline - Date.now();
      if (left <= 0) return { ok: false, why: `another process has been writing to ${what.this} for more than ${Math.round(wait / 100) / 10} s (lock ${lockShown})` };
      // 50-100 ms between tries, never past the deadline.
      await sleep(Math.min(left, 50 + Math.floor(Math.random() * 50)));
    }
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
