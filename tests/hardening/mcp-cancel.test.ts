// Cancellation in `kb mcp`, end to end on dist/kb: a running call that the
// client cancels sends no reply and stops its work (the server says so
// under --verbose: "its work stopped"), and pings are answered while a
// first search indexes a large topic. Orders, not times, are asserted
// (the machine may be loaded): a ping sent during the search is answered
// before the search ends.
import { afterAll, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedEnv } from '../e2e/harness.ts';
import { BIN } from './helpers.ts';

const root = mkdtempSync(join(tmpdir(), 'kb-mcp-cancel-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A topic of `n` files of about 50 KB of words. */
function bigTopic(n: number): void {
  mkdirSync(join(root, '.jp'), { recursive: true });
  mkdirSync(join(root, 'notes'), { recursive: true });
  writeFileSync(join(root, '.jp/config.toml'), '[kb.topic.notes]\nsubjects = "notes"\n');
  const words = 'alpha beta gamma delta release build index query ranking cancel server client topic subject'.split(' ');
  let seed = 1;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  for (let i = 0; i < n; i++) {
    const parts = [`# Note ${i}\n\n`];
    for (let k = 0; k < 8000; k++) parts.push(`${words[next() % words.length]}${next() % 7}${k % 20 === 19 ? '\n' : ' '}`);
    writeFileSync(join(root, `notes/n${String(i).padStart(4, '0')}.md`), parts.join(''));
  }
}
bigTopic(600);

interface Seen {
  /** Reply ids in the order they came. */
  ids: unknown[];
  err: string;
}

/** Runs `kb mcp --verbose`: initialize, then `call` as request 2; `then`
 *  sends more once request 2 was sent (given `send`); stdin closes once
 *  the reply of id `last` came. `--no-cache`: every search indexes the
 *  topic (an index an earlier test cached would be read in tens of
 *  milliseconds, and a search could end before it is cancelled). */
function drive(call: object, then: (send: (m: object) => void) => void, last: number): Promise<Seen> {
  const child = spawn(BIN, ['mcp', '--max-tokens', '0', '--verbose', '--no-cache'], { cwd: root, env: isolatedEnv(root), stdio: ['pipe', 'pipe', 'pipe'] });
  const seen: Seen = { ids: [], err: '' };
  const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  let buf = '';
  child.stderr.on('data', (d) => (seen.err += d));
  child.stdout.on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const m = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      seen.ids.push(m.id);
      if (m.id === 1) {
        send({ method: 'notifications/initialized' });
        send({ id: 2, method: 'tools/call', params: call });
        then(send);
      }
      if (m.id === last) child.stdin.end();
    }
  });
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  return new Promise((resolve) => child.on('exit', () => resolve(seen)));
}

const search = { name: 'search', arguments: { query: 'ranking cancel' } };

test('a ping during a first search over a large topic is answered before the search ends', async () => {
  const seen = await drive(search, (send) => setTimeout(() => send({ id: 3, method: 'ping' }), 50), 2);
  expect(seen.ids).toEqual([1, 3, 2]);
}, 60_000);

test('a search cancelled while it indexes sends no reply, and stops its work', async () => {
  const seen = await drive(
    search,
    (send) => {
      setTimeout(() => send({ method: 'notifications/cancelled', params: { requestId: 2, reason: 'not needed' } }), 50);
      setTimeout(() => send({ id: 3, method: 'ping' }), 100);
    },
    3,
  );
  expect(seen.ids).toEqual([1, 3]);
  expect(seen.err).toMatch(/request 2 \(tools\/call\) was cancelled; its work stopped after \d+ ms and \d+ steps; no reply/);
}, 60_000);

test('a learn cancelled as it is sent sends no reply and is not run', async () => {
  const learn = { name: 'learn', arguments: { topic: 'notes', subjects: '**' } };
  // Cancelled as soon as it is sent: it is read in the same turn or the
  // next, while the load has not started or runs.
  const seen = await drive(learn, (send) => {
    send({ method: 'notifications/cancelled', params: { requestId: 2 } });
    send({ id: 3, method: 'ping' });
  }, 3);
  expect(seen.ids).toEqual([1, 3]);
}, 60_000);

/** A workspace whose topic "bin" holds `n` binary files of 8 KiB: a `**`
 *  learn reads every one whole (a binary's first 8192 bytes are read to
 *  tell it is one) and loads none, so nothing fills the result and the
 *  reading is all its work: 12,800 of them are 100 MiB read. */
function binaryTopic(n: number): string {
  const at = mkdtempSync(join(tmpdir(), 'kb-mcp-cancel-bin-'));
  mkdirSync(join(at, '.jp'));
  mkdirSync(join(at, 'bin'));
  writeFileSync(join(at, '.jp/config.toml'), '[kb.topic.bin]\nsubjects = "bin"\n');
  const bytes = new Uint8Array(8192);
  for (let i = 0; i < n; i++) {
    bytes.fill(97 + (i % 26));
    bytes[100] = 0;
    writeFileSync(join(at, `bin/f${String(i).padStart(5, '0')}.dat`), bytes);
  }
  return at;
}

/** Bytes the process has read so far (Linux), or undefined. */
function bytesRead(pid: number): number | undefined {
  try {
    return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

test('a learn of 100 MiB cancelled while it reads stops reading, and sends no reply', async () => {
  const N = 12_800;
  const at = binaryTopic(N);
  try {
    const child = spawn(BIN, ['mcp', '--max-tokens', '0', '--verbose'], { cwd: at, env: isolatedEnv(at), stdio: ['pipe', 'pipe', 'pipe'] });
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    const ids: unknown[] = [];
    let err = '';
    let cancelled = false;
    let read: number | undefined;
    child.stderr.on('data', (d) => {
      err += d;
      // Request 3 runs (the topic was walked by request 2): cancel it,
      // then ping, and list the prompts (queued behind request 3, so its
      // reply comes only once request 3 has ended; it reads no file).
      if (!cancelled && err.includes('request 3 (tools/call) started')) {
        cancelled = true;
        send({ method: 'notifications/cancelled', params: { requestId: 3, reason: 'not needed' } });
        send({ id: 4, method: 'ping' });
        send({ id: 5, method: 'prompts/list' });
      }
    });
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const m = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        ids.push(m.id);
        if (m.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/call', params: { name: 'learn', arguments: { topic: 'bin', subjects: ['f00000'] } } });
        }
        if (m.id === 2) send({ id: 3, method: 'tools/call', params: { name: 'learn', arguments: { topic: 'bin', subjects: '**' } } });
        if (m.id === 5) {
          read = bytesRead(child.pid!);
          child.stdin.end();
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    await new Promise((resolve) => child.on('exit', resolve));
    expect(ids).toEqual([1, 2, 4, 5]);
    const stopped = /request 3 \(tools\/call\) was cancelled; its work stopped after \d+ ms and (\d+) steps; no reply/.exec(err);
    expect(stopped).not.toBeNull();
    // A step is a file read: it stopped before the last.
    expect(Number(stopped![1])).toBeLessThan(N);
    // Where the system says (Linux): everything the server read, the
    // walk and the first learn included, is well below the 100 MiB the
    // whole learn reads.
    if (read !== undefined) expect(read).toBeLessThan(50 * 1024 * 1024);
  } finally {
    rmSync(at, { recursive: true, force: true });
  }
}, 60_000);
