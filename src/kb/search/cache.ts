// The search index on disk: one file per topic in the user's cache
// directory ($XDG_CACHE_HOME/kb/search, else ~/.cache/kb/search), never in
// the workspace. The file holds the index (engine.ts) and what it was built
// from: each directory the walk read (its mtime), each ignore file (size
// and mtime) and each indexed file (size and mtime), so that a search can
// tell cheaply whether it is still right (topic.ts).
//
// Reading never throws: a missing file is a miss, anything unexpected in
// it (a short file, another format, offsets out of bounds) is a corrupt
// cache, rebuilt. Writing goes to a temporary file renamed into place, so
// a reader never sees half a file; a cache that cannot be written is said
// once, and the search goes on with the index in memory.

import { Buffer } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { joinedPaths, OPEN_FLAGS, type StatPaths } from '../fs/probe.ts';
import { MAX_WALK_ENTRIES } from '../fs/walk.ts';
import { MAX_FACET, MAX_TAGS } from '../content/facets.ts';
import { MAX_TITLE, NFIELDS, NO_TOKENS, SearchIndex } from './engine.ts';
import { MAX_TERM } from './tokenize.ts';
import { every } from '../../shared/arrays.ts';
import { hash128 } from '../../shared/hash.ts';
import { writeCacheFile } from '../../shared/cache-file.ts';

/** Bump when the file's layout, the tokenizer or the text indexed changes
 *  (7: facets of tags, type and status; 8: an HTML page's text,
 *  content/html.ts, instead of its markup; 9: every text document's token
 *  estimate, where 8 kept only those of files longer than a snippet
 *  reads; 10: where each slug starts, the postings' count and the fields'
 *  summed lengths, so that reading it loops over no column; 11: a
 *  Markdown section heading that opens a note is its title only when it
 *  names the file, content/title.ts mdOpener; a manual page's summary, and
 *  its source indexed as the text it prints, content/roff.ts; 12: where
 *  each term starts, in bytes of the terms' UTF-8, which a search reads
 *  without decoding them, engine.ts SearchIndex.terms; 13: the walk leaves
 *  out version control's folders, which a trace of 12 lists, and which
 *  the check of a cached index would take for forged; 14: a Markdown
 *  note's only section heading is its title only when it names the file,
 *  content/title.ts sectionOfNote; 15: a file that opens with a PDF's
 *  signature is binary, not indexed, fs/probe.ts isBinaryHead; 16: a list
 *  item is no setext heading, and Logseq's `title::` and `description::`
 *  page properties are a Markdown page's title and description,
 *  content/title.ts listItem, pageProperties; 17: a Markdown heading's
 *  tags dropped and headings inside HTML comments passed over, one of
 *  several reStructuredText sections of a style no title, inline literals
 *  as code spans, content/title.ts dropHtmlTags, commentAt,
 *  rstSectionNext, singleTicks; 18: two words joined by an underscore
 *  are one more term, as by a hyphen, tokenize.ts isJoiner; a Markdown
 *  heading's `{#id}` right after its text or after MDX's `\{` is no part
 *  of it, content/title.ts withoutAttributes; soft hyphens dropped,
 *  content/searched.ts; an Org file's `#+filetags:` are its tags,
 *  content/facets.ts orgFileTags; Quarto's and R Markdown's pages read as
 *  Markdown, content/title.ts). */
export const FORMAT_VERSION = 18;
const MAGIC = 0x4b425331; // "KBS1"

/** A cache file larger than this is not read (a hostile or broken one). */
export const MAX_CACHE_BYTES = 1 << 30;

/** What an index was built from, to revalidate it. */
export interface Trace {
  /** [absolute path, mtime, inode] of every directory the walk read (the
   *  inode absent: not checked). */
  dirs: [string, number, number?][];
  /** [absolute path, size, mtime] of every ignore file met. */
  controls: [string, number, number][];
  /** [absolute path, what it led to (kb/fs/walk.ts `linkKind`)] of every
   *  symbolic link met; absent: none. */
  links?: [string, number][];
}

export interface CacheEntry {
  index: SearchIndex;
  trace: Trace;
  /** The documents' paths as the file holds them, joined by newlines
   *  (read back only: trust.ts checks them in one pass). */
  paths?: string;
  /** The index reads its postings from the file, kept open until its
   *  `release` (read back only). */
  kept?: boolean;
}

export { cacheDir } from './where.ts';

/** The file of one topic: keyed by the topic's ID and subjects directory,
 *  and the format. */
export function cacheFile(dir: string, topicId: string, subjectsDir: string): string {
  return join(dir, `${hash128(`${FORMAT_VERSION}\0${topicId}\0${subjectsDir}`)}.idx`);
}

export type ReadResult = { kind: 'hit'; entry: CacheEntry } | { kind: 'missing' } | { kind: 'corrupt'; why: string };

/** Reads a cache file. Never throws, never blocks: the file is opened
 *  non-blocking and read only when it is a regular file (a FIFO or a
 *  device at its path is a corrupt cache, replaced when the index is
 *  written back). Its header is read and checked first: the rest is read
 *  only when the file's size is the size the header describes and the
 *  sections are no larger than an index of that many documents and terms
 *  can make them (see `checkLayout`). */
export function readCache(file: string, subjectsDir: string, onPaths?: (paths: StatPaths) => void): ReadResult {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'corrupt', why: (err as Error).message };
  }
  // The index keeps the file open when it reads its postings later (then
  // `release` closes it).
  let kept = false;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: 'corrupt', why: 'not a regular file' };
    const entry = readOpen(file, fd, st.size, subjectsDir, onPaths);
    kept = entry.kept === true;
    return { kind: 'hit', entry };
  } catch (err) {
    return { kind: 'corrupt', why: (err as Error).message };
  } finally {
    if (!kept) closeSync(fd);
  }
}

/** `length` bytes of `fd` from `position`; throws when the file is
 *  shorter. */
function readAt(fd: number, position: number, length: number, into: Uint8Array = new Uint8Array(length), offset = 0): Uint8Array {
  let filled = 0;
  while (filled < length) {
    const n = readSync(fd, into, offset + filled, length - filled, position + filled);
    if (n === 0) fail('shorter than its size');
    filled += n;
  }
  return into;
}

/** Reads and decodes an open cache file of `size` bytes: the prefix and
 *  the header first, then (when they hold) the document frequencies, then
 *  the documents' paths (given to `onPaths` at once: the search starts
 *  their stats while the rest is read), then the rest. */
function readOpen(file: string, fd: number, size: number, subjectsDir: string, onPaths?: (paths: StatPaths) => void): CacheEntry {
  if (size > MAX_CACHE_BYTES) fail(`larger than ${MAX_CACHE_BYTES} bytes`);
  if (size < 12) fail('too short');
  const prefix = new DataView(readAt(fd, 0, 12).buffer);
  if (prefix.getUint32(0, true) !== MAGIC) fail('not a kb search index');
  if (prefix.getUint32(4, true) !== FORMAT_VERSION) fail('another format version');
  const headLen = prefix.getUint32(8, true);
  if (12 + headLen > size) fail('header out of bounds');
  const h = parseHeader(readAt(fd, 12, headLen), subjectsDir);
  const starts = checkLayout(h, headLen, size);
  // Not zeroed first (every byte read is read into it; the postings of a
  // lazily read index only when asked for): zeroing 8 MiB took 4-6 ms of a
  // warm search.
  const all = new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
  // Each posting takes at least 2 bytes and at most MAX_POSTING: the
  // postings section must fit their count. (The document frequencies
  // themselves are not summed here, a loop over every term that took 3-5
  // ms of a warm search of 77,627 terms: each is held to the text documents'
  // count where it makes a weight, engine.ts idfOf and SearchIndex.dfAt.)
  const postings = h.postings;
  const postLen = h.sections[8];
  if (postLen < 2 * postings || postLen > MAX_POSTING * postings) fail(`bad section 8 (${postLen} bytes for ${postings} postings)`);
  const from = starts[PATHS];
  const to = from + h.sections[PATHS];
  readAt(fd, from, to - from, all, from);
  const pathsText = new TextDecoder().decode(all.subarray(from, to));
  const paths = h.docs === 0 ? [] : pathsText.split('\n');
  if (paths.length !== h.docs) fail('bad document lists');
  // The file's bytes of them go to the reader thread as they are.
  onPaths?.(joinedPaths(paths, all.subarray(from, to), 1));
  // A large postings section is read a term at a time, when a query
  // needs it: its pages are never touched otherwise (on the
  // 10,000-subject bench, 4.5 of the file's 7.8 MiB, 2.7 ms of a search).
  const postFrom = starts[8];
  const postTo = postFrom + h.sections[8];
  const lazy = h.sections[8] >= LAZY_POSTINGS;
  // The rest. A file this large keeps its term dictionary (the document
  // frequencies, where each term and its postings start, the terms:
  // sections 3 to 7 but the kinds) on disk too, read a page at a time as
  // a search touches it (engine.ts SearchIndex.readDictLazily): their
  // first and last starts are read now, for the checks of `decode`.
  const dictFrom = starts[3];
  const dictTo = starts[8];
  if (lazy) {
    readAt(fd, 0, dictFrom, all, 0);
    readAt(fd, starts[6], h.sections[6], all, starts[6]);
    for (const at of [starts[4], starts[4] + 4 * h.terms, starts[5], starts[5] + 4 * h.terms]) readAt(fd, at, 4, all, at);
    readAt(fd, postTo, from - postTo, all, postTo);
  } else readAt(fd, 0, from, all, 0);
  readAt(fd, to, size - to, all, to);
  const entry = decode(all, h, starts, pathsText, paths);
  if (lazy) {
    let open = true;
    /** Bytes [a, b) of the file into `into` at `at`. */
    const readLater = (what: string, into: Uint8Array, at: number, a: number, b: number): void => {
      if (!open) fail(`${what} read after the cache file was let go`);
      try {
        readAt(fd, a, b - a, into, at);
      } catch (err) {
        // The file changed under this search (kb replaces it whole, by a
        // rename, so something else wrote it): the next search finds it
        // corrupt and builds the index again.
        throw new Error(`the search cache ${file} changed while it was read (${(err as Error).message}); search again`);
      }
    };
    entry.index.readLazily({
      read: (into, a, b) => readLater('postings', into, a, postFrom + a, postFrom + b),
      close: () => {
        if (open) closeSync(fd);
        open = false;
      },
    });
    entry.index.readDictLazily({ read: (a, b) => readLater('the term dictionary', all, a, a, b) }, dictFrom, dictTo);
    entry.kept = true;
  }
  return entry;
}

/** A postings section this large or larger is read a term at a time. */
const LAZY_POSTINGS = 1 << 20;
/** Writes a cache file; returns why it could not be written, if so. */
export function writeCache(file: string, entry: CacheEntry, subjectsDir: string): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = encode(entry, subjectsDir);
  } catch (err) {
    return (err as Error).message;
  }
  return writeCacheFile(file, bytes);
}

// ---------------------------------------------------------------------------
// Layout: MAGIC, FORMAT_VERSION, the header's length, the header (JSON:
// the trace, descriptions and counts), padding to 8, then the sections,
// each padded to 8: sizes (f64), mtimes (f64), field lengths (u32),
// document frequencies (u32), term starts (u32), postings starts (u32),
// kinds (u8), terms (UTF-8), postings (bytes), paths, slugs and titles
// (UTF-8, joined by newlines; titles decoded only when one is shown),
// token estimates (u32, NO_TOKENS where not known), facets (UTF-8, a
// line each, content/facets.ts; decoded only by a search with a filter),
// and where each slug starts (u32, one more past the end: a slug is found
// without reading the lines before it). The header also counts the
// postings and sums the text documents' field lengths, so that reading the
// file loops over no column: a search reads the columns it needs as they
// are.

interface Header {
  subjectsDir: string;
  trace: Trace;
  /** Descriptions by document number, for those that have one. */
  descriptions: Record<string, string>;
  docs: number;
  terms: number;
  /** How many postings: the document frequencies' sum. */
  postings: number;
  /** How many text documents, and per field their lengths' sum
   *  (SearchIndex.texts, sums). */
  texts: number;
  sums: number[];
  sections: number[];
}

const pad8 = (n: number) => (n + 7) & ~7;

/** sizes, mtimes, field lengths, document frequencies, term starts,
 *  postings starts, kinds, terms, postings, paths, slugs, titles, token
 *  estimates, facets, slug starts. */
const SECTIONS = 15;
/** The paths' section. */
const PATHS = 9;

function encode(entry: CacheEntry, subjectsDir: string): Uint8Array {
  const { index, trace } = entry;
  index.readAll();
  const docs = index.docs;
  const n = docs.length;
  const sizes = new Float64Array(n);
  const mtimes = new Float64Array(n);
  const kinds = new Uint8Array(n);
  const tokens = new Uint32Array(n);
  for (let d = 0; d < n; d++) {
    sizes[d] = docs[d].size;
    mtimes[d] = docs[d].mtime;
    kinds[d] = docs[d].kind;
    const t = docs[d].tokens;
    tokens[d] = t === undefined || !(t >= 0 && t < NO_TOKENS) ? NO_TOKENS : t;
  }
  const encoder = new TextEncoder();
  const terms = index.terms;
  // Paths and slugs joined by newlines: no subject's path holds a control
  // character (the view leaves those out).
  const paths = encoder.encode(docs.map((d) => d.path).join('\n'));
  const slugs = encoder.encode(docs.map((d) => d.slug).join('\n'));
  // Titles likewise (a title is on one line: content/title.ts collapses
  // its white space), '' for none.
  const titles = encoder.encode(docs.map((_, d) => (index.titleOf(d) ?? '').replace(/\n/g, ' ')).join('\n'));
  // Facets likewise (content/facets.ts: one line, tabs between), '' for
  // none.
  const facets = encoder.encode(docs.map((_, d) => index.facetsOf(d)).join('\n'));
  const sections: Uint8Array[] = [sizes, mtimes, index.lens, index.df, index.termStarts, index.postStarts, kinds, terms, index.post, paths, slugs, titles, tokens, facets, slugStartsOf(slugs, n)].map(
    (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
  );
  const header: Header = {
    subjectsDir,
    // NaN (a time not to trust) is not JSON: -1 never equals a real time.
    trace: {
      dirs: trace.dirs.map(([p, m, ino]) => (ino === undefined ? [p, Number.isNaN(m) ? -1 : m] : [p, Number.isNaN(m) ? -1 : m, ino])),
      controls: trace.controls.map(([p, s, m]) => [p, s, Number.isNaN(m) ? -1 : m]),
      ...(trace.links !== undefined && trace.links.length > 0 ? { links: trace.links } : {}),
    },
    descriptions: Object.fromEntries(docs.flatMap((d, i) => (d.description === null ? [] : [[String(i), d.description]]))),
    docs: n,
    terms: index.df.length,
    postings: index.df.reduce((a, b) => a + b, 0),
    texts: index.texts,
    sums: index.sums,
    sections: sections.map((s) => s.byteLength),
  };
  const head = new TextEncoder().encode(JSON.stringify(header));
  let total = pad8(12 + head.length);
  for (const s of sections) total += pad8(s.byteLength);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT_VERSION, true);
  view.setUint32(8, head.length, true);
  out.set(head, 12);
  let at = pad8(12 + head.length);
  for (const s of sections) {
    out.set(s, at);
    at += pad8(s.byteLength);
  }
  return out;
}

function fail(why: string): never {
  throw new Error(why);
}

/** The header: JSON, its counts within what an index can hold. */
function parseHeader(bytes: Uint8Array, subjectsDir: string): Header {
  const h = JSON.parse(new TextDecoder().decode(bytes)) as Header;
  if (h === null || typeof h !== 'object' || h.subjectsDir !== subjectsDir) fail('another subjects directory');
  const n = h.docs;
  // The search's walk collects at most MAX_WALK_ENTRIES files.
  if (!Number.isInteger(n) || n < 0 || n > MAX_WALK_ENTRIES || h.descriptions === null || typeof h.descriptions !== 'object') fail('bad document lists');
  if (!Array.isArray(h.sections) || h.sections.length !== SECTIONS) fail('bad sections');
  const nt = h.terms;
  if (!Number.isInteger(nt) || nt < 0) fail('bad term count');
  if (!Number.isInteger(h.postings) || h.postings < 0) fail('bad postings count');
  if (!Number.isInteger(h.texts) || h.texts < 0 || h.texts > n) fail('bad text count');
  if (!Array.isArray(h.sums) || h.sums.length !== NFIELDS || !every(h.sums as unknown[], (v) => Number.isInteger(v) && (v as number) >= 0)) fail('bad field lengths');
  return h;
}

/** The most bytes one posting takes: a document number's varint (5), the
 *  field mask and a byte per field. */
const MAX_POSTING = 6 + NFIELDS;
/** More UTF-8 bytes than a term has: MAX_TERM UTF-16 units, 3 bytes each
 *  at most (a surrogate pair: 4 bytes for 2 units). */
const MAX_TERM_BYTES = 4 * MAX_TERM;
/** The most bytes of a title with its separator. */
const MAX_TITLE_BYTES = 4 * MAX_TITLE + 1;
/** The most bytes of a document's facets with its separator: MAX_TAGS
 *  tags, a type and a status, each with its name and a tab. */
const MAX_FACETS_BYTES = (MAX_TAGS + 2) * (4 * MAX_FACET + 8) + 1;
/** The most bytes of a path (and of a slug) with its separator. */
const MAX_PATH_BYTES = 4097;

/** Checks the sections the header describes: the fixed ones have the size
 *  their counts make, the others no more than their counts allow, and the
 *  file is exactly as large as the layout. Returns each section's start. */
function checkLayout(h: Header, headLen: number, size: number): number[] {
  const n = h.docs;
  const nt = h.terms;
  const exact = [8 * n, 8 * n, 4 * NFIELDS * n, 4 * nt, 4 * (nt + 1), 4 * (nt + 1), n, -1, -1, -1, -1, -1, 4 * n, -1, 4 * (n + 1)];
  const most = [0, 0, 0, 0, 0, 0, 0, MAX_TERM_BYTES * nt, Infinity, MAX_PATH_BYTES * n, MAX_PATH_BYTES * n, MAX_TITLE_BYTES * n, 0, MAX_FACETS_BYTES * n, 0];
  const starts: number[] = [];
  let at = pad8(12 + headLen);
  for (let i = 0; i < SECTIONS; i++) {
    const len = h.sections[i];
    if (!Number.isInteger(len) || len < 0 || (exact[i] >= 0 ? len !== exact[i] : len > most[i])) fail(`bad section ${i}`);
    starts.push(at);
    at += pad8(len);
  }
  if (at !== size) fail(`${size} bytes where its header describes ${at}`);
  return starts;
}

function decode(bytes: Uint8Array, h: Header, starts: readonly number[], pathsText: string, paths: readonly string[]): CacheEntry {
  const n = h.docs;
  const nt = h.terms;
  const parts: Uint8Array[] = [];
  for (let i = 0; i < SECTIONS; i++) parts.push(bytes.subarray(starts[i], starts[i] + h.sections[i]));
  const f64 = (p: Uint8Array) => new Float64Array(p.buffer, p.byteOffset, p.byteLength / 8);
  const u32 = (p: Uint8Array) => new Uint32Array(p.buffer, p.byteOffset, p.byteLength / 4);
  const sizes = f64(parts[0]);
  const mtimes = f64(parts[1]);
  const lens = u32(parts[2]);
  const df = u32(parts[3]);
  const termStarts = u32(parts[4]);
  const postStarts = u32(parts[5]);
  const kinds = parts[6];
  // The terms stay UTF-8 (SearchIndex.terms): a search decodes the few it
  // looks at, where decoding them all took about 1.4 ms of a warm search
  // of 99,000 terms, most of it the fresh memory of their text.
  const terms = parts[7];
  const post = parts[8];
  const tokens = u32(parts[12]);
  // The slugs are decoded when asked for (SearchIndex.slugOf), one at a
  // time, from where the file says each starts (its ends checked here,
  // the rest clamped where used).
  const slugBytes = parts[10];
  const slugStarts = u32(parts[14]);
  // (The paths were counted as they were read, readOpen.)
  if (n > 0 && (slugStarts[0] !== 0 || slugStarts[n] !== slugBytes.length + 1)) fail('bad document lists');
  // The facets, a line a document (only counted here: decoded when a
  // filter asks).
  if (n > 0 && !hasLines(parts[13], n)) fail('bad facets');
  // Offsets in between are not checked one by one (a search's time): the
  // index clamps them where it uses them (engine.ts), so a corrupt file
  // gives wrong results at worst, never a crash or a long loop.
  if (termStarts[0] !== 0 || termStarts[nt] !== terms.length) fail('bad term offsets');
  if (postStarts[0] !== 0 || postStarts[nt] !== post.length) fail('bad postings offsets');
  // The descriptions by document, from the header's few.
  const descriptions: (string | null)[] = new Array(n).fill(null);
  for (const key of Object.keys(h.descriptions)) {
    const d = Number(key);
    const description = h.descriptions[key];
    if (!Number.isInteger(d) || d < 0 || d >= n || String(d) !== key || typeof description !== 'string') fail('bad document');
    descriptions[d] = description;
  }
  const trace = h.trace;
  if (trace === null || typeof trace !== 'object' || !Array.isArray(trace.dirs) || !Array.isArray(trace.controls)) fail('bad trace');
  for (const d of trace.dirs) if (!Array.isArray(d) || typeof d[0] !== 'string' || typeof d[1] !== 'number' || (d[2] !== undefined && typeof d[2] !== 'number')) fail('bad trace');
  for (const c of trace.controls) if (!Array.isArray(c) || typeof c[0] !== 'string' || typeof c[1] !== 'number' || typeof c[2] !== 'number') fail('bad trace');
  // As many links as a walk can meet, each only stat'ed (never read).
  if (trace.links !== undefined && (!Array.isArray(trace.links) || trace.links.length > MAX_WALK_ENTRIES)) fail('bad trace');
  for (const l of trace.links ?? []) if (!Array.isArray(l) || typeof l[0] !== 'string' || typeof l[1] !== 'number') fail('bad trace');
  const docs = { paths, sizes, mtimes, kinds, tokens, descriptions, slugBytes, slugStarts };
  return { index: new SearchIndex(docs, lens, terms, termStarts, df, postStarts, post, parts[11], parts[13], { texts: h.texts, sums: h.sums }), trace, paths: pathsText };
}

/** How many lines `bytes` (UTF-8, joined by newlines) holds. */
function lineCount(bytes: Uint8Array): number {
  let k = 1;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) k++;
  return k;
}

/** Whether `bytes` holds `n` lines (n >= 1). The common case, no line
 *  with anything on it (a topic without tags, types or statuses), is had
 *  by one comparison: a loop finding 10,000 newlines took about a
 *  millisecond of a warm search. */
function hasLines(bytes: Uint8Array, n: number): boolean {
  if (bytes.length === n - 1 && Buffer.compare(bytes, Buffer.alloc(n - 1, 10)) === 0) return true;
  return lineCount(bytes) === n;
}

/** Where each of the `n` lines of `bytes` (UTF-8, joined by newlines)
 *  starts, and one more past its end (its length + 1). A newline byte is
 *  a newline character in any UTF-8, valid or not, so these are the lines
 *  its text splits into. */
function slugStartsOf(bytes: Uint8Array, n: number): Uint32Array {
  const starts = new Uint32Array(n + 1);
  let k = 0;
  for (let at = bytes.indexOf(10); at >= 0 && k < n - 1; at = bytes.indexOf(10, at + 1)) starts[++k] = at + 1;
  starts[n] = bytes.length + 1;
  return starts;
}
