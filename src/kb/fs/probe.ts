// Probing a file: what its first 8192 bytes tell, without reading the
// rest: its kind (a NUL byte in the head makes a file binary; a file that
// starts with a UTF-16 byte-order mark is text, as its ASCII characters
// contain NUL bytes, and binary only when a whole 16-bit code unit is zero;
// a file that cannot be opened or read is an error) and, for a text file,
// its YAML frontmatter when the head holds it (a listing's descriptions),
// and the document's own title and man-page summary as its format tells
// them (content/title.ts: the rules, scanned on the same bytes).
//
// This module probes kinds and frontmatter; the title rules are another's
// (probe-titles.ts `TITLES`, handed to `probeRaw`), so that what needs no
// title (kb schema, kb prompt: which topics have a text subject) loads none
// of them: about a fifth of the code such a start loaded (kb schema took
// 0.95x the time it did with them, alternating; performance.md).
//
// The names: `probeFile` (probe-titles.ts) probes one file with its title,
// `probeKind` is a file's kind alone, `probeRaw` probes without decoding;
// a `Probe` probes many files at once. The subject index owns one per view
// (index/view.ts): `probeKinds` by default, which searches no head for a
// title (a reader of titles probes those files again with them:
// index/describe.ts), the main thread's `probeHere` (probe-titles.ts) for
// a knowledge base that shows titles, or the reader thread's
// (probe-thread.ts), plugged in at start-up by the front end that wants
// it. All run `probeRaw` on the same bytes; the reader thread hands each
// result back as one code byte per file in shared memory, and the
// frontmatter's, title's and summary's bytes in a second shared region.
//
// At most 8192 bytes are read, into one reused buffer; the rest of the file
// is never touched (but for an HTML page's head: probe-titles.ts).

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { map } from '../../shared/arrays.ts';

/** What a file is, as its head tells. */
export type ProbeKind = 'text' | 'binary' | 'error';

/** What probing a file found. */
export interface ProbeResult {
  readonly kind: ProbeKind;
  /** A text file that starts with YAML frontmatter (a `---` line, ...,
   *  a `---` or `...` line): the text between the fences; `null` when the
   *  closing fence is not within the head (malformed, or longer than the
   *  head: either way no description). Absent without frontmatter. */
  readonly front?: string | null;
  /** The document's own title, by its format (content/title.ts), after
   *  any frontmatter; absent when the head holds none. Frontmatter's
   *  `title` or `name` is read with the frontmatter (index/describe.ts). */
  readonly title?: string;
  /** A man page's summary (its NAME line `name - summary`). */
  readonly summary?: string;
  /** The head of a text file was not searched for a title and summary (a
   *  listing that could not show them asked the probe not to, `probeRaw`):
   *  `title` and `summary` are not known, and a reader that needs them
   *  probes the file again (index/describe.ts). */
  readonly titlesSkipped?: true;
}

/** The results that carry no frontmatter, shared (one object each, so a
 *  result can be compared with them). */
export const PROBED: Readonly<Record<ProbeKind, ProbeResult>> = {
  text: Object.freeze({ kind: 'text' }),
  binary: Object.freeze({ kind: 'binary' }),
  error: Object.freeze({ kind: 'error' }),
};

/** Probes many files, results in order. */
export interface Probe {
  probe(paths: readonly string[]): ProbeResult[];
  /** false: the probe searches no head for a title or summary (its text
   *  results say titlesSkipped: `probeKinds`); a reader of titles probes
   *  those files again with a probe that does (index/describe.ts). */
  readonly titles?: false;
  /** Probes files as a walk finds them (a probe that can start on them
   *  before the walk ends: the reader thread); absent otherwise. `take`,
   *  when given, is told of each file's result as soon as it is known, in
   *  the order the files were added (while the walk goes on, as far as
   *  the probe has got), every file's by the end of `finish`. */
  feed?(take?: FeedTaker, opts?: FeedOptions): ProbeFeed;
  /** Starts a stat of every file (`statFiles`), the work shared with the
   *  reader thread; absent otherwise. `prefix` goes before each path. */
  stat?(paths: readonly string[] | StatPaths, prefix?: string): StatJobHandle;
}

/** The files of a stat job as a file read from the cache holds them,
 *  without a string made for each: how many, path `i` (made only for the
 *  files this thread stats), and all of them as bytes for the reader
 *  thread (`packed`: copies it takes, so neither thread makes a string per
 *  file to send, nor sends one). */
export interface StatPaths {
  readonly length: number;
  path(i: number): string;
  /** Every path's UTF-8 bytes one after the other, `gap` bytes (one
   *  ASCII character) between two, and each path's length in UTF-16 code
   *  units, decoded by the reader thread to the same paths (the bytes
   *  decode to the strings `path` gives). */
  packed(): { bytes: ArrayBuffer; lens: ArrayBuffer; gap: number };
}

/** `paths` as StatPaths, `bytes` being their UTF-8 one after the other,
 *  `gap` bytes between two (one ASCII character: a newline, as a search
 *  cache holds them), which decode to them. */
export function joinedPaths(paths: readonly string[], bytes: Uint8Array, gap: number): StatPaths {
  return {
    length: paths.length,
    path: (i) => paths[i],
    packed: () => {
      const lens = new Uint32Array(paths.length);
      for (let i = 0; i < paths.length; i++) lens[i] = paths[i].length;
      return { bytes: bytes.slice().buffer, lens: lens.buffer, gap };
    },
  };
}

/** A stat job under way: `join` finishes it (the main thread's share) and
 *  returns [size, mtime] per file, the size -1 for a file not there;
 *  `cancel` lets it go unfinished. */
export interface StatJobHandle {
  join(): Float64Array;
  cancel(): void;
}

/** Told of the `i`-th file added to a feed: its result, and its size when
 *  it is text (as `ProbeFeed.size`), else -1. */
export type FeedTaker = (i: number, result: ProbeResult, size: number) => void;

export interface FeedOptions {
  /** The folder the files are walked from (a probe that keeps what heads
   *  said between runs keeps it by folder: heads.ts). */
  root?: string;
  /** Each file's size and modification time too, from an fstat made
   *  before its head is read (`ProbeFeed.stats`). */
  times?: boolean;
}

export interface ProbeFeed {
  /** One more file to probe; the probe may start on it at once. A walk
   *  that has them gives the file's `folder` below the feed's root (the
   *  system's separator after each name, '' at the root) and its `name`,
   *  `path` being the root, a separator, `folder` and `name`: a feed that
   *  knows files by their paths below its root (heads.ts) compares those
   *  instead of cutting each from `path`. */
  add(path: string, folder?: string, name?: string): void;
  /** Probes what is left and returns every file's result, in the order
   *  they were added. */
  finish(): ProbeResult[];
  /** After `finish`: the size of the `i`-th file added when it is text
   *  (the length of its head when that was the whole file, else from an
   *  fstat of the open file), else -1. Spares a listing that sums folders
   *  up a stat of each file. */
  size?(i: number): number;
  /** From now on, searches no head for a title or summary: the results of
   *  files not probed yet say so (ProbeResult.titlesSkipped). A listing
   *  that can no longer show them asks (absent: the feed always does). */
  skipTitles?(): void;
  /** After `finish`, of a feed asked for `times`: each file's size and
   *  modification time, in the order added ([size, time] per file, as a
   *  stat job's), as an fstat of the open file said before its head was
   *  read; the size -1 when not known (it could not be opened, or its
   *  thread stalled and the main thread probed it again). */
  stats?(): Float64Array;
}

/** The main thread's probe of kinds and frontmatter, one file after the
 *  other: no head is searched for a title (see Probe.titles). */
export const probeKinds: Probe = {
  probe: (paths) => map(paths, (p) => frontDecoded(probeRaw(p, undefined))),
  titles: false,
};

/** The rules that find a text file's title and summary in its head
 *  (probe-titles.ts `TITLES`: content/title.ts's, with an HTML page's
 *  head cleaned first), for `probeRaw`. */
export interface HeadTitles {
  /** What the first `n` bytes of `head`, a text file's, tell with their
   *  title and summary: as `probeRaw` returns it (`headOf`'s RawHead, or
   *  PROBED.text). `front` is the span of their frontmatter (undefined:
   *  none), `whole` whether they are the whole file, `path` (its
   *  extension) names the format; `more(size)` reads the file's first
   *  `size` bytes (an HTML page's head). */
  examine(head: Uint8Array, n: number, front: [number, number] | undefined, whole: boolean, path: string, more: MoreBytes | undefined): ProbeResult | RawHead;
}

/** A text file with frontmatter `front` (see ProbeResult.front). */
export function textWithFront(front: string | null): ProbeResult {
  return { kind: 'text', front };
}

/** What `probeRaw` found in a text file's head beyond its kind, as bytes
 *  (views into a buffer the next probe reuses: copy them before then).
 *  One object, reused. */
export interface RawHead {
  readonly raw: true;
  /** As ProbeResult.front, undecoded. */
  front: Uint8Array | null | undefined;
  title: Uint8Array | undefined;
  summary: Uint8Array | undefined;
  /** As ProbeResult.titlesSkipped. */
  titlesSkipped: boolean;
}

const rawHead: RawHead = { raw: true, front: undefined, title: undefined, summary: undefined, titlesSkipped: false };

/** A text file without frontmatter whose head was not searched for a
 *  title (ProbeResult.titlesSkipped), shared. */
export const TITLES_SKIPPED: ProbeResult = Object.freeze({ kind: 'text', titlesSkipped: true });

/** Whether `r` is a `RawHead`. */
export function isRawHead(r: ProbeResult | RawHead): r is RawHead {
  return (r as RawHead).raw === true;
}

/** A text file's probe result from its decoded parts (`titlesSkipped`:
 *  its head was not searched for a title). */
export function textResult(front: string | null | undefined, title: string | undefined, summary: string | undefined, titlesSkipped = false): ProbeResult {
  if (titlesSkipped) return front === undefined ? TITLES_SKIPPED : { kind: 'text', front, titlesSkipped: true };
  if (title === undefined && summary === undefined) return front === undefined ? PROBED.text : front === null ? UNCLOSED_RESULT : textWithFront(front);
  const r: { kind: 'text'; front?: string | null; title?: string; summary?: string } = { kind: 'text' };
  if (front !== undefined) r.front = front;
  if (title !== undefined) r.title = title;
  if (summary !== undefined) r.summary = summary;
  return r;
}

export const PROBE_BYTES = 8192;

/** Flags for opening subjects: read-only, and never block on a FIFO that
 *  replaced a file after the walk. */
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const head = new Uint8Array(PROBE_BYTES);

/** Reads from `fd` into `buf` from `offset` until `end` or the end of the
 *  file; returns the number of bytes read. From the file's current
 *  position, or (`positioned`) by reads at a position, the buffer's offset
 *  being the file's, which leave the file's own position where it was.
 *  `size` is the file's size as fstat reported it, when known: a read that
 *  comes back short once the file holds that many bytes is taken as the
 *  end of the file (a regular file reads short only at its end), which
 *  saves the read that would return 0. */
export function readFully(fd: number, buf: Uint8Array, offset = 0, end = buf.length, size = Infinity, positioned = false): number {
  let filled = offset;
  while (filled < end) {
    const n = readSync(fd, buf, filled, end - filled, positioned ? filled : null);
    if (n === 0) break;
    filled += n;
    if (filled >= size && filled < end) break;
  }
  return filled - offset;
}

/** Whether the first `length` bytes of `bytes` (the start of a file) say the
 *  file is binary: a NUL among them (outside UTF-16 with a byte-order mark,
 *  a zero 16-bit unit), or a PDF's signature (`%PDF-`), whose head may hold
 *  no NUL (a small PDF, all its objects in plain syntax) but whose text is
 *  no knowledge as it is written. */
export function isBinaryHead(bytes: Uint8Array, length: number = bytes.length): boolean {
  const n = Math.min(length, bytes.length, PROBE_BYTES);
  if (isPdf(bytes, n)) return true;
  if (n >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    for (let i = 2; i + 1 < n; i += 2) {
      if (bytes[i] === 0 && bytes[i + 1] === 0) return true;
    }
    return false;
  }
  // Only the first n bytes count: `bytes` may be a large reused buffer
  // whose rest holds another file's data. In a buffer not much longer than
  // the head (the probe's own), the first NUL of the whole buffer tells,
  // without a view made for each file.
  if (bytes.length <= 2 * PROBE_BYTES) {
    const nul = bytes.indexOf(0);
    return nul !== -1 && nul < n;
  }
  return bytes.subarray(0, n).indexOf(0) !== -1;
}

/** Whether the first `n` bytes of `bytes` open with `%PDF-`. */
function isPdf(bytes: Uint8Array, n: number): boolean {
  return n >= 5 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46 && bytes[4] === 0x2d;
}

/** Where frontmatter ends when it is not closed within the head. */
export const UNCLOSED = -1;

/** Formats whose opening `---` is their own, not frontmatter: a YAML
 *  stream's first document (`.yml`, `.yaml`), an Astro component's script
 *  (`.astro`: code, not YAML). */
const NO_FRONTMATTER = new Set(['yml', 'yaml', 'astro']);

/** Whether the file at `path` is of a NO_FRONTMATTER format (its
 *  extension in any case). Asked only of a file that opens with `---`. */
function ownDashes(path: string): boolean {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') + 1 && NO_FRONTMATTER.has(path.slice(dot + 1).toLowerCase());
}

/**
 * Finds YAML frontmatter at the start of a text file's first `n` bytes
 * (`whole`: they are the whole file). Frontmatter is an opening line `---`
 * (after an optional UTF-8 byte-order mark), then lines, then a closing
 * line `---` or `...`; trailing spaces and tabs are allowed on both fences,
 * line ends may be CRLF. Returns [start, end) of the text between the
 * fences, `UNCLOSED` when the opening fence has no closing one within the
 * head, or undefined when the file does not start with frontmatter. A
 * file at `path` of a format whose `---` is its own (NO_FRONTMATTER) has
 * none.
 */
export function frontmatterSpan(bytes: Uint8Array, n: number, whole: boolean, path: string): [number, number] | typeof UNCLOSED | undefined {
  let i = n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (n < i + 4 || bytes[i] !== 0x2d || bytes[i + 1] !== 0x2d || bytes[i + 2] !== 0x2d || ownDashes(path)) return undefined;
  i = lineEnd(bytes, n, i + 3);
  if (i < 0) return undefined; // `---x...`: not a fence
  const start = i;
  while (i < n) {
    const c = bytes[i];
    if ((c === 0x2d || c === 0x2e) && i + 2 < n && bytes[i + 1] === c && bytes[i + 2] === c) {
      const end = lineEnd(bytes, n, i + 3);
      if (end >= 0 || (whole && end === -2)) return [start, i];
    }
    const nl = bytes.indexOf(0x0a, i);
    if (nl < 0 || nl >= n) break;
    i = nl + 1;
  }
  return UNCLOSED;
}

/** After a fence at `i`: spaces or tabs, then a line end. Returns the
 *  index after the line end, -2 at the end of the bytes, -1 otherwise. */
function lineEnd(bytes: Uint8Array, n: number, i: number): number {
  while (i < n && (bytes[i] === 0x20 || bytes[i] === 0x09)) i++;
  if (i >= n) return -2;
  if (bytes[i] === 0x0a) return i + 1;
  if (bytes[i] === 0x0d && i + 1 < n && bytes[i + 1] === 0x0a) return i + 2;
  return -1;
}

const utf8 = new TextDecoder();

/** Frontmatter bytes as text. Most frontmatter is ASCII: decoded without
 *  the decoder's per-call cost. */
export function decodeFront(bytes: Uint8Array): string {
  if (bytes.length < 4096) {
    let ascii = true;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  // Copied out of shared memory first: TextDecoder may refuse a view of it.
  return utf8.decode(bytes.buffer instanceof SharedArrayBuffer ? bytes.slice() : bytes);
}

/** Probes a file: 'text', 'binary', or 'error' when it cannot be read. */
export function probeKind(abs: string): ProbeKind {
  const r = probeRaw(abs, undefined);
  return isRawHead(r) ? 'text' : r.kind;
}

/** A result of `probeRaw` without titles (`titles` undefined) decoded:
 *  its frontmatter as text (probe-titles.ts `decodeRaw` decodes titles
 *  too). */
function frontDecoded(r: ProbeResult | RawHead): ProbeResult {
  return isRawHead(r) ? textResult(frontText(r), undefined, undefined, r.titlesSkipped) : r;
}

/** A RawHead's frontmatter as ProbeResult.front has it. */
export function frontText(r: RawHead): string | null | undefined {
  return r.front instanceof Uint8Array ? decodeFront(r.front) : r.front;
}

/** Reads the file's first `size` bytes (an HTML page's head: its first
 *  bytes from the start, and how many). */
export type MoreBytes = (size: number) => { bytes: Uint8Array; n: number };

/** What a text file's first `n` bytes (of `head`, at most PROBE_BYTES)
 *  tell, as `probeRaw` returns it; `path` (its extension) names the
 *  format. `titles` undefined: the head is not searched for a title, else
 *  their rules search it. `more`: the file's first bytes, for an HTML page
 *  whose head holds what is left out of it (read only then). */
export function examineHead(head: Uint8Array, n: number, path: string, titles: HeadTitles | undefined, more?: MoreBytes): ProbeResult | RawHead {
  if (isBinaryHead(head, n)) return PROBED.binary;
  const whole = n < PROBE_BYTES;
  const span = frontmatterSpan(head, n, whole, path);
  if (span === UNCLOSED) return UNCLOSED_RESULT; // the head is all frontmatter
  if (titles === undefined) {
    // Not even the format is looked up: a file of a format without titles
    // says so too, and a reader of its title probes it again for nothing.
    if (span === undefined) return TITLES_SKIPPED;
    const r = headOf(head.subarray(span[0], span[1]), undefined, undefined);
    r.titlesSkipped = true;
    return r;
  }
  return titles.examine(head, n, span, whole, path, more);
}

/** A RawHead of these parts (the one object, reused: valid until the
 *  next probe), for `probeRaw` and the title rules. */
export function headOf(front: Uint8Array | undefined, title: Uint8Array | undefined, summary: Uint8Array | undefined): RawHead {
  rawHead.front = front;
  rawHead.title = title;
  rawHead.summary = summary;
  rawHead.titlesSkipped = false;
  return rawHead;
}

/** What `probeRaw` returns for frontmatter that is not closed. */
export const UNCLOSED_RESULT = Object.freeze({ kind: 'text', front: null }) as ProbeResult;

/** The size of the text file the last `probeRaw` read: the length of its
 *  one read when that was short (it read the whole file), else from
 *  fstat; -1 when not known (a binary or unreadable file). */
let probedSize = -1;

/** The size of the open file `fd`, -1 when fstat fails. A text file
 *  longer than the head costs one fstat more (on the thread that probes
 *  it), so that a listing that sums folders up needs no stat of it: a stat
 *  by path on the main thread, later, cost about 8 ms for the 785 such
 *  files of 10,000. */
function sizeOf(fd: number): number {
  try {
    return fstatSync(fd).size;
  } catch {
    return -1;
  }
}

/** The size and modification time of the file last probed `timed`,
 *  from an fstat made before its head was read; the size -1 when not
 *  known (not timed, or it could not be opened or stat'ed). */
const probedStat = new Float64Array(2);

function statInto(fd: number): void {
  const st = fstatSync(fd);
  probedStat[1] = st.mtimeMs;
  probedStat[0] = st.size;
}

/** See `probedStat`: [size, time], valid until the next probe. */
export function lastProbedStat(): Float64Array {
  return probedStat;
}

/** See `probedSize`. */
export function lastProbedSize(): number {
  return probedSize;
}

/** Read once an HTML page's head holds what is left out of it. */
let more: Uint8Array | undefined;

/** The first `size` bytes of the file open at `fd`, whose first `n`
 *  bytes are in `head` and which is read that far. */
function readMore(fd: number, n: number, size: number): { bytes: Uint8Array; n: number } {
  if (more === undefined || more.length !== size) more = new Uint8Array(size);
  more.set(head.subarray(0, n), 0);
  return { bytes: more, n: n + readFully(fd, more, n) };
}

/** A file probed without decoding: PROBED.text, .binary or .error,
 *  UNCLOSED_RESULT, TITLES_SKIPPED, or the head's frontmatter, title and
 *  summary as bytes (a RawHead, valid until the next probe). `titles`
 *  (probe-titles.ts `TITLES`) search the head for a title and summary;
 *  undefined: they are not searched for (the result says so:
 *  ProbeResult.titlesSkipped). */
export function probeRaw(abs: string, titles: HeadTitles | undefined, timed = false): ProbeResult | RawHead {
  let fd: number;
  probedSize = -1;
  probedStat[0] = -1;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch {
    return PROBED.error;
  }
  try {
    // `timed`: the open file's size and time, before its head is read (a
    // write after that changes the time, so what is kept of the head with
    // them is never older than they say: fs/heads.ts).
    if (timed) statInto(fd);
    // One read. A regular file reads short only at its end, so a short
    // read already holds all there is of the first 8192 bytes: this saves
    // the read that would return 0, one system call per listed subject.
    // (Were a read ever cut short by a signal, the file would be judged on
    // fewer bytes; loading it reads fully and still finds it binary.)
    const n = readSync(fd, head, 0, PROBE_BYTES, null);
    const found = examineHead(head, n, abs, titles, (size) => readMore(fd, n, size));
    if (found !== PROBED.binary) probedSize = n < PROBE_BYTES ? n : timed ? probedStat[0] : sizeOf(fd);
    return found;
  } catch {
    return PROBED.error;
  } finally {
    closeSync(fd);
  }
}
