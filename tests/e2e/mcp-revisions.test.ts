// End-to-end: both official SDK clients, v1 (@modelcontextprotocol/sdk
// 1.32) and v2 (@modelcontextprotocol/client 2.4), drive every tool,
// resource, prompt, skill and completion of `kb mcp` (dist/kb) under each
// protocol revision kb speaks, and every reply is checked against the
// official schema of that revision (mcp-client.ts checkReplies). A legacy
// revision is had by asking for it in `initialize` (the clients ask for
// their newest; the request is rewritten on its way out, and the client
// accepts the older answer, as it would from an older server); 2026-07-28
// by the v2 client pinned to it (the v1 client does not speak it).
// Completions are served under 2026-07-28; a legacy session answers
// `completion/complete` -32601, as it always did.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { checkReplies } from './mcp-client.ts';
import type { ReplyChecker } from '../support/mcp-schema.ts';
import { BIN, BINARY, fixture, isolatedEnv, RFD_CONFIG, RFD_FILES, run } from './harness.ts';

const SKILL = '---\nname: review\ndescription: Review a change before it merges.\n---\nRead the diff.\n';
const FILES = { ...RFD_FILES, '.jp/kb/skills/review/SKILL.md': SKILL };
const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** What the test asks of a client, whichever SDK it is. */
interface Driver {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown }[] }>;
  callTool(name: string, args: Record<string, unknown>): Promise<{ content: unknown[]; structuredContent?: unknown; isError?: boolean }>;
  listPrompts(): Promise<{ prompts: { name: string }[] }>;
  getPrompt(args?: Record<string, string>): Promise<{ messages: { content: unknown }[] }>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  listTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  readResource(uri: string): Promise<{ contents: { text?: string }[] }>;
  skills(): Promise<{ uri: string }[]>;
  skill(uri: string): Promise<{ uri: string }>;
  complete(value: string): Promise<{ completion: { values: string[] } }>;
  checker: ReplyChecker;
  stderr(): string;
  close(): Promise<void>;
}

/** The transport's initialize asks for `version` (the SDK asks for its
 *  newest): rewritten before the reply checker sees it. */
function askFor(transport: { send: (m: never, o?: never) => Promise<void> }, version: string | undefined): void {
  if (version === undefined) return;
  const send = transport.send.bind(transport);
  transport.send = ((m: { method?: string; params?: Record<string, unknown> }, o?: never) =>
    send((m.method === 'initialize' ? { ...m, params: { ...m.params, protocolVersion: version } } : m) as never, o)) as never;
}

async function v1(root: string, version: string): Promise<Driver> {
  const transport = new StdioV1({ command: BIN, args: ['mcp', '--write', 'project'], cwd: root, env: isolatedEnv(root), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d.toString()));
  const checker = checkReplies(transport);
  askFor(transport as never, version);
  const client = new ClientV1({ name: 'kb-revisions-v1', version: '1.0.0' });
  await client.connect(transport);
  expect(client.getServerVersion()?.name).toBe('kb');
  expect(checker.version).toBe(version as never);
  return {
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }) as never,
    listPrompts: () => client.listPrompts(),
    getPrompt: (args) => client.getPrompt({ name: 'knowledge', ...(args ? { arguments: args } : {}) }),
    listResources: () => client.listResources(),
    listTemplates: () => client.listResourceTemplates(),
    readResource: (uri) => client.readResource({ uri }) as never,
    skills: async () => ((await client.request({ method: 'skills/list', params: {} } as never, ResultSchema)) as unknown as { skills: { uri: string }[] }).skills,
    skill: async (uri) => ((await client.request({ method: 'skills/get', params: { uri } } as never, ResultSchema)) as unknown as { skill: { uri: string } }).skill,
    complete: (value) => client.complete({ ref: { type: 'ref/prompt', name: 'knowledge' }, argument: { name: 'knowledge', value } }),
    checker,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

async function v2(root: string, version: string): Promise<Driver> {
  const transport = new StdioV2({ command: BIN, args: ['mcp', '--write', 'project'], cwd: root, env: isolatedEnv(root), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const checker = checkReplies(transport);
  const modern = version === '2026-07-28';
  if (!modern) askFor(transport as never, version);
  const client = new ClientV2({ name: 'kb-revisions-v2', version: '1.0.0' }, { versionNegotiation: { mode: modern ? { pin: version } : 'legacy' } });
  await client.connect(transport);
  expect(client.getNegotiatedProtocolVersion()).toBe(version);
  const skills = new SkillsClient(client);
  return {
    listTools: () => client.listTools() as never,
    callTool: (name, args) => client.callTool({ name, arguments: args }) as never,
    listPrompts: () => client.listPrompts(),
    getPrompt: (args) => client.getPrompt({ name: 'knowledge', ...(args ? { arguments: args } : {}) }) as never,
    listResources: () => client.listResources(),
    listTemplates: () => client.listResourceTemplates(),
    readResource: (uri) => client.readResource({ uri }) as never,
    skills: async () => (await skills.list()).skills,
    skill: async (uri) => (await skills.get(uri)).skill,
    complete: (value) => client.complete({ ref: { type: 'ref/prompt', name: 'knowledge' }, argument: { name: 'knowledge', value } }),
    checker,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

async function codeOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return (e as { code: unknown }).code;
  }
  return 'answered';
}

const RUNS: [string, string, typeof v1][] = [...LEGACY.map((v) => ['SDK v1', v, v1] as [string, string, typeof v1]), ...[...LEGACY, '2026-07-28'].map((v) => ['SDK v2', v, v2] as [string, string, typeof v1])];

for (const [sdk, version, connect] of RUNS) {
  describe(`${sdk} under ${version}: every tool, resource, prompt, skill and completion`, () => {
    const root = fixture(FILES, RFD_CONFIG);
    const cli = (...args: string[]) => run(BINARY, root, args);
    const structured = version >= '2025-06-18';
    let c: Driver;

    beforeAll(async () => {
      c = await connect(root, version);
    }, 30_000);
    afterAll(async () => {
      await c?.close();
    });

    test('tools: each listed and called, as the CLI answers', async () => {
      const { tools } = await c.listTools();
      expect(tools.map((t) => t.name)).toEqual(['learn', 'search', 'remember', 'revise', 'forget']);
      expect(tools.every((t) => (t.outputSchema !== undefined) === structured)).toBe(true);
      const calls: [string, Record<string, unknown>][] = [
        ['learn', { topic: 'project', subjects: ['**'] }],
        ['search', { query: 'maintainers' }],
        ['remember', { topic: 'project', slug: 'release-train', text: 'The release train leaves every second Tuesday.' }],
        ['revise', { topic: 'project', slug: 'release-train', text: 'The release train leaves every Thursday.' }],
        ['forget', { topic: 'project', slug: 'release-train' }],
      ];
      for (const [name, args] of calls) {
        const expected = name === 'learn' || name === 'search' ? cli(name, '--args', JSON.stringify(args)).out : undefined;
        const r = await c.callTool(name, args);
        expect({ name, isError: r.isError, data: r.structuredContent !== undefined }).toEqual({ name, isError: false, data: structured });
        if (expected !== undefined) expect((r.content[0] as { text: string }).text).toBe(expected);
      }
    }, 60_000);

    test('prompts: the knowledge prompt, with and without its argument', async () => {
      expect((await c.listPrompts()).prompts.map((p) => p.name)).toEqual(['knowledge']);
      expect((await c.getPrompt()).messages[0].content).toEqual({ type: 'text', text: cli('prompt').out });
      expect((await c.getPrompt({ knowledge: 'project/maintainers/*' })).messages[0].content).toEqual({ type: 'text', text: cli('prompt', '-k', 'project/maintainers/*').out });
    });

    test('resources: listed, the template, and a subject read as kb learn prints it', async () => {
      const uris = (await c.listResources()).resources.map((r) => r.uri);
      expect(uris).toContain('kb://project/code-quality');
      expect((await c.listTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['kb://{topic}/{+slug}', 'kb://{topic}/{+slug}{?lines}']);
      expect((await c.readResource('kb://project/code-quality')).contents[0].text).toBe(cli('learn', 'project', 'code-quality').out);
    });

    test('skills: listed, got by URI, and its SKILL.md read as a resource', async () => {
      const skills = await c.skills();
      expect(skills.map((s) => s.uri)).toEqual(['skill://skills/review/SKILL.md']);
      expect((await c.skill('skill://skills/review/SKILL.md')).uri).toBe('skill://skills/review/SKILL.md');
      expect((await c.readResource('skill://skills/review/SKILL.md')).contents[0].text).toBe(SKILL);
    });

    test(version === '2026-07-28' ? 'completions: topics, then slugs' : 'completions: not part of a legacy session (-32601, as before)', async () => {
      if (version !== '2026-07-28') {
        expect(await codeOf(c.complete(''))).toBe(-32601);
        return;
      }
      expect((await c.complete('')).completion.values).toEqual(['project/', 'skills/']);
      expect((await c.complete('project/main')).completion.values).toEqual(['project/maintainers/jean', 'project/maintainers/ryan']);
    });

    test('every reply valid against the schema of the revision', () => {
      expect(c.checker.problems).toEqual([]);
      expect(c.stderr()).not.toMatch(/error|failed/);
    });
  });
}
