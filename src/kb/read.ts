// Reading one subject: one open, binary check on the first 8192 bytes, then
// (text only) the rest of the file, decoded. Never throws.

import { closeSync, fstatSync, openSync } from 'node:fs';
import type { ReadResult } from './types.ts';
import { decodeText } from './decode.ts';
import { describeFsError } from './fserror.ts';
import { isBinaryHead, OPEN_FLAGS, readFully, SNIFF_BYTES } from './sniff.ts';

const head = new Uint8Array(SNIFF_BYTES);

export function readSubject(abs: string): ReadResult {
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch (err) {
    return { kind: 'error', message: describeFsError(err) };
  }
  try {
    const n = readFully(fd, head);
    if (isBinaryHead(head, n)) return { kind: 'binary' };
    let bytes: Uint8Array;
    if (n < SNIFF_BYTES) {
      bytes = head.subarray(0, n);
    } else {
      // The size is a hint: the file may grow or shrink while being read.
      let size = Math.max(fstatSync(fd).size, n) + 1;
      let buf = new Uint8Array(size);
      buf.set(head, 0);
      let filled = n;
      for (;;) {
        filled += readFully(fd, buf, filled);
        if (filled < buf.length) break;
        size *= 2;
        const bigger = new Uint8Array(size);
        bigger.set(buf, 0);
        buf = bigger;
      }
      bytes = buf.subarray(0, filled);
    }
    const { text, replaced, encoding } = decodeText(bytes);
    return { kind: 'text', text, replaced, encoding };
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
