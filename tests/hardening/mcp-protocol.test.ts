// `kb mcp` and the letter of the protocol, end to end on dist/kb with a raw
// client: paging cursors kb did not issue, JSON-RPC batches per protocol
// version, and what a reply echoes of its request.
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RawMcp } from '../support/mcp-raw.ts';
import { MCP_VERSIONS } from '../support/mcp-schema.ts';
import { cleanup, workspace } from './helpers.ts';

afterAll(cleanup);

const TWO_TOPICS = '[kb.topic.a]\nsubjects = "a"\n\n[kb.topic.t]\nsubjects = "t"\n';

/** Topic `a` with `n` subjects (a page is 500), and topic `t` with one. */
function pagedWorkspace(n: number): string {
  const entries: Record<string, string> = { 't/one.md': 'one\n' };
  for (let i = 0; i < n; i++) entries[`a/s${String(i).padStart(4, '0')}.md`] = `subject ${i}\n`;
  return workspace(entries, TWO_TOPICS);
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('resources/list cursors kb did not issue (issue 20, item 12)', () => {
  test('a cursor naming a topic that is gone, a forged cursor, a cursor from another server: -32602 "invalid cursor", never page 1 again', async () => {
    const root = pagedWorkspace(520);
    const s = new RawMcp(root);
    await s.initialize();
    const first = await s.request(1, 'resources/list');
    expect(first.result.resources).toHaveLength(500);
    const cursor: string = first.result.nextCursor;
    expect(typeof cursor).toBe('string');
    // The cursor as issued goes on where page 1 stopped.
    const second = await s.request(2, 'resources/list', { cursor });
    expect(second.result.resources.map((r: { name: string }) => r.name)).toEqual([...Array.from({ length: 20 }, (_, i) => `a/s${String(500 + i).padStart(4, '0')}`), 't/one']);
    expect(second.result.nextCursor).toBeUndefined();
    // Well-formed but made up: the topic and slug of a real subject.
    const forged = await s.request(3, 'resources/list', { cursor: b64(['a', 's0499']) });
    expect(forged.error.code).toBe(-32602);
    expect(forged.error.message).toStartWith('invalid cursor: ');
    // Made up, naming a topic that does not exist.
    const nowhere = await s.request(4, 'resources/list', { cursor: b64(['gone', 'x']) });
    expect(nowhere.error.code).toBe(-32602);
    expect(nowhere.error.message).toStartWith('invalid cursor: ');
    // The topic of a cursor kb issued is removed from the configuration.
    writeFileSync(join(root, '.jp', 'config.toml'), '[kb.topic.t]\nsubjects = "t"\n');
    const stale = await s.request(5, 'resources/list', { cursor });
    expect(stale.error).toEqual({ code: -32602, message: 'invalid cursor: its topic "a" is no longer served; list again without a cursor' });
    expect(await s.close()).toBe(0);
    // A cursor from an earlier server: refused by the next one.
    writeFileSync(join(root, '.jp', 'config.toml'), TWO_TOPICS);
    const again = new RawMcp(root);
    await again.initialize();
    const old = await again.request(1, 'resources/list', { cursor });
    expect(old.error.code).toBe(-32602);
    expect(old.error.message).toMatch(/^invalid cursor: ".*" is not one this server issued; list again without a cursor$/);
    expect(await again.close()).toBe(0);
  }, 60_000);
});

describe('lists served in one page refuse a cursor (issue 20, item 13)', () => {
  test('tools/list, prompts/list, resources/templates/list with a cursor: -32602 "invalid cursor"; without one, the whole list', async () => {
    const root = workspace({ 't/a.md': 'A\n' });
    const s = new RawMcp(root);
    await s.initialize();
    let id = 0;
    for (const [method, key] of [['tools/list', 'tools'], ['prompts/list', 'prompts'], ['resources/templates/list', 'resourceTemplates']] as const) {
      for (const cursor of ['', 'x', b64(['t', 'a'])]) {
        const r = await s.request(++id, method, { cursor });
        expect([method, cursor, r.error]).toEqual([method, cursor, { code: -32602, message: `invalid cursor: ${method} has one page and issues no cursor; list again without one` }]);
      }
      const whole = await s.request(++id, method, {});
      expect(whole.result[key].length).toBeGreaterThan(0);
      expect(whole.result.nextCursor).toBeUndefined();
    }
    expect(await s.close()).toBe(0);
  }, 30_000);
});

describe('what a reply echoes of its request is escaped, as the CLI escapes it (issue 20, item 11)', () => {
  const H = 'x\u202ey\u202cz\u2028w\u200bv\u0085u';
  const SHOWN = 'x\\u202ey\\u202cz\\u2028w\\u200bv\\u0085u';
  const RAW = /[\u202e\u202c\u2028\u200b\u0085]/;

  test('tool results (search, learn, remember, forget) and error messages (tool, prompt, method, URI, cursor)', async () => {
    const root = workspace({ 't/alpha.md': '# Alpha\n\nalpha beta gamma\n' });
    const s = new RawMcp(root, ['--write', 't']);
    await s.initialize();
    const call = async (id: number, name: string, args: object) => {
      const r = await s.request(id, 'tools/call', { name, arguments: args });
      const text: string = r.result.content[0].text;
      expect([name, RAW.test(text), text.includes(SHOWN)]).toEqual([name, false, true]);
      return text;
    };
    expect(await call(1, 'search', { query: `alpha ${H}` })).toStartWith(`1 subject matches "alpha ${SHOWN}". `);
    expect(await call(2, 'search', { query: H, topic: 't' })).toStartWith(`No subjects match "${SHOWN}" in topic "t".`);
    expect(await call(3, 'learn', { topic: 't', subjects: [H] })).toStartWith(`No subjects match "${SHOWN}" in topic "t".`);
    await call(4, 'learn', { topic: 't', [H]: 1 });
    await call(5, 'remember', { topic: 't', text: 'a new fact', slug: H });
    expect(await call(6, 'forget', { topic: 't', slug: H })).toBe(`Not removed: topic "t" has no subject "${SHOWN}". Forget takes an exact slug, as learn lists it.\n`);
    const errors = [
      await s.request(10, 'tools/call', { name: H, arguments: {} }),
      await s.request(11, 'prompts/get', { name: H }),
      await s.request(12, H),
      await s.request(13, 'resources/read', { uri: H }),
      await s.request(14, 'resources/read', { uri: `kb://t/${H}` }),
      await s.request(15, 'resources/list', { cursor: H }),
    ];
    // A pre-load that matches nothing: a warning on stderr (escaped, below).
    const prompt = await s.request(16, 'prompts/get', { name: 'knowledge', arguments: { knowledge: `t/${H}` } });
    expect(RAW.test(JSON.stringify(prompt.result))).toBe(false);
    for (const e of errors) {
      expect(e.error).toBeDefined();
      expect([e.id, RAW.test(e.error.message)]).toEqual([e.id, false]);
    }
    expect(errors[0].error.message).toStartWith(`unknown tool "${SHOWN}"; the tools are`);
    expect(errors[1].error.message).toStartWith(`unknown prompt "${SHOWN}";`);
    expect(errors[2].error.message).toBe(`method not found: ${SHOWN}`);
    expect(errors[3].error.message).toStartWith(`not a knowledge-base URI: ${SHOWN} (`);
    expect(errors[4].error.message).toBe(`resource not found: kb://t/${SHOWN} (topic "t" has no subject "${SHOWN}")`);
    expect(errors[5].error.message).toStartWith(`invalid cursor: "${SHOWN}" is not one`);
    expect(await s.close()).toBe(0);
    expect(RAW.test(s.err)).toBe(false);
  }, 30_000);
});

describe('every reply validates against the MCP schema of the version negotiated (issue 20, item 15)', () => {
  for (const version of MCP_VERSIONS) {
    test(`${version}: each method kb serves, and each kind of error`, async () => {
      const root = workspace({ 't/a.md': '# A\n\nalpha\n', 't/b.txt': 'beta\n' });
      const s = new RawMcp(root, ['--write', 't']);
      // RawMcp checks each reply as it arrives (tests/support/mcp-schema.ts).
      expect((await s.initialize(version)).result.protocolVersion).toBe(version);
      expect(s.schema.version).toBe(version);
      const lines: (object | string)[] = [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'learn', arguments: { topic: 't', subjects: ['*'] } } },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'search', arguments: { query: 'alpha' } } },
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'learn', arguments: { topic: 'nope' } } },
        { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'remember', arguments: { topic: 't', text: 'Gamma is the third letter.' } } },
        { jsonrpc: '2.0', id: 7, method: 'prompts/list' },
        { jsonrpc: '2.0', id: 8, method: 'prompts/get', params: { name: 'knowledge', arguments: { knowledge: 't/a' } } },
        { jsonrpc: '2.0', id: 9, method: 'resources/list' },
        { jsonrpc: '2.0', id: 10, method: 'resources/templates/list' },
        { jsonrpc: '2.0', id: 11, method: 'resources/read', params: { uri: 'kb://t/a' } },
        { jsonrpc: '2.0', id: 12, method: 'resources/read', params: { uri: 'kb://t/b' } },
        // Errors: not found, invalid params, unknown method, invalid cursor.
        { jsonrpc: '2.0', id: 13, method: 'resources/read', params: { uri: 'kb://t/nope' } },
        { jsonrpc: '2.0', id: 14, method: 'tools/call', params: { name: 'nope' } },
        { jsonrpc: '2.0', id: 15, method: 'no/such/method' },
        { jsonrpc: '2.0', id: 16, method: 'resources/list', params: { cursor: 'x' } },
        { jsonrpc: '2.0', id: 17, method: 'tools/call', params: 'learn' },
        // Errors whose id cannot be read: -32700, -32600.
        '{oops',
        JSON.stringify({ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }),
        // A null id: JSON-RPC allows it, MCP does not.
        JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' }),
        // Ignored: a notification, a response kb never asked for.
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
        { jsonrpc: '2.0', id: 'r', result: {} },
        { jsonrpc: '2.0', id: 18, method: 'ping' },
      ];
      s.send(...lines);
      await s.until(() => s.reply(18) !== undefined && s.lines.length >= 22);
      expect(await s.close()).toBe(0);
      expect(s.lines).toHaveLength(22);
      expect(s.schema.problems).toEqual([]);
      const unread = s.lines.filter((m) => m.id === undefined || m.id === null);
      expect(unread.map((m) => m.error.code)).toEqual([-32700, -32600, -32600]);
      expect(unread[2].error.message).toBe('invalid request: "id" must be a string or a number, not null');
      // 2025-11-25 leaves out the id it could not read; JSON-RPC 2.0 (and
      // so the earlier versions) says null.
      for (const m of unread) expect(Object.hasOwn(m, 'id')).toBe(version !== '2025-11-25');
    }, 30_000);
  }
});

describe('JSON-RPC batches, per protocol version (issue 20, item 14)', () => {
  const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
  const learnCall = (id: number, args: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'learn', arguments: args } });
  const note = { jsonrpc: '2.0', method: 'notifications/initialized' };

  test('2025-03-26 (servers must take batches): one array of replies, in order; notifications get no entry; bad entries get their error', async () => {
    const root = workspace({ 't/a.md': 'A\n' });
    const s = new RawMcp(root);
    await s.initialize('2025-03-26');
    s.send([learnCall(1, { topic: 't', subjects: 'a' }), note, ping(2), 7, [], { jsonrpc: '2.0', id: 3, method: 'no/such' }, '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}']
      .map((m) => (typeof m === 'string' ? m : JSON.stringify(m)))
      .join(',')
      .replace(/^/, '[')
      .replace(/$/, ']'));
    // All notifications: no reply at all. Then a single ping, to know the
    // server is past them.
    s.send([note, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }]);
    s.send(ping('after'));
    await s.until(() => s.reply('after') !== undefined);
    expect(await s.close()).toBe(0);
    const replies = s.lines.slice(1);
    expect(replies).toHaveLength(2);
    // A ping is answered as soon as it is read: before the batch, which
    // waits for its learn call.
    const batch = replies.find((r) => Array.isArray(r));
    const after = s.reply('after');
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'A\n' }], isError: false } },
      { jsonrpc: '2.0', id: 2, result: {} },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: a message must be an object, not number' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: a message must be an object, not array' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'method not found: no/such' } },
      { jsonrpc: '2.0', id: 9007199254740993, result: {} },
    ]);
    expect(after).toEqual({ jsonrpc: '2.0', id: 'after', result: {} });
    expect(s.err).toBe('warning: kb mcp: line 3, entry 4: invalid request: a message must be an object, not number\nwarning: kb mcp: line 3, entry 5: invalid request: a message must be an object, not array\nwarning: kb mcp: line 3, entry 6: method not found: no/such\n');
    expect(s.schema.problems).toEqual([]);
  }, 30_000);

  test('2025-03-26: initialize inside a batch, an empty batch, more than 32 entries: -32600', async () => {
    const root = workspace({ 't/a.md': 'A\n' });
    const s = new RawMcp(root);
    const init = await s.initialize('2025-03-26');
    s.send([{ ...JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: 'again', method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } })) }, ping(1)]);
    s.send([]);
    s.send(Array.from({ length: 33 }, (_, i) => ping(100 + i)));
    s.send(Array.from({ length: 32 }, (_, i) => ping(200 + i)));
    s.send(ping('after'));
    await s.until(() => s.reply('after') !== undefined);
    expect(await s.close()).toBe(0);
    expect(init.result.protocolVersion).toBe('2025-03-26');
    const [first, empty, tooMany, full] = s.lines.slice(1);
    expect(first).toEqual([{ jsonrpc: '2.0', id: 'again', error: { code: -32600, message: 'invalid request: initialize cannot be part of a batch' } }, { jsonrpc: '2.0', id: 1, result: {} }]);
    expect(empty).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: an empty batch' } });
    expect(tooMany).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: a batch of 33 messages, more than the limit of 32; none was read' } });
    expect(full.map((r: { id: number }) => r.id)).toEqual(Array.from({ length: 32 }, (_, i) => 200 + i));
    expect(s.schema.problems).toEqual([]);
  }, 30_000);

  for (const version of ['2024-11-05', '2025-06-18', '2025-11-25']) {
    test(`${version} (no batches): a batch is refused whole, -32600, and nothing in it is run`, async () => {
      const root = workspace({ 't/a.md': 'A\n' });
      const s = new RawMcp(root, ['--write', 't']);
      await s.initialize(version);
      s.send([ping(1), { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'remember', arguments: { topic: 't', text: 'Not to be written.', slug: 'no' } } }]);
      s.send(ping('after'));
      await s.until(() => s.reply('after') !== undefined);
      expect(await s.close()).toBe(0);
      const refusal = s.lines[1];
      expect(refusal.error).toEqual({ code: -32600, message: 'invalid request: batches are not supported' });
      expect(refusal.id).toBe(version === '2025-11-25' ? undefined : null);
      expect(s.lines).toHaveLength(3);
      expect(existsSync(join(root, 't', 'no.md'))).toBe(false);
      expect(s.schema.problems).toEqual([]);
    }, 30_000);
  }

  test('before initialize: refused', async () => {
    const root = workspace({ 't/a.md': 'A\n' });
    const s = new RawMcp(root);
    s.send([ping(1)]);
    await s.until(() => s.lines.length > 0);
    expect(await s.close()).toBe(0);
    expect(s.lines).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: batches are not supported' } }]);
  }, 30_000);
});
