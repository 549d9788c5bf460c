// kb remember and kb forget end to end, on the binary (the cases of
// memory.cases.ts, which tests/parity runs under deno too): what a user
// sees and the exit codes; writes under concurrency
// (20 processes at once), a process killed mid-write, readers during
// writes; the MCP tools, served only with --write, and a write seen by the
// next call of another server.
import { describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { checkReplies } from './mcp-client.ts';
import { cases, subjects, workspace } from './memory.cases.ts';
import { BIN, BINARY, isolatedEnv, run, tempDir } from './harness.ts';

/** Runs the binary without waiting (several at once). */
function start(root: string, args: string[], input = ''): { pid: number; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(BIN, args, { cwd: root, env: isolatedEnv(root), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) => child.on('close', (code) => resolve({ code, out, err })));
  return { pid: child.pid!, done };
}

cases(BINARY);

describe('kb schema --tool remember|revise|forget', () => {
  test('every provider format; --write names the topics', () => {
    const root = workspace();
    for (const format of ['generic', 'openai', 'anthropic', 'gemini', 'mcp']) {
      for (const tool of ['remember', 'revise', 'forget']) {
        const r = run(BINARY, root, ['schema', '--tool', tool, '--format', format]);
        expect(r.code).toBe(0);
        expect(r.out).toContain(`"${tool}"`);
        expect(r.out).toContain('- notes');
      }
    }
    const only = JSON.parse(run(BINARY, root, ['schema', '--tool', 'remember', '--write', 'notes']).out);
    expect(only.description).toContain('Writable topics:\n- notes');
    expect(only.description).not.toContain('- docs');
    expect(only.parameters.required).toEqual(['topic', 'text']);
    expect(run(BINARY, root, ['schema', '--write', 'notes']).code).toBe(2);
    expect(run(BINARY, root, ['schema', '--tool', 'forget', '--write', 'nope']).code).toBe(2);
  });
});

describe('concurrency and crashes', () => {
  test('20 concurrent remembers of distinct facts make 20 files; 20 of one fact make 1', async () => {
    const root = workspace();
    // Facts that share no content word (facts of one template, "the X
    // service listens on port N", are near duplicates of each other).
    const topics = [
      'Releases are tagged every second Tuesday.',
      'The staging database resets nightly.',
      'Alice owns the billing module.',
      'Use rebase, never merge commits, on feature branches.',
      'Coffee machine repairs: call extension 4711.',
      'Passwords rotate quarterly through the vault.',
      'Invoices in euros round half to even.',
      'Our CI runners have two cores each.',
      'Docs build with vitepress.',
      'Flaky tests get quarantined within a day.',
      'Bob prefers short commit subjects.',
      'Production logs live in Loki for thirty days.',
      'Feature flags expire after six weeks.',
      'Mobile app ships through TestFlight first.',
      'Kubernetes upgrades happen in March and September.',
      'Support tickets escalate after four hours.',
      'Design reviews happen Thursdays.',
      'Translations come from Crowdin.',
      'Backups are verified monthly by restoring one.',
      'Interns pair with a mentor for their first sprint.',
    ];
    const distinct = await Promise.all(topics.map((w) => start(root, ['remember', 'notes', w]).done));
    expect(distinct.map((r) => r.code)).toEqual(topics.map(() => 0));
    expect(subjects(root)).toHaveLength(20);
    const one = await Promise.all(topics.map(() => start(root, ['remember', 'notes', 'The zulu cluster is drained every Friday at 18:00.']).done));
    expect(one.map((r) => r.code)).toEqual(topics.map(() => 0));
    expect(one.filter((r) => r.out.startsWith('Remembered')).length).toBe(1);
    expect(one.filter((r) => r.out.startsWith('Already remembered')).length).toBe(19);
    expect(subjects(root)).toHaveLength(21);
    expect(readdirSync(join(root, 'notes')).filter((n) => n.startsWith('.kb-'))).toEqual([]);
  }, 60_000);

  test('readers during writes see each subject whole or not at all', async () => {
    const root = workspace();
    const writers = Array.from({ length: 12 }, (_, i) => start(root, ['remember', 'notes', '-', '--force'], `Fact number ${i}: ${'lorem ipsum dolor '.repeat(2000 + i * 97)} end of fact ${i}.\n`).done);
    let writing = true;
    const all = Promise.all(writers).then((r) => {
      writing = false;
      return r;
    });
    let reads = 0;
    while (writing || reads === 0) {
      const r = await start(root, ['learn', 'notes', '*', '--max-tokens', '0']).done;
      reads++;
      // Each subject in the output is there whole: its last words too.
      const started = new Set(r.out.match(/Fact number \d+/g)?.map((m) => m.slice(12)));
      const ended = new Set(r.out.match(/end of fact \d+\./g)?.map((m) => m.slice(12, -1)));
      expect([...ended].sort()).toEqual([...started].sort());
      expect(r.out).not.toContain('kb-tmp');
    }
    expect((await all).every((r) => r.code === 0)).toBe(true);
    expect(subjects(root)).toHaveLength(12);
    expect(reads).toBeGreaterThan(0);
  }, 60_000);

  test('a process killed mid-write leaves no partial subject; the next write recovers the lock and removes the leftovers', async () => {
    const root = workspace();
    const dir = join(root, 'notes');
    const big = `# Big\n\n${'a long line of text for a large subject\n'.repeat(200_000)}the end\n`; // ~8 MB
    // The write path's test hook (src/kb/write/file.ts) stops the writer
    // between flushing its temporary file and linking it to its name, and
    // says so in a marker file: no race between a watcher and a signal.
    const marker = join(tempDir(), 'paused');
    const child = spawn(BIN, ['remember', 'notes', '-', '--slug', 'big'], { cwd: root, env: { ...isolatedEnv(root), KB_TEST_PAUSE_AT: `before-link:${marker}` }, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.resume();
    child.stdin.on('error', () => undefined);
    child.stdin.end(big);
    const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    let exited = false;
    void done.then(() => (exited = true));
    for (const end = Date.now() + 60_000; !existsSync(marker) && !exited && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
    expect([existsSync(marker), exited, err]).toEqual([true, false, '']);
    // Stopped between creating its temporary file and linking it: the
    // temporary file is whole (frontmatter, then the text), the subject is
    // not there at all.
    const tmp = readFileSync(marker, 'utf8');
    const names = readdirSync(dir);
    expect(names).toContain(basename(tmp));
    expect(basename(tmp)).toStartWith('.kb-tmp-');
    expect(names).not.toContain('big.md');
    const written = readFileSync(tmp, 'utf8');
    expect(written).toStartWith('---\n');
    expect(written.endsWith(`---\n${big}`)).toBe(true);
    child.kill('SIGKILL');
    expect(await done).toEqual({ code: null, signal: 'SIGKILL' });
    expect(readdirSync(dir)).not.toContain('big.md');
    expect(subjects(root)).toEqual([]);
    // No listing shows the leftovers.
    expect(run(BINARY, root, ['learn', 'notes']).out).not.toContain('kb-tmp');
    // A dead writer's lock and temporary file, aged past the stale time.
    const old = new Date(Date.now() - 60_000);
    for (const n of readdirSync(dir)) if (n.startsWith('.kb-')) utimesSync(join(dir, n), old, old);
    const next = run(BINARY, root, ['remember', 'notes', 'After the crash, writing works again.']);
    expect(next.code).toBe(0);
    expect(next.err).toContain('left by an interrupted write');
    expect(readdirSync(dir).filter((n) => n.startsWith('.kb-'))).toEqual([]);
    expect(existsSync(join(dir, 'after-crash-writing-works.md'))).toBe(true);
  }, 90_000);
});

describe('MCP', () => {
  async function connect(root: string, args: string[]) {
    const transport = new StdioClientTransport({ command: BIN, args: ['mcp', ...args], cwd: root, env: isolatedEnv(root), stderr: 'pipe' });
    const client = new Client({ name: 'kb-e2e', version: '1.0.0' });
    checkReplies(transport);
    await client.connect(transport);
    return client;
  }
  const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;

  test('remember and forget are served only with --write, for its topics; another server sees a write at once', async () => {
    const root = workspace();
    const reader = await connect(root, []);
    const writer = await connect(root, ['--write', 'notes']);
    try {
      expect((await reader.listTools()).tools.map((t) => t.name)).toEqual(['learn', 'search']);
      const tools = (await writer.listTools()).tools;
      expect(tools.map((t) => t.name)).toEqual(['learn', 'search', 'remember', 'revise', 'forget']);
      expect(tools[2].description).toContain('Writable topics:\n- notes');
      expect(tools[2].annotations).toMatchObject({ destructiveHint: false, readOnlyHint: false });
      expect(tools[3].annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      expect(tools[4].annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      await expect(reader.callTool({ name: 'remember', arguments: { topic: 'notes', text: 'x' } })).rejects.toThrow(/kb mcp --write/);

      // the reader's search builds its cache before the write
      expect(textOf(await reader.callTool({ name: 'search', arguments: { query: 'staging database' } }))).toContain('No subject');
      const r = await writer.callTool({ name: 'remember', arguments: { topic: 'notes', text: 'The staging database is reset every night at 02:00.' } });
      expect(r.isError).toBe(false);
      expect(textOf(r)).toContain('Remembered as subject "staging-database-reset-every-night-02"');
      expect(readFileSync(join(root, 'notes/staging-database-reset-every-night-02.md'), 'utf8')).toContain('source: model');
      expect(textOf(await reader.callTool({ name: 'search', arguments: { query: 'staging database' } }))).toContain('notes: staging-database-reset-every-night-02');
      expect(textOf(await reader.callTool({ name: 'learn', arguments: { topic: 'notes' } }))).toContain('- staging-database-reset-every-night-02');

      const near = await writer.callTool({ name: 'remember', arguments: { topic: 'notes', text: 'Every night at 02:00 the staging database is reset.' } });
      expect(near.isError).toBe(true);
      expect(textOf(near)).toContain('"force": true');
      const other = await writer.callTool({ name: 'remember', arguments: { topic: 'docs', text: 'x' } });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toContain('not writable');

      const gone = await writer.callTool({ name: 'forget', arguments: { topic: 'notes', slug: 'staging-database-reset-every-night-02' } });
      expect(gone.isError).toBe(false);
      expect(textOf(await reader.callTool({ name: 'learn', arguments: { topic: 'notes' } }))).not.toContain('staging');
    } finally {
      await reader.close();
      await writer.close();
    }
  }, 30_000);

  test('--write with an unknown topic stops the server with a usage error', () => {
    const root = workspace();
    const r = run(BINARY, root, ['mcp', '--write', 'nope']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--write: unknown topic "nope"');
  });
});
