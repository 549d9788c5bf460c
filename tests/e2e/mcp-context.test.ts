// kb mcp within the budget: tool results and the prompt bounded, resources
// paginated, and topic indexes kept between requests yet never stale.
import { describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { checkReplies } from './mcp-client.ts';
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINARY, fixture, isolatedEnv } from './harness.ts';

async function connect(root: string, args: string[] = []) {
  const [command, ...pre] = BINARY.argv;
  const transport = new StdioClientTransport({ command, args: [...pre, 'mcp', ...args], cwd: root, env: isolatedEnv(root), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d.toString()));
  const client = new Client({ name: 'kb-e2e', version: '1.0.0' });
  checkReplies(transport);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;

describe('kb mcp within the budget', () => {
  test('a tool result stays within --max-tokens and says how to continue', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`t/p${String(i).padStart(2, '0')}.md`] = `${'lorem ipsum dolor sit amet '.repeat(100)}\n`;
    const root = fixture(files, '[kb.topic.t]\nsubjects = "t"\n');
    const c = await connect(root, ['--max-tokens', '3000']);
    try {
      const first = textOf(await c.client.callTool({ name: 'learn', arguments: { topic: 't', subjects: ['*'] } }));
      expect(first).toContain('within the 3,000-token budget');
      const call = JSON.parse(/call `learn` with (\{.*\})\]$/m.exec(first)![1]);
      const next = textOf(await c.client.callTool({ name: 'learn', arguments: call }));
      expect(next).toStartWith(`<subject "${call.subjects.at(-1).split(':').slice(2).join(':')}">`);
    } finally {
      await c.client.close();
    }
  });

  test('resources/list comes in pages of 500 with nextCursor; the pages cover every subject once', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1203; i++) files[`t/s${String(i).padStart(4, '0')}.md`] = 'x\n';
    const root = fixture(files, '[kb.topic.t]\nsubjects = "t"\n');
    const c = await connect(root);
    try {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await c.client.listResources(cursor === undefined ? {} : { cursor });
        seen.push(...page.resources.map((r) => r.name));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined && pages < 10);
      expect(pages).toBe(3);
      expect(seen).toHaveLength(1203);
      expect(new Set(seen).size).toBe(1203);
      await expect(c.client.listResources({ cursor: 'not-a-cursor' })).rejects.toThrow(/invalid cursor/);
    } finally {
      await c.client.close();
    }
  });

  test('the index is kept between requests, and an added, removed, renamed or edited file shows in the next one', async () => {
    const root = fixture({ 't/a.md': '---\ndescription: first\n---\nA\n', 't/sub/b.md': 'B\n' }, '[kb.topic.t]\nsubjects = "t"\n');
    // Folders last changed a minute ago: an index of them is kept (one
    // changed in the last two seconds is walked again, see docs/reference/mcp.md, "Long sessions").
    const past = new Date(Date.now() - 60_000);
    for (const d of ['t', 't/sub']) utimesSync(join(root, d), past, past);
    const c = await connect(root, ['--verbose']);
    const list = async () => textOf(await c.client.callTool({ name: 'learn', arguments: { topic: 't' } }));
    const load = async (slug: string) => textOf(await c.client.callTool({ name: 'learn', arguments: { topic: 't', subjects: [slug] } }));
    try {
      expect(await list()).toContain('- a: first\n- sub/b\n');
      expect(await load('a')).toContain('A\n');
      for (let i = 0; i < 100 && !c.stderr().includes('1 reused'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(c.stderr()).toContain('1 reused, 1 walked');
      writeFileSync(join(root, 't/sub/c.md'), 'C\n');
      expect(await list()).toContain('- sub/b\n- sub/c\n');
      expect(await load('sub/c')).toBe('C\n');
      rmSync(join(root, 't/sub/b.md'));
      expect(await list()).not.toContain('sub/b');
      renameSync(join(root, 't/sub/c.md'), join(root, 't/sub/d.md'));
      expect(await list()).toContain('- sub/d\n');
      writeFileSync(join(root, 't/a.md'), '---\ndescription: second\n---\nA2\n');
      expect(await list()).toContain('- a: second\n');
      expect(await load('a')).toContain('A2');
      mkdirSync(join(root, 't/new/deep'), { recursive: true });
      writeFileSync(join(root, 't/new/deep/e.md'), 'E\n');
      expect(await load('new/deep/e')).toBe('E\n');
      writeFileSync(join(root, 't/.kbignore'), 'new/\n');
      expect(await load('new/deep/e')).toContain('No subjects match');
    } finally {
      await c.client.close();
    }
  });
});
