// A topic's subject index, kept between the requests of a long-lived front
// end (`kb mcp`) and revalidated cheaply: the index depends only on the
// directories walked (their entries) and the ignore files read, so it stays
// valid while none of their modification times (and inode numbers) change.
// Adding, removing or renaming a file changes its directory's time; an
// ignore file edited in place changes its own. File contents are not part
// of the index: loads read them fresh, and listings probe them again.

import { statSync } from 'node:fs';
import type { WalkTrace } from '../fs/walk.ts';
import type { SubjectIndex } from './types.ts';

/** What a path looked like when the index was built. */
interface Stamp {
  path: string;
  mtimeMs: number;
  ino: number;
}

function stampOf(path: string): Stamp | undefined {
  try {
    const st = statSync(path);
    return { path, mtimeMs: st.mtimeMs, ino: st.ino };
  } catch {
    return undefined;
  }
}

function unchanged(s: Stamp): boolean {
  const now = stampOf(s.path);
  return now !== undefined && now.mtimeMs === s.mtimeMs && now.ino === s.ino;
}

/** Times closer than this to the build may not tell a later change. */
const RACY_MS = 2000;

interface Entry {
  index: SubjectIndex;
  stamps: Stamp[];
  missing: string[];
}

/** Subject indexes by subjects directory, each with its stamps. */
export class IndexCache {
  private readonly entries = new Map<string, Entry>();
  hits = 0;
  misses = 0;

  /** The cached index of `dir`, if nothing it depends on changed. */
  get(dir: string): SubjectIndex | undefined {
    const e = this.entries.get(dir);
    if (e !== undefined && e.missing.every((p) => stampOf(p) === undefined) && e.stamps.every(unchanged)) {
      this.hits++;
      return e.index;
    }
    this.misses++;
    if (e !== undefined) this.entries.delete(dir);
    return undefined;
  }

  /** Keeps the index of `dir`, stamped with what its walk went through
   *  (`trace`: the directories read and the ignore files met). Paths that
   *  did not exist (the subjects directory itself, say) are kept too: the
   *  index is stale once they appear. */
  set(dir: string, index: SubjectIndex, trace: WalkTrace, builtAt = Date.now()): void {
    const stamps: Stamp[] = [];
    const missing: string[] = [];
    const paths = trace.dirs.includes(dir) ? [...trace.dirs, ...trace.controls] : [dir, ...trace.dirs, ...trace.controls];
    for (const path of paths) {
      const s = stampOf(path);
      if (s === undefined) missing.push(path);
      else stamps.push(s);
    }
    // Racily clean (as git calls it): a directory changed within the last
    // two seconds could change again within the same tick of a coarse
    // clock and keep its time. Such an index is not kept.
    if (stamps.some((s) => builtAt - s.mtimeMs < RACY_MS)) {
      this.entries.delete(dir);
      return;
    }
    // A bound on memory: a workspace has a handful of topics.
    if (this.entries.size >= 64) this.entries.clear();
    this.entries.set(dir, { index, stamps, missing });
  }
}
