// The stdio transport of `kb mcp`: newline-delimited messages (MCP stdio),
// with bounded memory on both sides.
//
// Reading: lines are cut from stdin's chunks and handed on one by one. A line
// longer than the limit is not kept: its first bytes are (to find its id),
// the rest is counted and dropped up to its newline, and it is handed on as
// too large, so that it can be answered. The consumer can pause reading:
// stdin is paused (the client's writes then wait in the pipe) and the rest
// of the chunk at hand waits here, so what is held is one chunk plus one
// partial line at most.
//
// Writing: replies go to stdout as they are ready; the bytes not yet taken
// by the pipe are counted (a client that does not read stdout makes them
// grow), so that the server can stop taking new work until they drain. A
// write that fails (a full disk, an unexpected error) is reported once.

import type { Line, Transport, TransportEvents } from './transport.ts';

export type { Line };

/** What a line reader reads from (process.stdin). */
export interface Input {
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** Bytes of an over-long line kept to find its id. */
const HEAD = 4096;
const NL = 0x0a;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export class LineReader {
  private parts: Uint8Array[] = [];
  private size = 0;
  /** Bytes of the current line dropped (it is too large), or -1. */
  private dropped = -1;
  private head: Uint8Array | undefined;
  /** The unread rest of a chunk, while paused. */
  private rest: Uint8Array | undefined;
  private paused = false;
  private ended = false;
  private closed = false;

  constructor(
    private readonly input: Input,
    private readonly maxLine: number,
    private readonly onLine: (line: Line) => void,
    private readonly onEnd: (error?: Error) => void,
  ) {}

  start(): void {
    this.input.on('data', (chunk) => this.take(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk));
    this.input.on('end', () => this.end());
    this.input.on('close', () => this.end());
    this.input.on('error', (err) => this.end(err));
    this.input.resume();
  }

  pause(): void {
    if (this.paused || this.closed) return;
    this.paused = true;
    this.input.pause();
  }

  resume(): void {
    if (!this.paused || this.closed) return;
    this.paused = false;
    const rest = this.rest;
    this.rest = undefined;
    if (rest) this.take(rest);
    if (this.paused) return;
    if (this.ended) this.finish();
    else this.input.resume();
  }

  /** Stops reading for good: nothing more is handed on. */
  close(): void {
    this.closed = true;
    this.rest = undefined;
    this.parts = [];
    this.input.pause();
  }

  private take(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length && !this.closed) {
      if (this.paused) {
        this.rest = chunk.subarray(start);
        return;
      }
      const nl = chunk.indexOf(NL, start);
      const end = nl === -1 ? chunk.length : nl;
      this.append(chunk.subarray(start, end));
      if (nl === -1) return;
      start = nl + 1;
      this.emit();
    }
  }

  private append(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.dropped >= 0) {
      this.dropped += piece.length;
      return;
    }
    if (this.size + piece.length <= this.maxLine) {
      // A copy: the chunk's buffer may be reused once this returns.
      this.parts.push(piece.slice());
      this.size += piece.length;
      return;
    }
    const all = concat([...this.parts, piece.subarray(0, Math.max(0, HEAD - this.size))]);
    this.head = all.slice(0, HEAD);
    this.dropped = this.size + piece.length;
    this.parts = [];
    this.size = 0;
  }

  private emit(): void {
    if (this.dropped >= 0) {
      const line: Line = { tooLarge: true, head: decoder.decode(this.head ?? new Uint8Array()), bytes: this.dropped };
      this.dropped = -1;
      this.head = undefined;
      this.onLine(line);
      return;
    }
    const bytes = concat(this.parts);
    this.parts = [];
    this.size = 0;
    let text = decoder.decode(bytes);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    this.onLine({ text, bytes: bytes.length });
  }

  private end(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.paused) this.finish(error);
    else this.endError = error;
  }

  private endError: Error | undefined;

  private finish(error = this.endError): void {
    if (this.closed) return;
    // A last line without its newline is still a line.
    if (this.size > 0 || this.dropped >= 0) this.emit();
    this.closed = true;
    this.onEnd(error);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** What a writer writes to (process.stdout). */
export interface Output {
  write(data: string | Uint8Array, callback: (err?: Error | null) => void): boolean;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export class Writer {
  /** Characters handed to stdout and not yet taken by the pipe (UTF-16
   *  units: close enough to bytes for a bound). */
  pendingBytes = 0;
  /** Writes not yet taken by the pipe. */
  pendingWrites = 0;
  failure: Error | undefined;
  private waiters: (() => void)[] = [];

  /** `onFailure`: the first failed write. `onProgress`: after each write
   *  is taken by the pipe. */
  constructor(
    private readonly output: Output,
    private readonly onFailure: (err: Error) => void,
    private readonly onProgress: () => void = () => {},
  ) {
    output.on('error', (err) => this.fail(err));
  }

  write(data: string): void {
    if (this.failure) return;
    const n = data.length;
    this.pendingBytes += n;
    this.pendingWrites++;
    try {
      this.output.write(data, (err) => {
        this.pendingBytes -= n;
        this.pendingWrites--;
        if (err) this.fail(err);
        this.wake();
        this.onProgress();
      });
    } catch (err) {
      this.fail(err as Error);
    }
  }

  /** Resolves once at most `bytes` are pending (or writing failed). */
  async below(bytes: number, writes = Number.POSITIVE_INFINITY): Promise<void> {
    while (!this.failure && (this.pendingBytes > bytes || this.pendingWrites > writes)) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.onFailure(err);
    this.wake();
  }
}

/** The stdio transport (transport.ts): lines from `input`, replies to
 *  `output`, one client for the server's life. The line limit is the
 *  largest message read. */
export class StdioTransport implements Transport {
  private reader: LineReader | undefined;
  private writer: Writer | undefined;

  constructor(
    private readonly input: Input,
    private readonly output: Output,
    private readonly maxLine: number,
  ) {}

  start(events: TransportEvents): void {
    const writer = new Writer(this.output, (err) => events.failed(err), () => events.drained());
    const reply = (text: string): void => writer.write(text);
    this.writer = writer;
    this.reader = new LineReader(this.input, this.maxLine, (line) => events.message(line, reply), (err) => events.end(err));
    this.reader.start();
  }

  pause(): void {
    this.reader?.pause();
  }

  resume(): void {
    this.reader?.resume();
  }

  close(): void {
    this.reader?.close();
  }

  get unreadReplies(): number {
    return this.writer?.pendingWrites ?? 0;
  }

  below(bytes: number): Promise<void> {
    return this.writer?.below(bytes) ?? Promise.resolve();
  }

  get failure(): Error | undefined {
    return this.writer?.failure;
  }
}
