// Reading one subject: one open, binary check on the first 8192 bytes, then
// (text only) the rest of the file, decoded. Never throws. The bytes are read
// into one buffer reused from file to file (`readSubjectRaw`); `kb learn`
// streams them as they are (`readBody` as bytes), everything else decodes
// them.
//
// A file shorter than 8192 bytes, nearly every subject, takes an open, two
// reads at a position (its bytes, then the nothing that says they are all
// of it) and a close: no fstat (`readOpen`). Any other file is checked on
// its descriptor as well, and read within the size fstat gives.
//
// Hostile files are results, not crashes: something that is not a regular
// file by the time it is opened (a directory, FIFO or device swapped in
// after the walk) is an error. A FIFO, socket or terminal refuses a read at
// a position (ESPIPE), so nothing is taken from it, and a directory refuses
// any read (EISDIR). A device that allows one is read for at most 8192
// bytes: fstat finds it out when they fill the first read or there are
// none (/dev/zero, /dev/null); one that gives fewer and then nothing is
// read as the small file it looks like. A text file larger than
// MAX_SUBJECT_BYTES is an error without reading past its first 8192 bytes,
// and so is one that grows past the limit while it is read (a log being
// appended to, a link swapped for /dev/zero), so memory stays bounded.

import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import type { Body } from '../content/body.ts';
import { humanSize } from '../../shared/text.ts';
import { decodeText, encodingOf, type TextEncodingName } from './decode.ts';
import { describeFsError } from './fserror.ts';
import { isBinaryHead, OPEN_FLAGS, readFully, PROBE_BYTES } from './probe.ts';

/** The largest subject that is loaded: 16 MiB, about four million tokens,
 *  more than any model's context window holds. */
export const MAX_SUBJECT_BYTES = 16 * 1024 * 1024;

/** Reused for every read; grows to the largest text file read (at most
 *  the limit, plus one byte). */
let scratch: Uint8Array = new Uint8Array(1 << 16);

/** Room for `size` bytes in the scratch buffer, keeping its first `keep`. */
function reserve(size: number, keep: number): Uint8Array {
  if (scratch.length < size) {
    let n = scratch.length;
    while (n < size) n *= 2;
    const bigger = new Uint8Array(n);
    bigger.set(scratch.subarray(0, keep), 0);
    scratch = bigger;
  }
  return scratch;
}

/** Why a subject of `size` bytes is not loaded. `more` when the size is a
 *  lower bound (the file grew while it was read). */
export function tooLargeMessage(size: number, limit = MAX_SUBJECT_BYTES, more = false): string {
  return `the file is ${more ? 'more than ' : ''}${humanSize(size)}; subjects larger than ${humanSize(limit)} are not loaded`;
}

/** Why an opened file cannot be a subject ('' when it is a regular file). */
export function notRegularMessage(st: Stats): string {
  if (st.isFile()) return '';
  if (st.isDirectory()) return 'is a directory';
  return 'not a regular file';
}

/** A subject's bytes before decoding: a view into the scratch buffer, valid
 *  until the next read. */
export type RawRead = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'binary' } | { kind: 'error'; message: string };

/** The result of reading one subject. Skipped files are results, not
 *  errors. */
export type ReadResult =
  | { kind: 'text'; text: string; /** invalid UTF-8 was replaced */ replaced: boolean; encoding: TextEncodingName }
  | { kind: 'binary' }
  | { kind: 'error'; message: string };

/** A subject read as a body (content/body.ts): text, or the UTF-8 bytes of
 *  that text. */
export type BodyRead = { kind: 'text'; body: Body; /** invalid input was replaced */ replaced: boolean } | { kind: 'binary' } | { kind: 'error'; message: string };

/** Reads a subject as text (`as` 'text') or as the UTF-8 bytes of the same
 *  text ('bytes': valid UTF-8 is handed out as read, a view into a buffer
 *  the next read reuses; anything else is decoded and encoded back). */
export function readBody(abs: string, as: 'text' | 'bytes'): BodyRead {
  if (as === 'text') {
    const r = readSubject(abs);
    return r.kind === 'text' ? { kind: 'text', body: r.text, replaced: r.replaced } : r;
  }
  const raw = readRaw(abs, MAX_SUBJECT_BYTES);
  return raw instanceof Uint8Array ? utf8Of(raw) : raw;
}

const encoder = new TextEncoder();

/** The UTF-8 text of a whole (non-binary) file's bytes, as `decodeText`
 *  would give it, encoded: the bytes themselves for valid UTF-8 (its
 *  byte-order mark dropped). */
export function utf8Of(bytes: Uint8Array): { kind: 'text'; body: Uint8Array; replaced: boolean } {
  if (encodingOf(bytes) === 'utf-8' && isUtf8(bytes)) {
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return { kind: 'text', body: bom ? bytes.subarray(3) : bytes, replaced: false };
  }
  const { text, replaced } = decodeText(bytes);
  return { kind: 'text', body: encoder.encode(text), replaced };
}

/** A file that is not read as a subject: binary, or an error. */
type NotRead = { kind: 'binary' } | { kind: 'error'; message: string };

const BINARY: NotRead = Object.freeze({ kind: 'binary' });

/** Opens `abs` (without blocking on a FIFO swapped in after the walk) and
 *  hands the descriptor to `read` with `arg`; any failure is an error
 *  result, and the file is closed. (`read` and `arg` rather than a
 *  closure: a load of thousands of subjects allocates nothing here per
 *  file.) */
function withOpenFile<A, R>(abs: string, read: (fd: number, arg: A) => R, arg: A): R | { kind: 'error'; message: string } {
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch (err) {
    return { kind: 'error', message: describeFsError(err) };
  }
  try {
    return read(fd, arg);
  } catch (err) {
    return { kind: 'error', message: describeFsError(err) };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing useful to do.
    }
  }
}

/** `withOpenFile`, once fstat found the open file a regular file: `read`
 *  has its Stats too. */
export function withRegularFile<A, R>(abs: string, read: (fd: number, st: Stats, arg: A) => R, arg: A): R | { kind: 'error'; message: string } {
  return withOpenFile(
    abs,
    (fd) => {
      const st = fstatSync(fd);
      const notRegular = notRegularMessage(st);
      return notRegular ? { kind: 'error' as const, message: notRegular } : read(fd, st, arg);
    },
    undefined,
  );
}

/** A text subject's first `max` bytes, decoded (as `readSubject`): all of
 *  it when the file is no longer (`whole`), else its head up to the last
 *  line end within it (a line cut in two is left out). Never reads more
 *  than `max` bytes, whatever the file's size; the same checks as
 *  `readSubjectRaw` (a binary head, not a regular file). A whole file that
 *  is valid UTF-8 comes with its bytes too (`utf8`, its byte-order mark
 *  left out: exactly the text's UTF-8), a view into the buffer the next
 *  read reuses. */
export function readSubjectHead(
  abs: string,
  max: number,
): { kind: 'text'; text: string; whole: boolean; utf8?: Uint8Array } | { kind: 'binary' } | { kind: 'error'; message: string } {
  return withRegularFile(abs, readHeadOf, max);
}

function readHeadOf(fd: number, st: Stats, max: number): { kind: 'text'; text: string; whole: boolean; utf8?: Uint8Array } | { kind: 'binary' } {
  const want = Math.max(PROBE_BYTES, max);
  // One byte more than asked tells a head from a whole file (the size
  // from fstat is a hint: /proc files say 0).
  const cap = Math.min(want, Math.max(st.size, PROBE_BYTES)) + 1;
  const buf = reserve(cap, 0);
  const n = readFully(fd, buf, 0, cap, st.size);
  if (isBinaryHead(buf, n)) return { kind: 'binary' as const };
  const whole = n <= want;
  let bytes = buf.subarray(0, Math.min(n, want));
  const encoding = encodingOf(bytes);
  if (!whole && encoding === 'utf-8') {
    // A line end in UTF-8 is never inside a character: cut after the last.
    bytes = bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
  }
  const decoded = decodeText(bytes);
  let text = decoded.text;
  if (!whole && encoding !== 'utf-8') text = text.slice(0, text.lastIndexOf('\n') + 1);
  if (!whole || encoding !== 'utf-8' || decoded.replaced) return { kind: 'text' as const, text, whole };
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return { kind: 'text' as const, text, whole, utf8: bom ? bytes.subarray(3) : bytes };
}

/** Reads a subject. `limit` is the largest size loaded (tests lower it). */
export function readSubject(abs: string, limit: number = MAX_SUBJECT_BYTES): ReadResult {
  const raw = readSubjectRaw(abs, limit);
  if (raw.kind !== 'bytes') return raw;
  const { text, replaced, encoding } = decodeText(raw.bytes);
  return { kind: 'text', text, replaced, encoding };
}

/** Reads a subject's bytes, as `readSubject` does before decoding them. */
export function readSubjectRaw(abs: string, limit: number = MAX_SUBJECT_BYTES): RawRead {
  const raw = readRaw(abs, limit);
  return raw instanceof Uint8Array ? { kind: 'bytes', bytes: raw } : raw;
}

/** `readSubjectRaw`, the bytes as they are (a view into the scratch
 *  buffer, valid until the next read). */
function readRaw(abs: string, limit: number): Uint8Array | NotRead {
  return withOpenFile(abs, readOpen, limit);
}

/** The file open at `fd`, read from its start by position (see the top of
 *  this file). A read that comes back short is not taken for the end of
 *  the file: a read error part way through a file returns what came
 *  before it, and the next read, the error. */
function readOpen(fd: number, limit: number): Uint8Array | NotRead {
  let n = readSync(fd, scratch, 0, PROBE_BYTES, 0);
  if (n > 0 && n < PROBE_BYTES) {
    const past = readSync(fd, scratch, n, 1, n);
    if (past === 0) return isBinaryHeadOf(scratch, n) ? BINARY : scratch.subarray(0, n);
    n += past;
  }
  // Empty, 8192 bytes or more, or grown since: what fstat says of it.
  const st = fstatSync(fd);
  const notRegular = notRegularMessage(st);
  if (notRegular) return { kind: 'error', message: notRegular };
  return readSized(fd, st, limit, n);
}

/** `readOpen` for a regular file whose first `first` bytes are in the
 *  scratch buffer: the rest of its first PROBE_BYTES, then the rest of it
 *  within the limit. */
function readSized(fd: number, st: Stats, limit: number, first: number): Uint8Array | NotRead {
  // The size from fstat ends the reads where the file ends.
  let buf = scratch;
  const n = first + readFully(fd, buf, first, PROBE_BYTES, st.size, true);
  if (isBinaryHeadOf(buf, n)) return BINARY;
  if (st.size > limit || n > limit) {
    return { kind: 'error', message: tooLargeMessage(Math.max(st.size, n), limit, st.size <= limit) };
  }
  if (n < PROBE_BYTES) return buf.subarray(0, n);
  // The size is a hint: the file may grow or shrink while being read.
  // One byte more than the limit tells a file that grew past it.
  let size = Math.min(Math.max(st.size, n) + 1, limit + 1);
  buf = reserve(size, n);
  let filled = n;
  for (;;) {
    filled += readFully(fd, buf, filled, size, st.size, true);
    if (filled < size) break;
    if (filled > limit) return { kind: 'error', message: tooLargeMessage(limit, limit, true) };
    size = Math.min(size * 2, limit + 1);
    buf = reserve(size, filled);
  }
  return buf.subarray(0, filled);
}

/** `isBinaryHead` on the first `n` bytes of the scratch buffer, whose rest
 *  holds an earlier file's bytes: a NUL put after them ends the search
 *  there, without a view made of them for each file. */
function isBinaryHeadOf(buf: Uint8Array, n: number): boolean {
  if (n >= buf.length || (n >= 2 && (buf[0] === 0xff || buf[0] === 0xfe || buf[0] === 0x25))) return isBinaryHead(buf, n);
  buf[n] = 0;
  return buf.indexOf(0) < n;
}
