#!/usr/bin/env node
// Latency of a long `kb mcp` session on a real-sized topic: N sequential
// exact loads (random subjects), N/10 sequential listings and N/10
// sequential searches (words of the slugs), each sent
// when the previous reply came, then a burst of N exact loads written at
// once; p50 and p99 per kind, and the server's peak RSS over all of it
// (Linux: VmHWM from /proc).
//
//   node scripts/mcp-latency.mjs --workspace DIR --topic ID [--bin dist/kb] [--calls 2000]
//
// The benchmark runs it on its 10,000-subject workspace (npm run bench).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);

export async function mcpLatency({ bin, workspace, topic, calls }) {
  const child = spawn(bin, ['mcp'], { cwd: workspace, stdio: ['pipe', 'pipe', 'ignore'] });
  let buf = '';
  const waiting = new Map();
  child.stdout.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const msg = JSON.parse(line);
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((res) => {
      const n = ++id;
      waiting.set(n, res);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'latency', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  // The subjects, from resources/list (every page).
  const slugs = [];
  let cursor;
  do {
    const page = (await request('resources/list', cursor ? { cursor } : {})).result;
    for (const r of page.resources) if (r.name.startsWith(`${topic}/`)) slugs.push(r.name.slice(topic.length + 1));
    cursor = page.nextCursor;
  } while (cursor);
  let seed = 1;
  const pick = () => slugs[(seed = (seed * 1103515245 + 12345) % 2147483648) % slugs.length];
  const time = async (n, args, tool = 'learn') => {
    const ms = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const reply = await request('tools/call', { name: tool, arguments: args() });
      if (reply.error) throw new Error(JSON.stringify(reply.error));
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    return { p50: ms[Math.floor(ms.length * 0.5)], p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] };
  };
  const exact = await time(calls, () => ({ topic, subjects: [pick()] }));
  const listing = await time(Math.max(10, Math.round(calls / 10)), () => ({ topic }));
  // Searches: one or two words of the subjects' slugs.
  const words = [...new Set(slugs.flatMap((s) => s.split(/[^a-z]+/)).filter((w) => w.length >= 3))].sort();
  const word = () => words[(seed = (seed * 1103515245 + 12345) % 2147483648) % words.length];
  const search = await time(Math.max(10, Math.round(calls / 10)), () => ({ query: seed % 2 ? word() : `${word()} ${word()}`, topic }), 'search');
  // A burst: `calls` exact loads written at once.
  const t0 = performance.now();
  const burstMs = await Promise.all(
    Array.from({ length: calls }, () => request('tools/call', { name: 'learn', arguments: { topic, subjects: [pick()] } }).then(() => performance.now() - t0)),
  );
  burstMs.sort((a, b) => a - b);
  const burst = { p50: burstMs[Math.floor(burstMs.length * 0.5)], p99: burstMs[Math.min(burstMs.length - 1, Math.floor(burstMs.length * 0.99))] };
  let peakKiB = null;
  try {
    peakKiB = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
  } catch {
    // Not Linux.
  }
  child.stdin.end();
  await new Promise((r) => child.on('exit', r));
  return { subjects: slugs.length, exact, listing, search, burst, peakKiB };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await mcpLatency({
    bin: resolve(opt('--bin', 'dist/kb')),
    workspace: resolve(opt('--workspace', '.')),
    topic: opt('--topic', 'docs'),
    calls: Number(opt('--calls', '2000')),
  });
  const f = (x) => x.toFixed(2);
  console.log(`${r.subjects} subjects; exact load p50 ${f(r.exact.p50)} ms, p99 ${f(r.exact.p99)} ms; listing p50 ${f(r.listing.p50)} ms, p99 ${f(r.listing.p99)} ms; search p50 ${f(r.search.p50)} ms, p99 ${f(r.search.p99)} ms; burst of ${Number(opt('--calls', '2000'))} p50 ${f(r.burst.p50)} ms, p99 ${f(r.burst.p99)} ms; peak RSS ${r.peakKiB === null ? '?' : `${(r.peakKiB / 1024).toFixed(1)} MiB`}`);
}
