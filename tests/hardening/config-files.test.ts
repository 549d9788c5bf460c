// Hostile configuration files and directories: what a committed link, a
// FIFO, a huge file or a fan of links in `config.d` yields, and a home
// directory kb cannot enter. Every case ends quickly, in bounded memory,
// with `error: ... (path)` or a normal run.
import { afterAll, describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, expectNoCrash, kb, kbMeasured, permissions, TOPIC, tempDir, workspace } from './helpers.ts';

afterAll(cleanup);

const MiB = 1024 * 1024;
const hasDevZero = existsSync('/dev/zero');

describe('configuration files: regular files only, at most 1 MiB', () => {
  // JP's `load_config_file_at_path` (jp_config util.rs) takes `is_file()`
  // paths only and reads them whole; kb reports anything else at a
  // configuration path, and caps the size.
  test.skipIf(!hasDevZero)('.jp/config.toml linked to /dev/zero: an error naming the file, at once', () => {
    const ws = workspace({ 't/a.md': 'A' });
    execFileSync('ln', ['-sf', '/dev/zero', join(ws, '.jp/config.toml')]);
    const r = kbMeasured(ws, ['list'], { timeoutMs: 10_000 });
    expectNoCrash(r);
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: cannot read configuration file: not a regular file (a device, FIFO or socket) (.jp/config.toml)\n');
    expect(r.maxRss).toBeLessThan(150 * MiB);
  }, 30_000);

  test.skipIf(!hasDevZero)('extends = ["/dev/zero"]: an error naming the file', () => {
    const ws = workspace({ 't/a.md': 'A' }, `extends = ["/dev/zero"]\n${TOPIC}`);
    const r = kbMeasured(ws, ['check'], { timeoutMs: 10_000 });
    expectNoCrash(r);
    expect(r.code).toBe(1);
    expect(r.out).toContain('error: cannot read configuration file: not a regular file (a device, FIFO or socket) (/dev/zero)');
    expect(r.maxRss).toBeLessThan(150 * MiB);
  }, 30_000);

  test.skipIf(process.platform === 'win32')('a FIFO as the configuration does not hang', () => {
    const ws = workspace({ 't/a.md': 'A' });
    execFileSync('rm', [join(ws, '.jp/config.toml')]);
    execFileSync('mkfifo', [join(ws, '.jp/config.toml')]);
    const r = kb(ws, ['prompt'], { timeoutMs: 10_000 });
    expectNoCrash(r);
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: cannot read configuration file: not a regular file (a device, FIFO or socket) (.jp/config.toml)\n');
  }, 30_000);

  test('a file over 1 MiB: an error, not read whole', () => {
    const big = `${TOPIC}# ${'x'.repeat(MiB)}\n`;
    const ws = workspace({ 't/a.md': 'A' }, big);
    const r = kb(ws, ['list'], { timeoutMs: 10_000 });
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: configuration file is larger than 1 MiB (.jp/config.toml)\n');
    // Just under the cap is read.
    writeFileSync(join(ws, '.jp/config.toml'), `${TOPIC}# ${'x'.repeat(MiB - TOPIC.length - 4)}\n`);
    expect(kb(ws, ['list']).code).toBe(0);
  }, 30_000);
});

describe('the extends glob walker: each real directory once, each file once', () => {
  // JP's walker (the `glob` crate, jp_config util.rs `load_optional_paths`)
  // follows every link with no loop check; kb bounds the walk.
  test('a fan of links (d0..d21, each with a and b -> the next): ends at once, the file merged once', () => {
    const ws = workspace({ 't/a.md': 'A' }, `extends = ["config.d/**/*.toml"]\n${TOPIC}`);
    const dir = join(ws, '.jp/config.d');
    for (let i = 0; i <= 21; i++) mkdirSync(join(dir, `d${i}`), { recursive: true });
    for (let i = 0; i < 21; i++) {
      symlinkSync(`../d${i + 1}`, join(dir, `d${i}`, 'a'));
      symlinkSync(`../d${i + 1}`, join(dir, `d${i}`, 'b'));
    }
    writeFileSync(join(dir, 'd21/x.toml'), '[kb.topic.t]\ntitle = "deep"\n');
    const r = kbMeasured(ws, ['--verbose', 'list'], { timeoutMs: 15_000 });
    expectNoCrash(r);
    expect(r.code).toBe(0);
    expect(r.out).toContain('t (deep): t');
    expect(r.err.split('\n').filter((l) => l.startsWith('debug: read '))).toEqual([`debug: read ${join(ws, '.jp/config.toml')}`, `debug: read ${join(dir, 'd21/x.toml')}`]);
    expect(r.ms).toBeLessThan(10_000);
  }, 30_000);

  test('links a -> . and b -> . in config.d, and two links to one folder: each file read once', () => {
    const ws = workspace(
      {
        't/a.md': 'A',
        '.jp/config.d/base.toml': '[kb.topic.t]\ntitle = "base"\n',
        '.jp/shared/s.toml': '[kb.topic.t]\nintroduction = "shared"\n',
        '.jp/config.d/a': { link: '.' },
        '.jp/config.d/b': { link: '.' },
        '.jp/config.d/x': { link: '../shared' },
        '.jp/config.d/y': { link: '../shared' },
      },
      `extends = ["config.d/**/*.toml"]\n${TOPIC}`,
    );
    const r = kb(ws, ['--verbose', 'list'], { timeoutMs: 10_000 });
    expectNoCrash(r);
    expect(r.code).toBe(0);
    expect(r.err.split('\n').filter((l) => l.startsWith('debug: read '))).toEqual([
      `debug: read ${join(ws, '.jp/config.toml')}`,
      `debug: read ${join(ws, '.jp/config.d/base.toml')}`,
      `debug: read ${join(ws, '.jp/config.d/x/s.toml')}`,
    ]);
  }, 30_000);
});

describe('a global configuration directory kb cannot enter', () => {
  // JP (jp_cli lib.rs `load_partial_configs_from_files`) treats a missing
  // user-global file as none; kb does the same for one it cannot reach.
  test('a global config dir below a regular file (ENOTDIR): no error, no warning', () => {
    const ws = workspace({ 't/a.md': 'A', 'plain-file': 'x' });
    const env = { JP_GLOBAL_CONFIG_DIR: join(ws, 'plain-file/jp') };
    const check = kb(ws, ['check'], { env });
    expect(check).toEqual({ out: 'ok: 1 topic, 1 subject, no problems\n', err: '', code: 0 });
    const list = kb(ws, ['list'], { env });
    expect([list.code, list.err]).toEqual([0, '']);
    // --verbose says it was skipped.
    expect(kb(ws, ['--verbose', 'list'], { env }).err).toContain('debug: user-global configuration skipped: cannot read configuration file: ENOTDIR');
  }, 30_000);

  test.skipIf(permissions.skip !== undefined)('a HOME the user cannot enter (HOME=/root for nobody): no error, no warning', () => {
    const ws = workspace({ 't/a.md': 'A' });
    chmodSync(join(ws, 't'), 0o755);
    chmodSync(join(ws, 't/a.md'), 0o644);
    chmodSync(join(ws, '.jp'), 0o755);
    chmodSync(join(ws, '.jp/config.toml'), 0o644);
    const home = tempDir();
    mkdirSync(join(home, '.config/jp'), { recursive: true });
    writeFileSync(join(home, '.config/jp/config.toml'), '[kb.topic.private]\nsubjects = "t"\n');
    chmodSync(home, 0o700);
    if (permissions.runAs === undefined) chmodSync(home, 0o000);
    const env = { HOME: home, XDG_CONFIG_HOME: '', JP_GLOBAL_CONFIG_DIR: '' };
    const check = kb(ws, ['check'], { env, asUser: permissions.runAs });
    chmodSync(home, 0o755);
    expect(check).toEqual({ out: 'ok: 1 topic, 1 subject, no problems\n', err: '', code: 0 });
  }, 30_000);
});
