// kb revise on the binary, where it races: another writer, an editor, a
// kill. The write path's test hook (src/kb/write/file.ts,
// KB_TEST_PAUSE_AT=before-replace:MARKER) stops a reviser after it wrote
// and flushed a replacement, before it checks the file again and renames
// it into place, once for the history and once for the subject, and says
// so in a marker file: each race happens at exactly that point. The MCP
// tool is tested here too. (The CLI cases are in memory.cases.ts.)
import { describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseHistory } from '../../src/kb/write/history.ts';
import { checkReplies } from './mcp-client.ts';
import { workspace } from './memory.cases.ts';
import { BIN, BINARY, isolatedEnv, run, tempDir } from './harness.ts';

interface Started {
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
  exited: () => boolean;
  kill: () => void;
}

/** Runs the binary without waiting; `marker`: pauses it at before-replace. */
function start(root: string, args: string[], marker?: string): Started {
  const env = { ...isolatedEnv(root), ...(marker !== undefined ? { KB_TEST_PAUSE_AT: `before-replace:${marker}` } : {}) };
  const child = spawn(BIN, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exited = false;
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) =>
    child.on('close', (code, signal) => {
      exited = true;
      resolve({ code, signal, out, err });
    }),
  );
  return { done, exited: () => exited, kill: () => child.kill('SIGKILL') };
}

/** Waits until the paused writer wrote `marker` (or exited); returns the
 *  temporary file's path it holds. */
async function paused(marker: string, writer: Started): Promise<string> {
  for (const end = Date.now() + 60_000; !existsSync(marker) && !writer.exited() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
  expect([existsSync(marker), writer.exited()]).toEqual([true, false]);
  return readFileSync(marker, 'utf8');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const read = (root: string, rel: string) => readFileSync(join(root, 'notes', rel), 'utf8');
const history = (root: string) => parseHistory(read(root, '.deploy.history.md'))!.map((e) => /The deploy window is (\w+)/.exec(e.text)?.[1]);
const temps = (root: string) => readdirSync(join(root, 'notes')).filter((n) => n.startsWith('.kb-tmp-'));

function remembered(): string {
  const root = workspace();
  expect(run(BINARY, root, ['remember', 'notes', '--slug', 'deploy', 'The deploy window is Tuesday 10:00-12:00 UTC.']).code).toBe(0);
  return root;
}

describe('a revision racing other writes loses nothing', () => {
  test('another revision and a remember wait for the lock, then apply on top: every earlier text is kept', async () => {
    const root = remembered();
    const marker = join(tempDir(), 'paused');
    const first = start(root, ['revise', 'notes', 'deploy', 'The deploy window is Thursday 14:00-16:00 UTC.'], marker);
    // Paused before its history replaces anything: it holds the topic's lock.
    expect(await paused(marker, first)).toContain('.kb-tmp-');
    const second = start(root, ['revise', 'notes', 'deploy', 'The deploy window is Friday 08:00-09:00 UTC.']);
    const other = start(root, ['remember', 'notes', 'Backups run nightly at 01:00.']);
    await sleep(500);
    expect([second.exited(), other.exited()]).toEqual([false, false]);
    expect(read(root, 'deploy.md')).toContain('Tuesday');
    expect(existsSync(join(root, 'notes/.deploy.history.md'))).toBe(false);
    // On: the history is replaced, and the writer stops again before the
    // subject is: the earlier text is kept before it is replaced.
    rmSync(marker);
    await paused(marker, first);
    expect(history(root)).toEqual(['Tuesday']);
    expect(read(root, 'deploy.md')).toContain('Tuesday');
    rmSync(marker);
    const results = await Promise.all([first.done, second.done, other.done]);
    expect(results.map((r) => [r.code, r.err])).toEqual([
      [0, ''],
      [0, ''],
      [0, ''],
    ]);
    expect(read(root, 'deploy.md')).toContain('Friday 08:00-09:00');
    expect(history(root)).toEqual(['Thursday', 'Tuesday']);
    expect(readdirSync(join(root, 'notes')).filter((n) => n.endsWith('.md')).sort()).toEqual(['.deploy.history.md', 'backups-run-nightly-01-00.md', 'deploy.md']);
    expect(temps(root)).toEqual([]);
  }, 90_000);

  test("an editor's save meanwhile wins: the revision replaces nothing and says so", async () => {
    for (const at of ['before the history', 'before the subject']) {
      const root = remembered();
      const marker = join(tempDir(), 'paused');
      const reviser = start(root, ['revise', 'notes', 'deploy', 'The deploy window is Thursday 14:00-16:00 UTC.'], marker);
      await paused(marker, reviser);
      if (at === 'before the subject') {
        rmSync(marker);
        await paused(marker, reviser);
      }
      writeFileSync(join(root, 'notes/deploy.md'), '---\nsource: user\n---\nThe deploy window is Monday, says the editor.\n');
      rmSync(marker);
      const r = await reviser.done;
      expect([at, r.code]).toEqual([at, 1]);
      expect(r.out).toContain('deploy.md was changed meanwhile');
      expect(read(root, 'deploy.md')).toContain('says the editor');
      // The earlier text, if the history was written, is kept all the same.
      if (at === 'before the subject') expect(history(root)).toEqual(['Tuesday']);
      else expect(existsSync(join(root, 'notes/.deploy.history.md'))).toBe(false);
      expect(temps(root)).toEqual([]);
    }
  }, 90_000);

  test('a reviser killed at either point leaves the subject whole and its earlier text kept; the next write removes the leftovers', async () => {
    const root = remembered();
    for (const pauses of [1, 2]) {
      const marker = join(tempDir(), 'paused');
      const reviser = start(root, ['revise', 'notes', 'deploy', 'The deploy window is Thursday 14:00-16:00 UTC.'], marker);
      await paused(marker, reviser);
      if (pauses === 2) {
        rmSync(marker);
        await paused(marker, reviser);
      }
      reviser.kill();
      expect((await reviser.done).signal).toBe('SIGKILL');
      expect(read(root, 'deploy.md')).toContain('Tuesday 10:00-12:00');
      expect(temps(root)).toHaveLength(1);
      rmSync(join(root, 'notes', temps(root)[0]));
      rmSync(join(root, 'notes/.kb-lock'), { recursive: true, force: true });
    }
    expect(history(root)).toEqual(['Tuesday']);
    // A leftover aged past the stale time, as a killed writer leaves it.
    const leftover = join(root, 'notes/.kb-tmp-1-abcdef');
    writeFileSync(leftover, 'partial');
    const old = new Date(Date.now() - 60_000);
    utimesSync(leftover, old, old);
    const next = run(BINARY, root, ['revise', 'notes', 'deploy', 'The deploy window is Thursday 14:00-16:00 UTC.']);
    expect(next.code).toBe(0);
    expect(next.err).toContain('left by an interrupted write');
    expect(temps(root)).toEqual([]);
    expect(history(root)).toEqual(['Tuesday', 'Tuesday']);
    expect(read(root, 'deploy.md')).toContain('Thursday 14:00-16:00');
  }, 90_000);
});

describe('MCP', () => {
  test('revise is served with --write only, annotated destructive; it revises, refuses and is bounded like the CLI', async () => {
    const root = remembered();
    writeFileSync(join(root, 'notes/guide.md'), '# Guide\n\nBy hand.\n');
    const transport = new StdioClientTransport({ command: BIN, args: ['mcp', '--write', 'notes'], cwd: root, env: isolatedEnv(root), stderr: 'pipe' });
    const client = new Client({ name: 'kb-e2e', version: '1.0.0' });
    checkReplies(transport);
    await client.connect(transport);
    const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'revise')!;
      expect(tool.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false, idempotentHint: true });
      expect(tool.inputSchema.required).toEqual(['topic', 'slug', 'text']);
      expect(tool.description).toContain('Writable topics:\n- notes');

      const update = await client.callTool({ name: 'remember', arguments: { topic: 'notes', text: 'The deploy window is Thursday 14:00-16:00 UTC.' } });
      expect(update.isError).toBe(true);
      expect(textOf(update)).toContain('call revise with topic "notes", slug "deploy" and your text');
      const revised = await client.callTool({ name: 'revise', arguments: { topic: 'notes', slug: 'deploy', text: 'The deploy window is Thursday 14:00-16:00 UTC.' } });
      expect(revised.isError).toBe(false);
      expect(textOf(revised)).toStartWith('Revised subject "deploy" of topic "notes"');
      expect(read(root, 'deploy.md')).toContain('source: model');
      expect(history(root)).toEqual(['Tuesday']);
      expect(textOf(await client.callTool({ name: 'learn', arguments: { topic: 'notes', subjects: ['deploy'] } }))).toContain('Thursday 14:00-16:00');

      const hand = await client.callTool({ name: 'revise', arguments: { topic: 'notes', slug: 'guide', text: 'x' } });
      expect(hand.isError).toBe(true);
      expect(textOf(hand)).toContain('"force": true');
      const docs = await client.callTool({ name: 'revise', arguments: { topic: 'docs', slug: 'readme', text: 'x' } });
      expect(docs.isError).toBe(true);
      expect(textOf(docs)).toContain('not writable here');
      const bad = await client.callTool({ name: 'revise', arguments: { topic: 'notes', slug: 'deploy' } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain('"text" is required');
    } finally {
      await client.close();
    }
    const reader = new StdioClientTransport({ command: BIN, args: ['mcp'], cwd: root, env: isolatedEnv(root), stderr: 'pipe' });
    const plain = new Client({ name: 'kb-e2e', version: '1.0.0' });
    await plain.connect(reader);
    try {
      expect((await plain.listTools()).tools.map((t) => t.name)).toEqual(['learn', 'search']);
      await expect(plain.callTool({ name: 'revise', arguments: { topic: 'notes', slug: 'deploy', text: 'x' } })).rejects.toThrow(/kb mcp --write/);
    } finally {
      await plain.close();
    }
  }, 60_000);
});
