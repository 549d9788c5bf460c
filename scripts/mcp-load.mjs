#!/usr/bin/env node
// Load figures for `kb mcp`: peak RSS and reply latency for three clients.
//   sequential   2,000 learn calls, each sent when the previous reply came
//   pipelined    2,000 learn calls written at once, replies read as they come
//   unread       2,000 learn calls of 1 MiB subjects written at once by a
//                client that never reads stdout (memory must stay bounded;
//                then two SIGTERMs, the second of which must end it at once)
//
//   node scripts/mcp-load.mjs [--bin dist/kb] [--calls 2000]
//
// Builds a temporary workspace (200 subjects of 4 KiB, 8 of 1 MiB). Peak RSS
// is the server's VmHWM (/proc, so Linux only), read before it is stopped.
// Latency is from writing a request to reading its reply.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const BIN = resolve(opt('--bin', 'dist/kb'));
const CALLS = Number(opt('--calls', '2000'));
const MiB = 1 << 20;

function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'kb-mcp-load-'));
  mkdirSync(join(root, '.jp'));
  mkdirSync(join(root, 't'));
  mkdirSync(join(root, 'big'));
  writeFileSync(join(root, '.jp', 'config.toml'), '[kb.topic.t]\nsubjects = "t"\n\n[kb.topic.big]\nsubjects = "big"\n');
  const line = 'The quick brown fox jumps over the lazy dog. 0123456789 abcdefghijklmnopqrstuvwxyz\n';
  const text = (n) => line.repeat(Math.ceil(n / line.length)).slice(0, n);
  const small = text(4096);
  for (let i = 0; i < 200; i++) writeFileSync(join(root, 't', `s${i}.md`), small);
  const big = text(MiB);
  for (let i = 0; i < 8; i++) writeFileSync(join(root, 'big', `b${i}.md`), big);
  return root;
}

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'load', version: '1' } } };
const call = (id, topic, subject) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'learn', arguments: { topic, subjects: [subject] } } })}\n`;

class Server {
  constructor(root, { read = true } = {}) {
    this.child = spawn(BIN, ['mcp'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, HOME: root } });
    this.child.stdin.on('error', () => {});
    this.err = '';
    this.child.stderr.on('data', (d) => (this.err += d));
    this.waiting = new Map();
    this.partial = '';
    this.exited = new Promise((r) => this.child.on('close', (code, signal) => r({ code, signal })));
    this.child.stdout.on('data', (d) => {
      const lines = (this.partial + d.toString('utf8')).split('\n');
      this.partial = lines.pop();
      for (const l of lines) {
        if (l === '') continue;
        const id = JSON.parse(l).id;
        const w = this.waiting.get(id);
        this.waiting.delete(id);
        w?.(performance.now());
      }
    });
    if (!read) this.child.stdout.pause();
  }
  /** Writes a request; resolves with its latency (ms). */
  request(id, line) {
    const t = performance.now();
    const done = new Promise((r) => this.waiting.set(id, (at) => r(at - t)));
    this.child.stdin.write(line);
    return done;
  }
  peak() {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : Number.NaN;
  }
}

function summary(latencies) {
  const s = [...latencies].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms`;
}

const mib = (n) => `${(n / MiB).toFixed(0)} MiB`;

async function sequential(root) {
  const s = new Server(root);
  await s.request(0, `${JSON.stringify(INIT)}\n`);
  const lat = [];
  const t0 = performance.now();
  for (let i = 1; i <= CALLS; i++) lat.push(await s.request(i, call(i, 't', `s${i % 200}`)));
  const total = performance.now() - t0;
  const peak = s.peak();
  s.child.stdin.end();
  await s.exited;
  console.log(`sequential: ${CALLS} calls in ${(total / 1000).toFixed(1)} s; ${summary(lat)}; peak RSS ${mib(peak)}`);
}

async function pipelined(root) {
  const s = new Server(root);
  await s.request(0, `${JSON.stringify(INIT)}\n`);
  const t0 = performance.now();
  const all = [];
  for (let i = 1; i <= CALLS; i++) all.push(s.request(i, call(i, 't', `s${i % 200}`)));
  const lat = await Promise.all(all);
  const total = performance.now() - t0;
  const peak = s.peak();
  s.child.stdin.end();
  await s.exited;
  console.log(`pipelined:  ${CALLS} calls in ${(total / 1000).toFixed(1)} s; ${summary(lat)}; peak RSS ${mib(peak)}`);
}

async function unread(root) {
  const s = new Server(root, { read: false });
  s.child.stdin.write(`${JSON.stringify(INIT)}\n`);
  let written = 0;
  for (let i = 1; i <= CALLS; i++) s.child.stdin.write(call(i, 'big', `b${i % 8}`), () => written++);
  // Wait until the server stops taking requests (the pipe fills).
  let last = -1;
  while (written !== last) {
    last = written;
    await new Promise((r) => setTimeout(r, 1500));
  }
  const peak = s.peak();
  s.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 200));
  const t = performance.now();
  s.child.kill('SIGTERM');
  const { code } = await s.exited;
  const exitMs = performance.now() - t;
  console.log(
    `unread:     ${CALLS} calls of 1 MiB written, stdout never read: no reply is read, so no latency; ` +
      `peak RSS ${mib(peak)}; second SIGTERM: exit ${code} after ${exitMs.toFixed(0)} ms`,
  );
  if (s.err) console.log(`  kb mcp said: ${s.err.trim().split('\n').slice(-1)[0]}`);
}

const root = workspace();
try {
  await sequential(root);
  await pipelined(root);
  await unread(root);
} finally {
  rmSync(root, { recursive: true, force: true });
}
