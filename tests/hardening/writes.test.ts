// The write path against hostile slugs, folders, locks and input
// (docs/robustness.md, "Writes"): `kb remember` and `kb forget` on dist/kb,
// the MCP tool through `kb mcp --write`, and the race of a folder swapped
// for a link, in process, where it can be tried hundreds of times.
import { afterAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KnowledgeBase } from '../../src/app/knowledge-base.ts';
import { remember } from '../../src/app/memory.ts';
import { WAIT_MS } from '../../src/kb/write/lock.ts';
import { isolatedEnv } from '../e2e/harness.ts';
import { BIN, cleanup, expectNoCrash, kb, kbMeasured, permissions, tempDir, workspace } from './helpers.ts';

afterAll(cleanup);

/** Every file below `dir`, relative, links not followed. */
function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) stack.push(r);
      else out.push(r);
    }
  }
  return out.sort();
}

/** One `tools/call` of `kb mcp --write t`: the result. */
function mcpCall(root: string, name: string, args: Record<string, unknown>): { isError: boolean; text: string } {
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } },
  ];
  const r = Bun.spawnSync([BIN, 'mcp', '--write', 't'], {
    cwd: root,
    env: isolatedEnv(root),
    stdin: Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join('')),
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: 20_000,
  });
  const reply = r.stdout
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((m) => m.id === 2);
  return { isError: reply.result.isError, text: reply.result.content[0].text };
}

describe('a write never creates a file that changes how other subjects are read', () => {
  const SKILL_SLUGS = ['foo/SKILL', 'foo/skill', 'foo/Skill.md', 'foo/SKILL.MD', 'SKILL'];

  test.each(SKILL_SLUGS)('kb remember --slug %s: refused; the folder stays a folder of subjects', (slug) => {
    const root = workspace({ 't/foo/a.md': 'Alpha note.\n', 't/foo/b.md': 'Bravo note.\n' });
    const r = kb(root, ['remember', 't', '--slug', slug, 'Some text to hide the folder']);
    expectNoCrash(r);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^error: --slug "[^"]+" cannot name a new subject: a file named SKILL\.md would make its folder an Agent Skill, and every subject beside it a bundled file/i);
    expect(filesBelow(join(root, 't'))).toEqual(['foo/a.md', 'foo/b.md']);
    expect(kb(root, ['learn', 't']).out).toContain('- foo/a\n- foo/b\n');
  });

  test('a model is told why: MCP remember and --args answer an isError result; nothing is written', () => {
    const root = workspace({ 't/foo/a.md': 'Alpha note.\n' });
    const mcp = mcpCall(root, 'remember', { topic: 't', slug: 'foo/SKILL', text: 'Hide the folder.' });
    expect(mcp.isError).toBe(true);
    expect(mcp.text).toContain('"slug" "foo/SKILL" cannot name a new subject: a file named SKILL.md would make its folder an Agent Skill');
    const args = kb(root, ['remember', '--args', JSON.stringify({ topic: 't', slug: 'foo/skill', text: 'Hide the folder.' })]);
    expect(args.code).toBe(1);
    expect(args.out).toContain('"slug" "foo/skill" cannot name a new subject: a file named skill.md would make its folder an Agent Skill');
    expect(filesBelow(join(root, 't'))).toEqual(['foo/a.md']);
  });

  test('a slug made from the text passes the name over; hidden names stay refused', () => {
    const root = workspace({});
    const r = kb(root, ['remember', 't', 'Skill']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Remembered as subject "skill-2"');
    expect(filesBelow(join(root, 't'))).toEqual(['skill-2.md']);
    for (const slug of ['.kbignore', 'foo/.gitignore', '.hidden/x']) {
      const h = kb(root, ['remember', 't', '--slug', slug, 'text']);
      expect(h.code).toBe(2);
      expect(h.err).toContain('starts with a dot');
    }
    expect(filesBelow(join(root, 't'))).toEqual(['skill-2.md']);
  });
});
