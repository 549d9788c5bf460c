// What the heads of a topic's files said, kept on disk between listings:
// one file per subjects directory in the user's cache directory
// ($XDG_CACHE_HOME/kb/heads, else ~/.cache/kb/heads), never in the
// workspace. It is named by the folder alone: another build or version of
// kb finds it as none and writes over it, so the files stay one a folder. A listing probes every subject's head (probe.ts: its kind, its
// frontmatter, its title and summary): three system calls and a read per
// file. With this file a listing stats each file instead, and probes only
// the files whose size or modification time changed (heads.ts).
//
// An entry is a file's path relative to the subjects directory, its size
// and modification time as a stat gave them before (or, for a file probed
// while the feed went on, after) its head was read, and the probe's result.
// No entry is kept for a file modified within RACY_MS of the listing that
// probed it (a write in the same tick of a coarse clock would keep its
// time), nor for a file that could not be read. The search index trusts
// the same two numbers of each file (kb/search/cache.ts).
//
// Reading never throws: a missing file is a miss, and so is the folder's
// file as another build or version wrote it; anything unexpected (a short
// file, not a regular file, another folder, lengths that do not add up,
// more entries than a walk reads) is no cache, with the reason, which the
// front end says; the listing then writes a new one. Writing goes to a
// temporary file renamed into place (shared/cache-file.ts), so a reader
// never sees half a file.
//
// The layout (little-endian), each section 8-byte aligned where it holds
// numbers:
//   header   8 x u32: magic "KBH1", version, entries, key bytes, path
//            bytes, text bytes, text fields, 0
//   key      UTF-8 (the build, the version and the subjects directory)
//   sizes    f64 x entries
//   times    f64 x entries
//   pathLens u32 x entries (UTF-16 code units)
//   textLens u32 x text fields (UTF-16 code units)
//   codes    u8 x entries (CODE_*)
//   paths    UTF-8, the entries' paths one after the other
//   texts    UTF-8, each entry's frontmatter, title and summary (those it
//            has, in that order) one after the other

import { closeSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { hash128 } from '../../shared/hash.ts';
import { OPEN_FLAGS, PROBED, readFully, textResult, TITLES_SKIPPED, type ProbeResult, type StatPaths } from './probe.ts';
import { MAX_WALK_ENTRIES } from './walk.ts';

/** Bump when the layout changes, or what a probe finds in a head (the
 *  title rules of content/title.ts, frontmatter's fences): a file of
 *  another version is not read. The build's commit is part of the key
 *  too, so a new binary starts afresh. */
export const HEADS_VERSION = 1;
const MAGIC = 0x3148424b; // "KBH1"
const HEADER_BYTES = 32;

/** A file larger than this is not read, and none larger is written. */
export const MAX_HEADS_BYTES = 64 << 20;

/** An entry whose time is within this of the listing that probed it is
 *  not kept (see above). */
export const RACY_MS = 2000;

const KIND_TEXT = 1;
const KIND_BINARY = 2;
const KIND_MASK = 3;
const FRONT_TEXT = 4;
const FRONT_NULL = 8;
const HAS_TITLE = 16;
const HAS_SUMMARY = 32;
const SKIPPED = 64;

/** The heads of one subjects directory, as read (or to be written). */
export interface Heads {
  readonly count: number;
  /** Size and modification time of entry `i`. */
  readonly sizes: Float64Array;
  readonly times: Float64Array;
  /** Whether entry `i`'s path is `folder` followed by `name` (a whole
   *  path: `folder` ''); no string is made, not even the two joined. */
  is(i: number, folder: string, name: string): boolean;
  /** The entry of `rel`, or -1. */
  find(rel: string): number;
  /** Every entry's path, in order, as a stat job takes them. */
  paths(): StatPaths;
  /** Entry `i`'s probe result. */
  result(i: number): ProbeResult;
}

/** The cache file of the subjects directory `root` in `dir`. */
export function headsFile(dir: string, root: string): string {
  return keptFile(dir, 'heads', root);
}

/** A file of what listings keep of the subjects directory `root` in
 *  `dir` (the heads', the walk's, the frontmatter's: walk-cache.ts,
 *  front-cache.ts), named by its kind and the folder alone. */
export function keptFile(dir: string, kind: string, root: string): string {
  return join(dir, `${hash128(`${kind}\0${root}`)}.${kind}`);
}

function keyOf(root: string, build: string): string {
  return `${HEADS_VERSION}\0${build}\0${root}`;
}

/** The heads kept for `root`; undefined when there is no file; why it
 *  cannot be used when there is one (a FIFO, a device, too large, cut
 *  short, another program's bytes or lengths that do not add up). */
export function readHeads(file: string, root: string, build: string): Heads | string | undefined {
  const buf = readCacheBytes(file, MAX_HEADS_BYTES);
  if (buf === undefined || typeof buf === 'string') return buf;
  try {
    const heads = decodeHeads(buf, keyOf(root, build));
    if (heads !== undefined || anotherBuilds(buf, root, build)) return heads;
    return 'not a listing cache of this folder, or its lengths do not add up';
  } catch (err) {
    return (err as Error).message;
  }
}

/** A cache file's bytes, in a buffer of their own; undefined when there
 *  is no file; why it cannot be read when it is not a regular file (opened
 *  without blocking: a FIFO never is), is larger than `max`, or is cut
 *  short while read. Never throws. */
export function readCacheBytes(file: string, max: number): Uint8Array | string | undefined {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    const code = (err as { code?: string }).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : (err as Error).message;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return 'not a regular file';
    if (st.size > max) return `larger than ${max} bytes`;
    const buf = new Uint8Array(st.size);
    if (readFully(fd, buf) < buf.length) return 'cut short';
    return buf;
  } catch (err) {
    return (err as Error).message;
  } finally {
    closeSync(fd);
  }
}

/** Whether `buf` is this folder's file as another build or version of
 *  kb wrote it: no cache then, and no word (the file is one per folder,
 *  so a new build writes over it). */
function anotherBuilds(buf: Uint8Array, root: string, build: string): boolean {
  if (buf.length < HEADER_BYTES) return false;
  const [magic, , , keyBytes] = new Uint32Array(buf.buffer, 0, 4);
  if (magic !== MAGIC || keyBytes > buf.length - HEADER_BYTES) return false;
  const [version, built, folder] = new TextDecoder().decode(buf.subarray(HEADER_BYTES, HEADER_BYTES + keyBytes)).split('\0');
  return folder === root && (version !== String(HEADS_VERSION) || built !== build);
}

const pad8 = (n: number): number => (n + 7) & ~7;

/** Decodes a file's bytes (in a buffer of their own: the numbers are
 *  read in place); undefined when anything does not add up. */
export function decodeHeads(buf: Uint8Array, key: string): Heads | undefined {
  if (buf.byteOffset !== 0 || buf.length < HEADER_BYTES) return undefined;
  const head = new Uint32Array(buf.buffer, 0, 8);
  const [magic, version, count, keyBytes, pathBytes, textBytes, fields, reserved] = head;
  if (magic !== MAGIC || version !== HEADS_VERSION || reserved !== 0 || count > MAX_WALK_ENTRIES || fields > 3 * count) return undefined;
  const at = { key: HEADER_BYTES, sizes: pad8(HEADER_BYTES + keyBytes) };
  const timesAt = at.sizes + 8 * count;
  const pathLensAt = timesAt + 8 * count;
  const textLensAt = pathLensAt + 4 * count;
  const codesAt = textLensAt + 4 * fields;
  const pathsAt = codesAt + count;
  const textsAt = pathsAt + pathBytes;
  if (textsAt + textBytes !== buf.length) return undefined;
  const utf8 = new TextDecoder();
  if (utf8.decode(buf.subarray(at.key, at.key + keyBytes)) !== key) return undefined;
  const sizes = new Float64Array(buf.buffer, at.sizes, count);
  const times = new Float64Array(buf.buffer, timesAt, count);
  const pathLens = new Uint32Array(buf.buffer, pathLensAt, count);
  const textLens = new Uint32Array(buf.buffer, textLensAt, fields);
  const codes = buf.subarray(codesAt, pathsAt);
  const paths = utf8.decode(buf.subarray(pathsAt, textsAt));
  const texts = utf8.decode(buf.subarray(textsAt));
  const starts = startsOf(codes, pathLens, textLens, paths.length, texts.length);
  if (starts === undefined) return undefined;
  const { pathAt, textAt } = starts;
  // Where each text field starts in `texts`, made when a first entry
  // with any is read.
  let fieldAt: Uint32Array | undefined;
  const fieldStarts = (): Uint32Array => {
    if (fieldAt !== undefined) return fieldAt;
    fieldAt = new Uint32Array(fields + 1);
    let s = 0;
    for (let k = 0; k < fields; k++) {
      fieldAt[k] = s;
      s += textLens[k];
    }
    fieldAt[fields] = s;
    return fieldAt;
  };
  let byPath: Map<string, number> | undefined;
  return {
    count,
    sizes,
    times,
    is: (i, folder, name) => pathLens[i] === folder.length + name.length && paths.startsWith(folder, pathAt[i]) && paths.startsWith(name, pathAt[i] + folder.length),
    find(rel) {
      if (byPath === undefined) {
        byPath = new Map();
        for (let i = 0; i < count; i++) byPath.set(paths.slice(pathAt[i], pathAt[i + 1]), i);
      }
      return byPath.get(rel) ?? -1;
    },
    paths: () => ({
      length: count,
      path: (i) => paths.slice(pathAt[i], pathAt[i + 1]),
      // The file's own bytes: they decode to `paths` (decodeHeads).
      packed: () => ({ bytes: buf.slice(pathsAt, textsAt).buffer, lens: pathLens.slice().buffer, gap: 0 }),
    }),
    result(i) {
      const code = codes[i];
      if ((code & KIND_MASK) === KIND_BINARY) return PROBED.binary;
      if ((code & (FRONT_TEXT | FRONT_NULL | HAS_TITLE | HAS_SUMMARY)) === 0) return code & SKIPPED ? TITLES_SKIPPED : PROBED.text;
      const starts = fieldStarts();
      let k = textAt[i];
      const next = (): string => texts.slice(starts[k], starts[++k]);
      const front = code & FRONT_TEXT ? next() : code & FRONT_NULL ? null : undefined;
      const title = code & HAS_TITLE ? next() : undefined;
      const summary = code & HAS_SUMMARY ? next() : undefined;
      return textResult(front, title, summary, (code & SKIPPED) !== 0);
    },
  };
}

/** Where each path and each entry's first text field start; undefined
 *  when a code names no kind, or the lengths do not add up to the
 *  strings' (`paths`, `texts` code units) and the fields' count. */
function startsOf(codes: Uint8Array, pathLens: Uint32Array, textLens: Uint32Array, paths: number, texts: number): { pathAt: Uint32Array; textAt: Uint32Array } | undefined {
  const count = codes.length;
  const fields = textLens.length;
  const pathAt = new Uint32Array(count + 1);
  const textAt = new Uint32Array(count + 1);
  let p = 0;
  let t = 0;
  let f = 0;
  for (let i = 0; i < count; i++) {
    pathAt[i] = p;
    textAt[i] = f;
    p += pathLens[i];
    const code = codes[i];
    const kind = code & KIND_MASK;
    if (kind !== KIND_TEXT && kind !== KIND_BINARY) return undefined;
    const n = (code & FRONT_TEXT ? 1 : 0) + (code & HAS_TITLE ? 1 : 0) + (code & HAS_SUMMARY ? 1 : 0);
    if (f + n > fields) return undefined;
    for (let k = 0; k < n; k++) t += textLens[f + k];
    f += n;
  }
  pathAt[count] = p;
  textAt[count] = f;
  return p === paths && t === texts && f === fields ? { pathAt, textAt } : undefined;
}

/** What to write, by column: each file's path relative to the subjects
 *  directory, its result, its [size, time] (`values`, two per file), and
 *  which files to keep (their indices, in order; not an error's). */
export interface HeadsColumns {
  rels: readonly string[];
  results: readonly ProbeResult[];
  values: Float64Array;
  keep: readonly number[];
}

/** Whether `result` of the file at `rel` can be kept: not an error, and
 *  its texts and path survive UTF-8 (no lone surrogate). */
export function keepable(rel: string, result: ProbeResult): boolean {
  if (result.kind === 'error' || !wellFormed(rel)) return false;
  return (typeof result.front !== 'string' || wellFormed(result.front)) && (result.title === undefined || wellFormed(result.title)) && (result.summary === undefined || wellFormed(result.summary));
}

/** In Unicode mode a surrogate pair is one code point: what matches is
 *  a lone surrogate, which UTF-8 cannot hold. */
const LONE_SURROGATE = /\p{Cs}/u;

function wellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** The bytes of a file holding the kept files of `cols`; undefined when
 *  they would be larger than MAX_HEADS_BYTES. A path or text that UTF-8
 *  cannot hold (a lone surrogate) is looked for once in all of them
 *  together, and its file left out when there is one. */
export function encodeHeads(cols: HeadsColumns, root: string, build: string): Uint8Array | undefined {
  const { rels, results, values } = cols;
  let keep = cols.keep;
  let parts = partsOf(rels, results, keep);
  if (parts !== undefined && (!wellFormed(parts.paths) || !wellFormed(parts.texts))) {
    keep = keep.filter((i) => keepable(rels[i], results[i]));
    parts = partsOf(rels, results, keep);
  }
  if (parts === undefined) return undefined;
  const count = keep.length;
  const utf8 = new TextEncoder();
  const key = utf8.encode(keyOf(root, build));
  const pathBytes = utf8.encode(parts.paths);
  const textBytes = utf8.encode(parts.texts);
  const lens = parts.lens;
  const sizesAt = pad8(HEADER_BYTES + key.length);
  const timesAt = sizesAt + 8 * count;
  const pathLensAt = timesAt + 8 * count;
  const textLensAt = pathLensAt + 4 * count;
  const codesAt = textLensAt + 4 * lens.length;
  const pathsAt = codesAt + count;
  const textsAt = pathsAt + pathBytes.length;
  const total = textsAt + textBytes.length;
  if (total > MAX_HEADS_BYTES) return undefined;
  const buf = new Uint8Array(total);
  new Uint32Array(buf.buffer, 0, 8).set([MAGIC, HEADS_VERSION, count, key.length, pathBytes.length, textBytes.length, lens.length, 0]);
  buf.set(key, HEADER_BYTES);
  const sizes = new Float64Array(buf.buffer, sizesAt, count);
  const times = new Float64Array(buf.buffer, timesAt, count);
  const pathLens = new Uint32Array(buf.buffer, pathLensAt, count);
  for (let k = 0; k < count; k++) {
    const i = keep[k];
    sizes[k] = values[2 * i];
    times[k] = values[2 * i + 1];
    pathLens[k] = rels[i].length;
  }
  new Uint32Array(buf.buffer, textLensAt, lens.length).set(lens);
  buf.set(parts.codes, codesAt);
  buf.set(pathBytes, pathsAt);
  buf.set(textBytes, textsAt);
  return buf;
}

/** The kept files' paths joined, their codes, and their texts joined with
 *  each text's length; undefined when they are longer than the file may
 *  be (UTF-8 takes at least a byte per UTF-16 code unit), found before
 *  anything is joined. */
function partsOf(rels: readonly string[], results: readonly ProbeResult[], keep: readonly number[]): { paths: string; texts: string; codes: Uint8Array; lens: number[] } | undefined {
  const codes = new Uint8Array(keep.length);
  const paths: string[] = new Array(keep.length);
  const texts: string[] = [];
  const lens: number[] = [];
  let units = 0;
  const text = (t: string): void => {
    lens.push(t.length);
    texts.push(t);
    units += t.length;
  };
  for (let k = 0; k < keep.length; k++) {
    const i = keep[k];
    const r = results[i];
    paths[k] = rels[i];
    let code = r.kind === 'binary' ? KIND_BINARY : KIND_TEXT;
    if (r.kind === 'text' && r !== PROBED.text) {
      if (typeof r.front === 'string') {
        code |= FRONT_TEXT;
        text(r.front);
      } else if (r.front === null) code |= FRONT_NULL;
      if (r.title !== undefined) {
        code |= HAS_TITLE;
        text(r.title);
      }
      if (r.summary !== undefined) {
        code |= HAS_SUMMARY;
        text(r.summary);
      }
      if (r.titlesSkipped === true) code |= SKIPPED;
    }
    codes[k] = code;
    units += rels[i].length;
    if (units > MAX_HEADS_BYTES) return undefined;
  }
  return { paths: paths.join(''), texts: texts.join(''), codes, lens };
}
