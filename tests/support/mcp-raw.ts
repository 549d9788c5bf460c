// A raw MCP client for protocol tests: `kb mcp` (dist/kb) spawned in a
// workspace, JSON-RPC lines written to its stdin as given (batches, forged
// cursors, bad lines), every line of its stdout parsed and kept.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { expect } from 'bun:test';
import { BIN, isolatedEnv } from '../e2e/harness.ts';
import { ReplyChecker } from './mcp-schema.ts';

// biome-ignore lint: a JSON-RPC message as parsed.
export type Message = any;

/** What every request of protocol 2026-07-28 carries in its `_meta`. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

export class RawMcp {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every line written to stdout, parsed, in order. */
  readonly lines: Message[] = [];
  err = '';
  readonly exited: Promise<number | null>;
  private partial = '';
  private waiters: (() => void)[] = [];
  private done = false;
  readonly schema = new ReplyChecker();

  constructor(root: string, args: string[] = []) {
    this.child = spawn(BIN, ['mcp', ...args], { cwd: root, env: isolatedEnv(root), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin.on('error', () => {});
    this.child.stderr.on('data', (d) => (this.err += d));
    this.child.stdout.on('data', (d: Buffer) => {
      const lines = (this.partial + d.toString('utf8')).split('\n');
      this.partial = lines.pop()!;
      for (const raw of lines) {
        if (raw === '') continue;
        const msg = JSON.parse(raw);
        this.lines.push(msg);
        // Every reply validates against the MCP schema of the version
        // negotiated; a failure fails the test running.
        expect(this.schema.received(msg)).toBe('');
      }
      this.wake();
    });
    this.exited = new Promise((resolve) =>
      this.child.on('close', (code) => {
        this.done = true;
        this.wake();
        resolve(code);
      }),
    );
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Writes one line per message (objects as JSON, strings as they are). */
  send(...messages: (object | string)[]): void {
    for (const m of messages) if (typeof m === 'string') this.schema.sentLine(m);
    else this.schema.sent(m);
    this.child.stdin.write(messages.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join('\n') + '\n');
  }

  /** The reply (a single message, not in a batch) with this id. */
  reply(id: unknown): Message | undefined {
    return this.lines.find((m) => !Array.isArray(m) && m.id === id);
  }

  /** Waits until `ready()` holds or the server exits (at most `ms`). */
  async until(ready: () => boolean, ms = 20_000): Promise<void> {
    const deadline = performance.now() + ms;
    while (!ready() && !this.done && performance.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** Sends a request and waits for its reply. */
  async request(id: number | string, method: string, params?: object): Promise<Message> {
    this.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
    await this.until(() => this.reply(id) !== undefined);
    const r = this.reply(id);
    if (r === undefined) throw new Error(`no reply to ${method} (id ${id}); stderr: ${this.err}`);
    return r;
  }

  /** A request of protocol 2026-07-28 (no handshake: its `_meta` names the
   *  version and the client's capabilities), and its reply. */
  modern(id: number | string, method: string, params: Record<string, unknown> = {}): Promise<Message> {
    return this.request(id, method, { ...params, _meta: { ...MODERN_META, ...(params._meta as object | undefined) } });
  }

  /** `initialize` with this protocol version, then `initialized`. */
  async initialize(protocolVersion = '2025-06-18'): Promise<Message> {
    const r = await this.request('init', 'initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r;
  }

  /** Closes stdin and waits for the exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}
