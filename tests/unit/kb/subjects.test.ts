import { describe, test, expect, afterAll } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { indexSubjects } from '../../../src/kb/index/subjects.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function tree(spec: Record<string, string | { link: string }>): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-subjects-'));
  roots.push(root);
  for (const [rel, v] of Object.entries(spec)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof v === 'string') writeFileSync(abs, v);
    else symlinkSync(v.link, abs);
  }
  return root;
}

describe('indexSubjects', () => {
  test('RFD layout example (project)', () => {
    const dir = tree({
      'maintainers/jean.md': 'j',
      'maintainers/ryan.md': 'r',
      'code-quality.md': 'q',
      '.internal-notes.md': 'i',
    });
    const index = indexSubjects(dir);
    expect(index.dir).toBe(dir);
    expect(index.subjects.map((s) => [s.slug, s.hidden, s.path, s.ext])).toEqual([
      ['code-quality', false, 'code-quality.md', 'md'],
      ['internal-notes', true, '.internal-notes.md', 'md'],
      ['maintainers/jean', false, 'maintainers/jean.md', 'md'],
      ['maintainers/ryan', false, 'maintainers/ryan.md', 'md'],
    ]);
    expect(index.notices).toEqual([]);
  });

  test('RFD layout example (skills): a file and a directory of the same stem coexist', () => {
    const index = indexSubjects(tree({ 'ast-grep.md': 'a', 'ast-grep/.rules.md': 'r' }));
    expect(index.subjects.map((s) => [s.slug, s.hidden])).toEqual([
      ['ast-grep', false],
      ['ast-grep/rules', true],
    ]);
    expect(index.subjects[1].abs).toBe(join(index.dir, 'ast-grep', '.rules.md'));
  });

  test('sorted by slug in code-unit order', () => {
    const index = indexSubjects(tree({ 'a_c.md': '', 'a/b.md': '', 'a-b.md': '', 'a.md': '', 'B.md': '' }));
    expect(index.subjects.map((s) => s.slug)).toEqual(['B', 'a', 'a-b', 'a/b', 'a_c']);
  });

  test('collision a.md + a.txt: first path wins, notice names both', () => {
    const index = indexSubjects(tree({ 'a.txt': 'txt', 'a.md': 'md' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['a.md']);
    expect(index.notices).toHaveLength(1);
    const [n] = index.notices;
    expect(n.code).toBe('slug-collision');
    expect(n.where).toBe('a.txt');
    expect(n.message).toContain('a.md');
    expect(n.message).toContain('a.txt');
  });

  test('collision rules.md + .rules.md: the non-hidden file wins even though `.` sorts first', () => {
    const index = indexSubjects(tree({ 'x/.rules.md': 'hidden', 'x/rules.md': 'visible' }));
    expect(index.subjects.map((s) => [s.path, s.hidden])).toEqual([['x/rules.md', false]]);
    expect(index.notices.map((n) => [n.code, n.where])).toEqual([['slug-collision', 'x/.rules.md']]);
  });

  test('collision through a hidden directory: hidden-dir/a.md vs .hidden-dir/a.md', () => {
    const index = indexSubjects(tree({ '.d/a.md': '1', 'd/a.md': '2' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['d/a.md']);
  });

  test('three-way collision: one notice per losing file, deterministic', () => {
    const index = indexSubjects(tree({ 'n.txt': '', '.n.md': '', 'n.json': '', 'other.md': '' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['n.json', 'other.md']);
    expect(index.notices.map((n) => n.where)).toEqual(['.n.md', 'n.txt']);
  });

  test('walk notices are kept (dangling link)', () => {
    const index = indexSubjects(tree({ 'a.md': '', 'b.md': { link: 'nowhere' } }));
    expect(index.subjects.map((s) => s.slug)).toEqual(['a']);
    expect(index.notices.map((n) => n.code)).toEqual(['dangling-link']);
  });

  test('missing directory: empty index with a notice', () => {
    const index = indexSubjects(join(tree({}), 'nope'));
    expect(index.subjects).toEqual([]);
    expect(index.notices.map((n) => n.code)).toEqual(['missing-directory']);
  });

  test('subject size is lazy but visible', () => {
    const index = indexSubjects(tree({ 'a.md': 'abc' }));
    expect(index.subjects[0].size).toBe(3);
    expect(JSON.parse(JSON.stringify(index.subjects[0])).size).toBe(3);
  });
});
