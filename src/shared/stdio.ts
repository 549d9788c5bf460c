// Writing to stdout and stderr, synchronously and whole: a slow reader
// (EAGAIN) is waited for, a closed pipe (`kb learn docs '**' | head`) ends
// the output quietly (PipeClosed, which the front ends treat as success),
// any other failure (a full disk, an I/O error) is a KbError that says
// where: `error: cannot write the output: no space left on device (stdout)`.
import { writeSync } from 'node:fs';
import { KbError } from './errors.ts';

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const encoder = new TextEncoder();

export class PipeClosed extends Error {}

export function writeAll(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(fd, data, off, data.length - off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(sleeper, 0, 0, 1); // the reader is slow: wait 1 ms, retry
        continue;
      }
      if (code === 'EPIPE') throw new PipeClosed();
      throw new KbError(`cannot write the output: ${reasonOf(e)}`, fd === 1 ? 'stdout' : fd === 2 ? 'stderr' : `file descriptor ${fd}`);
    }
  }
}

/** Why a write failed, in a few words (the message without its code). */
function reasonOf(e: unknown): string {
  const { code, message } = e as NodeJS.ErrnoException;
  switch (code) {
    case 'ENOSPC':
      return 'no space left on device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EFBIG':
      return 'file too large';
    case 'EIO':
      return 'input/output error';
    case 'EBADF':
      return 'it is closed';
  }
  const text = String(message ?? e);
  return code && text.startsWith(`${code}: `) ? text.slice(code.length + 2) : text;
}

/** Writes one whole text to stdout (used for small outputs). */
export function print(s: string): void {
  if (s.length > 0) writeAll(1, encoder.encode(s));
}

/** Writes a message to stderr; a closed or failing stderr is ignored. */
export function printError(s: string): void {
  try {
    if (s.length > 0) writeAll(2, encoder.encode(s));
  } catch {
    // Nowhere left to report it.
  }
}
