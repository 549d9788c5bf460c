// Writing to stdout and stderr, synchronously and whole: a slow reader
// (EAGAIN) is waited for, a closed pipe (`kb learn docs '**' | head`) ends
// the output quietly (PipeClosed, which the front ends treat as success).
import { writeSync } from 'node:fs';

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
      throw e;
    }
  }
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
