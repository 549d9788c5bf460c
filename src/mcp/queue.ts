// The request queue of `kb mcp`: requests read and waiting their turn, run
// one at a time in the order read, each with an AbortSignal of its own.
// `notifications/cancelled` aborts it: a request still waiting is dropped
// when its turn comes; a running one has its signal aborted, which reaches
// the operation (app/ stops reading files, or ranking), and its reply is
// not sent. The queue knows nothing of the transport: what it waits for
// before starting a request (`ready`) and where a reply goes (`deliver`)
// are given.
import { setImmediate } from 'node:timers';
import type { Id } from './jsonrpc.ts';

export interface Queued<T = unknown> {
  id: Id;
  idText: string;
  method: string;
  params: Record<string, unknown>;
  /** Its share of what was read (the queue's byte bound). */
  bytes: number;
  /** Aborted when the client cancels it. */
  readonly control: AbortController;
  /** Not cancellable once running (initialize). */
  uncancellable?: boolean;
  /** Where its reply goes (the dispatcher's own). */
  to: T;
}

export interface QueueHooks<T> {
  /** Resolves when a request may start (the client has read enough of
   *  what was sent); false: stop (nowhere to answer). */
  ready(): Promise<boolean>;
  /** Runs a request: its reply, or undefined for none. */
  run(req: Queued<T>): Promise<string | undefined>;
  /** Its reply (undefined: none, it was cancelled). */
  deliver(req: Queued<T>, reply: string | undefined): void;
  /** After a request leaves the queue or ends (reading may resume). */
  changed(): void;
  /** Nothing waits and nothing runs. */
  idle(): void;
}

export class RequestQueue<T = unknown> {
  private readonly waiting: Queued<T>[] = [];
  /** Bytes the waiting requests were read from. */
  bytes = 0;
  running: Queued<T> | undefined;
  private pumping = false;

  constructor(private readonly hooks: QueueHooks<T>) {}

  get length(): number {
    return this.waiting.length;
  }

  /** Whether it runs or waits for anything. */
  get busy(): boolean {
    return this.waiting.length > 0 || this.running !== undefined || this.pumping;
  }

  /** Requests not cancelled, waiting or running. */
  get live(): number {
    return this.waiting.filter((r) => !r.control.signal.aborted).length + (this.running ? 1 : 0);
  }

  push(req: Omit<Queued<T>, 'control'>): void {
    this.waiting.push({ ...req, control: new AbortController() });
    this.bytes += req.bytes;
    void this.pump();
  }

  /** `notifications/cancelled`: every request of that id, waiting or
   *  running (a running initialize runs on). */
  cancel(id: unknown): void {
    for (const r of this.waiting) if (r.id === id) r.control.abort();
    const r = this.running;
    if (r && r.id === id && !r.uncancellable) r.control.abort();
  }

  /** Drops what waits (nowhere to answer). */
  clear(): void {
    for (const r of this.waiting) r.control.abort();
    this.waiting.length = 0;
    this.bytes = 0;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    // Start on a later turn: the rest of the chunk at hand is read first,
    // so cancellations and pings in it get through.
    await nextTurn();
    while (this.waiting.length > 0) {
      if (!(await this.hooks.ready())) break;
      const req = this.waiting.shift();
      if (!req) break;
      this.bytes -= req.bytes;
      this.hooks.changed();
      if (req.control.signal.aborted) {
        this.hooks.deliver(req, undefined);
        continue;
      }
      this.running = req;
      const line = await this.hooks.run(req);
      this.running = undefined;
      this.hooks.deliver(req, req.control.signal.aborted ? undefined : line);
      // A turn of the event loop between requests: the reply is written,
      // and pings and cancellations read meanwhile are seen.
      await nextTurn();
      this.hooks.changed();
    }
    this.pumping = false;
    this.hooks.idle();
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
