// End-to-end: `kb mcp --http` (dist/kb) driven by the official SDKs' HTTP
// clients: SDK 1.x (StreamableHTTPClientTransport, protocol 2025-11-25
// with a session) and SDK 2.x (protocol 2026-07-28, stateless, pinned and
// by its own server/discover probe). Every reply is checked against the
// official schema of its revision (mcp-client.ts checkReplies); answers are
// compared with what the CLI prints. Then what a server operator sees: the
// token, /healthz, --verbose, SIGTERM, subscriptions/listen as a stream,
// and two replicas behind a proxy answering alike.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createServer, request as httpRequest } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { checkReplies, text } from './mcp-client.ts';
import { BIN, BINARY, fixture, isolatedEnv as env, RFD_CONFIG, RFD_FILES, run } from './harness.ts';
import { type HttpServer, modernRequest, post, startHttp, TOKEN } from '../support/mcp-http.ts';

const auth = { headers: { authorization: `Bearer ${TOKEN}` } };

describe('kb mcp --http with the SDK 1.x client (2025-11-25, a session)', () => {
  const root = fixture(RFD_FILES, RFD_CONFIG);
  const cli = (...args: string[]) => run(BINARY, root, args);
  let server: HttpServer;

  beforeAll(async () => {
    server = await startHttp([BIN], root, ['--write', 'project'], env(root, { KB_MCP_TOKEN: TOKEN }));
  }, 30_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  }, 30_000);

  test('tools, prompts and resources as on stdio; every reply valid; DELETE ends the session', async () => {
    const transport = new HttpV1(new URL(server.url), { requestInit: auth });
    const checker = checkReplies(transport);
    const client = new ClientV1({ name: 'kb-e2e-http', version: '1.0.0' });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()?.name).toBe('kb');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['learn', 'search', 'remember', 'revise', 'forget']);
    expect(text(await client.callTool({ name: 'learn', arguments: { topic: 'project', subjects: ['**'] } }))).toBe(cli('learn', 'project', '**').out);
    expect(text(await client.callTool({ name: 'search', arguments: { query: 'maintainers' } }))).toBe(cli('search', '--args', '{"query":"maintainers"}').out);
    const prompt = await client.getPrompt({ name: 'knowledge', arguments: {} });
    expect((prompt.messages[0].content as { text: string }).text).toBe(cli('prompt').out);
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource({ uri: resources[0].uri });
    expect(read.contents).toHaveLength(1);
    expect(checker.problems).toEqual([]);
    // DELETE ends it: the next request of that session is 404.
    const sid = transport.sessionId!;
    await transport.terminateSession();
    const after = await fetch(server.url, { method: 'POST', headers: { ...auth.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid }, body: '{"jsonrpc":"2.0","id":9,"method":"tools/list"}' });
    expect(after.status).toBe(404);
    await client.close();
  }, 60_000);

  test('two clients, two sessions, each its own protocol version', async () => {
    const a = new ClientV1({ name: 'a', version: '1' });
    const b = new ClientV1({ name: 'b', version: '1' });
    const ta = new HttpV1(new URL(server.url), { requestInit: auth });
    const tb = new HttpV1(new URL(server.url), { requestInit: auth });
    await Promise.all([a.connect(ta), b.connect(tb)]);
    expect(ta.sessionId).not.toBe(tb.sessionId);
    const [la, lb] = await Promise.all([a.listTools(), b.listTools()]);
    expect(la).toEqual(lb);
    await Promise.all([a.close(), b.close()]);
  }, 60_000);

  test('without the token: 401 with WWW-Authenticate; the SDK client fails to connect', async () => {
    const client = new ClientV1({ name: 'no-token', version: '1' });
    await expect(client.connect(new HttpV1(new URL(server.url)))).rejects.toThrow();
    const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong-token-0123456789' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="kb", error="invalid_token"');
    // /healthz needs no token.
    expect((await fetch(server.url.replace('/mcp', '/healthz'))).status).toBe(200);
  }, 60_000);
});

describe('kb mcp --http with the SDK 2.x client (2026-07-28, stateless)', () => {
  const root = fixture({ ...RFD_FILES, '.jp/kb/skills/ast-grep/SKILL.md': '---\nname: ast-grep\ndescription: Search code by its syntax tree.\n---\nUse sg.\n' }, RFD_CONFIG);
  const cli = (...args: string[]) => run(BINARY, root, args);
  let server: HttpServer;

  beforeAll(async () => {
    server = await startHttp([BIN], root, ['--verbose'], env(root));
  }, 30_000);
  afterAll(async () => {
    await server.stop();
  }, 30_000);

  for (const mode of [{ pin: '2026-07-28' }, 'auto'] as const) {
    test(`every kind of request, ${typeof mode === 'string' ? 'negotiated by its server/discover probe' : 'pinned'}; every reply valid`, async () => {
      const transport = new HttpV2(new URL(server.url));
      const checker = checkReplies(transport);
      const client = new ClientV2({ name: 'kb-e2e-http-v2', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      // Stateless: no session.
      expect(transport.sessionId).toBeUndefined();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['learn', 'search']);
      expect(text(await client.callTool({ name: 'learn', arguments: { topic: 'project', subjects: ['**'] } }))).toBe(cli('learn', 'project', '**').out);
      expect(text(await client.callTool({ name: 'learn', arguments: { topic: 'skills', subjects: 'ast-grep' } }))).toBe(cli('learn', 'skills', 'ast-grep').out);
      const { resources } = await client.listResources();
      const uri = resources.find((r) => r.uri.startsWith('kb://project/'))!.uri;
      expect((await client.readResource({ uri })).contents).toHaveLength(1);
      const prompt = await client.getPrompt({ name: 'knowledge', arguments: {} });
      expect((prompt.messages[0].content as { text: string }).text).toBe(cli('prompt').out);
      const done = await client.complete({ ref: { type: 'ref/resource', uri: 'kb://{topic}/{+slug}' }, argument: { name: 'topic', value: 'sk' } });
      expect(done.completion.values).toEqual(['skills']);
      expect(checker.problems).toEqual([]);
      await client.close();
    }, 60_000);
  }

  test('--verbose: one line per request on stderr, with its status and Mcp-Method', async () => {
    await post(server.url, 1, 'tools/list');
    await new Promise((r) => setTimeout(r, 100));
    expect(server.stderr()).toMatch(/kb mcp: 127\.0\.0\.1 POST "\/mcp" 200 [\d.]+ ms "tools\/list"/);
  }, 60_000);

  test('an SSE reply when the client takes only text/event-stream; subscriptions/listen streams file changes', async () => {
    const r = modernRequest(1, 'tools/list');
    const res = await fetch(server.url, { method: 'POST', headers: { ...r.headers, accept: 'text/event-stream' }, body: r.body });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = (await res.text()).split('\n\n').filter((e) => e !== '');
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].replace(/^event: message\ndata: /, '')).result.tools.length).toBe(2);

    const listen = modernRequest(7, 'subscriptions/listen', { notifications: { resourcesListChanged: true } });
    const ac = new AbortController();
    const stream = await fetch(server.url, { method: 'POST', headers: listen.headers, body: listen.body, signal: ac.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    const reader = stream.body!.getReader();
    let seen = '';
    const until = async (what: string) => {
      while (!seen.includes(what)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${what}: ${seen}`);
        seen += new TextDecoder().decode(value);
      }
    };
    await until('notifications/subscriptions/acknowledged');
    writeFileSync(join(root, '.jp/kb/project/appeared.md'), 'New.\n');
    await until('notifications/resources/list_changed');
    ac.abort();
    // Closing the stream ended the subscription: the server serves on.
    expect((await post(server.url, 2, 'tools/list')).status).toBe(200);
  }, 60_000);
});

describe('kb mcp --http: operation', () => {
  test('SIGTERM: a request being read is answered, then the server exits 0; /healthz says ok before', async () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const server = await startHttp([BIN], root, [], env(root));
    expect(await (await fetch(server.url.replace('/mcp', '/healthz'))).text()).toBe('ok\n');
    const r = modernRequest(1, 'tools/call', { name: 'learn', arguments: { topic: 'project', subjects: ['**'] } });
    // Headers and half the body, then SIGTERM, then the rest.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(server.url, { method: 'POST', headers: { ...r.headers, 'content-length': Buffer.byteLength(r.body) } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write(r.body.slice(0, 40));
      setTimeout(() => {
        server.proc.kill('SIGTERM');
        setTimeout(() => req.end(r.body.slice(40)), 300);
      }, 300);
    });
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(body).result.content[0].text).toBe(run(BINARY, root, ['learn', 'project', '**']).out);
    expect(await server.exited).toBe(0);
  }, 60_000);

  test('two replicas behind a proxy that alternates answer alike, pages of resources/list included', async () => {
    const files: Record<string, string> = { ...RFD_FILES };
    for (let i = 0; i < 700; i++) files[`.jp/kb/project/many/s${String(i).padStart(4, '0')}.md`] = `Subject ${i}.\n`;
    const root = fixture(files, RFD_CONFIG);
    const [a, b] = await Promise.all([0, 1].map(() => startHttp([BIN], root, [], env(root, { KB_MCP_TOKEN: TOKEN }))));
    let turn = 0;
    const proxy = createServer((req, res) => {
      const target = [a, b][turn++ % 2];
      const up = httpRequest({ host: '127.0.0.1', port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, { ...r.headers, 'x-replica': String(target.port) });
        r.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/mcp`;
    try {
      const replicas = new Set<string>();
      const ask = async (id: number, method: string, params: Record<string, unknown> = {}) => {
        const r = await post(url, id, method, params, auth.headers);
        replicas.add(r.headers.get('x-replica')!);
        expect(r.status).toBe(200);
        return r.json.result;
      };
      // The same request twice: one answer from each replica, alike.
      for (const [method, params] of [['tools/list', {}], ['tools/call', { name: 'learn', arguments: { topic: 'project', subjects: ['maintainers/*'] } }], ['tools/call', { name: 'search', arguments: { query: 'subject 12' } }], ['resources/read', { uri: 'kb://project/many/s0001' }]] as const) {
        expect(await ask(1, method, params)).toEqual(await ask(2, method, params));
      }
      // A cursor from one replica goes on at the other.
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await ask(3, 'resources/list', cursor === undefined ? {} : { cursor });
        uris.push(...page.resources.map((r: { uri: string }) => r.uri));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(uris.length).toBe(new Set(uris).size);
      expect(uris.filter((u) => u.startsWith('kb://project/many/'))).toHaveLength(700);
      expect(replicas.size).toBe(2);
    } finally {
      proxy.close();
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);
});

describe('kb mcp --http: order (the quick and the heavy lane)', () => {
  test('an exact learn sent while a search builds its index is answered before the search', async () => {
    // 8,000 subjects of prose: the first search builds the topic's index
    // (hundreds of ms, more on a loaded machine); an exact learn takes a
    // few ms.
    const words = 'release build deploy review merge branch commit tag note plan test docs ship fix'.split(' ');
    const files: Record<string, string> = {};
    for (let i = 0; i < 8000; i++) files[`big/d${i % 40}/s${i}.md`] = `# Subject ${i}\n\n${Array.from({ length: 60 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ')}\n`;
    const root = fixture(files, '[kb.topic.big]\nsubjects = "big"\n');
    const server = await startHttp([BIN], root, [], env(root, { KB_MCP_TOKEN: TOKEN }));
    try {
      const order: string[] = [];
      const search = post(server.url, 1, 'tools/call', { name: 'search', arguments: { query: 'release review' } }, auth.headers).then((r) => (order.push('search'), r));
      // The search has started (it was read first, and the heavy lane was free).
      await new Promise((r) => setTimeout(r, 30));
      const learn = await post(server.url, 2, 'tools/call', { name: 'learn', arguments: { topic: 'big', subjects: ['d7/s7'] } }, auth.headers);
      order.push('learn');
      expect(learn.json.result.content[0].text).toContain('Subject 7');
      const found = await search;
      expect(found.json.result.isError).toBe(false);
      expect(order).toEqual(['learn', 'search']);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
