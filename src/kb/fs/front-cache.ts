// What the frontmatter a listing had to parse said, kept on disk between
// listings beside the heads (head-cache.ts): one file per subjects
// directory in the same folder of the user's cache directory, never in the
// workspace. Most frontmatter is read without the YAML parser
// (content/frontmatter.ts `simpleFields`); what that declines (nested
// maps, flow lists: a Hugo site's `params:` and `keywords: [a, b]`) went
// through the parser on every listing, about 0.4 ms a file. Kept by its
// whole text, a frontmatter's fields stand for as long as any file holds
// that text: no time, no path, nothing to go stale.
//
// Only the fields a subject's line is made of are kept (DESCRIBING: what
// kb/index/describe.ts `aboutOf` reads), each as the parser gave it when a
// string, a list's strings when a list; nothing else of them is ever read,
// so a listing from the kept fields is the listing from the parser's (a
// test compares them on random frontmatter). A frontmatter the parser
// refused is kept as refused.
//
// Reading never throws: no file, or one another build or version of kb
// wrote, is nothing kept; one that is not what this module writes (not
// JSON, another shape, a field of another kind) is nothing kept too, with
// the reason, which the front end says, and it is written anew. The
// entries written are those the listing asked for, so the file follows
// the topic; at most MAX_WALK_ENTRIES of them, and at most 64 MiB.

import { writeCacheFile } from '../../shared/cache-file.ts';
import { keptFile, readCacheBytes } from './head-cache.ts';
import { MAX_WALK_ENTRIES } from './limits.ts';
import { DESCRIBING, type KeptFields } from '../content/frontmatter.ts';

export type { KeptFields };

/** Bump when the layout changes, or what the parser makes of a
 *  frontmatter (the YAML package, its options, DESCRIBING). */
export const FRONTS_VERSION = 1;

/** A file larger than this is not read, and none larger is written. */
export const MAX_FRONTS_BYTES = 64 << 20;

/** One topic's kept frontmatter. `get`: the fields kept for this text
 *  (null: the parser refused it; undefined: none kept). */
export interface TopicFronts {
  get(front: string): KeptFields | null | undefined;
  set(front: string, fields: KeptFields | null): void;
  /** Writes what this call asked for when it parsed anything new. */
  save(): void;
}

/** What listings did with the kept frontmatter, for `--verbose`. */
export interface FrontStats {
  /** Frontmatter taken as kept. */
  kept: number;
  /** Frontmatter parsed (none kept). */
  parsed: number;
  /** Files written. */
  wrote: number;
}

export interface FrontKeeper {
  /** The kept frontmatter of the subjects directory `root`, read when
   *  first asked. */
  of(root: string): TopicFronts;
  /** A file that could not be read or written, each once. */
  problems(): readonly string[];
  stats(): FrontStats;
}

/** The file of the subjects directory `root` in `dir`. */
export function frontsFile(dir: string, root: string): string {
  return keptFile(dir, 'fronts', root);
}

/** Keeps frontmatter's fields in `dir` (the heads' folder), as `build`
 *  parsed them. */
export function frontKeeper(opts: { dir: string; build: string }): FrontKeeper {
  const problems: string[] = [];
  const stats: FrontStats = { kept: 0, parsed: 0, wrote: 0 };
  const topics = new Map<string, TopicFronts>();
  return {
    of(root) {
      let t = topics.get(root);
      if (t === undefined) topics.set(root, (t = topicFronts(opts, root, stats, problems)));
      return t;
    },
    problems: () => problems,
    stats: () => stats,
  };
}

function topicFronts(opts: { dir: string; build: string }, root: string, stats: FrontStats, problems: string[]): TopicFronts {
  const file = frontsFile(opts.dir, root);
  let old: Map<string, KeptFields | null> | undefined;
  // What this call asked for, in order, and whether any was parsed.
  const used = new Map<string, KeptFields | null>();
  let fresh = false;
  const kept = (): Map<string, KeptFields | null> => {
    if (old !== undefined) return old;
    const read = readFronts(file, root, opts.build);
    if (typeof read === 'string') problems.push(`the kept frontmatter ${file} could not be read (${read}); it was parsed again`);
    old = read instanceof Map ? read : new Map();
    return old;
  };
  return {
    get(front) {
      const fields = kept().get(front);
      if (fields !== undefined) {
        stats.kept++;
        used.set(front, fields);
      }
      return fields;
    },
    set(front, fields) {
      stats.parsed++;
      used.set(front, fields);
      fresh = true;
    },
    save() {
      if (!fresh) return;
      fresh = false;
      const text = encodeFronts(used, root, opts.build);
      if (text === undefined) {
        problems.push(`the frontmatter could not be kept (it would take more than ${MAX_FRONTS_BYTES >> 20} MiB); the next listing parses it again`);
        return;
      }
      const why = writeCacheFile(file, new TextEncoder().encode(text));
      if (why === undefined) stats.wrote++;
      else problems.push(`the frontmatter could not be kept (${why}); the next listing parses it again`);
    },
  };
}

/** The file's text: JSON, `{ kb, version, build, root, entries }`, each
 *  entry `[frontmatter, fields or null]`; undefined when it would pass
 *  MAX_FRONTS_BYTES or hold more than MAX_WALK_ENTRIES entries (found
 *  before anything is joined). */
export function encodeFronts(entries: ReadonlyMap<string, KeptFields | null>, root: string, build: string): string | undefined {
  if (entries.size > MAX_WALK_ENTRIES) return undefined;
  let units = 0;
  for (const [front, fields] of entries) {
    units += front.length;
    if (fields !== null) for (const key in fields) units += key.length + String(fields[key]).length;
  }
  if (units > MAX_FRONTS_BYTES) return undefined;
  const list: [string, KeptFields | null][] = [];
  for (const e of entries) list.push(e);
  const text = JSON.stringify({ kb: 'fronts', version: FRONTS_VERSION, build, root, entries: list });
  return text.length > MAX_FRONTS_BYTES ? undefined : text;
}

/** The fields kept for `root`; undefined when there is no file, or another
 *  build or version wrote it; why it cannot be used otherwise. */
export function readFronts(file: string, root: string, build: string): Map<string, KeptFields | null> | string | undefined {
  const buf = readCacheBytes(file, MAX_FRONTS_BYTES);
  if (buf === undefined || typeof buf === 'string') return buf;
  return decodeFronts(new TextDecoder().decode(buf), root, build);
}

/** Decodes the file's text (readFronts): JSON.parse, then one pass over
 *  what it made. */
export function decodeFronts(text: string, root: string, build: string): Map<string, KeptFields | null> | string | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const bad = 'not kept frontmatter of this folder, or a field of another kind';
  if (typeof data !== 'object' || data === null) return bad;
  const d = data as { kb?: unknown; version?: unknown; build?: unknown; root?: unknown; entries?: unknown };
  if (d.kb !== 'fronts' || d.root !== root) return bad;
  if (d.version !== FRONTS_VERSION || d.build !== build) return undefined;
  if (!Array.isArray(d.entries) || d.entries.length > MAX_WALK_ENTRIES) return bad;
  const out = new Map<string, KeptFields | null>();
  for (const e of d.entries as unknown[]) {
    if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string') return bad;
    const fields = e[1] === null ? null : fieldsOf(e[1]);
    if (fields === undefined) return bad;
    out.set(e[0], fields);
  }
  return out;
}

const DESCRIBING_SET: ReadonlySet<string> = new Set(DESCRIBING);

/** A kept entry's fields, when they are what `keptFields` makes. */
function fieldsOf(v: unknown): KeptFields | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const out: Record<string, string | readonly string[]> = {};
  for (const key of Object.keys(v)) {
    if (!DESCRIBING_SET.has(key)) return undefined;
    const x = (v as Record<string, unknown>)[key];
    if (typeof x === 'string') out[key] = x;
    else if (Array.isArray(x)) {
      for (const s of x) if (typeof s !== 'string') return undefined;
      out[key] = x as string[];
    } else return undefined;
  }
  return out;
}
