// A test-only bridge: `kb mcp` (stdio) exposed over Streamable HTTP, so that
// tools that drive HTTP servers (the official conformance suite) can drive
// kb until it has a transport of its own. The HTTP side is the MCP SDK's
// own server transport (1.x, stateful: one session per `initialize`, its
// `Mcp-Session-Id`, DNS-rebinding protection for a loopback address); each
// session gets a `kb mcp` process of its own, and the bridge hands the
// JSON-RPC messages across unchanged, both ways. It adds nothing of kb's:
// what the client reads is what kb wrote.
//
//   bun tests/support/mcp-http-bridge.ts WORKSPACE [kb mcp options...]
//
// prints the URL (`http://127.0.0.1:PORT/mcp`) on stdout and serves until
// stdin closes or it is stopped.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BIN, isolatedEnv } from '../e2e/harness.ts';

export interface Bridge {
  url: string;
  /** What the kb processes wrote on stderr, all sessions together. */
  stderr(): string;
  /** Sessions opened so far. */
  readonly sessions: number;
  close(): Promise<void>;
}

/** One session: its transport and its `kb mcp` process. */
interface Session {
  transport: StreamableHTTPServerTransport;
  child: ChildProcessWithoutNullStreams;
}

/** The most a request body may hold (kb reads at most 2 MiB a message). */
const MAX_BODY = 4 * 1024 * 1024;

export async function startBridge(root: string, args: string[] = []): Promise<Bridge> {
  const sessions = new Map<string, Session>();
  const children = new Set<ChildProcessWithoutNullStreams>();
  let opened = 0;
  let stderr = '';
  const hosts: string[] = [];

  const open = (): StreamableHTTPServerTransport => {
    const child = spawn(BIN, ['mcp', ...args], { cwd: root, env: isolatedEnv(root), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {});
    children.add(child);
    child.on('close', () => children.delete(child));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, child }),
      enableDnsRebindingProtection: true,
      allowedHosts: hosts,
    });
    transport.onmessage = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      child.stdin.end();
    };
    let partial = '';
    child.stdout.on('data', (d: Buffer) => {
      const lines = (partial + d.toString('utf8')).split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (line !== '') void transport.send(JSON.parse(line) as JSONRPCMessage).catch((e: Error) => (stderr += `bridge: ${e.message}\n`));
    });
    void transport.start();
    opened++;
    return transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id)?.transport : undefined;
    if (known !== undefined) return known.handleRequest(req, res, body);
    if (typeof id === 'string' || req.method !== 'POST' || !isInitialize(body)) {
      res.writeHead(typeof id === 'string' ? 404 : 400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no such session: send initialize first' } }));
      return;
    }
    return open().handleRequest(req, res, body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      stderr += `bridge: ${e.message}\n`;
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  hosts.push(`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stderr: () => stderr,
    get sessions() {
      return opened;
    },
    close: async () => {
      for (const s of sessions.values()) await s.transport.close();
      // A session refused before it began (a forged Host) has no transport
      // to close: its process ends with its stdin.
      for (const c of children) c.stdin.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function isInitialize(body: unknown): boolean {
  const one = (m: unknown) => m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize';
  return Array.isArray(body) ? body.some(one) : one(body);
}

/** The body as JSON (undefined when it is not JSON: the transport answers). */
async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(c as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const [root, ...rest] = process.argv.slice(2);
  if (root === undefined) {
    process.stderr.write('usage: bun tests/support/mcp-http-bridge.ts WORKSPACE [kb mcp options...]\n');
    process.exit(2);
  }
  const bridge = await startBridge(root, rest);
  process.stdout.write(`${bridge.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void bridge.close().then(() => process.exit(0)));
}
