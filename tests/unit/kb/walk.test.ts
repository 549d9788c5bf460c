import { describe, test, expect, afterAll } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, unlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { walk } from '../../../src/kb/fs/walk.ts';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) {
    try {
      chmodSync(r, 0o755);
    } catch {}
    rmSync(r, { recursive: true, force: true });
  }
});

/** Creates a temp tree: file contents, `{ link: target }` for symlinks,
 *  `{ dir: true }` for empty directories. */
function tree(spec: Record<string, string | { link: string } | { dir: true }>): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-walk-'));
  roots.push(root);
  for (const [rel, v] of Object.entries(spec)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof v === 'string') writeFileSync(abs, v);
    else if ('link' in v) symlinkSync(v.link, abs);
    else mkdirSync(abs, { recursive: true });
  }
  return root;
}

const paths = (dir: string) => walk(dir).files.map((f) => f.path).sort();
const kinds = (dir: string) => walk(dir).notices.map((n) => `${n.code}:${n.where}`).sort();

describe('walk', () => {
  test('collects regular files recursively with /-separated relative paths', () => {
    const root = tree({ 'a.md': 'a', 'x/b.md': 'b', 'x/y/.c.md': 'c', '.h/d.txt': 'd', 'empty': { dir: true } });
    expect(paths(root)).toEqual(['.h/d.txt', 'a.md', 'x/b.md', 'x/y/.c.md']);
    const f = walk(root).files.find((f) => f.path === 'x/b.md')!;
    expect(f.abs).toBe(join(root, 'x', 'b.md'));
    expect(walk(root).notices).toEqual([]);
  });

  test('size is stat\'ed lazily and is an own enumerable property', () => {
    const root = tree({ 'a.md': 'hello' });
    const [f] = walk(root).files;
    expect(f.size).toBe(5);
    expect({ ...f }.size).toBe(5);
    writeFileSync(join(root, 'b.md'), 'xy');
    const g = walk(root).files.find((x) => x.path === 'b.md')!;
    unlinkSync(join(root, 'b.md'));
    expect(g.size).toBe(-1); // vanished before the first access
  });

  test('follows a symlink to a file (path is the link, size from the target)', () => {
    const shared = tree({ 'shared.md': 'shared!' });
    const root = tree({ 'own.md': 'o', 'linked.md': { link: join(shared, 'shared.md') } });
    expect(paths(root)).toEqual(['linked.md', 'own.md']);
    const linked = walk(root).files.find((f) => f.path === 'linked.md')!;
    expect(linked.abs).toBe(join(root, 'linked.md'));
    expect(linked.size).toBe(7);
  });

  test('follows a symlink to a directory', () => {
    const shared = tree({ 'x.md': 'x', 'deep/y.md': 'y' });
    const root = tree({ 'team': { link: shared } });
    expect(paths(root)).toEqual(['team/deep/y.md', 'team/x.md']);
  });

  test('a symlink back to an ancestor is a loop: skipped with a notice', () => {
    const root = tree({ 'a/b/c.md': 'c', 'a/b/up': { link: '..' }, 'a/self': { link: '.' }, 'a/top': { link: '../' } });
    expect(paths(root)).toEqual(['a/b/c.md']);
    expect(kinds(root)).toEqual(['symlink-loop:a/b/up', 'symlink-loop:a/self', 'symlink-loop:a/top']);
  });

  test('a loop through two links is detected', () => {
    const root = tree({ 'p/x.md': 'x', 'q/y.md': 'y', 'p/to-q': { link: '../q' }, 'q/to-p': { link: '../p' } });
    // Each directory is walked once directly and once through the other link.
    expect(paths(root)).toEqual(['p/to-q/y.md', 'p/x.md', 'q/to-p/x.md', 'q/y.md']);
    expect(kinds(root)).toEqual(['symlink-loop:p/to-q/to-p', 'symlink-loop:q/to-p/to-q']);
  });

  test('a symlink to a sibling directory is not a loop', () => {
    const root = tree({ 'a/x.md': 'x', 'b/alias': { link: '../a' } });
    expect(paths(root)).toEqual(['a/x.md', 'b/alias/x.md']);
    expect(kinds(root)).toEqual([]);
  });

  test('dangling and self-referencing links are skipped with notices', () => {
    const root = tree({ 'ok.md': 'k', 'gone.md': { link: 'nowhere.md' }, 'd/gone': { link: '../missing/' }, 'me.md': { link: 'me.md' } });
    expect(paths(root)).toEqual(['ok.md']);
    expect(kinds(root)).toEqual(['dangling-link:d/gone', 'dangling-link:gone.md', 'symlink-loop:me.md']);
    const n = walk(root).notices.find((n) => n.where === 'gone.md')!;
    expect(n.message).toContain('nowhere.md');
  });

  test('missing directory and non-directory give a notice and no files', () => {
    const root = tree({ 'file.md': 'x' });
    const missing = walk(join(root, 'nope'));
    expect(missing.files).toEqual([]);
    expect(missing.notices.map((n) => n.code)).toEqual(['missing-directory']);
    const notDir = walk(join(root, 'file.md'));
    expect(notDir.files).toEqual([]);
    expect(notDir.notices.map((n) => n.code)).toEqual(['not-a-directory']);
  });

  test('the root may itself be a symlink to a directory', () => {
    const real = tree({ 'a.md': 'a' });
    const holder = tree({ 'kb': { link: real } });
    expect(paths(join(holder, 'kb'))).toEqual(['a.md']);
  });

  test('500 nesting levels do not overflow', () => {
    const root = tree({});
    const parts = Array.from({ length: 500 }, () => 'd');
    mkdirSync(join(root, ...parts), { recursive: true });
    writeFileSync(join(root, ...parts, 'deep.md'), 'deep');
    writeFileSync(join(root, 'top.md'), 'top');
    const got = walk(root);
    expect(got.files.map((f) => f.path).sort()).toEqual([parts.join('/') + '/deep.md', 'top.md']);
    expect(got.notices).toEqual([]);
  });

  test.skipIf(process.platform === 'win32')('FIFOs are skipped (never opened) with a notice', () => {
    const root = tree({ 'a.md': 'a' });
    execFileSync('mkfifo', [join(root, 'pipe.md')]);
    symlinkSync('pipe.md', join(root, 'pipe-link.md'));
    expect(paths(root)).toEqual(['a.md']);
    expect(kinds(root)).toEqual(['special-file:pipe-link.md', 'special-file:pipe.md']);
  });

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  test.skipIf(isRoot || process.platform === 'win32')('an unreadable directory gives a notice, the rest is walked', () => {
    const root = tree({ 'a.md': 'a', 'locked/b.md': 'b', 'z/c.md': 'c' });
    chmodSync(join(root, 'locked'), 0o000);
    try {
      expect(paths(root)).toEqual(['a.md', 'z/c.md']);
      expect(kinds(root)).toEqual(['unreadable:locked']);
    } finally {
      chmodSync(join(root, 'locked'), 0o755);
    }
  });
});
