#!/usr/bin/env node
// Load on `kb mcp --http`: C concurrent clients over loopback, each making
// N calls one after another (protocol 2026-07-28, stateless, a keep-alive
// connection of its own): of every 20 calls, 18 exact loads of a random
// subject, one listing of the topic and one search (words of the slugs).
// p50 and p99 per kind, errors, the server's peak RSS (Linux: VmHWM), and
// the TCP sockets the server holds afterwards, once the clients closed
// theirs: the listening one (`listening`, 1) and any other (`socketsAfter`,
// 0 when none is left open).
//
//   node scripts/mcp-http-load.mjs --workspace DIR --topic ID [--bin dist/kb] [--clients 32] [--calls 1000]
//
// The benchmark also runs the same clients on the floor,
// scripts/mcp-http-floor.ts: a server on kb's runtime that answers every
// call at once (the least latency these clients can see).
//
// KB_LOAD_ONLY=exact (or listing, search) makes every call of that kind.
// `serverCpuMs`: the CPU time (user and system) the server used while the
// clients ran (Linux); `clientCpuMs`: the clients' own (this process),
// on the same machine.
//
// The benchmark runs it on its 10,000-subject workspace (npm run bench;
// alone: npm run bench -- --http-only).
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { resolve } from 'node:path';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const TOKEN = 'bench-token-0123456789abcdef';

/** Starts the server on a free port; resolves with its port. `bin`: a
 *  program, or a command's words (a runtime and its script). */
function start(bin, workspace, env) {
  const [command, ...words] = Array.isArray(bin) ? bin : [bin];
  const child = spawn(command, [...words, 'mcp', '--http', '127.0.0.1:0'], { cwd: workspace, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env, KB_MCP_TOKEN: TOKEN } });
  let err = '';
  const port = new Promise((res, rej) => {
    child.stderr.on('data', (d) => {
      err += d;
      const m = /on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
      if (m) res(Number(m[1]));
    });
    child.on('exit', (code) => rej(new Error(`kb mcp --http exited (${code}): ${err}`)));
  });
  return { child, port, stderr: () => err };
}

/** One client: a keep-alive connection, and a call function. */
function client(port) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let id = 0;
  const call = (method, params) =>
    new Promise((res, rej) => {
      const name = params.name ?? params.uri;
      const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: META } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}), 'content-length': Buffer.byteLength(body) };
      const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers }, (r) => {
        const parts = [];
        r.on('data', (d) => parts.push(d));
        r.on('end', () => {
          const text = Buffer.concat(parts).toString();
          if (r.statusCode !== 200) return rej(new Error(`HTTP ${r.statusCode}: ${text.slice(0, 200)}`));
          const msg = JSON.parse(text);
          if (msg.error || msg.result?.isError) return rej(new Error(JSON.stringify(msg.error ?? msg.result.content).slice(0, 200)));
          res(msg.result);
        });
      });
      req.on('error', rej);
      req.end(body);
    });
  return { call, close: () => agent.destroy() };
}

/** The TCP sockets the process holds: listening, and any other (a
 *  connection, in whatever state). */
function sockets(pid) {
  // TCP only: a child's stdio pipes are UNIX sockets too. The tables list
  // every socket of the network namespace; the process's own are those its
  // descriptors name. State 0A is LISTEN.
  const tcp = new Map();
  for (const table of ['tcp', 'tcp6']) {
    try {
      for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
        const f = line.trim().split(/\s+/);
        if (f[9] !== undefined) tcp.set(f[9], f[3]);
      }
    } catch {
      // no such table
    }
  }
  const held = { listening: 0, other: 0 };
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && tcp.has(m[1])) held[tcp.get(m[1]) === '0A' ? 'listening' : 'other']++;
    } catch {
      // closed meanwhile
    }
  }
  return held;
}

/** The CPU time (user + system, ms) the process has used so far (Linux);
 *  null elsewhere. */
function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))];

export async function mcpHttpLoad({ bin, workspace, topic, clients = 32, calls = 1000, env = {} }) {
  const server = start(bin, workspace, env);
  const port = await server.port;
  const first = client(port);
  const slugs = [];
  let cursor;
  do {
    const page = await first.call('resources/list', cursor ? { cursor } : {});
    for (const r of page.resources) if (r.name.startsWith(`${topic}/`)) slugs.push(r.name.slice(topic.length + 1));
    cursor = page.nextCursor;
  } while (cursor);
  first.close();
  const words = [...new Set(slugs.flatMap((s) => s.split(/[^a-z]+/)).filter((w) => w.length >= 3))].sort();
  const times = { exact: [], listing: [], search: [] };
  const errors = [];
  const only = process.env.KB_LOAD_ONLY;
  const cpuBefore = cpuMs(server.child.pid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const cl = client(port);
      let seed = c + 1;
      const rnd = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
      for (let i = 0; i < calls; i++) {
        const kind = only ?? (i % 20 === 5 ? 'listing' : i % 20 === 15 ? 'search' : 'exact');
        const args = kind === 'exact' ? { name: 'learn', arguments: { topic, subjects: [slugs[rnd(slugs.length)]] } } : kind === 'listing' ? { name: 'learn', arguments: { topic } } : { name: 'search', arguments: { query: `${words[rnd(words.length)]} ${words[rnd(words.length)]}`, topic } };
        const t0 = performance.now();
        try {
          await cl.call('tools/call', args);
          times[kind].push(performance.now() - t0);
        } catch (e) {
          errors.push(`${kind}: ${e.message}`);
        }
      }
      cl.close();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuMs(server.child.pid);
  const clientCpu = process.cpuUsage(clientBefore);
  const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000;
  const serverCpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  let peakKiB = null;
  let open = null;
  let listening = null;
  try {
    peakKiB = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1]);
    // The server closes a connection when it sees the client's end: up to
    // 5 s for it to see them all (a loaded machine is slow to).
    for (let waited = 0; waited < 5000; waited += 100) {
      ({ other: open, listening } = sockets(server.child.pid));
      if (open === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch {
    // Not Linux.
  }
  server.child.kill('SIGTERM');
  const code = await new Promise((r) => server.child.on('exit', r));
  const stats = {};
  for (const [k, xs] of Object.entries(times)) {
    xs.sort((a, b) => a - b);
    stats[k] = { n: xs.length, p50: pct(xs, 0.5), p99: pct(xs, 0.99) };
  }
  return { subjects: slugs.length, clients, calls, seconds, ...stats, serverCpuMs, clientCpuMs, errors: errors.length, firstErrors: errors.slice(0, 3), peakKiB, socketsAfter: open, listening, exitCode: code };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
  const r = await mcpHttpLoad({
    bin: resolve(opt('--bin', 'dist/kb')),
    workspace: resolve(opt('--workspace', '.')),
    topic: opt('--topic', 'docs'),
    clients: Number(opt('--clients', '32')),
    calls: Number(opt('--calls', '1000')),
  });
  console.log(JSON.stringify(r, null, 2));
}
