// `kb mcp --http` for the tests: the binary started on a free loopback
// port (the port it says on stderr), raw requests (fetch and sockets), and
// what the server's process holds (sockets, peak memory).
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

export const TOKEN = 'test-token-0123456789abcdef';

export interface HttpServer {
  url: string;
  port: number;
  proc: ChildProcess;
  stderr: () => string;
  /** SIGTERM; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Starts `argv... mcp --http 127.0.0.1:0 args...` in `root`. */
export async function startHttp(argv: readonly string[], root: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<HttpServer> {
  const [cmd, ...pre] = argv;
  const proc = spawn(cmd, [...pre, 'mcp', '--http', '127.0.0.1:0', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  proc.stdout?.on('data', (d) => (stdout += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    proc.stderr?.on('data', (d) => {
      stderr += d.toString();
      const m = /on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    void exited.then((code) => reject(new Error(`kb mcp --http exited (${code}) before listening: ${stderr}${stdout}`)));
    setTimeout(() => reject(new Error(`kb mcp --http did not listen within 20 s: ${stderr}`)), 20_000);
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    proc,
    stderr: () => stderr + (stdout === '' ? '' : `\n(stdout: ${stdout})`),
    exited,
    stop(signal = 'SIGTERM') {
      proc.kill(signal);
      return exited;
    },
  };
}

export const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 request's body and its headers, as a conforming client
 *  sends them. */
export function modernRequest(id: number | string, method: string, params: Record<string, unknown> = {}): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  const name = (params.name ?? params.uri) as string | undefined;
  if (name !== undefined && ['tools/call', 'prompts/get', 'resources/read'].includes(method)) headers['mcp-name'] = /^[\x20-\x7e]*$/.test(name) ? name : `=?base64?${Buffer.from(name).toString('base64')}?=`;
  return { body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }), headers };
}

/** POSTs a 2026-07-28 request; its status and parsed JSON body. */
export async function post(url: string, id: number | string, method: string, params: Record<string, unknown> = {}, extra: Record<string, string> = {}): Promise<{ status: number; json: any; headers: Headers }> {
  const r = modernRequest(id, method, params);
  const res = await fetch(url, { method: 'POST', headers: { ...r.headers, ...extra }, body: r.body });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

/** Raw bytes to the server on one connection, and everything it answers
 *  until it closes the connection (or `wait` ms pass). */
export function raw(port: number, data: string | Buffer | (() => void), wait = 5000, localAddress?: string): Promise<{ text: string; closed: boolean; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const s: Socket = connect({ port, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) });
    let text = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      resolve({ text, closed, ms: Date.now() - started });
    };
    s.on('data', (d) => (text += d.toString('latin1')));
    s.on('close', () => finish(true));
    s.on('error', () => finish(true));
    const timer = setTimeout(() => finish(false), wait);
    if (typeof data !== 'function') s.write(data);
  });
}

/** The TCP sockets a process holds open (Linux: /proc). */
export function openSockets(pid: number): number {
  // TCP only: a child's stdio pipes are UNIX sockets too.
  const tcp = new Set<string>();
  for (const table of ['tcp', 'tcp6']) {
    try {
      for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
        const inode = line.trim().split(/\s+/)[9];
        if (inode !== undefined) tcp.add(inode);
      }
    } catch {
      // no such table
    }
  }
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && tcp.has(m[1])) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

/** The peak resident memory of a process, in MiB (Linux: VmHWM). */
export function peakRssMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}
