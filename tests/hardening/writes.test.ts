// The write path against hostile slugs, folders, locks and input
// (docs/development/robustness.md, "Writes"): `kb remember` and `kb forget` on dist/kb,
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
import { COSTS } from '../../src/render/costs.ts';

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

describe('a topic folder that leads out of the workspace', () => {
  test('kb remember and kb forget refuse it, naming the link; reading it keeps its warning', () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'kept.md'), 'Kept outside.\n');
    const root = workspace({});
    rmSync(join(root, 't'), { recursive: true });
    symlinkSync(outside, join(root, 't'));
    const r = kb(root, ['remember', 't', 'Written through the link']);
    expectNoCrash(r);
    expect(r.code).toBe(1);
    expect(r.out).toBe(`Not written to topic "t": t is a symbolic link to ${outside}, outside the workspace; kb writes only inside the workspace, links resolved (reading follows the link).\n`);
    const f = kb(root, ['forget', 't', 'kept']);
    expect(f.code).toBe(1);
    expect(f.out).toBe(`Not removed from topic "t": t is a symbolic link to ${outside}, outside the workspace; kb writes only inside the workspace, links resolved (reading follows the link).\n`);
    expect(readdirSync(outside)).toEqual(['kept.md']);
    // Reading goes on as before, with the warning of kb check.
    expect(kb(root, ['learn', 't', 'kept']).out).toContain('Kept outside.');
    expect(kb(root, ['check']).out).toContain(`subjects directory "t" leads outside the workspace, to ${outside}`);
  });

  test('a link further up (a folder holding the topic), over MCP too', () => {
    const outside = tempDir();
    mkdirSync(join(outside, 'notes'));
    const root = workspace({}, '[kb.topic.t]\nsubjects = "shared/notes"\n');
    symlinkSync(outside, join(root, 'shared'));
    const r = kb(root, ['remember', 't', 'Written through the link']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`Not written to topic "t": shared is a symbolic link to ${outside}, outside the workspace`);
    const mcp = mcpCall(root, 'remember', { topic: 't', text: 'Written through the link' });
    expect(mcp).toEqual({ isError: true, text: `Not written to topic "t": shared is a symbolic link to ${outside}, outside the workspace; kb writes only inside the workspace, links resolved (reading follows the link).\n` });
    expect(readdirSync(join(outside, 'notes'))).toEqual([]);
  });

  test('a topic configured outside the workspace is refused the same way; a link inside it is fine', () => {
    const outside = tempDir();
    const root = workspace({}, `[kb.topic.t]\nsubjects = "t"\n\n[kb.topic.far]\nsubjects = ${JSON.stringify(outside)}\n`);
    const far = kb(root, ['remember', 'far', 'Far away']);
    expect(far.code).toBe(1);
    expect(far.out).toContain(`Not written to topic "far": its subjects directory "${outside}" is outside the workspace, at ${outside}`);
    mkdirSync(join(root, 'real'));
    rmSync(join(root, 't'), { recursive: true });
    symlinkSync('real', join(root, 't'));
    const near = kb(root, ['remember', 't', 'Near enough']);
    expect(near.code).toBe(0);
    expect(readdirSync(join(root, 'real'))).toEqual(['near-enough.md']);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('a folder swapped for a link during a write', () => {
  test('t/sub toggling between a folder and a link to ../outside: nothing lands outside (200 tries)', async () => {
    const root = workspace({ 't/keep.md': 'Keep.\n' });
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const kbase = await KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: { XDG_CACHE_HOME: join(root, '.cache') }, home: root }, { costs: COSTS });
    const toggler = spawn(process.execPath, [join(import.meta.dir, 'toggle.ts'), join(root, 't', 'sub'), '../outside', '30'], { stdio: 'ignore' });
    let written = 0;
    let refused = 0;
    let tries = 0;
    try {
      await new Promise((r) => setTimeout(r, 100));
      // 200 tries or 5 s; on a loaded machine, on until the race has gone
      // both ways (20 s and 1,000 tries at most).
      const start = performance.now();
      const more = () => {
        const ms = performance.now() - start;
        return (tries < 200 && ms < 5000) || ((written === 0 || refused === 0) && tries < 1000 && ms < 20_000);
      };
      for (; more(); tries++) {
        const out = await remember(kbase, { topic: 't', text: `Fact ${tries}: ${tries.toString(36)} ${(tries * 7919).toString(36)} zebra${tries}`, slug: `sub/x${tries}`, tags: [], force: true }, { source: 'user' });
        if (out.status === 'written') written++;
        else refused++;
        // Nothing outside, at any time.
        expect(filesBelow(outside)).toEqual([]);
      }
    } finally {
      const exited = new Promise((r) => toggler.once('exit', r));
      toggler.kill();
      await exited;
    }
    expect(filesBelow(outside)).toEqual([]);
    // The race was run both ways: some writes went through, some were refused.
    expect(tries).toBeGreaterThan(20);
    expect(written).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    // What was written is inside the topic, under the folder or where the
    // toggler had moved it, never half-written.
    const inTopic = filesBelow(join(root, 't')).filter((f) => /x\d+\.md$/.test(f));
    expect(inTopic.length).toBe(written);
    for (const f of inTopic) expect(readFileSync(join(root, 't', f), 'utf8')).toMatch(/^---\n[^]*\n---\nFact \d+/);
    expect(filesBelow(join(root, 't')).filter((f) => f.includes('.kb-tmp-'))).toEqual([]);
  }, 60_000);

  test('dist/kb under the same toggling: nothing lands outside', async () => {
    const root = workspace({ 't/keep.md': 'Keep.\n' });
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const toggler = spawn(process.execPath, [join(import.meta.dir, 'toggle.ts'), join(root, 't', 'sub'), '../outside', '30'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 100));
      for (let i = 0, end = performance.now() + 2000; i < 30 && performance.now() < end; i++) {
        const r = kb(root, ['remember', 't', '--force', '--slug', `sub/y${i}`, `Fact ${i} ${i.toString(36)}`]);
        expectNoCrash(r);
        expect(filesBelow(outside)).toEqual([]);
      }
    } finally {
      const exited = new Promise((r) => toggler.once('exit', r));
      toggler.kill();
      await exited;
    }
    expect(filesBelow(outside)).toEqual([]);
  }, 60_000);
});

describe('lock errors', () => {
  const fast = (r: { ms: number }) => expect(r.ms).toBeLessThan(8000);

  test.each([
    ['a regular file', (p: string) => writeFileSync(p, 'not a lock\n'), 'is a file, not kb\'s lock; remove it to write to this topic'],
    ['a symbolic link', (p: string) => symlinkSync('/tmp', p), 'is a symbolic link, not kb\'s lock; remove it to write to this topic'],
    ['a folder holding files, fresh', (p: string) => (mkdirSync(p), writeFileSync(join(p, 'x'), 'x')), 'is a folder holding files, not kb\'s lock'],
    [
      'a folder holding files, committed long ago',
      (p: string) => {
        mkdirSync(p);
        writeFileSync(join(p, 'x'), 'x');
        const old = new Date(Date.now() - 3_600_000);
        utimesSync(p, old, old);
      },
      'is a folder holding files, not kb\'s lock',
    ],
  ])('.kb-lock as %s: answered at once, naming it', (_, make, says) => {
    const root = workspace({ 't/a.md': 'A.\n' });
    make(join(root, 't', '.kb-lock'));
    for (const args of [['remember', 't', 'Something new'], ['forget', 't', 'a']]) {
      const r = kbMeasured(root, args, { timeoutMs: 15_000 });
      expectNoCrash(r);
      fast(r);
      expect(r.code).toBe(1);
      expect(r.out).toContain(`${join(root, 't', '.kb-lock')} ${says}`);
    }
    expect(readdirSync(join(root, 't')).filter((n) => n.endsWith('.md'))).toEqual(['a.md']);
  });

  test.skipIf(permissions.skip !== undefined || permissions.runAs === undefined && process.getuid?.() === 0)('a read-only topic folder: answered at once', () => {
    const root = workspace({ 't/a.md': 'A.\n' });
    chmodSync(join(root, 't'), 0o555);
    const r = kbMeasured(root, ['remember', 't', 'Something new'], { timeoutMs: 15_000, ...(permissions.runAs !== undefined ? { asUser: permissions.runAs } : {}) });
    expectNoCrash(r);
    fast(r);
    expect(r.code).toBe(1);
    expect(r.out).toContain('Not written to topic "t": cannot lock the topic for writing (EACCES');
  });

  test('a lock held by another writer is waited for as long as configured, then named', () => {
    const root = workspace({ 't/a.md': 'A.\n' });
    mkdirSync(join(root, 't', '.kb-lock'));
    const r = kbMeasured(root, ['remember', 't', 'Something new'], { env: { KB_TEST_LOCK_WAIT_MS: '1500' }, timeoutMs: 15_000 });
    expectNoCrash(r);
    expect(r.code).toBe(1);
    expect(r.out).toBe(`Not written to topic "t": another process has been writing to this topic for more than 1.5 s (lock ${join(root, 't', '.kb-lock')}).\n`);
    expect(r.ms).toBeGreaterThanOrEqual(1500);
    expect(r.ms).toBeLessThan(1500 + 4000);
  });

  test('the wait the docs give is the one configured', () => {
    const docs = readFileSync(join(import.meta.dir, '../../docs/guide/search-and-memory.md'), 'utf8').replace(/\s+/g, ' ');
    expect(docs.match(/A writer waits up to (\d+) s for a lock another writer holds/)?.[1]).toBe(String(WAIT_MS / 1000));
  });
});

describe('input that is not valid UTF-8', () => {
  test.each([
    ['caf\xe9 \xff\n', 3, 'e9'],
    ['ok \xc3\xa9 then \xed\xa0\x80 (a surrogate)', 11, 'ed'],
    ['overlong \xc0\xaf', 9, 'c0'],
    ['cut \xe2\x82', 4, 'e2'],
  ])('%j on stdin: refused, naming the byte offset; nothing written', (text, at, hex) => {
    const root = workspace({});
    const r = kb(root, ['remember', 't', '-'], { input: Buffer.from(text, 'latin1') });
    expectNoCrash(r);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toStartWith(`error: the text on stdin is not valid UTF-8: byte 0x${hex} at offset ${at}; nothing was written (-)\n`);
    expect(readdirSync(join(root, 't'))).toEqual([]);
  });

  test('--args - the same; valid UTF-8 is stored byte for byte', () => {
    const root = workspace({});
    const bad = kb(root, ['remember', '--args', '-'], { input: Buffer.from('{"topic":"t","text":"caf\xe9"}', 'latin1') });
    expect(bad.code).toBe(2);
    expect(bad.err).toStartWith('error: the arguments on stdin are not valid UTF-8: byte 0xe9 at offset 24; nothing was written (--args)\n');
    const good = kb(root, ['remember', 't', '-', '--slug', 'cafe'], { input: 'café \u{1F600} \uFFFD\n' });
    expect(good.code).toBe(0);
    expect(readFileSync(join(root, 't', 'cafe.md'), 'utf8')).toEndWith('---\ncafé \u{1F600} \uFFFD\n');
  });
});

describe('the work done under the lock is bounded', () => {
  test('the search runs before the lock is taken: a cold index is built while another writer holds it', async () => {
    const root = workspace({ 't/a.md': 'Alpha release notes.\n', 't/b.md': 'Bravo deploy steps.\n' });
    const lock = join(root, 't', '.kb-lock');
    mkdirSync(lock);
    const cache = join(root, '.xdg-cache');
    const child = spawn(BIN, ['remember', 't', 'Charlie rotates the release keys.'], { cwd: root, env: { ...isolatedEnv(root), KB_TEST_LOCK_WAIT_MS: '20000' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const done = new Promise<number | null>((r) => child.on('close', r));
    // The index is built and stored while the lock is still held here
    // (kept fresh, as a live writer keeps it).
    const deadline = Date.now() + 8000;
    while (Date.now() < deadline && !(existsSync(cache) && filesBelow(cache).length > 0)) {
      const now = new Date();
      utimesSync(lock, now, now);
      await new Promise((r) => setTimeout(r, 20));
    }
    const built = existsSync(cache) && filesBelow(cache).length > 0;
    rmSync(lock, { recursive: true });
    expect(await done).toBe(0);
    expect(built).toBe(true);
    expect(out).toContain('Remembered as subject "charlie-rotates-release-keys"');
  }, 30_000);

  test('under the lock, at most 16 MiB of subjects are compared, and the answer says when that cut the check', () => {
    const big = (word: string) => `${`${word} release keys and notes, line after line\n`.repeat(180_000)}`; // ~7.6 MiB
    const root = workspace({ 't/a.md': big('alpha'), 't/b.md': big('bravo'), 't/c.md': big('charlie') });
    const r = kb(root, ['remember', 't', 'The release keys are rotated every spring.']);
    expectNoCrash(r);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      'Remembered as subject "release-keys-rotated-every-spring" of topic "t" (t/release-keys-rotated-every-spring.md). Load it with learn, topic "t", subjects "release-keys-rotated-every-spring". ' +
        'The duplicate check was bounded: it compared the text with 2 subjects and left 1 out (at most 16 MiB of subjects are read while the topic is locked).\n',
    );
    expect(r.err).toBe('warning: topic "t": the duplicate check compared the text with 2 subjects and left 1 out (at most 16 MiB of subjects are read while the topic is locked)\n');
    // An exact duplicate among the subjects compared is still found.
    const again = kb(root, ['remember', 't', 'The release keys are rotated every spring.']);
    expect(again.out).toContain('Already remembered: subject "release-keys-rotated-every-spring"');
  }, 60_000);
});

describe('kb revise against what a repository holds', () => {
  const ours = (text: string) => `---\nsource: user\n---\n${text}\n`;

  test('a history file of 40 MiB beside the subject: refused at once, naming it, without reading it; nothing changes', () => {
    const root = workspace({ 't/a.md': ours('The deploy window is Tuesday.') });
    writeFileSync(join(root, 't/.a.history.md'), `# Earlier texts of a.md\n\nkb revise keeps here x\n\n## Replaced t\n\n\`\`\`markdown\n${'x'.repeat(40 << 20)}\n\`\`\`\n`);
    const r = kbMeasured(root, ['revise', 't', 'a', 'The deploy window is Thursday.']);
    expectNoCrash(r);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^Not revised: subject "a" of topic "t" cannot keep its earlier text: \.a\.history\.md is \d+ bytes, more than \d+; move that file away to revise; nothing was changed\.\n$/);
    expect(r.maxRss).toBeLessThan(160 << 20);
    expect(readFileSync(join(root, 't/a.md'), 'utf8')).toBe(ours('The deploy window is Tuesday.'));
  }, 60_000);

  test('a subject that is a link to a file outside, or whose folder is: refused; what it points at is never written', () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'target.md'), ours('Outside.'));
    mkdirSync(join(outside, 'dir'));
    writeFileSync(join(outside, 'dir/b.md'), ours('Outside too.'));
    const root = workspace({ 't/keep.md': ours('Keep.') });
    symlinkSync(join(outside, 'target.md'), join(root, 't/a.md'));
    symlinkSync(join(outside, 'dir'), join(root, 't/linked'));
    for (const slug of ['a', 'linked/b']) {
      const r = kb(root, ['revise', 't', slug, '--force', 'Replaced.']);
      expectNoCrash(r);
      expect([slug, r.code]).toEqual([slug, 1]);
      expect(r.out).toStartWith(`Not revised: subject "${slug}" of topic "t"`);
    }
    expect(readFileSync(join(outside, 'target.md'), 'utf8')).toBe(ours('Outside.'));
    expect(readFileSync(join(outside, 'dir/b.md'), 'utf8')).toBe(ours('Outside too.'));
    expect(filesBelow(outside)).toEqual(['dir/b.md', 'target.md']);
  });

  test('over MCP the same: an isError result the model can read', () => {
    const root = workspace({ 't/guide.md': '# Guide\n' });
    const r = mcpCall(root, 'revise', { topic: 't', slug: 'guide', text: 'New.' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('was not written by kb');
    expect(readFileSync(join(root, 't/guide.md'), 'utf8')).toBe('# Guide\n');
  });
});
