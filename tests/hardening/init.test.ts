// kb init never loses or changes a byte (app/init.ts): it appends to a
// configuration's bytes as they are, never writes a file kb would then
// refuse, serialises with other kb init runs under the lock of `.jp/` (no
// table lost), and writes folder names kb never shows raw as TOML escapes.
// On dist/kb.
import { afterAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, isolatedEnv } from '../e2e/harness.ts';
import { cleanup, expectNoCrash, kb, tempDir, TOPIC, workspace } from './helpers.ts';

afterAll(cleanup);

const MiB = 1024 * 1024;
const config = (root: string) => readFileSync(join(root, '.jp/config.toml'));

/** `kb init args` started in `root`, its output gathered; `env` added. */
function start(root: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(BIN, ['init', ...args], { cwd: root, env: { ...isolatedEnv(root), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) => child.on('close', (code) => resolve({ code, out, err })));
  let exited = false;
  void done.then(() => (exited = true));
  return { done, exited: () => exited };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `cond()` holds, at most `ms`. */
async function until(cond: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !cond() && Date.now() < end; ) await sleep(10);
}

describe('a byte kb did not add is never changed', () => {
  test('a Latin-1 byte (0xE9) in a comment: kept as it is, the tables appended after it, and a note naming its offset', () => {
    const old = new Uint8Array([...new TextEncoder().encode('# caf'), 0xe9, ...new TextEncoder().encode(`\n${TOPIC}`)]);
    const root = workspace({ 't/a.md': 'A\n', 'docs/b.md': 'B\n' });
    writeFileSync(join(root, '.jp/config.toml'), old);
    const r = kb(root, ['init', 'docs']);
    expectNoCrash(r);
    expect({ code: r.code, out: r.out }).toEqual({ code: 0, out: '[kb.topic.docs]\nsubjects = "docs"\n' });
    expect(r.err).toContain('note: .jp/config.toml is not valid UTF-8 (byte 0xe9 at offset 5, read as U+FFFD): kb init changes no byte of it, but a configuration file must be UTF-8 (TOML requires it): save it as UTF-8\n');
    const after = config(root);
    expect([...after.subarray(0, old.length)]).toEqual([...old]);
    expect(after.subarray(old.length).toString('latin1')).toBe('\n[kb.topic.docs]\nsubjects = "docs"\n');
    // Every command reads it, and says that the file is not UTF-8.
    const check = kb(root, ['check']);
    expect(check.out).toContain('warning: configuration file is not valid UTF-8: byte 0xe9 at offset 5 is read as U+FFFD, as is any other invalid byte; a configuration file must be UTF-8 (TOML requires it): save it as UTF-8 (.jp/config.toml:1)\n');
    expect(check.out).toEndWith('ok: 2 topics, 2 subjects, 0 errors, 1 warning\n');
  });

  test('a byte-order mark and CRLF line ends are kept too', () => {
    const old = `\uFEFF# kb\r\n${TOPIC.replace(/\n/g, '\r\n')}`;
    const root = workspace({ 't/a.md': 'A\n', 'docs/b.md': 'B\n' }, old);
    expect(kb(root, ['init', 'docs']).code).toBe(0);
    expect(config(root).toString('utf8')).toBe(`${old}\r\n[kb.topic.docs]\r\nsubjects = "docs"\r\n`);
  });
});

describe('never a configuration kb would refuse', () => {
  test('a configuration just under 1 MiB: nothing written, and every command still reads it', () => {
    const old = `${TOPIC}# ${'x'.repeat(MiB - TOPIC.length - 20)}\n`;
    const root = workspace({ 't/a.md': 'A\n', 'docs/b.md': 'B\n' }, old);
    const r = kb(root, ['init', 'docs']);
    expectNoCrash(r);
    expect(r.code).toBe(1);
    // The tables stay the product: what to add elsewhere by hand.
    expect(r.out).toBe('[kb.topic.docs]\nsubjects = "docs"\n');
    expect(r.err).toBe(`error: with the new topics, .jp/config.toml would be ${old.length + 35} bytes, more than the 1 MiB kb reads: nothing written; move part of it to a file it extends (\`extends\`), then run kb init again (.jp/config.toml)\nNothing written: kb init writes all of it or nothing.\n`);
    expect(config(root).toString('utf8')).toBe(old);
    expect(kb(root, ['list']).code).toBe(0);
    // --dry-run says the same.
    expect(kb(root, ['init', '--dry-run', 'docs']).code).toBe(1);
  });
});

describe('kb init runs at once on one workspace: no table lost', () => {
  for (const before of ['a configuration', 'no .jp yet']) {
    test(`16 at once, ${before}: every one exits 0 and every table is there`, async () => {
      const root = tempDir();
      for (let i = 0; i < 16; i++) mkdirSync(join(root, `d${i}`, 'x'), { recursive: true });
      if (before === 'a configuration') {
        mkdirSync(join(root, '.jp'));
        writeFileSync(join(root, '.jp/config.toml'), '# the workspace\n');
      }
      const runs = await Promise.all(Array.from({ length: 16 }, (_, i) => start(root, [`d${i}`]).done));
      expect(runs.map((r) => r.code)).toEqual(Array(16).fill(0));
      const text = config(root).toString('utf8');
      for (let i = 0; i < 16; i++) expect(text).toContain(`[kb.topic.d${i}]\nsubjects = "d${i}"\n`);
      expect(kb(root, ['check']).out).toBe('ok: 16 topics, 0 subjects, no problems\n');
      expect(existsSync(join(root, '.jp/.kb-lock'))).toBe(false);
    }, 60_000);
  }

  // Deterministic: the first writer stops (the write path's test hook,
  // src/kb/write/file.ts) with the lock held, its new file written and the
  // old one found unchanged, just before it renames; a second kb init runs
  // meanwhile. Without the lock, the second appends and exits 0, then the
  // first renames over it and its table is gone.
  for (const [point, before] of [['before-rename', 'appending'], ['before-link', 'creating the file']] as const) {
    test(`a second kb init while the first is stopped ${before}: it waits, then appends`, async () => {
      const root = tempDir();
      mkdirSync(join(root, 'a'));
      mkdirSync(join(root, 'b'));
      if (point === 'before-rename') {
        mkdirSync(join(root, '.jp'));
        writeFileSync(join(root, '.jp/config.toml'), '# the workspace\n');
      }
      const marker = join(tempDir(), 'paused');
      const first = start(root, ['a'], { KB_TEST_PAUSE_AT: `${point}:${marker}` });
      await until(() => existsSync(marker) || first.exited(), 30_000);
      expect(existsSync(marker)).toBe(true);
      const second = start(root, ['b']);
      // The second waits for the lock (without it, it is done in a moment).
      await until(second.exited, 3000);
      expect(second.exited()).toBe(false);
      rmSync(marker);
      const [a, b] = await Promise.all([first.done, second.done]);
      expect([a.code, b.code, a.err.split('\n')[0], b.err.split('\n')[0]]).toEqual([0, 0, point === 'before-link' ? 'Created .jp/config.toml with 1 topic:' : 'Appended 1 topic to .jp/config.toml:', 'Appended 1 topic to .jp/config.toml:']);
      const text = config(root).toString('utf8');
      expect(text).toContain('[kb.topic.a]\nsubjects = "a"\n');
      expect(text).toContain('[kb.topic.b]\nsubjects = "b"\n');
    }, 60_000);
  }

  test('a .kb-lock in .jp that is not a lock: refused at once, naming it', () => {
    const root = workspace({ 'docs/b.md': 'B\n', '.jp/.kb-lock': 'x' });
    const r = kb(root, ['init', 'docs']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`/.jp/.kb-lock is a file, not kb's lock; remove it to write to this workspace's configuration (.jp/.kb-lock)\n`);
    expect(config(root).toString('utf8')).toBe(TOPIC);
  });
});

describe('folder names kb never shows raw', () => {
  // C1 controls (NEL, CSI), bidirectional controls, line separators,
  // zero-width characters, DEL, ESC.
  const names = ['a\u202eb', 'c\u2028d', 'e\u200bf', 'g\u0085h', 'i\u2066j', 'k\u009bl', 'm\u007fn', 'o\u001bp', 'q\ufeffr'];
  const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

  test('are TOML escapes in the file and on stdout, and read back as the folders', () => {
    const root = tempDir();
    for (const n of names) mkdirSync(join(root, n));
    writeFileSync(join(root, names[0], 'x.md'), 'X\n');
    const r = kb(root, ['init', ...names]);
    expectNoCrash(r);
    expect(r.code).toBe(0);
    const text = config(root).toString('utf8');
    expect(raw.test(text)).toBe(false);
    expect(raw.test(r.out)).toBe(false);
    expect(raw.test(r.err)).toBe(false);
    expect(r.out).toContain('[kb.topic.a-b]\nsubjects = "a\\u202eb"\n');
    expect(r.out).toContain('[kb.topic.g-h]\nsubjects = "g\\u0085h"\n');
    expect(r.out).toContain('[kb.topic.q-r]\nsubjects = "q\\ufeffr"\n');
    expect(text.endsWith(r.out)).toBe(true);
    // The topics read back with their folders.
    const learn = kb(root, ['learn', 'a-b']);
    expect(learn.out).toContain('- x\n');
    expect(kb(root, ['check']).out).toBe(`ok: ${names.length} topics, 1 subject, no problems\n`);
  });
});

describe('what kb init reads of a folder', () => {
  test('an index page of 1 MiB of hostile markup: read from its first 64 KiB, drafted in well under a few seconds', () => {
    for (const body of ['[['.repeat(MiB / 2), '*a '.repeat(MiB / 3), `<p>${'<p'.repeat(MiB / 2)}`]) {
      const root = tempDir();
      mkdirSync(join(root, 'd'));
      writeFileSync(join(root, 'd/index.org'), body);
      writeFileSync(join(root, 'd/index.html'), body);
      const t = performance.now();
      const r = kb(root, ['init', '--dry-run', 'd']);
      expectNoCrash(r);
      expect(r.code).toBe(0);
      expect(performance.now() - t).toBeLessThan(5000);
    }
  });

  test('a site file whose name holds a newline is no rule (nor a subject); the .kbignore kb init writes is read back by kb', () => {
    const root = tempDir();
    const files: Record<string, string> = { 'd/a\nb.css': 'x', 'd/x[1] .css': 'x', 'd/#y.css': 'y', 'd/_partials/_index.md': '---\nheadless: true\n---\n', 'd/_partials/p.md': 'p' };
    for (let i = 0; i < 12; i++) files[`d/p${i}.md`] = `# P${i}\n\nText.\n`;
    for (const [p, c] of Object.entries(files)) {
      mkdirSync(join(root, p, '..'), { recursive: true });
      writeFileSync(join(root, p), c);
    }
    const r = kb(root, ['init', 'd']);
    expect(r.code).toBe(0);
    const text = readFileSync(join(root, 'd/.kbignore'), 'utf8');
    expect(text).not.toContain('a\nb');
    expect(text).toContain('\n*.css\n');
    expect(text).toContain('\n/_partials/\n');
    const list = kb(root, ['list']);
    expect(list.err).toBe('');
    expect(list.out).not.toContain('css');
    expect(list.out).not.toContain('_partials');
    expect(kb(root, ['list', '--ignored']).out).toContain('  ignored:\n    #y.css  (*.css, .kbignore)\n    _partials/  (/_partials/, .kbignore)\n');
  });

  test('a folder of 60,000 entries: the survey stops at 50,000 and the .kbignore says so', () => {
    const root = tempDir();
    mkdirSync(join(root, 'd/pages'), { recursive: true });
    for (let i = 0; i < 60_000; i++) writeFileSync(join(root, `d/pages/p${i}.md`), '');
    writeFileSync(join(root, 'd/site.css'), '');
    const r = kb(root, ['init', 'd']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'd/.kbignore'), 'utf8')).toContain("# (Seen: the folder's first 50,000 entries, where the walk stopped.)\n");
  }, 60_000);
});
