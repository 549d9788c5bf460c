// How `kb mcp --http` orders the requests of many clients (mcp/lanes.ts),
// in-process: an exact learn is answered while a slow search runs, and two
// searches never run at once (one index build, not two side by side).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { HttpTransportServer } from '../../src/mcp/http.ts';
import { laneOf } from '../../src/mcp/lanes.ts';
import { KbSession } from '../../src/mcp/session.ts';
import { makeTempDir, tempWorkspace } from '../support/temp.ts';

const root = tempWorkspace('kb-lanes-', { 'notes/a.md': 'About releases.\n', 'notes/b.md': 'About builds.\n' }, '[kb.topic.notes]\nsubjects = "notes"\n');
const options = { cwd: root, cfg: [], knowledge: [], env: {}, home: makeTempDir('kb-lanes-home-') };
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

describe('laneOf', () => {
  test('a learn of exact slugs, a resource and the lists are quick; listings, globs, folders, searches and writes are heavy', () => {
    const learn = (args: unknown) => laneOf('tools/call', { name: 'learn', arguments: args });
    expect(learn({ topic: 'notes', subjects: ['a'] })).toBe('quick');
    expect(learn({ topic: 'notes', subjects: 'a' })).toBe('quick');
    expect(learn({ topic: 'notes', subjects: ['a:10-20', 'd/b'] })).toBe('quick');
    expect(learn({ topic: 'notes' })).toBe('heavy');
    expect(learn({ topic: 'notes', subjects: [] })).toBe('heavy');
    expect(learn({ topic: 'notes', subjects: ['*'] })).toBe('heavy');
    expect(learn({ topic: 'notes', subjects: ['d/'] })).toBe('heavy');
    expect(learn({ topic: 'notes', subjects: ['{a,b}'] })).toBe('heavy');
    expect(learn({ topic: 'notes', subjects: Array.from({ length: 9 }, (_, i) => `s${i}`) })).toBe('heavy');
    expect(learn(null)).toBe('heavy');
    expect(laneOf('tools/call', { name: 'search', arguments: { query: 'x' } })).toBe('heavy');
    expect(laneOf('tools/call', { name: 'remember', arguments: {} })).toBe('heavy');
    expect(laneOf('resources/read', { uri: 'kb://notes/a' })).toBe('quick');
    expect(laneOf('resources/list', {})).toBe('heavy');
    expect(laneOf('prompts/get', {})).toBe('heavy');
    expect(laneOf('tools/list', {})).toBe('quick');
  });
});

describe('kb mcp --http: lanes', () => {
  let server: HttpTransportServer;
  let port = 0;
  // Searches wait here until released; how many run at once.
  let release: () => void = () => {};
  let gate = new Promise<void>((r) => (release = r));
  let running = 0;
  let most = 0;
  const original = KbSession.prototype.callTool;

  beforeAll(async () => {
    KbSession.prototype.callTool = async function (this: KbSession, name, args, signal, structured) {
      if (name !== 'search') return original.call(this, name, args, signal, structured);
      running++;
      most = Math.max(most, running);
      await gate;
      running--;
      return { content: [{ type: 'text', text: 'found\n' }], isError: false };
    };
    server = new HttpTransportServer(new KbSession(options), { host: '127.0.0.1', port: 0, token: undefined, allowOrigins: [], timeout: 10, idle: 60 });
    port = (await server.listen()).port;
  });

  afterAll(async () => {
    KbSession.prototype.callTool = original;
    release();
    await server.stop();
    server['root'].cache.close();
  });

  let id = 0;
  const call = async (args: Record<string, unknown>): Promise<string> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { ...args, _meta: META } });
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': String(args.name) } });
    const reply = (await res.json()) as { result: { content: { text: string }[] } };
    return reply.result.content[0].text;
  };

  test('an exact learn is answered while a search runs; the second search waits for the first', async () => {
    const first = call({ name: 'search', arguments: { query: 'releases' } });
    const second = call({ name: 'search', arguments: { query: 'builds' } });
    for (const end = Date.now() + 5000; running === 0 && Date.now() < end; ) await Bun.sleep(2);
    expect(running).toBe(1);
    // Answered while the search still runs (and the other waits).
    expect(await call({ name: 'learn', arguments: { topic: 'notes', subjects: ['a'] } })).toContain('About releases.');
    expect(await call({ name: 'learn', arguments: { topic: 'notes', subjects: 'b' } })).toContain('About builds.');
    expect(running).toBe(1);
    release();
    expect(await Promise.all([first, second])).toEqual(['found\n', 'found\n']);
    expect(most).toBe(1);
    gate = Promise.resolve();
  });
});
