// A topic's subject index, kept between the requests of a long-lived front
// end (`kb mcp`), with what its views probed (kinds and frontmatter, by
// slug) while a file watcher says nothing changed.
//
// Watched: each cached topic's subjects directory is watched (node:fs
// `watch`, recursive where the platform has it, else each directory the
// walk went through, up to MAX_WATCHED_DIRS per process), from before its
// walk, so a change during the walk is seen too. An event that names a
// file changes only that file: its probe result is dropped (and its size
// forgotten), and for two seconds after an event the file is probed again
// on every request (a later write could be on its way). An event that
// renames, adds or removes something, or names no file, or names an
// ignore file, has the topic walked again (and, unless it named a known
// subject, its files probed again). While a topic is watched, a request
// reads no directory and opens no file it probed before (but see "Out of
// sight" below).
//
// Kept: what a request made of a topic's files (a search index), for the
// next requests, while no event comes (`changes`, `keep`, `kept`).
// Only where the subjects directory is watched recursively (a directory
// watched alone would not tell of a file made in a new subdirectory), and
// not within two seconds of an event.
//
// Revalidated: where watching is not possible (no watcher, too many
// directories, a watcher's error such as EMFILE or ENOSPC), the watchers
// are closed and the index is revalidated as it was before watchers: it
// depends only on the directories walked (their entries), the ignore
// files read and what each symbolic link leads to, so it stays valid while
// none of their modification times (and inode numbers, and the links'
// kinds of target) change; probes are not kept then. A `log` line
// (`--verbose`) says which topic fell back and why.
//
// Out of sight: a watcher sees the topic's own tree, not what a symbolic
// link in it leads to (a linked folder or file), nor a topic folder
// replaced under it (`mv t t.old && mkdir t`: it goes on watching
// `t.old`). So the index is revalidated on every request, watched or not,
// by those times and kinds (every directory walked is stamped, those
// reached through a link too); what was probed of a subject reached
// through a link is kept only while its file's size, time and inode stay
// the same (a stat each request); a value kept (`keep`) comes with a check
// of its own part reached through links; and each request checks that the
// topic folder is still the one watched (its device and inode), and
// watches the new one when it is not.

import { closeSync, mkdtempSync, openSync, rmSync, statSync, watch, writeSync, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';
import type { ProbeResult } from '../fs/probe.ts';
import { linkKind, throughLinks, type WalkTrace } from '../fs/walk.ts';
import { forgetSize } from './subjects.ts';
import type { Subject, SubjectIndex } from './types.ts';

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

/** A file's size, time and inode, as one string; undefined when it
 *  cannot be stat'ed, or when its time is within RACY_MS of now (a write
 *  within the same tick of a coarse clock would keep it). */
function fileStat(path: string): string | undefined {
  try {
    const st = statSync(path);
    return Date.now() - st.mtimeMs < RACY_MS ? undefined : `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** What a directory is now (device and inode); '' when it cannot be
 *  stat'ed. */
function identity(dir: string): string {
  try {
    const st = statSync(dir);
    return `${st.dev}:${st.ino}`;
  } catch {
    return '';
  }
}

/** Times closer than this to the build may not tell a later change; a file
 *  with an event this recent is probed again on every request. */
const RACY_MS = 2000;

/** The least time between two event barriers asked for by `syncSoon`. */
const SYNC_EVERY_MS = 5;

/** A kept topic with this many directories and files to stat, or more, is
 *  checked by an event barrier rather than by its stats when a request
 *  comes alone (`ready`): 405 folders' stats take about 2 ms, the barrier
 *  about 0.3 ms; a few stats take less than any barrier. */
const BARRIER_WORTH = 64;

/** How long a request that comes alone waits for its barrier (`ready`)
 *  before it checks by its stats after all (a watcher thread that runs
 *  late: the barrier then goes on for the requests after it): as long as
 *  the stats it would spare take, about STAT_MS each (405 folders: 2 ms),
 *  from READY_WAIT_MS[0] to READY_WAIT_MS[1]. */
const STAT_MS = 0.005;
const READY_WAIT_MS = [1, 5] as const;

/** The most directories watched one by one, over all topics of a process
 *  (where recursive watching is not available): each is an inotify watch
 *  or a descriptor. */
export const MAX_WATCHED_DIRS = 1024;

/** Where the runtime cannot promise that events come in order (see
 *  `Barrier`), how long a listing waits for the events of changes made
 *  just before it (see `settle`). */
const SETTLE_MS = 5;

/** The longest a listing waits for the barrier's own event (a watcher
 *  thread starved that long): it then goes on, and a `log` line says it
 *  may miss a change made just before it. */
const BARRIER_MAX_MS = 250;

/** For kb's tests only (not a user setting): every file event is handed on
 *  this many milliseconds late, in order, as from a watcher thread that
 *  lags behind. */
function eventDelay(): number {
  const ms = Number(process.env.KB_TEST_EVENT_DELAY_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** For kb's tests only (not a user setting): how long a lone request
 *  waits for its event barrier (`ready`), in place of the stats' cost, so
 *  that a test on the binary takes the barrier's path however busy the
 *  machine. */
function readyWaitForTests(): number | undefined {
  const ms = Number(process.env.KB_TEST_READY_WAIT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** A watcher's callback, handed on late under KB_TEST_EVENT_DELAY_MS. */
function delivered<A extends unknown[]>(handle: (...args: A) => void): (...args: A) => void {
  const ms = eventDelay();
  return ms === 0 ? handle : (...args: A) => void setTimeout(() => handle(...args), ms);
}

/**
 * A barrier for file events: a file kb writes a byte to, when asked, in a
 * private folder it watches (made in the system's temporary folder). Bun
 * watches every path of a process with one inotify descriptor, read by one
 * thread, and hands the events on in the order the kernel queued them; a
 * change the client made before it sent a request was queued before the
 * barrier's write, made after the request arrived. So once the barrier's
 * event has come, every earlier event has been handled: a listing sees an
 * edit made just before it, however late the watcher thread runs, with no
 * fixed wait. (Runtimes that watch each path apart give no such order:
 * there kb waits SETTLE_MS, as before.)
 *
 * A write opens a file, writes a byte and closes it (15 µs; making and
 * removing a file each time cost 122). The runtime folds a file's events
 * that come within about a millisecond into one, so the barrier writes to
 * BARRIER_FILES files in turn, each at most once in FOLD_MS and never
 * while a pass waits on it, so that a file's event is always that of the
 * write waited for; passes on different files go on side by side. A write
 * whose event did not come in time could still be told late: its file is
 * replaced by a new one. The folder is removed when the cache closes.
 */
class Barrier {
  private n = 0;
  private turn = 0;
  private readonly files: BarrierFile[] = [];
  private watcher: FSWatcher | undefined;
  /** What the event of each file written does, until it comes. */
  private readonly awaited = new Map<string, () => void>();

  private constructor(private readonly dir: string) {}

  /** A barrier in a new folder under `tmp`; undefined where the folder
   *  cannot be made or watched. */
  static open(tmp: string): Barrier | undefined {
    let dir: string | undefined;
    let b: Barrier | undefined;
    try {
      dir = mkdtempSync(join(tmp, 'kb-events-'));
      const barrier = new Barrier(dir);
      b = barrier;
      barrier.watcher = watch(dir, { persistent: false }, delivered((type: string, name: string | Buffer | null) => barrier.event(type, name == null ? '' : String(name))));
      barrier.watcher.on('error', () => barrier.close());
      for (let i = 0; i < BARRIER_FILES; i++) barrier.files.push(barrier.newFile());
      return barrier;
    } catch {
      if (b !== undefined) b.close();
      else if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
  }

  private newFile(): BarrierFile {
    const name = `b${++this.n}`;
    closeSync(openSync(join(this.dir, name), 'w'));
    return { name, at: performance.now(), busy: false };
  }

  private event(type: string, name: string): void {
    const told = type === 'change' ? this.awaited.get(name) : undefined;
    if (told === undefined) return;
    this.awaited.delete(name);
    told();
  }

  /** Writes to a file and resolves once its event has come (true), or
   *  after BARRIER_MAX_MS (false). */
  async pass(): Promise<boolean> {
    const file = await this.take();
    if (file === undefined) return false;
    const ok = await this.write(file);
    file.busy = false;
    return ok;
  }

  /** A file no pass is waiting on, once its last write is FOLD_MS old;
   *  undefined once closed. */
  private async take(): Promise<BarrierFile | undefined> {
    for (;;) {
      if (this.watcher === undefined) return undefined;
      let file: BarrierFile | undefined;
      for (let k = 0; k < this.files.length && file === undefined; k++) {
        const f = this.files[this.turn++ % this.files.length];
        if (!f.busy) file = f;
      }
      // Every file waited on (a starved machine): wait for one.
      if (file === undefined) {
        await new Promise((resolve) => setTimeout(resolve, FOLD_MS));
        continue;
      }
      file.busy = true;
      const wait = file.at + FOLD_MS - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return file;
    }
  }

  private write(file: BarrierFile): Promise<boolean> {
    if (this.watcher === undefined) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        // Its event may still come: the file is not written again.
        this.awaited.delete(file.name);
        try {
          rmSync(join(this.dir, file.name), { force: true });
          const fresh = this.newFile();
          file.name = fresh.name;
          file.at = fresh.at;
        } catch {
          this.close();
        }
        resolve(false);
      }, BARRIER_MAX_MS);
      const told = () => {
        clearTimeout(timer);
        // The events read with the barrier's are handed on as tasks of
        // their own, each watcher's apart: the barrier's may come first.
        // One turn of the event loop later they have all come (a change
        // made just before the barrier was told after it 6 times in 1,500
        // without this turn, never in 1,500 with it).
        setImmediate(() => resolve(true));
      };
      this.awaited.set(file.name, told);
      try {
        file.at = performance.now();
        // Opened for the write alone: a server holds no descriptor for
        // it. 'r+' neither makes nor truncates it: one event, the write's.
        const fd = openSync(join(this.dir, file.name), 'r+');
        try {
          writeSync(fd, ONE_BYTE, 0, 1, 0);
        } finally {
          closeSync(fd);
        }
      } catch {
        this.awaited.delete(file.name);
        clearTimeout(timer);
        resolve(false);
      }
    });
  }

  close(): void {
    try {
      this.watcher?.close();
    } catch {
      // closed already
    }
    this.watcher = undefined;
    this.files.length = 0;
    const told = [...this.awaited.values()];
    this.awaited.clear();
    for (const t of told) t();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The barrier's files, written in turn, and the least time between two
 *  writes to one (the runtime folds events closer than about 1 ms). */
const BARRIER_FILES = 32;
const FOLD_MS = 20;

const ONE_BYTE = new Uint8Array(1);

/** One of a barrier's files: its name, when it was last written
 *  (performance.now()), and whether a pass waits on it. */
interface BarrierFile {
  name: string;
  at: number;
  busy: boolean;
}

/** The most topics kept: a workspace has a handful. */
const MAX_TOPICS = 64;

/** The names of ignore files: an event naming one has the topic walked
 *  again (kb/fs/ignore.ts reads them). */
const CONTROL_NAMES = new Set(['.gitignore', '.kbignore']);

/** One topic's watchers and what they make safe to keep. */
class TopicWatch {
  readonly watchers: FSWatcher[] = [];
  /** The index must be walked again. */
  stale = true;
  /** Set once watching failed: closed, not to be trusted. */
  failed = false;
  /** Probe results by slug, shared by the views of successive requests. */
  readonly probed = new Map<string, ProbeResult>();
  /** Paths (relative, `/`-separated) with an event, and when. */
  readonly recent = new Map<string, number>();
  /** Events told so far, of any kind (`IndexCache.changes`), and when
   *  the last came. */
  events = 0;
  lastEvent = 0;
  /** Values kept while no event comes (`IndexCache.keep`), by key, with
   *  the count of events they were made at, and the check of what no
   *  event tells of. */
  readonly kept = new Map<string, { at: number; value: unknown; fresh?: () => boolean }>();
  /** Everything probed must be probed again. */
  reprobe = false;
  /** The subjects by path (and alias), for events: built on first need. */
  private byPath: Map<string, Subject[]> | undefined;
  /** The subjects reached through a symbolic link: out of the watcher's
   *  sight, so each is stat'ed on every request (`probes`), and what was
   *  probed of it is kept only while that stat stays the same. */
  private unseen: Subject[] = [];
  /** Their stats (size, time, inode) at the last request, by slug. */
  private readonly unseenStats = new Map<string, string>();
  index: SubjectIndex | undefined;

  /** `root`: the directory's device and inode when watching began ('' if
   *  it could not be stat'ed). */
  constructor(
    readonly dir: string,
    readonly root: string,
  ) {}

  /** An event from a watcher of the directory `base` (relative to the
   *  subjects directory, '' for itself). */
  event(type: string, name: string | Buffer | null | undefined, base: string): void {
    this.events++;
    this.lastEvent = Date.now();
    if (name === null || name === undefined || name === '') {
      this.stale = this.reprobe = true;
      return;
    }
    const rel = (base === '' ? '' : `${base}/`) + String(name).split('\\').join('/');
    const leaf = rel.slice(rel.lastIndexOf('/') + 1);
    const known = this.drop(rel);
    if (CONTROL_NAMES.has(leaf)) this.stale = this.reprobe = true;
    else if (type === 'rename') {
      this.stale = true;
      if (!known) this.reprobe = true;
    }
    this.recent.set(rel, Date.now());
  }

  /** Drops what was probed of the subjects at `rel`; whether there are any. */
  private drop(rel: string): boolean {
    const at = this.subjectsAt(rel);
    if (at === undefined) return false;
    for (const s of at) {
      this.probed.delete(s.slug);
      forgetSize(s);
    }
    return true;
  }

  private subjectsAt(rel: string): Subject[] | undefined {
    const index = this.index;
    if (index === undefined) return undefined;
    if (this.byPath === undefined) {
      const byPath = new Map<string, Subject[]>();
      eachSubject(index, (s) => {
        const list = byPath.get(s.path);
        if (list === undefined) byPath.set(s.path, [s]);
        else list.push(s);
      });
      this.byPath = byPath;
    }
    return this.byPath.get(rel);
  }

  /** The probes to keep for a request: a file with an event in the last
   *  two seconds is probed again (its next write may not have been told
   *  yet). */
  probes(now: number): Map<string, ProbeResult> {
    if (this.reprobe) {
      this.probed.clear();
      this.reprobe = false;
    }
    // Stat'ed before this request probes anything: a write after the
    // stat shows in the next request's.
    for (const s of this.unseen) {
      const st = fileStat(s.abs);
      if (st === undefined || st !== this.unseenStats.get(s.slug)) {
        this.probed.delete(s.slug);
        forgetSize(s);
      }
      if (st === undefined) this.unseenStats.delete(s.slug);
      else this.unseenStats.set(s.slug, st);
    }
    for (const [rel, at] of this.recent) {
      if (now - at < RACY_MS) this.drop(rel);
      else this.recent.delete(rel);
    }
    return this.probed;
  }

  /** A new index for this topic (walked after `stale` was cleared). */
  reindexed(index: SubjectIndex): void {
    this.index = index;
    this.byPath = undefined;
    this.unseen = [];
    this.unseenStats.clear();
    if (index.links.length === 0) return;
    const through = throughLinks(index.links.map((l) => l.abs));
    eachSubject(index, (s) => {
      if (through(s.abs)) this.unseen.push(s);
    });
  }

  close(): void {
    this.kept.clear();
    for (const w of this.watchers) {
      try {
        w.close();
      } catch {
        // closed already
      }
    }
    this.watchers.length = 0;
  }
}

/** Every subject of `index`: its subjects, skills' bundled files, and
 *  the subjects under their aliases. */
function eachSubject(index: SubjectIndex, visit: (s: Subject) => void): void {
  for (const s of index.subjects) {
    visit(s);
    if (s.skill !== undefined) for (const f of s.skill.files) visit(f);
  }
  for (const a of index.aliases.values()) visit(a.subject);
}

interface Entry {
  index: SubjectIndex;
  stamps: Stamp[];
  missing: string[];
  /** Of `stamps` and `missing`, those out of the watcher's sight: outside
   *  the subjects directory (an ignore file above it), or reached through
   *  a symbolic link. */
  unseen: { stamps: Stamp[]; missing: string[] };
  /** Each symbolic link met, and what it led to (`linkKind`). */
  links: [string, number][];
  /** When (performance.now()) the last check of its stamps that found
   *  them unchanged began; -Infinity before any. */
  checkedAt: number;
}

/** Subject indexes by subjects directory: watched, else stamped. */
export class IndexCache {
  private readonly entries = new Map<string, Entry>();
  private readonly watches = new Map<string, TopicWatch>();
  /** Directories watched one by one, over all topics. */
  private watchedDirs = 0;
  /** Recursive watching failed once: watch directory by directory. */
  private noRecursive = false;
  private closed = false;
  hits = 0;
  misses = 0;
  /** Hits that took a check begun after their request arrived (`get`). */
  sharedChecks = 0;
  /** Told of each file event of a watched topic, after the cache took
   *  it (`kb mcp`'s subscriptions: mcp/subscriptions.ts; over HTTP, one
   *  per listening request). */
  readonly eventListeners = new Set<() => void>();
  /** Values given back by `kept`, and asked for in vain. */
  keptHits = 0;
  keptMisses = 0;

  /** `log`: a line for `--verbose` (a fallback, and why). */
  constructor(private readonly log: (line: string) => void = () => {}) {}

  /** Whether `dir` is being watched now (its probes are kept). */
  watched(dir: string): boolean {
    const w = this.watches.get(dir);
    return w !== undefined && !w.failed;
  }

  /** When the last event naming `rel` (relative to the subjects
   *  directory `dir`, `/`-separated) arrived, in ms since the epoch; -1
   *  when none did (for tests, which wait for an event instead of for a
   *  time). */
  eventAt(dir: string, rel: string): number {
    return this.watches.get(dir)?.recent.get(rel) ?? -1;
  }

  /** How many watchers are open, over all topics (for tests). */
  get openWatchers(): number {
    let n = 0;
    for (const w of this.watches.values()) n += w.watchers.length;
    return n;
  }

  /** Lets the events of changes made before this moment arrive. A
   *  listing, which uses what was probed, awaits it first. Under Bun it
   *  passes the barrier (see `Barrier`): every earlier event has then been
   *  handled, however late the watcher thread runs (a watcher tells of a
   *  write about 0.2 ms after it, measured; up to tens of ms on a loaded
   *  machine). Elsewhere, or without a barrier, it waits SETTLE_MS, and a
   *  write whose event comes later shows in the listing after. `since`:
   *  when the request arrived (performance.now()); a barrier begun after
   *  it that has passed (`ready`) has told of every change made before it,
   *  and is not passed again. */
  async settle(since?: number): Promise<void> {
    if (this.watches.size === 0) return;
    if (since !== undefined && this.syncedAt >= since) return;
    const passed = await this.passBarrier(performance.now());
    if (passed === true) return;
    if (passed === false) {
      this.log(`kb mcp: file events are late (the barrier's did not come within ${BARRIER_MAX_MS} ms): this listing may miss a change made just before it`);
      return;
    }
    await new Promise((resolve) => setTimeout(() => setImmediate(resolve), SETTLE_MS));
  }

  /** The barrier (made on first need), under Bun only; undefined where it
   *  cannot be made (then never tried again). */
  private barrier: Barrier | null | undefined;

  private async openBarrier(): Promise<Barrier | undefined> {
    if (this.barrier === undefined) {
      this.barrier = null;
      if (typeof process.versions.bun === 'string' && !this.closed) {
        // node:os only here: importing it costs every command start-up time.
        const { tmpdir } = await import('node:os');
        this.barrier = this.closed ? null : (Barrier.open(tmpdir()) ?? null);
        if (this.barrier === null) this.log('kb mcp: no folder for the file-event barrier in the temporary folder: a listing waits 5 ms for the events of changes made just before it');
      }
    }
    return this.barrier ?? undefined;
  }

  /** The cached index of `dir`, if nothing it depends on changed: none of
   *  its directories' times, and (while watched) no event that adds,
   *  removes or renames something.
   *
   *  `since` (performance.now()): when the request asking arrived. A check
   *  of the directories' times that began after it sees every change made
   *  before the request, as a check of its own would: such a check is
   *  taken for it (requests that waited their turn together share one
   *  round of stats: a topic of 400 directories costs 2 ms a round). The
   *  events and the topic folder's identity are looked at every time. */
  get(dir: string, since?: number): SubjectIndex | undefined {
    this.checkRoot(dir);
    const e = this.entries.get(dir);
    const w = this.watches.get(dir);
    const watched = w !== undefined && !w.failed;
    if (e !== undefined && !(watched && (w.stale || w.index !== e.index)) && this.current(e, since, watched && this.seen(w, since))) {
      this.hits++;
      return e.index;
    }
    // A change no event told of (yet): nothing probed is trusted.
    if (watched && e !== undefined && !w.stale) w.reprobe = true;
    this.misses++;
    if (e !== undefined) this.entries.delete(dir);
    return undefined;
  }

  /** Whether `e`'s directories, ignore files and links are as stamped:
   *  checked now, unless a check that found them so began after `since`.
   *  `seen`: every event of a change made before the request arrived has
   *  been told (`seen`), so what the watcher sees needs no stat: only what
   *  is out of its sight is checked then. */
  private current(e: Entry, since: number | undefined, seen: boolean): boolean {
    if (since !== undefined && e.checkedAt >= since) {
      this.sharedChecks++;
      return true;
    }
    const began = performance.now();
    const { stamps, missing } = seen ? e.unseen : e;
    if (!(missing.every((p) => stampOf(p) === undefined) && stamps.every(unchanged) && e.links.every(([p, kind]) => linkKind(p) === kind))) return false;
    if (seen) this.watchedChecks++;
    else e.checkedAt = began;
    return true;
  }

  /** Whether `w`'s events tell of every change made before `since`
   *  (performance.now()): it is watched recursively, an event barrier
   *  begun after `since` has passed (`sync`), and no event came in the
   *  last two seconds (RACY_MS: the runtime folds a file's events that
   *  come close together, so a change just after one told of may go
   *  untold). */
  private seen(w: TopicWatch, since: number | undefined): boolean {
    return since !== undefined && this.syncedAt >= since && !this.noRecursive && Date.now() - w.lastEvent >= RACY_MS;
  }

  /** When (performance.now()) the last event barrier that passed began:
   *  every event of a change made before then has been told. */
  private syncedAt = -Infinity;
  /** Revalidations that stat'ed only what the watchers cannot see. */
  watchedChecks = 0;
  /** Event barriers begun (for tests). */
  barriers = 0;
  /** For kb's tests only: how long `ready` waits for its barrier, in place
   *  of the stats' cost (KB_TEST_READY_WAIT_MS too). */
  readyWait: number | undefined = readyWaitForTests();

  /** Passes an event barrier now, without waiting for it: requests that
   *  arrived before it, once it has passed, check only what the watchers
   *  cannot see (`get`), rather than stat every directory of the topic.
   *  A front end asks for it (`syncSoon`) when a request arrives that
   *  will wait its turn (on its own it would wait for the barrier as long
   *  as the stats take). Nothing where there is no barrier (then every check stats). Resolves
   *  once the barrier passed (or could not be). */
  async sync(): Promise<void> {
    if (this.watches.size === 0 || this.closed) return;
    const began = performance.now();
    this.syncBegan = began;
    await this.passBarrier(began);
  }

  /** Before a request that arrived at `since` (performance.now()) reads
   *  the kept indexes: where a check of one of them would stat many
   *  directories (BARRIER_WORTH or more) and no barrier begun since the
   *  request arrived has passed, it passes one now, waiting for it no
   *  longer than those stats would take; its checks (`get`) then stat only
   *  what the watchers cannot see. A request that comes alone (a session's next call)
   *  would otherwise stat every directory of the topic; requests that
   *  wait their turn share the barriers `syncSoon` asks for. Resolves at
   *  once where there is no barrier (every check stats). */
  async ready(since: number): Promise<void> {
    if (this.closed || this.noRecursive || this.syncedAt >= since || this.barrier === null) return;
    // The most stats a barrier would spare a check of one kept topic: a
    // topic with an event in the last two seconds is stat'ed anyway (`seen`).
    let stats = 0;
    const now = Date.now();
    for (const [dir, e] of this.entries) {
      const w = this.watches.get(dir);
      if (w !== undefined && !w.failed && now - w.lastEvent >= RACY_MS) stats = Math.max(stats, e.stamps.length + e.missing.length);
    }
    if (stats < BARRIER_WORTH) return;
    const wait = this.readyWait ?? Math.min(READY_WAIT_MS[1], Math.max(READY_WAIT_MS[0], stats * STAT_MS));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.sync(), new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))]);
    clearTimeout(timer);
  }

  /** When the last `sync` was asked for (performance.now()), and the
   *  timer of the next (`syncSoon`). */
  private syncBegan = -Infinity;
  private syncTimer: ReturnType<typeof setTimeout> | undefined;

  /** `sync`, within SYNC_EVERY_MS: at most one barrier in that time,
   *  however many requests ask (a barrier writes a byte to a file and
   *  waits for its event: one per request cost more than the stats it
   *  saved). A request that
   *  waits longer than that for its turn checks only what the watchers
   *  cannot see. */
  syncSoon(): void {
    if (this.syncTimer !== undefined || this.watches.size === 0 || this.closed) return;
    const wait = Math.max(0, this.syncBegan + SYNC_EVERY_MS - performance.now());
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      void this.sync();
    }, wait);
  }

  /** Passes the barrier (one begun after `began`, if one is under way):
   *  every event of a change made before `began` has then been told.
   *  Whether it passed (false: its event was late), undefined where there
   *  is no barrier. */
  private async passBarrier(began: number): Promise<boolean | undefined> {
    const barrier = await this.openBarrier();
    if (barrier === undefined) return undefined;
    this.barriers++;
    const passed = await barrier.pass();
    if (passed) this.syncedAt = Math.max(this.syncedAt, began);
    return passed;
  }

  /** Called before `dir` is walked: starts watching it (once; a watcher
   *  already there stays), so that a change during the walk is seen. */
  begin(dir: string): void {
    const w = this.watch(dir);
    if (w !== undefined) w.stale = false;
  }

  /** How many file events `dir`'s watcher has told of, starting to watch
   *  it if it is not watched yet (a new watch says the index must be
   *  walked, as it was not). Something made of `dir`'s files after this
   *  call (read, checked) stays right while the count stays the same: see
   *  `keep`. Undefined where `dir` is not watched recursively (watched
   *  directory by directory, a directory made later would go unseen until
   *  a listing walks it). Await `settle` first: the events of changes made
   *  before then are counted. */
  changes(dir: string): number | undefined {
    this.checkRoot(dir);
    // A search over more topics than are watched at most does not make
    // room by closing the others' watchers (a listing does): the topics
    // past the limit are revalidated on each search.
    if (!this.watches.has(dir) && this.watches.size >= MAX_TOPICS) return undefined;
    const w = this.watch(dir);
    return w === undefined || w.failed || this.noRecursive ? undefined : w.events;
  }

  /** Keeps `value`, made of `dir`'s files after `changes(dir)` gave `at`,
   *  under `key`, for as long as no event comes (then `kept` forgets it):
   *  at most one value per key, held as long as `dir` is watched. Not
   *  kept within two seconds of an event (RACY_MS): the runtime folds a
   *  file's events that come close together into one, so a write just
   *  after one told of may never be told itself. */
  keep(dir: string, key: string, at: number, value: unknown, fresh?: () => boolean): void {
    const w = this.watches.get(dir);
    if (w === undefined || w.failed || this.noRecursive || w.events !== at || Date.now() - w.lastEvent < RACY_MS) return;
    w.kept.set(key, fresh === undefined ? { at, value } : { at, value, fresh });
  }

  /** The value kept under `key` for `dir` (`keep`), while no event came
   *  since it was made and its own check (`fresh`, for what it holds of
   *  files no event tells of: those reached through a symbolic link)
   *  passes; undefined otherwise. Await `settle` first. */
  kept(dir: string, key: string): unknown {
    const w = this.watches.get(dir);
    const k = w?.kept.get(key);
    if (w !== undefined && k !== undefined && (w.failed || this.noRecursive || w.events !== k.at || (k.fresh !== undefined && !k.fresh()))) w.kept.delete(key);
    else if (k !== undefined) {
      this.keptHits++;
      return k.value;
    }
    this.keptMisses++;
    return undefined;
  }

  /** Forgets the value kept under `key` for `dir`. */
  forget(dir: string, key: string): void {
    this.watches.get(dir)?.kept.delete(key);
  }

  /** `dir`'s watch, started when there is none yet; undefined once
   *  closed, or when watching `dir` failed. */
  private watch(dir: string): TopicWatch | undefined {
    if (this.closed) return undefined;
    let w = this.watches.get(dir);
    if (w !== undefined && w.failed) return undefined;
    if (w === undefined) {
      if (this.watches.size >= MAX_TOPICS) this.dropAll();
      w = new TopicWatch(dir, identity(dir));
      this.watches.set(dir, w);
      if (!this.noRecursive) {
        try {
          this.add(w, dir, '', true);
        } catch (err) {
          const code = (err as { code?: string }).code;
          if (code !== 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM' && code !== 'ERR_INVALID_ARG_VALUE') {
            this.fail(w, reason(err));
            return undefined;
          }
          this.noRecursive = true;
        }
      }
      if (this.noRecursive) {
        try {
          this.add(w, dir, '', false);
          this.watchedDirs++;
        } catch (err) {
          this.fail(w, reason(err));
          return undefined;
        }
      }
    }
    return w.failed ? undefined : w;
  }

  /** A watch goes on watching the directory it began on, wherever it is
   *  moved (`mv t t.old`), and a link to it (or to a folder above it) can
   *  be made to lead elsewhere with no event it would tell of: when `dir`
   *  is no longer that directory (or now exists where it did not), its
   *  watch is closed, with what it kept; the next request watches `dir`
   *  again (a watch that failed for another reason stays failed). One
   *  stat. */
  private checkRoot(dir: string): void {
    const w = this.watches.get(dir);
    if (w === undefined) return;
    const now = identity(dir);
    if (now === w.root) return;
    if (this.noRecursive) this.watchedDirs -= w.watchers.length;
    w.close();
    this.watches.delete(dir);
    const what = now === '' ? 'is gone' : w.root === '' ? 'exists now' : 'is another directory than the one watched';
    this.log(`kb mcp: topic directory ${dir} ${what} (made, replaced, moved, or a link to it changed): watched again where it exists`);
  }

  private add(w: TopicWatch, path: string, base: string, recursive: boolean): void {
    const watcher = watch(
      path,
      { recursive, persistent: false },
      delivered((type: string, name: string | Buffer | null) => {
        w.event(type, name, base);
        for (const listener of this.eventListeners) listener();
      }),
    );
    watcher.on('error', (err) => this.fail(w, reason(err)));
    w.watchers.push(watcher);
  }

  private fail(w: TopicWatch, why: string): void {
    if (w.failed) return;
    w.failed = true;
    w.close();
    w.probed.clear();
    w.kept.clear();
    this.log(`kb mcp: topic directory ${w.dir} is not watched (${why}): its index is revalidated by directory times on each request, and its files probed again`);
  }

  /** Keeps the index of `dir`, stamped with what its walk went through
   *  (`trace`: the directories read and the ignore files met). Paths that
   *  did not exist (the subjects directory itself, say) are kept too: the
   *  index is stale once they appear. */
  set(dir: string, index: SubjectIndex, trace: WalkTrace, builtAt = Date.now()): void {
    const w = this.watches.get(dir);
    if (w !== undefined && !w.failed) {
      w.reindexed(index);
      if (this.noRecursive) this.watchEach(w, trace);
    }
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
    if (this.entries.size >= MAX_TOPICS) this.entries.clear();
    const links = trace.links.map((p): [string, number] => [p, linkKind(p)]);
    const unseen = outOfSight(dir, trace.links);
    this.entries.set(dir, { index, stamps, missing, unseen: { stamps: stamps.filter((s) => unseen(s.path)), missing: missing.filter(unseen) }, links, checkedAt: -Infinity });
  }

  /** Without recursive watching: a watcher on each directory the walk went
   *  through (replacing the last walk's), within MAX_WATCHED_DIRS. */
  private watchEach(w: TopicWatch, trace: WalkTrace): void {
    this.watchedDirs -= w.watchers.length;
    w.close();
    const dirs = trace.dirs.includes(w.dir) ? trace.dirs : [w.dir, ...trace.dirs];
    if (this.watchedDirs + dirs.length > MAX_WATCHED_DIRS) {
      return this.fail(w, `${dirs.length} directories, over the limit of ${MAX_WATCHED_DIRS} watched one by one`);
    }
    for (const d of dirs) {
      const base = d === w.dir ? '' : d.slice(w.dir.length + 1).split('\\').join('/');
      try {
        this.add(w, d, base, false);
        this.watchedDirs++;
      } catch (err) {
        return this.fail(w, reason(err));
      }
    }
  }

  /** The probe results to share with a view of `dir` over `index`: kept
   *  from earlier requests while `dir` is watched (undefined otherwise). */
  probes(dir: string, index: SubjectIndex): Map<string, ProbeResult> | undefined {
    const w = this.watches.get(dir);
    if (w === undefined || w.failed || w.index !== index) return undefined;
    return w.probes(Date.now());
  }

  private dropAll(): void {
    for (const w of this.watches.values()) {
      if (this.noRecursive) this.watchedDirs -= w.watchers.length;
      w.close();
    }
    this.watches.clear();
  }

  /** Closes every watcher (at shutdown); nothing is watched afterwards. */
  close(): void {
    this.closed = true;
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    this.dropAll();
    this.entries.clear();
    this.barrier?.close();
    this.barrier = null;
  }
}

/** Whether a path the walk went through is out of the sight of `dir`'s
 *  watcher: outside `dir` (an ignore file above it), or reached through
 *  one of `links`. */
function outOfSight(dir: string, links: readonly string[]): (path: string) => boolean {
  const through = throughLinks(links);
  return (path) => !(path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep)) || through(path);
}

function reason(err: unknown): string {
  const code = (err as { code?: string }).code;
  return code ?? (err instanceof Error ? err.message : String(err));
}

