// `kb mcp` under protocol 2026-07-28, end to end on dist/kb with a raw
// client: no handshake (every request names its version in `_meta`),
// `server/discover`, what every result carries, the errors of that revision,
// the methods it removed, `subscriptions/listen`, and the stdio probe (a
// client that sends `initialize` is answered as before, whatever came
// first). Every reply is checked against the official schema of the
// revision its request named (tests/support/mcp-schema.ts).
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Message, MODERN_META, RawMcp } from '../support/mcp-raw.ts';
import { cleanup, workspace } from './helpers.ts';

afterAll(cleanup);

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const SUBSCRIPTION_KEY = 'io.modelcontextprotocol/subscriptionId';
const FILES = {
  't/a.md': '---\ntitle: Release Process\n---\nHow we release.\n',
  't/b.txt': 'beta\n',
  't/notes/c.md': '# Architecture Overview\n\nBoxes.\n',
  't/.hidden.md': 'hidden\n',
  't/d.md': 'disabled\n',
  't/logo.png': '\u0089PNG\u0000\u0001',
};
const CONFIG = '[kb.topic.t]\nsubjects = "t"\ndisabled = ["d"]\n\n[kb.topic.u]\nsubjects = "u"\n\n[kb.topic.off]\nenable = false\nsubjects = "u"\n';

function kbWorkspace(): string {
  const root = workspace(FILES, CONFIG);
  mkdirSync(join(root, 'u'));
  writeFileSync(join(root, 'u', 'one.md'), 'one\n');
  return root;
}

/** What 2026-07-28 adds to every result: resultType, and kb's identity. */
function expectModern(reply: Message): void {
  expect(reply.result.resultType).toBe('complete');
  expect(reply.result._meta[SERVER_INFO_KEY]).toEqual({ name: 'kb', title: 'kb knowledge base', version: expect.any(String), description: expect.stringContaining('knowledge base') });
}

describe('protocol 2026-07-28: no handshake', () => {
  test('server/discover: the versions kb speaks, its capabilities, instructions and identity, cacheable', async () => {
    const s = new RawMcp(kbWorkspace(), ['--write', 't']);
    const r = await s.modern(1, 'server/discover');
    expectModern(r);
    expect(r.result.supportedVersions).toEqual(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    expect(r.result.capabilities).toEqual({ tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: true, subscribe: true }, completions: {}, extensions: { 'io.modelcontextprotocol/skills': {} } });
    expect(r.result.instructions).toContain('`learn` tool');
    expect(r.result.instructions).toContain('`remember` tool');
    expect([r.result.ttlMs, r.result.cacheScope]).toEqual([3_600_000, 'public']);
    expect(await s.close()).toBe(0);
    expect(s.schema.problems).toEqual([]);
  }, 30_000);

  test('every method, no initialize: each result has resultType and serverInfo; lists and reads have cache hints', async () => {
    const s = new RawMcp(kbWorkspace(), ['--write', 't']);
    const hints: Record<string, [number, string]> = {};
    let id = 0;
    const call = async (method: string, params: Record<string, unknown> = {}) => {
      const r = await s.modern(++id, method, params);
      expect([method, r.error]).toEqual([method, undefined]);
      expectModern(r);
      if ('ttlMs' in r.result) hints[method] = [r.result.ttlMs, r.result.cacheScope];
      return r.result;
    };
    const tools = await call('tools/list');
    // A deterministic order: the same on every call, as the registry has it.
    expect(tools.tools.map((t: { name: string }) => t.name)).toEqual(['learn', 'search', 'remember', 'revise', 'forget']);
    expect((await call('tools/list')).tools).toEqual(tools.tools);
    expect((await call('tools/call', { name: 'learn', arguments: { topic: 't', subjects: 'b' } })).content).toEqual([{ type: 'text', text: 'beta\n' }]);
    expect((await call('tools/call', { name: 'search', arguments: { query: 'release' } })).isError).toBe(false);
    expect((await call('prompts/list')).prompts[0].name).toBe('knowledge');
    expect((await call('prompts/get', { name: 'knowledge' })).messages[0].content.text).toStartWith('<knowledge>');
    const { resources } = await call('resources/list');
    expect((await call('resources/templates/list')).resourceTemplates[0].uriTemplate).toBe('kb://{topic}/{+slug}');
    expect((await call('resources/read', { uri: 'kb://t/b' })).contents).toEqual([{ uri: 'kb://t/b', mimeType: 'text/plain', text: 'beta\n' }]);
    expect(hints).toEqual({
      'tools/list': [0, 'private'],
      'prompts/list': [3_600_000, 'public'],
      'resources/list': [0, 'private'],
      'resources/templates/list': [3_600_000, 'public'],
      'resources/read': [0, 'private'],
    });
    // The document's title, the file's size and time (legacy: the slug).
    expect(resources.map((r: { uri: string }) => r.uri)).toEqual(['kb://t/a', 'kb://t/b', 'kb://t/notes/c', 'kb://u/one']);
    expect(resources[0]).toEqual({
      uri: 'kb://t/a',
      name: 't/a',
      title: 'Release Process',
      description: 'Subject "a" of topic t',
      mimeType: 'text/markdown',
      size: FILES['t/a.md'].length,
      annotations: { lastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
    });
    expect(resources.map((r: { title: string }) => r.title)).toEqual(['Release Process', 'b', 'Architecture Overview', 'one']);
    expect(await s.close()).toBe(0);
    expect(s.schema.problems).toEqual([]);
  }, 30_000);

  test('completion/complete: topics, then a topic\'s slugs by prefix; hidden, disabled, binary and disabled topics never', async () => {
    const s = new RawMcp(kbWorkspace());
    const template = { type: 'ref/resource', uri: 'kb://{topic}/{+slug}' };
    const prompt = { type: 'ref/prompt', name: 'knowledge' };
    let id = 0;
    const values = async (ref: object, name: string, value: string, context?: Record<string, string>) => {
      const r = await s.modern(++id, 'completion/complete', { ref, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) });
      expectModern(r);
      return r.result.completion;
    };
    expect(await values(template, 'topic', '')).toEqual({ values: ['t', 'u'], total: 2, hasMore: false });
    expect(await values(template, 'slug', '', { topic: 't' })).toEqual({ values: ['a', 'b', 'notes/c'], total: 3, hasMore: false });
    expect(await values(template, 'slug', 'no', { topic: 't' })).toEqual({ values: ['notes/c'], total: 1, hasMore: false });
    expect(await values(template, 'slug', '', { topic: 'off' })).toEqual({ values: [], total: 0, hasMore: false });
    expect(await values(template, 'slug', '')).toEqual({ values: [], total: 0, hasMore: false });
    expect(await values(prompt, 'knowledge', '')).toEqual({ values: ['t/', 'u/'], total: 2, hasMore: false });
    expect(await values(prompt, 'knowledge', 't/a, u')).toEqual({ values: ['t/a, u/'], total: 1, hasMore: false });
    expect(await values(prompt, 'knowledge', 't/a,\nt/')).toEqual({ values: ['t/a,\nt/a', 't/a,\nt/b', 't/a,\nt/notes/c'], total: 3, hasMore: false });
    expect(await values(prompt, 'knowledge', 't/{a,')).toEqual({ values: [], total: 0, hasMore: false });
    const bad = [
      [{ type: 'ref/prompt', name: 'other' }, 'knowledge', 'unknown prompt "other"'],
      [prompt, 'other', 'has no argument "other"'],
      [{ type: 'ref/resource', uri: 'kb://x' }, 'topic', 'no resource template "kb://x"'],
      [template, 'path', 'has no argument "path"'],
      [{ type: 'ref/other' }, 'x', '"ref"."type" must be'],
    ] as const;
    for (const [ref, name, message] of bad) {
      const r = await s.modern(++id, 'completion/complete', { ref, argument: { name, value: '' } });
      expect(r.error.code).toBe(-32602);
      expect(r.error.message).toContain(message);
    }
    const long = await s.modern(++id, 'completion/complete', { ref: template, argument: { name: 'topic', value: 'x'.repeat(5000) } });
    expect(long.error.message).toBe('invalid params: the value to complete is 5000 characters long; at most 4096 are completed');
    expect(await s.close()).toBe(0);
    expect(s.schema.problems).toEqual([]);
  }, 30_000);

  test('at most 100 values, the rest said to be there (hasMore, no total)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 130; i++) files[`t/s${String(i).padStart(3, '0')}.md`] = `${i}\n`;
    const s = new RawMcp(workspace(files, '[kb.topic.t]\nsubjects = "t"\n'));
    const r = await s.modern(1, 'completion/complete', { ref: { type: 'ref/resource', uri: 'kb://{topic}/{+slug}' }, argument: { name: 'slug', value: 's' }, context: { arguments: { topic: 't' } } });
    expect(r.result.completion.values).toHaveLength(100);
    expect(r.result.completion.values[99]).toBe('s099');
    expect(r.result.completion.hasMore).toBe(true);
    expect(r.result.completion.total).toBeUndefined();
    expect(await s.close()).toBe(0);
    expect(s.schema.problems).toEqual([]);
  }, 30_000);
});

describe('protocol 2026-07-28: its errors', () => {
  test('a version kb does not speak: -32022 with the versions it does; no capabilities: -32602; not found: -32602', async () => {
    const s = new RawMcp(kbWorkspace());
    const unknown = await s.request(1, 'tools/list', { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } });
    expect(unknown.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version: "2099-01-01"; kb speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05',
      data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '2099-01-01' },
    });
    const noCaps = await s.request(2, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } });
    expect(noCaps.error.code).toBe(-32602);
    expect(noCaps.error.message).toContain('"io.modelcontextprotocol/clientCapabilities" must be an object');
    const notString = await s.request(3, 'tools/list', { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': 2026 } });
    expect(notString.error.code).toBe(-32602);
    // The same subjects -32002 answers under 2025-11-25 (tests/e2e/mcp.test.ts).
    let id = 10;
    for (const uri of ['kb://t/d', 'kb://t/logo', 'kb://t/nope', 'kb://off/one', 'kb://nope/x']) {
      const r = await s.modern(++id, 'resources/read', { uri });
      expect([uri, r.error.code]).toEqual([uri, -32602]);
      expect(r.error.message).toStartWith(`resource not found: ${uri} (`);
    }
    // A hidden subject is read by its exact URI, as before.
    expect((await s.modern(++id, 'resources/read', { uri: 'kb://t/hidden' })).result.contents[0].text).toBe('hidden\n');
    // What was echoed is cut and escaped.
    const odd = await s.request(++id, 'tools/list', { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': `x\u202e${'y'.repeat(200)}` } });
    expect(odd.error.data.requested).toBe(`x\\u202e${'y'.repeat(98)}…`);
    expect(await s.close()).toBe(0);
    expect(s.schema.problems).toEqual([]);
  }, 30_000);

  test('removed in 2026-07-28: ping, initialize, logging/setLevel, resources/subscribe are -32601; ping is still answered without _meta', async () => {
    const s = new RawMcp(kbWorkspace());
    for (const method of ['ping', 'initialize', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']) {
      const r = await s.modern(method, method, method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } : {});
      expect([method, r.error.code]).toEqual([method, -32601]);
    }
    expect((await s.modern('p', 'ping')).error.message).toBe('method not found: ping (not part of protocol 2026-07-28)');
    expect(await s.request('legacy', 'ping')).toEqual({ jsonrpc: '2.0', id: 'legacy', result: {} });
    // The log level travels in _meta: taken, and kb sends no log message.
    const withLevel = await s.modern('lvl', 'tools/list', { _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } });
    expect(withLevel.result.tools.length).toBeGreaterThan(0);
    expect(await s.close()).toBe(0);
    expect(s.lines.every((m) => m.method === undefined)).toBe(true);
    expect(s.schema.problems).toEqual([]);
  }, 30_000);

  test('a client that opened with 2026-07-28: what cannot be read has its error without an id; a batch is refused', async () => {
    const s = new RawMcp(kbWorkspace());
    await s.modern(1, 'server/discover');
    s.send('{oops');
    s.send([{ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: MODERN_META } }]);
    await s.until(() => s.lines.length >= 3);
    expect(await s.close()).toBe(0);
    expect(s.lines[1]).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.stringMatching(/^parse error/) } });
    expect(s.lines[2]).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'invalid request: batches are not supported' } });
    expect(s.schema.problems).toEqual([]);
  }, 30_000);
});

describe('the stdio probe: server/discover first gets 2026-07-28; initialize gets the legacy revision, unchanged', () => {
  test('a legacy session answers the same, byte for byte, after modern requests in the same process', async () => {
    const legacy: (object | string)[] = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'prompts/list' },
      { jsonrpc: '2.0', id: 4, method: 'resources/list' },
      { jsonrpc: '2.0', id: 5, method: 'resources/templates/list' },
      { jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'kb://t/a' } },
      { jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'kb://t/nope' } },
      { jsonrpc: '2.0', id: 8, method: 'server/discover' },
      { jsonrpc: '2.0', id: 9, method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'knowledge' }, argument: { name: 'knowledge', value: '' } } },
      { jsonrpc: '2.0', id: 10, method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true } } },
      '{oops',
    ];
    const run = async (before: boolean) => {
      const s = new RawMcp(kbWorkspace());
      if (before) {
        expectModern(await s.modern('probe', 'server/discover'));
        expectModern(await s.modern('list', 'resources/list'));
      }
      const init = await s.initialize('2025-11-25');
      const from = s.lines.length;
      s.send(...legacy);
      await s.until(() => s.lines.length >= from + legacy.length);
      expect(await s.close()).toBe(0);
      expect(s.schema.problems).toEqual([]);
      return { init, replies: s.lines.slice(from) };
    };
    const plain = await run(false);
    const probed = await run(true);
    expect(probed).toEqual(plain);
    expect(plain.init.result.protocolVersion).toBe('2025-11-25');
    expect(plain.init.result.serverInfo).toEqual({ name: 'kb', version: expect.any(String) });
    expect(plain.init.result.capabilities).toEqual({ tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false, subscribe: false }, extensions: { 'io.modelcontextprotocol/skills': {} } });
    const byId = new Map(plain.replies.map((m: Message) => [m.id, m]));
    expect(byId.get(4).result.resources[0]).toEqual({ uri: 'kb://t/a', name: 't/a', title: 'a', description: 'Release Process', mimeType: 'text/markdown' });
    expect(byId.get(4).result.resultType).toBeUndefined();
    expect(byId.get(7).error.code).toBe(-32002);
    for (const n of [8, 9, 10]) expect(byId.get(n).error).toEqual({ code: -32601, message: expect.stringMatching(/^method not found: /) });
  }, 60_000);
});

describe('subscriptions/listen', () => {
  /** Waits for a message matching `is`, at most 10 s. */
  const waitFor = async (s: RawMcp, is: (m: Message) => boolean) => {
    await s.until(() => s.lines.some(is), 10_000);
    return s.lines.find(is);
  };
  const tagged = (id: unknown, method: string) => (m: Message) => m.method === method && m.params?._meta?.[SUBSCRIPTION_KEY] === id;

  test('acknowledged with what kb can tell; list changes and updates of named subjects, tagged with the request id; cancelled: no reply', async () => {
    const root = kbWorkspace();
    const s = new RawMcp(root);
    s.send({
      jsonrpc: '2.0',
      id: 'sub',
      method: 'subscriptions/listen',
      params: { _meta: MODERN_META, notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['kb://t/b', 'file:///etc/passwd', 'kb://t/new'] } },
    });
    const ack = await waitFor(s, tagged('sub', 'notifications/subscriptions/acknowledged'));
    expect(ack.params.notifications).toEqual({ resourcesListChanged: true, resourceSubscriptions: ['kb://t/b', 'kb://t/new'] });
    expect(s.err).toContain('subscription "sub" is not told of 1 of the resources it named');
    // Another subscription, for updates of one subject only.
    s.send({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { _meta: MODERN_META, notifications: { resourceSubscriptions: ['kb://u/one'] } } });
    await waitFor(s, tagged(7, 'notifications/subscriptions/acknowledged'));
    // A subject appears: the list changed, and the subject named (not
    // there before) is updated.
    writeFileSync(join(root, 't', 'new.md'), 'new\n');
    await waitFor(s, tagged('sub', 'notifications/resources/list_changed'));
    await waitFor(s, (m) => tagged('sub', 'notifications/resources/updated')(m) && m.params.uri === 'kb://t/new');
    // A named subject changes: updated; the list did not change.
    const before = s.lines.length;
    writeFileSync(join(root, 't', 'b.txt'), 'beta, revised\n');
    const updated = await waitFor(s, (m) => tagged('sub', 'notifications/resources/updated')(m) && m.params.uri === 'kb://t/b');
    expect(updated).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { _meta: { [SUBSCRIPTION_KEY]: 'sub' }, uri: 'kb://t/b' } });
    expect(s.lines.slice(before).filter((m) => m.method === 'notifications/resources/list_changed')).toEqual([]);
    // Requests are answered meanwhile.
    expectModern(await s.modern('read', 'resources/read', { uri: 'kb://t/b' }));
    // Cancelled: no reply, and nothing more for it.
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub' } });
    await s.modern('after-cancel', 'server/discover');
    const cut = s.lines.length;
    rmSync(join(root, 't', 'new.md'));
    writeFileSync(join(root, 'u', 'one.md'), 'one, revised\n');
    await waitFor(s, tagged(7, 'notifications/resources/updated'));
    expect(s.lines.slice(cut).filter((m) => m.params?._meta?.[SUBSCRIPTION_KEY] === 'sub' || m.id === 'sub')).toEqual([]);
    // stdin closed: the open subscription is answered, gracefully.
    expect(await s.close()).toBe(0);
    const closing = s.reply(7);
    expect(closing.result).toEqual({ resultType: 'complete', _meta: { [SERVER_INFO_KEY]: expect.any(Object), [SUBSCRIPTION_KEY]: 7 } });
    expect(s.reply('sub')).toBeUndefined();
    expect(s.schema.problems).toEqual([]);
  }, 60_000);

  test('bounded: at most 16 open; a second one with the same id is refused; legacy clients have no subscriptions/listen', async () => {
    const s = new RawMcp(kbWorkspace());
    for (let i = 0; i < 16; i++) s.send({ jsonrpc: '2.0', id: i, method: 'subscriptions/listen', params: { _meta: MODERN_META, notifications: {} } });
    const more = await s.modern(16, 'subscriptions/listen', { notifications: {} });
    expect(more.error).toEqual({ code: -32600, message: 'invalid request: 16 subscriptions are open, the most kb keeps at once; cancel one first' });
    const again = await s.modern(3, 'subscriptions/listen', { notifications: {} });
    expect(again.error.message).toBe('invalid request: a subscription with id 3 is open already');
    // (Cancelled, so that each id has one answer to check.)
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
    const legacy = await s.request('legacy', 'subscriptions/listen', { notifications: {} });
    expect(legacy.error.code).toBe(-32601);
    expect(await s.close()).toBe(0);
    // Each was acknowledged, then answered when the server stopped.
    for (let i = 0; i < 16; i++) {
      expect(s.lines.filter((m) => m.params?._meta?.[SUBSCRIPTION_KEY] === i).map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged']);
      expect(s.lines.filter((m) => m.id === i && m.result !== undefined).map((m) => m.result.resultType)).toEqual(i === 3 ? [] : ['complete']);
    }
    expect(s.schema.problems).toEqual([]);
  }, 30_000);
});
