// Hardening: `kb mcp --http` (dist/kb) against hostile and broken clients.
// Each is answered with the right status, within bounded time and memory,
// and other clients keep being served: slow headers and bodies
// (slowloris), many clients, huge headers and bodies, invalid JSON, wrong
// content types, missing or wrong tokens, foreign Origins, headers that
// contradict the body, HTTP/1.0 and pipelined requests, too many requests
// at once, sessions left idle, errors that would show what the server holds.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, fixture, isolatedEnv as env, RFD_CONFIG, RFD_FILES, run, BINARY } from '../e2e/harness.ts';
import { type HttpServer, modernRequest, openSockets, peakRssMiB, post, raw, startHttp, TOKEN } from '../support/mcp-http.ts';

const root = fixture(RFD_FILES, RFD_CONFIG);
let server: HttpServer;

beforeAll(async () => {
  server = await startHttp([BIN], root, ['--timeout', '1', '--idle', '1'], env(root, { KB_MCP_TOKEN: TOKEN }));
}, 30_000);
afterAll(async () => {
  expect(await server.stop()).toBe(0);
}, 30_000);

const AUTH = { authorization: `Bearer ${TOKEN}` };

/** The server still answers, at once. (On a connection of its own: one
 *  kept from an earlier call may be the one the server's 1 s idle limit
 *  closes as it is reused.) */
async function stillServes(): Promise<void> {
  const started = Date.now();
  const r = await post(server.url, 99, 'tools/list', {}, { ...AUTH, connection: 'close' });
  expect(r.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(2000);
}

function statusOf(text: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
}

/** A raw POST of `body` with these headers. */
function rawPost(body: string, headers: Record<string, string>, version = '1.1'): string {
  const lines = Object.entries({ host: '127.0.0.1', 'content-length': String(Buffer.byteLength(body)), ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `POST /mcp HTTP/${version}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

describe('slow clients (slowloris)', () => {
  test('headers sent a line at a time: the connection is closed after --timeout; others are served meanwhile', async () => {
    const started = Date.now();
    const slow = new Promise<number>((resolve) => {
      const s = connect(server.port, '127.0.0.1');
      s.write('POST /mcp HTTP/1.1\r\nHost: x\r\n');
      const tick = setInterval(() => s.write('X-Slow: y\r\n'), 100);
      s.on('close', () => {
        clearInterval(tick);
        resolve(Date.now() - started);
      });
      s.on('error', () => {});
    });
    await stillServes();
    const ms = await slow;
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5000);
  }, 60_000);

  test('a body sent slowly: 408 after --timeout, and the connection ends', async () => {
    const r = modernRequest(1, 'tools/list');
    const head = rawPost(r.body, { ...r.headers, ...AUTH });
    const cut = head.length - r.body.length + 10;
    const answer = raw(server.port, head.slice(0, cut), 6000);
    await stillServes();
    const { text, closed, ms } = await answer;
    expect(statusOf(text)).toBe(408);
    expect(closed).toBe(true);
    expect(ms).toBeLessThan(5000);
  }, 60_000);

  test('an idle keep-alive connection is closed after --timeout', async () => {
    const r = modernRequest(1, 'tools/list');
    const { text, closed, ms } = await raw(server.port, rawPost(r.body, { ...r.headers, ...AUTH }), 6000);
    expect(statusOf(text)).toBe(200);
    expect(closed).toBe(true);
    expect(ms).toBeLessThan(5000);
  }, 60_000);
});

describe('size', () => {
  test('huge headers: 431; the server serves on', async () => {
    const { text } = await raw(server.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    expect(statusOf(text)).toBe(431);
    await stillServes();
  }, 60_000);

  test('a 64 MiB body, declared or chunked: 413 (the rest of a chunked one read at most 8 MiB or 2 s further and dropped, so that the client gets the answer); memory stays bounded; the server serves on', async () => {
    const r = modernRequest(1, 'tools/list');
    const declared = await raw(server.port, `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n${'x'.repeat(1024)}`);
    expect(statusOf(declared.text)).toBe(413);
    expect(declared.closed).toBe(true);
    // Chunked: no length said; 64 MiB sent as fast as it is taken.
    const chunked = await new Promise<string>((resolve) => {
      const s = connect(server.port, '127.0.0.1');
      let text = '';
      let sent = 0;
      const chunk = `100000\r\n${'x'.repeat(0x100000)}\r\n`;
      const pump = () => {
        while (sent < 64 && s.writable) {
          sent++;
          if (!s.write(chunk)) return void s.once('drain', pump);
        }
      };
      s.on('data', (d) => (text += d.toString()));
      s.on('close', () => resolve(text));
      s.on('error', () => {});
      s.write(`POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${Object.entries({ ...r.headers, ...AUTH }).filter(([k]) => k !== 'content-type').map(([k, v]) => `${k}: ${v}\r\n`).join('')}Transfer-Encoding: chunked\r\n\r\n`);
      pump();
    });
    expect(statusOf(chunked)).toBe(413);
    expect(peakRssMiB(server.proc.pid!)).toBeLessThan(300);
    await stillServes();
  }, 60_000);
});

describe('what a client sends', () => {
  test('invalid JSON: 400, parse error without id; wrong content type: 415; an Accept of neither: 406', async () => {
    const h = { ...modernRequest(1, 'tools/list').headers, ...AUTH };
    const bad = await fetch(server.url, { method: 'POST', headers: h, body: '{"jsonrpc":"2.0",' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'parse error: the body is not JSON' } });
    const form = await fetch(server.url, { method: 'POST', headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' });
    expect(form.status).toBe(415);
    const html = await fetch(server.url, { method: 'POST', headers: { ...h, accept: 'text/html' }, body: modernRequest(1, 'tools/list').body });
    expect(html.status).toBe(406);
    const get = await fetch(server.url, { headers: AUTH });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, DELETE');
    expect((await fetch(server.url.replace('/mcp', '/nope'), { headers: AUTH })).status).toBe(404);
  }, 60_000);

  test('no token, a wrong one, another scheme: 401 with WWW-Authenticate; /healthz needs none', async () => {
    const r = modernRequest(1, 'tools/list');
    const none = await fetch(server.url, { method: 'POST', headers: r.headers, body: r.body });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="kb"');
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, 'Bearer ']) {
      const wrong = await fetch(server.url, { method: 'POST', headers: { ...r.headers, authorization }, body: r.body });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="kb", error="invalid_token"');
      expect(await wrong.text()).not.toContain(TOKEN.slice(0, 8));
    }
    expect((await fetch(server.url.replace('/mcp', '/healthz'))).status).toBe(200);
  }, 60_000);

  test('a foreign Origin: 403 (DNS rebinding); a page of a loopback host is let in', async () => {
    const r = modernRequest(1, 'tools/list');
    for (const origin of ['http://evil.example', 'http://127.0.0.1.evil.example', 'null', 'file://', 'http://localhost.evil.example:8080']) {
      const res = await fetch(server.url, { method: 'POST', headers: { ...r.headers, ...AUTH, origin }, body: r.body });
      expect(res.status).toBe(403);
    }
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      const res = await fetch(server.url, { method: 'POST', headers: { ...r.headers, ...AUTH, origin }, body: r.body });
      expect(res.status).toBe(200);
    }
  }, 60_000);

  test('headers that contradict the body: 400 HeaderMismatch (-32020) with the id; base64 Mcp-Name is decoded', async () => {
    const call = modernRequest(5, 'tools/call', { name: 'learn', arguments: { topic: 'project' } });
    const send = (headers: Record<string, string | undefined>, body = call.body) => {
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries({ ...call.headers, ...AUTH, ...headers })) if (v !== undefined) h[k] = v;
      return fetch(server.url, { method: 'POST', headers: h, body });
    };
    for (const headers of [{ 'mcp-method': 'tools/list' }, { 'mcp-method': undefined }, { 'mcp-name': 'search' }, { 'mcp-name': undefined }, { 'mcp-protocol-version': undefined }, { 'mcp-name': '=?base64?%%%?=' }]) {
      const res = await send(headers);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.id).toBe(5);
      expect(body.error.code).toBe(-32020);
    }
    expect((await send({ 'mcp-name': `=?base64?${Buffer.from('learn').toString('base64')}?=` })).status).toBe(200);
    // A version kb does not speak: 400, -32022, with the versions it does.
    const old = await send({ 'mcp-protocol-version': '2099-01-01' }, call.body.replaceAll('2026-07-28', '2099-01-01'));
    expect(old.status).toBe(400);
    expect((await old.json()).error.data.supported).toContain('2026-07-28');
    // A method kb does not serve: 404, -32601.
    const m = modernRequest(6, 'nope/nope');
    const missing = await fetch(server.url, { method: 'POST', headers: { ...m.headers, ...AUTH }, body: m.body });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe(-32601);
  }, 60_000);

  test('HTTP/1.0 is answered and closed; pipelined requests are answered in order', async () => {
    const r = modernRequest(1, 'tools/list');
    const old = await raw(server.port, rawPost(r.body, { ...r.headers, ...AUTH }, '1.0'));
    expect(statusOf(old.text)).toBe(200);
    expect(old.closed).toBe(true);
    const a = modernRequest(1, 'tools/list');
    const b = modernRequest(2, 'prompts/list');
    const piped = await raw(server.port, rawPost(a.body, { ...a.headers, ...AUTH }) + rawPost(b.body, { ...b.headers, ...AUTH, connection: 'close' }));
    const statuses = [...piped.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    expect(statuses).toEqual(['200', '200']);
    expect(piped.text.indexOf('"id":1')).toBeLessThan(piped.text.indexOf('"id":2'));
  }, 60_000);
});

describe('many clients', () => {
  test('past 32 requests at once from one address: 429; past 64 in all: 503; each with Retry-After; served again after', async () => {
    const r = modernRequest(1, 'tools/list');
    const head = rawPost(r.body, { ...r.headers, ...AUTH });
    const partial = head.slice(0, head.length - 5);
    // A server of its own: the held requests must outlast the probes.
    const s = await startHttp([BIN], root, ['--timeout', '4'], env(root, { KB_MCP_TOKEN: TOKEN }));
    try {
      const from = (address: string, n: number) => Array.from({ length: n }, () => raw(s.port, partial, 8000, address));
      const holders = [...from('127.0.0.2', 32), ...from('127.0.0.3', 32)];
      await new Promise((r) => setTimeout(r, 500));
      const [perClient, total] = await Promise.all([raw(s.port, head, 2000, '127.0.0.2'), raw(s.port, head, 2000, '127.0.0.4')]);
      expect(statusOf(perClient.text)).toBe(429);
      expect(perClient.text.toLowerCase()).toContain('retry-after: 1');
      expect(statusOf(total.text)).toBe(503);
      // The held requests time out (408), and the server serves again.
      const held = await Promise.all(holders);
      expect(held.map((h) => statusOf(h.text))).toEqual(held.map(() => 408));
      expect((await post(s.url, 1, 'tools/list', {}, AUTH)).status).toBe(200);
    } finally {
      await s.stop();
    }
  }, 60_000);

  test('10,000 clients, 500 at a time: each answered or closed, memory bounded, no socket left open', async () => {
    const r = modernRequest(1, 'tools/list');
    const req = rawPost(r.body, { ...r.headers, ...AUTH, connection: 'close' });
    const statuses = new Map<number, number>();
    for (let wave = 0; wave < 20; wave++) {
      const results = await Promise.all(Array.from({ length: 500 }, (_, i) => raw(server.port, i % 2 === 0 ? req : 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 10_000, `127.0.0.${10 + (i % 200)}`)));
      for (const x of results) statuses.set(statusOf(x.text), (statuses.get(statusOf(x.text)) ?? 0) + 1);
      expect(results.every((x) => x.closed)).toBe(true);
    }
    // Each is answered: 200, or 503 (with Retry-After) past 64 at once.
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(5000);
    await stillServes();
    expect(peakRssMiB(server.proc.pid!)).toBeLessThan(300);
    // No socket left open but the listening one, once the keep-alive of
    // stillServes is closed (--timeout 1).
    let open = openSockets(server.proc.pid!);
    for (let i = 0; i < 50 && open > 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      open = openSockets(server.proc.pid!);
    }
    expect(open).toBe(1);
  }, 120_000);
});

describe('sessions and errors', () => {
  test('a 2025-11-25 session unused past --idle expires: 404', async () => {
    const init = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...AUTH }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });
    const sid = init.headers.get('mcp-session-id')!;
    expect(sid).toBeTruthy();
    const again = () => fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25', ...AUTH }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' });
    expect((await again()).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2600));
    expect((await again()).status).toBe(404);
    // Without a session: 400.
    expect((await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...AUTH }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' })).status).toBe(400);
  }, 60_000);

  test('an internal error names no path, file or configuration over HTTP; stderr says it all', async () => {
    const broken = fixture(RFD_FILES, RFD_CONFIG);
    const s = await startHttp([BIN], broken, [], env(broken));
    try {
      writeFileSync(join(broken, '.jp/config.toml'), '[kb.topic.project]\nsubjects = 3\nsecret = "hunter2\n');
      const r = await post(s.url, 1, 'tools/list');
      expect(r.json.error.code).toBe(-32603);
      expect(JSON.stringify(r.json)).not.toMatch(/config\.toml|hunter2|\/tmp|\//);
      for (let i = 0; i < 50 && !s.stderr().includes('config.toml'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(s.stderr()).toContain('internal error answered over HTTP');
      expect(s.stderr()).toContain('config.toml');
    } finally {
      await s.stop();
    }
  }, 60_000);

  test('a non-loopback address without a token is refused (exit 2) unless --insecure; a short token is refused', () => {
    const refused = run(BINARY, root, ['mcp', '--http', '0.0.0.0:0']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('is not a loopback address, and no token is set');
    const short = run(BINARY, root, ['mcp', '--http', '0'], { env: { KB_MCP_TOKEN: 'short' } });
    expect(short.code).toBe(2);
    expect(short.err).toContain('KB_MCP_TOKEN: the token is 5 characters long');
    const stray = run(BINARY, root, ['mcp', '--insecure']);
    expect(stray.code).toBe(2);
    expect(stray.err).toContain('--insecure is an option of kb mcp --http');
  }, 60_000);
});
