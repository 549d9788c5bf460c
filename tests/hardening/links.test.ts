// Symbolic links that fan out, lead out of the workspace, or lead into a
// whole file system, end to end on dist/kb. Each real directory is walked
// once per walk, the entries one walk reads are capped (KB_WALK_LIMIT sets
// the cap; a notice says when it is reached, to the model and on stderr),
// and `kb check` warns about links that lead out of the workspace. Every
// front end opens topics through the same walk: listings, globs, exact
// loads, and every MCP request.
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { checkReplies } from '../e2e/mcp-client.ts';
import { isolatedEnv } from '../e2e/harness.ts';
import { BIN, cleanup, expectNoCrash, kbMeasured, tempDir, workspace, type Measured } from './helpers.ts';

afterAll(cleanup);

const MiB = 1 << 20;
const LEVELS = 16;

function run(root: string, args: string[], env: Record<string, string> = {}): Measured {
  const r = kbMeasured(root, args, { env, timeoutMs: 60_000 });
  expectNoCrash(r);
  return r;
}

/** Folders d0..d<levels> under `base`, each with a file `f<i>.md` and two
 *  links `a` and `b` to the next folder: 2^levels paths to the last one. */
function fanOut(base: string, levels: number): void {
  for (let i = 0; i <= levels; i++) {
    mkdirSync(join(base, `d${i}`), { recursive: true });
    writeFileSync(join(base, `d${i}`, `f${i}.md`), `${i}\n`);
    if (i < levels) {
      symlinkSync(`../d${i + 1}`, join(base, `d${i}`, 'a'));
      symlinkSync(`../d${i + 1}`, join(base, `d${i}`, 'b'));
    }
  }
}

const LISTING_END = '\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n';

describe(`links that fan out (${LEVELS} levels, two links per folder)`, () => {
  const inside = workspace({ 't/ok.md': 'OK\n' });
  fanOut(join(inside, 't'), LEVELS);
  const slugs = Array.from({ length: LEVELS + 1 }, (_, i) => `d${i}/f${i}`).sort();

  test('inside the topic: each folder is walked once, under its own name; every link says where its folder is', () => {
    const list = run(inside, ['learn', 't']);
    // Listed in natural order: d2 before d10.
    const listed = Array.from({ length: LEVELS + 1 }, (_, i) => `d${i}/f${i}`);
    expect(list.out).toBe(`# Topic: t\n\n## Available subjects:\n\n${[...listed, 'ok'].map((s) => `- ${s}`).join('\n')}${LISTING_END}`);
    expect(list.code).toBe(0);
    expect(list.maxRss).toBeLessThan(150 * MiB);

    const prompt = run(inside, ['prompt']);
    const warnings = prompt.err.trimEnd().split('\n');
    expect(warnings).toHaveLength(2 * LEVELS);
    expect(warnings).toContain('warning: topic "t": symbolic link to a directory walked elsewhere skipped: d0/a -> ../d1 (walked as d1)');
    expect(warnings).toContain(`warning: topic "t": symbolic link to a directory walked elsewhere skipped: d${LEVELS - 1}/b -> ../d${LEVELS} (walked as d${LEVELS})`);

    const check = run(inside, ['check']);
    expect(check.code).toBe(0);
    expect(check.out.trimEnd().split('\n').at(-1)).toBe(`ok: 1 topic, ${LEVELS + 2} subjects, 0 errors, ${2 * LEVELS} warnings`);
    expect(check.out).toContain('warning: topic "t": symbolic link to a directory walked elsewhere skipped: d3/b -> ../d4 (walked as d4) (t/d3/b)\n');
  }, 120_000);

  test('an exact load and a glob walk it once too', () => {
    const exact = run(inside, ['learn', 't', `d${LEVELS}/f${LEVELS}`]);
    expect({ out: exact.out, code: exact.code }).toEqual({ out: `${LEVELS}\n`, code: 0 });
    expect(exact.maxRss).toBeLessThan(150 * MiB);
    const glob = run(inside, ['learn', 't', '**/f1*']);
    expect(glob.out.match(/<subject "/g)).toHaveLength(slugs.filter((s) => /\/f1/.test(s)).length);
  }, 120_000);

  test('outside the workspace, through one link: each folder once, by device and inode', () => {
    const root = workspace({ 't/ok.md': 'OK\n' });
    const outside = tempDir();
    fanOut(outside, LEVELS);
    symlinkSync(join(outside, 'd0'), join(root, 't', 'chain'));
    const list = run(root, ['learn', 't']);
    const listed = list.out.split('\n').filter((l) => l.startsWith('- '));
    expect(listed).toHaveLength(LEVELS + 2);
    expect(listed).toContain(`- chain/${'a/'.repeat(LEVELS)}f${LEVELS}`);
    expect(list.maxRss).toBeLessThan(150 * MiB);
    const check = run(root, ['check']);
    // The one link that leaves the workspace; the links between the
    // folders outside it are not the workspace's.
    expect(check.out).toContain(
      `warning: topic "t": symbolic link leads outside the workspace: chain -> ${join(outside, 'd0')}; what it leads to is given to the model (t/chain)\n`,
    );
    expect(check.out.match(/leads outside the workspace/g)).toHaveLength(1);
    expect(check.out).toContain(`symbolic link to a directory walked elsewhere skipped: chain/b -> ../d1 (walked as chain/a) (t/chain/b)`);
    expect(check.code).toBe(0);
  }, 120_000);
});

describe('links that leave the workspace: followed by design, and kb check says so', () => {
  const outside = tempDir();
  mkdirSync(join(outside, 'keys'), { recursive: true });
  writeFileSync(join(outside, 'keys', 'id_ed25519'), 'PRIVATE KEY\n');
  writeFileSync(join(outside, 'token.txt'), 'TOKEN\n');
  const root = workspace({
    't/ok.md': 'OK\n',
    't/ssh': { link: join(outside, 'keys') },
    't/token.txt': { link: join(outside, 'token.txt') },
    't/inside.md': { link: '../README.md' },
    'README.md': 'inside the workspace\n',
  });

  test('kb check warns about each link out of the workspace, not about links that stay inside', () => {
    const r = run(root, ['check']);
    expect(r.out).toBe(
      [
        `warning: topic "t": symbolic link leads outside the workspace: ssh -> ${join(outside, 'keys')}; what it leads to is given to the model (t/ssh)`,
        `warning: topic "t": symbolic link leads outside the workspace: token.txt -> ${join(outside, 'token.txt')}; what it leads to is given to the model (t/token.txt)`,
        'ok: 1 topic, 4 subjects, 0 errors, 2 warnings',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
    // Followed by design: the subjects are there.
    expect(run(root, ['learn', 't']).out).toContain('- ok\n- ssh/id_ed25519\n- token\n');
  });

  test('a subjects directory that is itself a link out of the workspace', () => {
    const ws = workspace({}, '[kb.topic.t]\nsubjects = "t"\n\n[kb.topic.home]\nsubjects = "home"\n');
    symlinkSync(outside, join(ws, 'home'));
    expect(run(ws, ['check']).out).toContain(
      `warning: topic "home": subjects directory "home" leads outside the workspace, to ${outside} (.jp/config.toml:5)\n`,
    );
  });
});

describe('the walk limit', () => {
  const root = workspace({});
  for (let i = 0; i < 30; i++) writeFileSync(join(root, 't', `f${String(i).padStart(2, '0')}.md`), `${i}\n`);
  const LIMIT = { KB_WALK_LIMIT: '10' };
  const NOTE = 'Topic "t" is only partly listed: kb reads at most 10 directory entries per topic, so some subjects may be missing.';
  const WARNING = 'warning: topic "t": the walk stopped after 10 directory entries, its limit; the rest is left out\n';

  test('a listing shows what was read, and says the rest is missing, to the model and on stderr', () => {
    const r = run(root, ['learn', 't'], LIMIT);
    const subjects = Array.from({ length: 10 }, (_, i) => `- f0${i}`).join('\n');
    expect(r.out).toBe(`# Topic: t\n\n## Available subjects:\n\n${subjects}\n\n${NOTE}${LISTING_END}`);
    expect(r.err).toBe(WARNING);
    expect(r.code).toBe(0);
  });

  test('loads: a subject past the limit is not found, and the model is told why', () => {
    const past = run(root, ['learn', 't', 'f20'], LIMIT);
    expect(past.out).toBe(`${NOTE}\nNo subjects match "f20" in topic "t". Closest subjects: "f00". Call \`learn\` with only the topic to list its subjects.\n`);
    expect(past.err).toBe(WARNING);
    expect(past.code).toBe(1);
    // One exact subject found: its content alone (the limit took nothing from it).
    expect(run(root, ['learn', 't', 'f05'], LIMIT)).toMatchObject({ out: '5\n', err: WARNING, code: 0 });
    const glob = run(root, ['learn', 't', 'f1*'], LIMIT);
    expect(glob.out).toBe(`${NOTE}\nNo subjects match "f1*" in topic "t". Call \`learn\` with only the topic to list its subjects.\n`);
  });

  test('prompt, list and check say it too; a bad value is a warning and the default applies', () => {
    expect(run(root, ['prompt'], LIMIT).err).toBe(WARNING);
    expect(run(root, ['list'], LIMIT).out).toContain('  ! the walk stopped after 10 directory entries, its limit; the rest is left out\n');
    expect(run(root, ['check'], LIMIT).out).toBe(
      'warning: topic "t": the walk stopped after 10 directory entries, its limit; the rest is left out (t)\nok: 1 topic, 10 subjects, 0 errors, 1 warning\n',
    );
    const bad = run(root, ['learn', 't', 'f29'], { KB_WALK_LIMIT: 'lots' });
    expect(bad).toMatchObject({ out: '29\n', code: 0 });
    expect(bad.err).toBe('warning: KB_WALK_LIMIT must be a whole number of at least 1, got "lots"; using 200000 (KB_WALK_LIMIT)\n');
  });

  test.skipIf(!existsSync('/proc/self'))('a link to /proc: bounded by the limit, with the notice', () => {
    const proc = workspace({ 't/ok.md': 'OK\n', 't/p': { link: '/proc' } });
    const env = { KB_WALK_LIMIT: '20000' };
    const list = run(proc, ['learn', 't'], env);
    expect(list.code).toBe(0);
    expect(list.out).toContain('Topic "t" is only partly listed: kb reads at most 20,000 directory entries per topic');
    expect(list.maxRss).toBeLessThan(300 * MiB);
    const exact = run(proc, ['learn', 't', 'ok'], env);
    expect({ out: exact.out, code: exact.code }).toEqual({ out: 'OK\n', code: 0 });
    expect(exact.maxRss).toBeLessThan(300 * MiB);
  }, 120_000);
});

describe('kb mcp: every request walks once per directory, within the limit', () => {
  test('tools/list, tools/call (listing, exact, glob), resources, the prompt', async () => {
    const root = workspace({ 't/ok.md': 'OK\n' });
    fanOut(join(root, 't'), LEVELS);
    mkdirSync(join(root, 't', 'zz'));
    for (let i = 0; i < 30; i++) writeFileSync(join(root, 't', 'zz', `z${String(i).padStart(2, '0')}.md`), `${i}\n`);
    // d0..d16, ok.md and zz are 19 entries, d0..d16 hold 49 more (walked
    // first, depth first in name order), zz 30: the limit cuts zz after 12.
    const transport = new StdioClientTransport({ command: BIN, args: ['mcp'], cwd: root, env: isolatedEnv(root, { KB_WALK_LIMIT: '80' }), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d) => (stderr += d.toString()));
    const client = new Client({ name: 'kb-hardening', version: '1.0.0' });
    checkReplies(transport);
    await client.connect(transport);
    try {
      const text = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;
      const NOTE = 'Topic "t" is only partly listed: kb reads at most 80 directory entries per topic, so some subjects may be missing.';
      for (let round = 0; round < 3; round++) {
        const listing = await client.callTool({ name: 'learn', arguments: { topic: 't' } });
        expect(text(listing)).toContain(`- d0/f0\n- d1/f1\n`);
        expect(text(listing)).toContain(NOTE);
        expect(text(listing)).not.toContain('d0/a/');
        const exact = await client.callTool({ name: 'learn', arguments: { topic: 't', subjects: 'd16/f16' } });
        expect(text(exact)).toBe('16\n');
        const last = await client.callTool({ name: 'learn', arguments: { topic: 't', subjects: 'zz/z11' } });
        expect(text(last)).toBe('11\n');
        const glob = await client.callTool({ name: 'learn', arguments: { topic: 't', subjects: ['zz/z2*'] } });
        expect(text(glob)).toBe(`${NOTE}\nNo subjects match "zz/z2*" in topic "t". Call \`learn\` with only the topic to list its subjects.\n`);
        const resources = await client.listResources();
        expect(resources.resources.map((r) => r.name)).toContain('t/d16/f16');
        expect(resources.resources.some((r) => r.name.startsWith('t/d0/a/'))).toBe(false);
        const read = await client.readResource({ uri: 'kb://t/d9/f9' });
        expect((read.contents[0] as { text: string }).text).toBe('9\n');
        await client.getPrompt({ name: 'knowledge', arguments: {} });
        await client.listTools();
      }
    } finally {
      await client.close();
    }
    // Each warning once per server.
    expect(stderr.match(/the walk stopped after 80 directory entries/g)).toHaveLength(1);
    expect(stderr.match(/d0\/a -> \.\.\/d1 \(walked as d1\)/g)).toHaveLength(1);
  }, 60_000);
});
