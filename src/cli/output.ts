// stdout carries the product only. Output is written synchronously in
// chunks as it is produced, so memory does not grow with the size of the
// knowledge base. A closed pipe (`kb learn docs '**' | head`) ends the
// output quietly.
import { writeSync } from 'node:fs';

const CHUNK = 1 << 16;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export class PipeClosed extends Error {}

export class Output {
  private parts: string[] = [];
  private size = 0;
  /** Whether anything has been written (or buffered). */
  wrote = false;

  constructor(private readonly fd = 1) {}

  write(s: string): void {
    if (s.length === 0) return;
    this.wrote = true;
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= CHUNK) this.flush();
  }

  flush(): void {
    if (this.size === 0) return;
    const data = Buffer.from(this.parts.length === 1 ? this.parts[0] : this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    writeAll(this.fd, data);
  }
}

function writeAll(fd: number, data: Uint8Array): void {
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
  const out = new Output();
  out.write(s);
  out.flush();
}
