// A topic's search index, as fresh as its files: from the cache when
// nothing changed, else brought up to date and stored again.
//
// Revalidation, cheapest first:
// 1. every directory the last walk read, and every ignore file, still has
//    the mtime (and size) it had: no file was added, removed or renamed,
//    and no ignore rule changed, so the subjects are the same and the
//    topic is not walked again;
// 2. every indexed file still has its size and mtime: the index is used
//    as it is (a hit);
// 3. otherwise only the files that changed are read again; the others'
//    terms are carried over from the old index.
// A directory changed: the topic is walked, and the files whose size and
// mtime are unchanged are carried over the same way. A directory's inode
// counts too (a topic folder replaced, or a link to it retargeted, by one
// of the same time), and so does what each symbolic link leads to (a
// dangling link whose target appears changes no directory that holds it).
//
// What a subject is follows the view (kb/index/view.ts): hidden subjects
// are never indexed, a skill's bundled files are (as subjects of their
// own, found beside their skill); binary and unreadable
// files are tracked but never results; disabled subjects are left out at
// query time (configuration, not files, disables them).

import type { Pace } from '../../shared/pace.ts';
import { rmSync, statSync } from 'node:fs';
import { descriptionValue, loadYaml, NEEDS_YAML, parseFrontmatter, simpleFields, type YamlModule } from '../content/frontmatter.ts';
import { decodeFront, frontmatterSpan, PROBE_BYTES } from '../fs/probe.ts';
import { probeBytes } from '../fs/probe-titles.ts';
import type { StatJobHandle, StatPaths } from '../fs/probe.ts';
import { statLater } from '../fs/probe-thread.ts';
import { withinDir } from '../fs/within.ts';
import { subjectTitle } from '../content/title.ts';
import { encodeFacets, facetsOf } from '../content/facets.ts';
import { estimateTokensOfBytes } from '../content/tokens.ts';
import { readBody } from '../fs/read.ts';
import { linkKind, notice, throughLinks, type Notice, type WalkTrace } from '../fs/walk.ts';
import { openTopic, type TopicSpec } from '../index/view.ts';
import { cacheFile, readCache, writeCache, type CacheEntry, type Trace } from './cache.ts';
import { searchedText } from '../content/searched.ts';
import { markupExt, sniffable } from '../content/sniff.ts';
import { extOf } from '../index/slug.ts';
import { checkCached } from './trust.ts';
import { IndexBuilder, KIND_SKIPPED, KIND_TEXT, MAX_TITLE, type DocFields, type DocMeta, type SearchIndex } from './engine.ts';
import { startProgress, type Progress } from '../../shared/progress.ts';

/** A topic as search needs it: the view's spec and its ID (the cache's
 *  key). */
export interface SearchTopic extends TopicSpec {
  readonly id: string;
}

export interface TopicIndexOptions {
  /** The cache directory; undefined: no cache (`--no-cache`). */
  cacheDir?: string;
  /** Starts a stat of every file (`prefix` before each path), as
   *  kb/fs/probe-thread.ts `statLater` (which is the default): the front
   *  end may share the work with its reader thread. */
  stat?: (paths: readonly string[] | StatPaths, prefix?: string) => StatJobHandle;
  /** A turn between files read (shared/pace.ts): a long-lived front end
   *  stays responsive while a large topic is indexed, and a cancelled
   *  search reads no further file. */
  pace?: Pace;
}

/** How the index was had: `hit` (the cache, unchanged), `updated` (the
 *  cache, some files read again), `built` (every file read), `memory`
 *  (built, and no cache used), `kept` (held by a long-lived front end
 *  since an earlier search, its file watcher telling of no change). */
export type IndexStatus = 'hit' | 'updated' | 'built' | 'memory' | 'kept';

export interface TopicIndex {
  index: SearchIndex;
  status: IndexStatus;
  /** Files read to index. */
  read: number;
  /** What the user should know about the cache (stderr). */
  cacheProblem?: string;
  /** What the walk noticed about the subjects directory itself (missing,
   *  not a directory), when the topic was walked, and files that could not
   *  be indexed (unreadable, too large), when they were read. */
  notices?: Notice[];
  /** The cache file, when one is used. */
  file?: string;
  /** For an index read from the cache as it is, in a topic with ignore
   *  files: why document `doc` is one the ignore rules leave out (it must
   *  not be read or shown), or undefined (trust.ts). */
  vet?: (doc: number) => string | undefined;
  /** Milliseconds spent reading the cache, revalidating it, and building
   *  (or updating) the index and writing it back. */
  times: { load: number; check: number; build: number };
  /** What the index was made from (its cache file's trace). */
  trace?: Trace;
}

/** Times this close to a walk may not tell a later change apart. */
const RACY_MS = 2000;

interface Stat {
  size: number;
  mtime: number;
  ino?: number;
}

function statOf(abs: string): Stat | undefined {
  try {
    const st = statSync(abs, { throwIfNoEntry: false });
    return st === undefined ? undefined : { size: st.size, mtime: st.mtimeMs, ino: st.ino };
  } catch {
    return undefined;
  }
}

/** The index of `topic`'s subjects. Never throws for the cache's sake. */
export async function topicIndex(topic: SearchTopic, opts: TopicIndexOptions): Promise<TopicIndex> {
  const file = opts.cacheDir === undefined ? undefined : cacheFile(opts.cacheDir, topic.id, topic.subjectsDir);
  let cacheProblem: string | undefined;
  let old: CacheEntry | undefined;
  const times = { load: 0, check: 0, build: 0 };
  let t = performance.now();
  const lap = (): number => {
    const now = performance.now();
    const ms = now - t;
    t = now;
    return ms;
  };
  const stat = opts.stat ?? statLater;
  // Every indexed file's stat starts as soon as the cache's paths are
  // read: the reader thread, where there is one, takes its share while the
  // rest of the cache is read and the directories and the cache's paths
  // are checked here (a stat never opens a file; its result is used only
  // once those checks pass).
  let pending: StatJobHandle | undefined;
  if (file !== undefined) {
    const r = readCache(file, topic.subjectsDir, (paths) => (pending = stat(paths, `${topic.subjectsDir}/`)));
    if (r.kind === 'hit') old = r.entry;
    else {
      pending?.cancel();
      pending = undefined;
      if (r.kind === 'corrupt') cacheProblem = `the search cache ${file} could not be read (${r.why}); rebuilt`;
    }
  }
  times.load = lap();
  // On a large topic the files read are counted on a terminal.
  const progress = startProgress(`indexing topic "${topic.id}" for search`);
  let out: TopicIndex | undefined;
  try {
    out = await indexTopic(topic, file, old, cacheProblem, times, lap, progress, pending, opts.pace);
    return out;
  } finally {
    progress.done();
    // The cache's index, not the one returned: its file is let go (the
    // caller releases the one it gets, SearchIndex.release).
    if (old !== undefined && out?.index !== old.index) old.index.release();
  }
}

/** The rest of `topicIndex`, once the cache is read: revalidates or
 *  builds the index, and writes it back. */
async function indexTopic(
  topic: SearchTopic,
  file: string | undefined,
  old: CacheEntry | undefined,
  cacheProblem: string | undefined,
  times: TopicIndex['times'],
  lap: () => number,
  progress: Progress,
  /** The stat of `old`'s documents, under way. */
  pending: StatJobHandle | undefined,
  pace?: Pace,
): Promise<TopicIndex> {
  let result: { index: SearchIndex; trace: Trace; read: number; notices?: Notice[] };
  let status: IndexStatus;
  /** Vets the documents of an index made from the cache's, in its order. */
  let vet: TopicIndex['vet'];
  // A cached index names only what the walk would index (trust.ts), or
  // it is not used.
  const sameFiles = old !== undefined && sameTree(old.trace, topic.subjectsDir);
  const verdict = sameFiles ? checkCached(old!, topic.subjectsDir) : {};
  let changed = old !== undefined && sameFiles && verdict.why === undefined ? changedDocs(old.index, pending!.join()) : undefined;
  if (changed === undefined) pending?.cancel();
  // The files read again are vetted first.
  let why = verdict.why;
  if (changed !== undefined && verdict.vet !== undefined) for (const d of changed.keys()) why ??= verdict.vet(d);
  if (why !== undefined) {
    cacheProblem = `the search cache ${file} was not used (${why}); rebuilt`;
    old = undefined;
    changed = undefined;
  }
  if (old !== undefined && changed !== undefined) {
    times.check = lap();
    const check = verdict.vet;
    // A document the rules leave out: the cache is forged or broken, and
    // removed (the next search indexes the topic again).
    if (check !== undefined) {
      vet = (d) => {
        const why = check(d);
        if (why !== undefined) {
          try {
            rmSync(file!, { force: true });
          } catch {
            // Replaced when the next search writes the index back.
          }
        }
        return why;
      };
    }
    if (changed.size === 0) return { index: old.index, status: 'hit', read: 0, file, times, trace: old.trace, ...(cacheProblem ? { cacheProblem } : {}), ...(vet ? { vet } : {}) };
    // The same documents, in the same order.
    const index = old.index;
    const same: Candidate[] = [];
    for (let d = 0; d < index.count; d++) {
      const path = index.pathOf(d);
      same.push({ path, slug: index.slugOf(d), abs: absOf(topic, path) });
    }
    result = await rebuild(same, old, changed, old.trace, undefined, progress, pace);
    status = 'updated';
  } else {
    result = await walkAndBuild(topic, old, progress, pace);
    status = file === undefined ? 'memory' : old !== undefined ? 'updated' : 'built';
  }
  if (file !== undefined) {
    const why = writeCache(file, { index: result.index, trace: result.trace }, topic.subjectsDir);
    if (why !== undefined) cacheProblem = `the search cache could not be written (${why}); the index is kept in memory for this search only`;
  }
  times.build = lap();
  return {
    index: result.index,
    status,
    read: result.read,
    file,
    times,
    trace: result.trace,
    ...(cacheProblem ? { cacheProblem } : {}),
    ...(result.notices !== undefined && result.notices.length > 0 ? { notices: result.notices } : {}),
    ...(vet ? { vet } : {}),
  };
}

function absOf(topic: TopicSpec, path: string): string {
  return `${topic.subjectsDir}/${path}`;
}

/** No directory, ignore file or link's target changed since `trace` was
 *  taken. */
function sameTree(trace: Trace, root?: string): boolean {
  if (root === undefined) return sameTreeAt(trace, '', '');
  // Those below the subjects directory by paths relative to it (within.ts).
  return withinDir(root, (base) => sameTreeAt(trace, root.endsWith('/') ? root : `${root}/`, base));
}

/** sameTree, a path starting with `prefix` (none: '') stat'ed as `base`
 *  and the rest of it. */
function sameTreeAt(trace: Trace, prefix: string, base: string): boolean {
  const near = (abs: string): string => (prefix === '' || base === prefix ? abs : abs.startsWith(prefix) ? base + abs.slice(prefix.length) : abs === prefix.slice(0, -1) ? '.' : abs);
  const dirs = trace.dirs;
  for (let i = 0; i < dirs.length; i++) {
    const [dir, mtime, ino] = dirs[i];
    const st = statOf(near(dir));
    if (st === undefined || st.mtime !== mtime || (ino !== undefined && st.ino !== ino)) return false;
  }
  for (const [path, size, mtime] of trace.controls) {
    const st = statOf(near(path));
    if (st === undefined || st.size !== size || st.mtime !== mtime) return false;
  }
  for (const [path, kind] of trace.links ?? []) if (linkKind(path) !== kind) return false;
  return true;
}

/**
 * For a long-lived front end that keeps `got` between searches while the
 * watcher of the topic's folder tells of no change (app/search.ts): a check
 * of the part of the topic that watcher cannot see, what the topic's
 * symbolic links lead to. It passes while every link leads to what it led
 * to, and every directory, ignore file and indexed file reached through one
 * is as it was (the revalidation a search without a watcher makes, on that
 * part only: a stat each). Undefined when the topic has no link.
 */
export function linkedCheck(topic: SearchTopic, got: TopicIndex): (() => boolean) | undefined {
  const trace = got.trace;
  const links = trace?.links;
  if (trace === undefined || links === undefined || links.length === 0) return undefined;
  const through = throughLinks(links.map(([p]) => p));
  // What is reached through a link, found once.
  const linked: Trace = { dirs: trace.dirs.filter(([p]) => through(p)), controls: trace.controls.filter(([p]) => through(p)), links };
  const { index } = got;
  const docs: number[] = [];
  for (let d = 0; d < index.count; d++) if (through(absOf(topic, index.pathOf(d)))) docs.push(d);
  return () => {
    if (!sameTree(linked)) return false;
    for (const d of docs) {
      const st = statOf(absOf(topic, index.pathOf(d)));
      if (st === undefined ? index.sizes[d] !== -1 : st.size !== index.sizes[d] || st.mtime !== index.mtimes[d]) return false;
    }
    return true;
  };
}

/** The documents whose file's size or mtime changed, with their new
 *  stat (undefined: gone), from `values` ([size, mtime] per document, the
 *  size -1 for a file not there: one stat per file, a search's largest
 *  cost on a large topic). */
function changedDocs(index: SearchIndex, values: Float64Array): Map<number, Stat | undefined> {
  const out = new Map<number, Stat | undefined>();
  const { sizes, mtimes } = index;
  for (let d = 0; d < index.count; d++) {
    const size = values[2 * d];
    const mtime = values[2 * d + 1];
    if (size < 0) out.set(d, undefined);
    else if (size !== sizes[d] || mtime !== mtimes[d]) out.set(d, { size, mtime });
  }
  return out;
}

interface Candidate {
  path: string;
  slug: string;
  abs: string;
}

/** Walks the topic and indexes its non-hidden subjects, carrying over the
 *  unchanged ones from `old`. */
async function walkAndBuild(topic: TopicSpec, old: CacheEntry | undefined, progress: Progress, pace?: Pace): Promise<{ index: SearchIndex; trace: Trace; read: number; notices: Notice[] }> {
  const walked: WalkTrace = { dirs: [], controls: [], links: [] };
  const started = Date.now();
  const view = openTopic(topic, { trace: walked });
  // A subjects directory that could not be read is watched too: once it
  // exists, the next search walks it.
  if (!walked.dirs.includes(topic.subjectsDir)) walked.dirs.unshift(topic.subjectsDir);
  const notices = view.index.notices.filter((n) => ROOT_NOTICES.has(n.code));
  const candidates: Candidate[] = [];
  // A skill's bundled files are subjects of their own here (loadable by
  // their slug), unless hidden in their own right.
  for (const s of view.index.subjects) if (!s.hidden || (s.bundled === true && !HIDDEN_SEGMENT.test(s.path))) candidates.push({ path: s.path, slug: s.slug, abs: s.abs });
  const trace: Trace = { dirs: [], controls: [] };
  // Changed while the walk went on, or so shortly before it that a later
  // change could fall in the same tick of the file system's coarse clock
  // and keep the time ("racily clean", as git calls it; a subject written
  // by kb remember just before a search): not to be trusted next time.
  const trusted = started - RACY_MS;
  for (const dir of walked.dirs) {
    const st = statOf(dir);
    trace.dirs.push(st === undefined ? [dir, NaN] : [dir, st.mtime >= trusted ? NaN : st.mtime, st.ino]);
  }
  for (const path of walked.controls) {
    const st = statOf(path);
    trace.controls.push([path, st?.size ?? -1, st === undefined || st.mtime >= trusted ? NaN : st.mtime]);
  }
  if (walked.links.length > 0) trace.links = walked.links.map((p) => [p, linkKind(p)]);
  if (old !== undefined) {
    // Old documents by path: carried over when the file is the same.
    const byPath = new Map<string, number>();
    for (let d = 0; d < old.index.count; d++) byPath.set(`${old.index.slugOf(d)}\0${old.index.pathOf(d)}`, d);
    const reuse = new Map<number, number>();
    candidates.forEach((c, i) => {
      const at = byPath.get(`${c.slug}\0${c.path}`);
      if (at !== undefined) reuse.set(i, at);
    });
    const built = await rebuild(candidates, old, undefined, trace, reuse, progress, pace);
    return { ...built, notices: [...notices, ...built.notices] };
  }
  const built = await rebuild(candidates, undefined, undefined, trace, undefined, progress, pace);
  return { ...built, notices: [...notices, ...built.notices] };
}

/** A path segment starting with a dot. */
const HIDDEN_SEGMENT = /(^|\/)\./;

/** What a search says of a walk: the subjects directory itself is
 *  missing or unreadable (the other notices are for listings and `kb
 *  check`). */
const ROOT_NOTICES = new Set(['missing-directory', 'not-a-directory']);

/**
 * Indexes `candidates` in order. A candidate whose old document (`reuse`:
 * candidate -> old document; by default the same position) is unchanged
 * (not in `changed`, and when `changed` is not given, the same size and
 * mtime now) has its terms carried over; the others are read.
 */
async function rebuild(
  candidates: readonly Candidate[],
  old: CacheEntry | undefined,
  changed: Map<number, Stat | undefined> | undefined,
  trace: Trace,
  reuse?: Map<number, number>,
  progress?: Progress,
  pace?: Pace,
): Promise<{ index: SearchIndex; trace: Trace; read: number; notices: Notice[] }> {
  const oldOf = (i: number): number | undefined => (old === undefined ? undefined : reuse === undefined ? i : reuse.get(i));
  const { stats, keep } = carriedOver(candidates, old, changed, oldOf);
  const files = new FileIndexer();
  // The same documents in the same order, a few of them changed: only
  // those are indexed, and patched into the old index (SearchIndex.patched:
  // the same index, without decoding and encoding every posting again).
  const job: Reading = { candidates, keep, stats, files, progress, pace };
  const index =
    old !== undefined && changed !== undefined && reuse === undefined && changed.size * PATCH_SHARE <= candidates.length
      ? await patchedIndex(job, old)
      : await builtIndex(job, old, oldOf);
  return { index, trace, read: files.read, notices: files.unreadable };
}

/** What a rebuild reads: the candidates, the old documents kept, the
 *  candidates' stats, and how it reports and paces itself. */
interface Reading {
  candidates: readonly Candidate[];
  keep: ReadonlySet<number>;
  stats: readonly (Stat | undefined)[];
  files: FileIndexer;
  progress?: Progress;
  pace?: Pace;
}

/** Reads candidate `i` into `into`, after a turn when paced: a promise
 *  only when something must be waited for. */
function readCandidate(job: Reading, into: IndexBuilder, i: number): Promise<void> | undefined {
  job.progress?.tick(i, job.candidates.length);
  const read = () => job.files.index(into, job.candidates[i], job.stats[i] ?? { size: -1, mtime: NaN });
  const turn = job.pace?.();
  return turn === undefined ? read() : turn.then(read);
}

/** Which old documents are carried over (decided first: one pass over the
 *  old postings carries them all), and the stat of each candidate read
 *  again. */
function carriedOver(
  candidates: readonly Candidate[],
  old: CacheEntry | undefined,
  changed: Map<number, Stat | undefined> | undefined,
  oldOf: (i: number) => number | undefined,
): { stats: (Stat | undefined)[]; keep: Set<number> } {
  const stats: (Stat | undefined)[] = new Array(candidates.length);
  const keep = new Set<number>();
  for (let i = 0; i < candidates.length; i++) {
    const o = oldOf(i);
    if (o !== undefined && changed !== undefined) {
      if (!changed.has(o)) {
        keep.add(o);
        continue;
      }
      stats[i] = changed.get(o);
      continue;
    }
    const st = statOf(candidates[i].abs);
    stats[i] = st;
    if (o !== undefined && st !== undefined && old!.index.sizes[o] === st.size && old!.index.mtimes[o] === st.mtime) keep.add(o);
  }
  return { stats, keep };
}

/** The old index with the candidates not kept read again and patched in
 *  (the same documents in the same order). */
async function patchedIndex(job: Reading, old: CacheEntry): Promise<SearchIndex> {
  const fresh = new IndexBuilder();
  const at: number[] = [];
  for (let i = 0; i < job.candidates.length; i++) {
    if (job.keep.has(i)) continue;
    at.push(i);
    const wait = readCandidate(job, fresh, i);
    if (wait !== undefined) await wait;
  }
  return old.index.patched(at, fresh.finish());
}

/** A new index of the candidates: the kept ones carried over from `old`
 *  (their counted terms, without reading them), the others read. */
async function builtIndex(job: Reading, old: CacheEntry | undefined, oldOf: (i: number) => number | undefined): Promise<SearchIndex> {
  const { candidates, keep } = job;
  const builder = new IndexBuilder();
  const carried = old === undefined || keep.size === 0 ? new Map() : old.index.uninvert((d) => keep.has(d));
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    const o = oldOf(i);
    if (o !== undefined && keep.has(o)) {
      const doc = old!.index.doc(o);
      const counted = carried.get(o);
      const meta: DocMeta = { ...doc, slug: c.slug, path: c.path };
      const title = old!.index.titleOf(o);
      if (title !== undefined) meta.title = title;
      if (counted === undefined) builder.add(meta);
      else builder.addCounted(meta, counted.lens, counted.terms, counted.packed, old!.index);
      continue;
    }
    const wait = readCandidate(job, builder, i);
    if (wait !== undefined) await wait;
  }
  return builder.finish();
}

/** Reads files into an index builder: how many were read, and a notice for
 *  each that could not be; the YAML parser loaded once, when some
 *  frontmatter first needs it. */
class FileIndexer {
  private yaml: YamlModule | undefined;
  read = 0;
  readonly unreadable: Notice[] = [];

  /** Reads candidate `c` (its stat `st`) and adds it to `into`; a promise
   *  only when the file's frontmatter needs the YAML parser and it is not
   *  loaded yet (the common case stays synchronous: an await per file of
   *  a 10,000-file build cost about 15 MiB of peak memory). */
  index(into: IndexBuilder, c: Candidate, st: Stat): Promise<void> | undefined {
    this.read++;
    const r = readBody(c.abs, 'bytes');
    if (r.kind !== 'text') {
      // Binary files are expected; an unreadable or too large one is said.
      if (r.kind === 'error') this.unreadable.push(notice('unreadable', c.path, `cannot index ${c.path}: ${r.message}; it is not searched`));
      into.add({ path: c.path, slug: c.slug, size: st.size, mtime: st.mtime, kind: KIND_SKIPPED, description: null });
      return undefined;
    }
    // The bytes are a view of a buffer the next read reuses: the caller
    // awaits the promise before it reads the next file.
    const bytes = r.body as Uint8Array;
    const front = frontOf(bytes, c.path);
    if (front.needsYaml !== undefined && this.yaml === undefined) {
      return loadYaml().then((lib) => {
        this.yaml = lib;
        this.addRead(into, c, st, bytes, front);
      });
    }
    this.addRead(into, c, st, bytes, front);
    return undefined;
  }

  /** Adds a text file read (its bytes and frontmatter) to `into`. */
  private addRead(into: IndexBuilder, c: Candidate, st: Stat, bytes: Uint8Array, front: ReturnType<typeof frontOf>): void {
    const { description, names, title: frontTitle, needsYaml } = front;
    let about = description;
    let titles = names;
    let named = frontTitle;
    let fields = front.fields;
    if (needsYaml !== undefined && this.yaml !== undefined) {
      const parsed = parseFrontmatter(needsYaml, this.yaml);
      if (parsed.ok) {
        about = descriptionValue(parsed.data.description) ?? null;
        titles = [parsed.data.name, parsed.data.title].filter((v): v is string => typeof v === 'string').join('\n');
        named = firstString(parsed.data.title, parsed.data.name);
        fields = parsed.data;
      }
    }
    const ext = c.path.slice(c.path.lastIndexOf('.') + 1).toLowerCase();
    // An HTML page is searched by its text, a manual page's source by what
    // it prints (content/searched.ts).
    const text = searchedText(decoder.decode(bytes), ext);
    // Its tags, type and status, kept for filters (content/facets.ts).
    const facets = encodeFacets(facetsOf(fields, text, MD_EXTS.has(ext) ? 'md' : ext === 'org' ? 'org' : undefined));
    // The document's own title and man-page summary, by the rules of
    // content/title.ts (the head the listing probes, no other read).
    const head = probeBytes(bytes, c.path);
    const title = titleOf(named, head.title);
    // A man page's summary is its description, as in listings.
    if (about === null && head.summary !== undefined) about = head.summary;
    const docFields: DocFields = [c.slug, about ?? '', `${titles}\n${headingsOf(text, headingsExt(c.path, ext, text))}`, text, title ?? ''];
    // The token estimate a result shows, counted here on the text's UTF-8
    // (the number a search would count on the bytes it reads for the
    // snippet), so that a warm search counts none: on ten long results the
    // counting was 4-5 ms of a 30 ms search.
    const meta: DocMeta = { path: c.path, slug: c.slug, size: st.size, mtime: st.mtime, kind: KIND_TEXT, description: about ?? null, tokens: estimateTokensOfBytes(bytes) };
    if (title !== undefined) meta.title = boundTitle(title);
    if (facets !== '') meta.facets = facets;
    into.add(meta, docFields);
  }
}

/** An update patches the old index (SearchIndex.patched) when at most one
 *  document in this many changed; more, and it builds the index again,
 *  carrying the others over. */
const PATCH_SHARE = 8;

const decoder = new TextDecoder();

/** A file's frontmatter: its description and name/title, or the text
 *  the YAML parser must read. */
function frontOf(bytes: Uint8Array, path: string): { description: string | null; names: string; title?: string; needsYaml?: string; fields?: Record<string, unknown> } {
  const n = Math.min(bytes.length, PROBE_BYTES);
  const span = frontmatterSpan(bytes, n, n === bytes.length, path);
  if (span === undefined || span === -1) return { description: null, names: '' };
  const front = decodeFront(bytes.subarray(span[0], span[1]));
  const fields = simpleFields(front);
  if (fields === NEEDS_YAML) return { description: null, names: '', needsYaml: front };
  return {
    description: descriptionValue(fields.description) ?? null,
    names: [fields.name, fields.title].filter((v) => typeof v === 'string').join('\n'),
    title: firstString(fields.title, fields.name),
    fields,
  };
}

function firstString(...vs: unknown[]): string | undefined {
  for (const v of vs) if (typeof v === 'string' && v.trim() !== '') return v;
  return undefined;
}

/**
 * A document's title, indexed as the title field (weighted above the
 * others, engine.ts) and shown in results: the frontmatter `title`, else
 * `name` (`front`), else the document's own title by its format (`head`,
 * content/title.ts). Undefined: none.
 */
export function titleOf(front: string | undefined, head: string | undefined): string | undefined {
  return subjectTitle({ title: front }, head);
}

function boundTitle(t: string): string {
  return t.length > MAX_TITLE ? `${t.slice(0, MAX_TITLE - 1)}…` : t;
}

/** The extension whose headings `headingsOf` reads in the file at `path`
 *  (its extension `ext`, as indexFile takes it): a `.txt` or extensionless
 *  file written in Markdown has them too (content/sniff.ts, told from its
 *  head), looked for only when the text holds a `#` (without one it has no
 *  heading to read, and the head is not scanned: most files). */
function headingsExt(path: string, ext: string, text: string): string {
  if (MD_EXTS.has(ext)) return ext;
  const own = extOf(path);
  return sniffable(own) && text.includes('#') ? markupExt(own, text) : ext;
}

const MD_EXTS = new Set(['md', 'markdown', 'mdx', 'mdown', 'mkd', 'mkdn', 'qmd', 'rmd']);
/** Markdown headings, one a line: the headings field. Markdown only, by
 *  measure: the headings of other formats (content/title.ts `headingsIn`,
 *  which recall's sections use) lowered the git Documentation questions'
 *  recall@5 from 0.75 to 0.71 (an AsciiDoc manual page's sections are
 *  NAME, SYNOPSIS, OPTIONS..., and a PEP's name other PEPs), see
 *  docs/development/search-quality.md.
 *
 *  A heading is a line (lines end at LF, CR, U+2028 or U+2029) of up to
 *  three spaces, one to six `#`s, blanks, then its text, which ends before
 *  the blanks and `#`s that end the line (and is one character at least):
 *  what `/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm` found, in one pass over the
 *  `#`s of the text (the expression took time quadratic in a line of
 *  spaces: tests/property/parsers.property.test.ts). */
export function headingsOf(text: string, ext: string): string {
  if (!MD_EXTS.has(ext)) return '';
  const out: string[] = [];
  for (let at = text.indexOf('#'); at >= 0; ) {
    // At the start of a line, after up to three spaces?
    let ls = at;
    while (ls > 0 && at - ls < 3 && text.charCodeAt(ls - 1) === 0x20) ls--;
    if (ls > 0 && !isTerminator(text.charCodeAt(ls - 1))) {
      at = text.indexOf('#', at + 1);
      continue;
    }
    let e = at;
    while (e < text.length && !isTerminator(text.charCodeAt(e))) e++;
    const h = headingIn(text, at, e);
    if (h !== undefined) out.push(h);
    at = text.indexOf('#', e);
  }
  return out.join('\n');
}

function isTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** The heading text of the line [at, e) that starts with `#` (see
 *  headingsOf), or undefined. */
function headingIn(text: string, at: number, e: number): string | undefined {
  let s = at;
  while (s < e && text.charCodeAt(s) === 0x23) s++;
  if (s - at > 6 || s === e || !isBlank(text.charCodeAt(s))) return undefined;
  let w = s;
  while (w < e && isBlank(text.charCodeAt(w))) w++;
  // Only blanks after the `#`s: the expression gave their last one back
  // to be the text, when there were two at least.
  if (w === e) return w - s >= 2 ? text.slice(w - 1, w) : undefined;
  let t = e;
  while (t > w + 1 && (isBlank(text.charCodeAt(t - 1)) || text.charCodeAt(t - 1) === 0x23)) t--;
  return text.slice(w, t);
}
