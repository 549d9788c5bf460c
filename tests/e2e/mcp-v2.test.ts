// End-to-end: `kb mcp` (dist/kb) driven by the official MCP SDK v2 client
// (@modelcontextprotocol/client) over stdio: under protocol 2026-07-28
// (pinned, and negotiated by the SDK's own `server/discover` probe), and
// under the legacy handshake the SDK still speaks. Every reply is checked
// against the official schema of the revision in use (mcp-client.ts
// checkReplies); answers are compared with what the CLI prints.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { checkReplies } from './mcp-client.ts';
import { BIN, BINARY, fixture, isolatedEnv as env, RFD_CONFIG, RFD_FILES, run } from './harness.ts';
import type { ReplyChecker } from '../support/mcp-schema.ts';

type Mode = 'legacy' | 'auto' | { pin: string };

interface V2 {
  client: Client;
  checker: ReplyChecker;
  stderr: () => string;
}

async function connectV2(root: string, mode: Mode, args: string[] = []): Promise<V2> {
  const transport = new StdioClientTransport({ command: BIN, args: ['mcp', ...args], cwd: root, env: env(root), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const checker = checkReplies(transport);
  const client = new Client({ name: 'kb-e2e-v2', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return { client, checker, stderr: () => stderr };
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  expect(content).toHaveLength(1);
  return content[0].text;
}

async function codeOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    return (e as { code: number }).code;
  }
  throw new Error('the request succeeded');
}

const MODERN = { pin: '2026-07-28' } as const;

describe('kb mcp with the SDK v2 client, protocol 2026-07-28 (pinned)', () => {
  const TITLED = '---\ntitle: The Titled One\n---\nBody.\n';
  const root = fixture({ ...RFD_FILES, '.jp/kb/project/titled.md': TITLED }, RFD_CONFIG);
  const cli = (...args: string[]) => run(BINARY, root, args);
  let c: V2;

  beforeAll(async () => {
    c = await connectV2(root, MODERN, ['--write', 'project']);
  });
  afterAll(async () => {
    await c.client.close();
  });

  test('the modern era, without initialize: identity, capabilities, instructions from server/discover', () => {
    expect(c.client.getProtocolEra()).toBe('modern');
    expect(c.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(c.client.getServerVersion()).toEqual({ name: 'kb', title: 'kb knowledge base', version: cli('--version').out.split(' ')[0], description: expect.stringContaining('knowledge base') });
    expect(c.client.getServerCapabilities()).toEqual({ tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: true, subscribe: true }, completions: {}, extensions: { 'io.modelcontextprotocol/skills': {} } });
    expect(c.client.getInstructions()).toContain('`remember` tool');
  });

  test('tools: listed in their order, as `kb schema --format mcp` prints them; called as the CLI answers', async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['learn', 'search', 'remember', 'revise', 'forget']);
    const { outputSchema, ...learnTool } = tools[0];
    expect(learnTool).toEqual(JSON.parse(cli('schema', '--format', 'mcp').out));
    expect(outputSchema).toEqual(expect.objectContaining({ type: 'object', title: 'kb learn output' }));
    // The SDK holds structuredContent to each tool's outputSchema itself.
    const learn = await c.client.callTool({ name: 'learn', arguments: { topic: 'project', subjects: ['**'] } });
    expect(textOf(learn)).toBe(cli('learn', 'project', '**').out);
    expect(learn.structuredContent).toEqual(JSON.parse(cli('learn', 'project', '**', '--format', 'json').out));
    const search = await c.client.callTool({ name: 'search', arguments: { query: 'maintainers' } });
    expect(textOf(search)).toBe(cli('search', '--args', '{"query":"maintainers"}').out);
    expect(search.structuredContent).toEqual(JSON.parse(cli('search', '--args', '{"query":"maintainers"}', '--format', 'json').out));
    const bad = await c.client.callTool({ name: 'learn', arguments: { topic: 'nope' } });
    expect(bad.isError).toBe(true);
  });

  test('prompts: the knowledge prompt, with and without its argument', async () => {
    const { prompts } = await c.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['knowledge']);
    const plain = await c.client.getPrompt({ name: 'knowledge' });
    expect(plain.messages).toEqual([{ role: 'user', content: { type: 'text', text: cli('prompt').out } }]);
    const one = await c.client.getPrompt({ name: 'knowledge', arguments: { knowledge: 'project/maintainers/*' } });
    expect((one.messages[0].content as { text: string }).text).toBe(cli('prompt', '-k', 'project/maintainers/*').out);
  });

  test('resources: listed with the document title, size and time; read as kb learn prints them; not found is -32602', async () => {
    const { resources } = await c.client.listResources();
    const titled = resources.find((r) => r.uri === 'kb://project/titled');
    expect(titled).toEqual({ uri: 'kb://project/titled', name: 'project/titled', title: 'The Titled One', description: 'Subject "titled" of topic project (General Project Knowledge)', mimeType: 'text/markdown', size: TITLED.length, annotations: { lastModified: expect.any(String) } });
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['kb://{topic}/{+slug}', 'kb://{topic}/{+slug}{?lines}']);
    const { contents } = await c.client.readResource({ uri: 'kb://project/code-quality' });
    expect(contents).toEqual([{ uri: 'kb://project/code-quality', mimeType: 'text/markdown', text: cli('learn', 'project', 'code-quality').out }]);
    expect(await codeOf(c.client.readResource({ uri: 'kb://project/nope' }))).toBe(-32602);
  });

  test('completions: the prompt argument and the template, topics then slugs', async () => {
    const topics = await c.client.complete({ ref: { type: 'ref/resource', uri: 'kb://{topic}/{+slug}' }, argument: { name: 'topic', value: '' } });
    expect(topics.completion.values).toEqual(['project', 'skills']);
    const slugs = await c.client.complete({ ref: { type: 'ref/resource', uri: 'kb://{topic}/{+slug}' }, argument: { name: 'slug', value: 'main' }, context: { arguments: { topic: 'project' } } });
    expect(slugs.completion.values).toEqual(['maintainers/jean', 'maintainers/ryan']);
    const prompt = await c.client.complete({ ref: { type: 'ref/prompt', name: 'knowledge' }, argument: { name: 'knowledge', value: 'skills/a' } });
    expect(prompt.completion.values).toEqual(['skills/ast-grep']);
  });

  test('subscriptions/listen: acknowledged, and a new subject is a resources list change', async () => {
    let changed = 0;
    c.client.setNotificationHandler('notifications/resources/list_changed', () => {
      changed++;
    });
    const sub = await c.client.listen({ resourcesListChanged: true, toolsListChanged: true });
    expect(sub.honoredFilter).toEqual({ resourcesListChanged: true });
    writeFileSync(join(root, '.jp/kb/project/appeared.md'), 'New.\n');
    for (let i = 0; i < 200 && changed === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(changed).toBeGreaterThan(0);
    expect((await c.client.listResources()).resources.map((r) => r.uri)).toContain('kb://project/appeared');
    await sub.close();
    expect(await sub.closed).toBe('local');
  });

  test('every reply validated against the 2026-07-28 schema; nothing on stderr', () => {
    expect(c.checker.problems).toEqual([]);
    expect(c.stderr()).toBe('');
  });
});

describe('kb mcp with the SDK v2 client, negotiating', () => {
  const root = fixture(RFD_FILES, RFD_CONFIG);

  test('auto: the SDK probes with server/discover and stays modern', async () => {
    const c = await connectV2(root, 'auto');
    try {
      expect(c.client.getProtocolEra()).toBe('modern');
      expect(c.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(textOf(await c.client.callTool({ name: 'learn', arguments: { topic: 'skills', subjects: 'cargo' } }))).toBe(run(BINARY, root, ['learn', 'skills', 'cargo']).out);
      expect(c.checker.problems).toEqual([]);
    } finally {
      await c.client.close();
    }
  });

  test('legacy (the SDK v2 default): initialize, 2025-11-25, every method as before', async () => {
    const c = await connectV2(root, 'legacy');
    try {
      expect(c.client.getProtocolEra()).toBe('legacy');
      expect(c.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(c.client.getServerVersion()).toEqual({ name: 'kb', version: expect.any(String) });
      expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(['learn', 'search']);
      expect((await c.client.listResources()).resources[0].title).toBe('code-quality');
      expect((await c.client.readResource({ uri: 'kb://project/code-quality' })).contents).toHaveLength(1);
      expect(await codeOf(c.client.readResource({ uri: 'kb://project/nope' }))).toBe(-32002);
      expect((await c.client.getPrompt({ name: 'knowledge' })).messages).toHaveLength(1);
      expect(await c.client.ping()).toEqual({});
      expect(c.checker.problems).toEqual([]);
    } finally {
      await c.client.close();
    }
  });
});
