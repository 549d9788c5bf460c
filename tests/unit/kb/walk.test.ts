import { describe, test, expect, afterAll } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, unlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { byName } from '../../../src/shared/arrays.ts';
import { linkKind, throughLinks, walk, type WalkTrace } from '../../../src/kb/fs/walk.ts';
import { compareCodeUnits } from '../../../src/shared/text.ts';

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

  test('links between two directories of the tree: each directory is walked once, under its own name', () => {
    const root = tree({ 'p/x.md': 'x', 'q/y.md': 'y', 'p/to-q': { link: '../q' }, 'q/to-p': { link: '../p' } });
    expect(paths(root)).toEqual(['p/x.md', 'q/y.md']);
    expect(kinds(root)).toEqual(['walked-elsewhere:p/to-q', 'walked-elsewhere:q/to-p']);
    expect(walk(root).notices.map((n) => n.message)).toEqual([
      'symbolic link to a directory walked elsewhere skipped: p/to-q -> ../q (walked as q)',
      'symbolic link to a directory walked elsewhere skipped: q/to-p -> ../p (walked as p)',
    ]);
  });

  test('a symlink to a sibling directory is not a loop, but the sibling is walked under its own name', () => {
    const root = tree({ 'a/x.md': 'x', 'b/alias': { link: '../a' } });
    expect(paths(root)).toEqual(['a/x.md']);
    expect(kinds(root)).toEqual(['walked-elsewhere:b/alias']);
  });

  test('a loop through two directories outside the tree is walked once, then detected', () => {
    const shared = tree({ 'p/x.md': 'x', 'q/y.md': 'y', 'p/to-q': { link: '../q' }, 'q/to-p': { link: '../p' } });
    const root = tree({ team: { link: join(shared, 'p') } });
    expect(paths(root)).toEqual(['team/to-q/y.md', 'team/x.md']);
    expect(kinds(root)).toEqual(['symlink-loop:team/to-q/to-p']);
  });

  test('links that fan out: each directory outside the tree once, by device and inode', () => {
    // d0..d11 outside the tree, each with links a and b to the next: 4096
    // paths to d11 before; now one walk of each directory.
    const spec: Record<string, string | { link: string }> = {};
    for (let i = 0; i < 12; i++) {
      spec[`d${i}/f${i}.md`] = `${i}`;
      if (i < 11) {
        spec[`d${i}/a`] = { link: `../d${i + 1}` };
        spec[`d${i}/b`] = { link: `../d${i + 1}` };
      }
    }
    const shared = tree(spec);
    const root = tree({ top: { link: join(shared, 'd0') }, again: { link: join(shared, 'd5') } });
    const got = walk(root);
    expect(got.files.length).toBe(12);
    // 'again' comes first in name order: d5..d11 are walked through it.
    expect(got.files.map((f) => f.path).sort()).toContain('again/a/a/a/a/a/a/f11.md');
    expect(got.files.map((f) => f.path).sort()).toContain('top/a/a/a/a/f4.md');
    const skipped = got.notices.filter((n) => n.code === 'walked-elsewhere').map((n) => n.where);
    expect(skipped).toHaveLength(12); // b in d0..d3 and d5..d10, a and b in d4
    expect(skipped).toContain('top/a/a/a/a/a');
    expect(got.notices.find((n) => n.where === 'top/a/a/a/a/a')!.message).toBe(
      'symbolic link to a directory walked elsewhere skipped: top/a/a/a/a/a -> ../d5 (walked as again)',
    );
    // Every link followed is known, with what it leads to.
    expect(got.links.filter((l) => l.real !== undefined).length).toBe(2 + 22);
  });

  test('the walk reads at most maxEntries entries, then stops with a notice about the whole directory', () => {
    const root = tree({ 'a.md': 'a', 'b.md': 'b', 'c/d.md': 'd', 'c/e.md': 'e', 'f.md': 'f' });
    const got = walk(root, { maxEntries: 5 });
    // Root: a.md, b.md, c, f.md (4 entries), then c: only d.md of its 2.
    expect(got.files.map((f) => f.path).sort()).toEqual(['a.md', 'b.md', 'c/d.md', 'f.md']);
    expect(got.notices.map((n) => `${n.code}:${n.where}`)).toEqual(['walk-limit:']);
    expect(got.notices[0].message).toBe('the walk stopped after 5 directory entries, its limit; the rest is left out');
    expect(walk(root, { maxEntries: 6 }).notices).toEqual([]);
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

describe('the trace of a walk (what a cache revalidates against)', () => {
  test('every symbolic link met is traced: followed, dangling, a loop, ignored, below a followed one', () => {
    const root = tree({
      'a.md': 'a',
      'out/b.md': 'b',
      'out/inner': { link: '../deeper' },
      'deeper/c.md': 'c',
      't/linked': { link: '../out' },
      't/file.md': { link: '../a.md' },
      't/dangling': { link: '../nowhere' },
      't/loop': { link: '.' },
      't/ignored.md': { link: '../a.md' },
      't/.kbignore': 'ignored.md\n',
    });
    const trace: WalkTrace = { dirs: [], controls: [], links: [] };
    walk(join(root, 't'), { trace });
    const rel = (p: string) => p.slice(root.length + 1);
    expect(trace.links.map(rel).sort()).toEqual(['t/dangling', 't/file.md', 't/ignored.md', 't/linked', 't/linked/inner', 't/loop']);
    expect(trace.links.map(linkKind).every((k) => k >= 0)).toBe(true);
    expect(linkKind(join(root, 't/dangling'))).toBe(0);
    expect(linkKind(join(root, 't/file.md'))).toBe(1);
    expect(linkKind(join(root, 't/linked'))).toBe(2);
    expect(linkKind(join(root, 't/loop'))).toBe(2);
  });

  test('throughLinks: a path that is a link or below one, by whole segments', () => {
    const through = throughLinks(['/w/t/linked', '/w/t/f.md']);
    expect(['/w/t/linked', '/w/t/linked/b.md', '/w/t/linked/x/y.md', '/w/t/f.md'].map(through)).toEqual([true, true, true, true]);
    expect(['/w/t/linked2/b.md', '/w/t/link', '/w/t/f.md.bak', '/w/t', '/w/t/own/a.md'].map(through)).toEqual([false, false, false, false, false]);
    expect(throughLinks([])('/w/t/linked')).toBe(false);
  });
});

describe('name order', () => {
  test('files come in code-unit order of their names, a name before the names it starts', () => {
    // `-` (0x2d) sorts before `.` (0x2e); an astral character's surrogates
    // (0xd83d) before U+FF5A, which code-point order puts the other way.
    const names = ['b.md', 'a.md', 'a', 'a-b.md', 'ab', 'A.md', '\u{1F600}.md', '\uFF5A.md', 'é.md', 'a.md.txt'];
    const spec: Record<string, string> = {};
    for (const n of names) spec[n] = 'x';
    const got = walk(tree(spec)).files.map((f) => f.path);
    expect(got).toEqual([...names].sort(compareCodeUnits));
    expect(got.slice(0, 6)).toEqual(['A.md', 'a', 'a-b.md', 'a.md', 'a.md.txt', 'ab']);
  });

  test('byName sorts as a comparison of code units does, whatever the names', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }).filter((s) => !s.includes('\0'))), (names) => {
        const entries = names.map((name, i) => ({ name, i }));
        expect(byName(entries).map((e) => e.name)).toEqual([...names].sort(compareCodeUnits));
      }),
    );
  });

  test('byName keeps entries apart past 65,536 of them (and 256)', () => {
    const entries = Array.from({ length: 70_000 }, (_, i) => ({ name: `n${(69_999 - i).toString().padStart(5, '0')}` }));
    const got = byName(entries);
    expect(got[0]).toBe(entries[69_999]);
    expect(got[69_999]).toBe(entries[0]);
    expect(got.every((e, i) => i === 0 || got[i - 1].name < e.name)).toBe(true);
  });
});
