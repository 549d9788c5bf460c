// Reading one subject: one open, binary check on the first 8192 bytes, then
// (text only) the rest of the file, decoded. Never throws. The bytes are read
// into one buffer reused from file to file (`readSubjectRaw`); `kb learn`
// streams them as they are (bytes.ts), everything else decodes them.
//
// Hostile files are results, not crashes: something that is not a regular
// file by the time it is opened (a directory, FIFO or device swapped in
// after the walk) is an error without reading it; a text file larger than
// MAX_SUBJECT_BYTES is an error without reading past its first 8192 bytes,
// and so is one that grows past the limit while it is read (a log being
// appended to, a link swapped for /dev/zero), so memory stays bounded.

import { closeSync, fstatSync, openSync, type Stats } from 'node:fs';
import type { ReadResult } from '../index/types.ts';
import { decodeText } from './decode.ts';
import { describeFsError } from './fserror.ts';
import { isBinaryHead, OPEN_FLAGS, readFully, SNIFF_BYTES } from './probe.ts';

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

/** `512 B`, `1.0 GiB`, `16 MiB`: as `kb list` shows sizes. */
export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** Why a subject of `size` bytes is not loaded. `more` when the size is a
 *  lower bound (the file grew while it was read). */
export function tooLargeMessage(size: number, limit = MAX_SUBJECT_BYTES, more = false): string {
  return `the file is ${more ? 'more than ' : ''}${formatSize(size)}; subjects larger than ${formatSize(limit)} are not loaded`;
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

/** Reads a subject. `limit` is the largest size loaded (tests lower it). */
export function readSubject(abs: string, limit: number = MAX_SUBJECT_BYTES): ReadResult {
  const raw = readSubjectRaw(abs, limit);
  if (raw.kind !== 'bytes') return raw;
  const { text, replaced, encoding } = decodeText(raw.bytes);
  return { kind: 'text', text, replaced, encoding };
}

/** Reads a subject's bytes, as `readSubject` does before decoding them. */
export function readSubjectRaw(abs: string, limit: number = MAX_SUBJECT_BYTES): RawRead {
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch (err) {
    return { kind: 'error', message: describeFsError(err) };
  }
  try {
    const st = fstatSync(fd);
    const notRegular = notRegularMessage(st);
    if (notRegular) return { kind: 'error', message: notRegular };
    // The size from fstat lets a small file be read in one call.
    let buf = scratch;
    const n = readFully(fd, buf, 0, SNIFF_BYTES, st.size);
    if (isBinaryHead(buf, n)) return { kind: 'binary' };
    if (st.size > limit || n > limit) {
      return { kind: 'error', message: tooLargeMessage(Math.max(st.size, n), limit, st.size <= limit) };
    }
    if (n < SNIFF_BYTES) return { kind: 'bytes', bytes: buf.subarray(0, n) };
    // The size is a hint: the file may grow or shrink while being read.
    // One byte more than the limit tells a file that grew past it.
    let size = Math.min(Math.max(st.size, n) + 1, limit + 1);
    buf = reserve(size, n);
    let filled = n;
    for (;;) {
      filled += readFully(fd, buf, filled, size, st.size);
      if (filled < size) break;
      if (filled > limit) return { kind: 'error', message: tooLargeMessage(limit, limit, true) };
      size = Math.min(size * 2, limit + 1);
      buf = reserve(size, filled);
    }
    return { kind: 'bytes', bytes: buf.subarray(0, filled) };
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
