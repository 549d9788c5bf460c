// Reading one subject: one open, binary check on the first 8192 bytes, then
// (text only) the rest of the file, decoded. Never throws. The bytes are read
// into one buffer reused from file to file (`readSubjectRaw`); `kb learn`
// streams them as they are (bytes.ts), everything else decodes them.

import { closeSync, fstatSync, openSync } from 'node:fs';
import type { ReadResult } from './types.ts';
import { decodeText } from './decode.ts';
import { describeFsError } from './fserror.ts';
import { isBinaryHead, OPEN_FLAGS, readFully, SNIFF_BYTES } from './sniff.ts';

/** Reused for every read; grows to the largest text file read. */
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

/** A subject's bytes before decoding: a view into the scratch buffer, valid
 *  until the next read. */
export type RawRead = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'binary' } | { kind: 'error'; message: string };

export function readSubject(abs: string): ReadResult {
  const raw = readSubjectRaw(abs);
  if (raw.kind !== 'bytes') return raw;
  const { text, replaced, encoding } = decodeText(raw.bytes);
  return { kind: 'text', text, replaced, encoding };
}

/** Reads a subject's bytes, as `readSubject` does before decoding them. */
export function readSubjectRaw(abs: string): RawRead {
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch (err) {
    return { kind: 'error', message: describeFsError(err) };
  }
  try {
    let buf = scratch;
    const n = readFully(fd, buf, 0, SNIFF_BYTES);
    if (isBinaryHead(buf, n)) return { kind: 'binary' };
    if (n < SNIFF_BYTES) return { kind: 'bytes', bytes: buf.subarray(0, n) };
    // The size is a hint: the file may grow or shrink while being read.
    let size = Math.max(fstatSync(fd).size, n) + 1;
    buf = reserve(size, n);
    let filled = n;
    for (;;) {
      filled += readFully(fd, buf, filled, size);
      if (filled < size) break;
      size *= 2;
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
