// Ignore rules (kb/fs/ignore.ts): consecutive `**` segments are one, and a
// pattern left with more than one `**` between other segments (whose
// compiled expression backtracks, polynomially in the path's depth) is not
// applied, and said; every other pattern keeps the `ignore` package's
// verdicts.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ignore from 'ignore';
import { IgnoreRules, innerGlobstars } from '../../../src/kb/fs/ignore.ts';
import { indexSubjects } from '../../../src/kb/index/subjects.ts';

/** IgnoreRules over one directory whose .gitignore holds `text`; the
 *  verdict for a path relative to it (directories end with `/`). */
function rulesFor(text: string): { skip(path: string): boolean; rules: IgnoreRules } {
  const dir = mkdtempSync(join(tmpdir(), 'kb-ignore-'));
  writeFileSync(join(dir, '.gitignore'), text);
  const rules = new IgnoreRules();
  rules.enter(dir, '', null, [{ name: '.gitignore' }], '/');
  rmSync(dir, { recursive: true, force: true });
  // The walk tests each directory on the way down, as the package does.
  const skip = (path: string): boolean => {
    const isDir = path.endsWith('/');
    const parts = path.replace(/\/$/, '').split('/');
    for (let i = 0; i < parts.length - 1; i++) {
      const parent = parts.slice(0, i).join('/');
      if (rules.skip(parent, parts[i], true)) return true;
      rules.enter('/nowhere', parts.slice(0, i + 1).join('/'), parent, [], '/');
    }
    return rules.skip(parts.slice(0, -1).join('/'), parts[parts.length - 1], isDir);
  };
  return { skip, rules };
}

describe('innerGlobstars', () => {
  test('counts the ** segments between two others', () => {
    expect(innerGlobstars('a/**/b')).toBe(1);
    expect(innerGlobstars('**/a/**/b/**')).toBe(1);
    expect(innerGlobstars('/a/**/b/**/c')).toBe(2);
    expect(innerGlobstars('!a/**/b/**/c/')).toBe(2);
    expect(innerGlobstars('a/**/')).toBe(0);
    expect(innerGlobstars('/**/a')).toBe(0);
    expect(innerGlobstars('a/**/'.repeat(12) + 'b')).toBe(12);
    expect(innerGlobstars('a**b/*')).toBe(0);
  });
});

describe("patterns kept: the package's verdicts", () => {
  const patterns = ['a/**/b', 'a/**/**/b', 'a/**/**/**/b/', '**/a/b/**', '!a/**/keep\na/**/*', 'a/**/', 'x/**/[bc]*.md'];
  const paths = ['a/b', 'a/b/', 'a/x/b', 'a/x/y/b/c.md', 'A/B', 'q/a/b', 'a/keep', 'a/other', 'x/b1.md', 'x/1/c.md', 'a/c'];
  for (const pattern of patterns) {
    test(JSON.stringify(pattern), () => {
      const ours = rulesFor(`${pattern}\n`);
      // The package, with consecutive ** made one by hand.
      const theirs = ignore().add(pattern.replace(/(\/\*\*)+/g, '/**'));
      for (const path of paths) expect([path, ours.skip(path)]).toEqual([path, theirs.ignores(path)]);
      expect(ours.rules.dropped).toEqual([]);
    });
  }
});

describe('patterns with several ** segments between others', () => {
  test('are not applied, and said with their file and line; the others are', () => {
    const bad = `${'a/**/'.repeat(12)}b`;
    const { skip, rules } = rulesFor(`# comment\nkeep.md\n${bad}\nx/**/y/**/z\n**/a/**/b/**\n`);
    expect(rules.dropped).toEqual([
      { file: '.gitignore', line: 3, pattern: bad, globstars: 12 },
      { file: '.gitignore', line: 4, pattern: 'x/**/y/**/z', globstars: 2 },
      // A leading `**` before another counts: tried from every folder.
      { file: '.gitignore', line: 5, pattern: '**/a/**/b/**', globstars: 2, leading: true },
    ]);
    const t = performance.now();
    expect(skip(`${'a/'.repeat(200)}x.md`)).toBe(false);
    expect(skip(`${'a/'.repeat(20)}b`)).toBe(false);
    expect(skip('x/y/z')).toBe(false);
    expect(skip('keep.md')).toBe(true);
    expect(performance.now() - t).toBeLessThan(1000);
  });
});

describe("kb's write lock", () => {
  test('`.kb-lock` is never walked: a folder (a write running), a link to a folder, a file', () => {
    const root = mkdtempSync(join(tmpdir(), 'kb-lock-walk-'));
    const outside = mkdtempSync(join(tmpdir(), 'kb-lock-outside-'));
    try {
      writeFileSync(join(outside, 'x.md'), 'x\n');
      for (const [topic, make] of [
        ['dir', (p: string) => (mkdirSync(p), writeFileSync(join(p, 'owner.md'), 'o\n'))],
        ['link', (p: string) => symlinkSync(outside, p)],
        ['file', (p: string) => writeFileSync(p, 'not a lock\n')],
      ] as const) {
        const dir = join(root, topic);
        mkdirSync(dir);
        writeFileSync(join(dir, 'a.md'), 'A.\n');
        make(join(dir, '.kb-lock'));
        const index = indexSubjects(dir);
        expect(index.subjects.map((s) => s.path)).toEqual(['a.md']);
        expect(index.ignored).toEqual([]);
        expect(index.links).toEqual([]);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
