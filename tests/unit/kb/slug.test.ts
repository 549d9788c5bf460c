import { describe, test, expect } from 'bun:test';
import { extOf, isHiddenPath, slugOf } from '../../../src/kb/index/slug.ts';
import { compareCodeUnits } from '../../../src/shared/text.ts';

describe('slugOf / isHiddenPath (RFD hidden-subjects table)', () => {
  const rows: [string, string, boolean][] = [
    ['.internal-notes.md', 'internal-notes', true],
    ['ast-grep/.rules.md', 'ast-grep/rules', true],
    ['.hidden-dir/visible.md', 'hidden-dir/visible', true],
    ['maintainers/jean.md', 'maintainers/jean', false],
  ];
  for (const [path, slug, hidden] of rows) {
    test(`${path} -> ${slug} (hidden: ${hidden})`, () => {
      expect(slugOf(path)).toBe(slug);
      expect(isHiddenPath(path)).toBe(hidden);
    });
  }
});

describe('slugOf (RFD directory layout example)', () => {
  const rows: [string, string][] = [
    ['maintainers/jean.md', 'maintainers/jean'],
    ['maintainers/ryan.md', 'maintainers/ryan'],
    ['code-quality.md', 'code-quality'],
    ['.internal-notes.md', 'internal-notes'],
    ['ast-grep.md', 'ast-grep'],
    ['ast-grep/.rules.md', 'ast-grep/rules'],
  ];
  for (const [path, slug] of rows) test(`${path} -> ${slug}`, () => expect(slugOf(path)).toBe(slug));
});

describe('slugOf: extension edge cases', () => {
  const rows: [string, string, string][] = [
    // path, slug, ext
    ['README', 'README', ''],
    ['a.tar.gz', 'a.tar', 'gz'],
    ['Cargo.TOML', 'Cargo', 'toml'],
    ['.bashrc', 'bashrc', ''],
    ['.md', 'md', ''],
    ['dir/.md', 'dir/md', ''],
    ['.rules.md', 'rules', 'md'],
    ['notes.', 'notes', ''],
    ['..x.md', '.x', 'md'],
    ['v1.2/notes.md', 'v1.2/notes', 'md'],
    ['.config/.env.local', 'config/env', 'local'],
    ['a/b/c/d.yml', 'a/b/c/d', 'yml'],
  ];
  for (const [path, slug, ext] of rows) {
    test(`${path} -> ${slug} / '${ext}'`, () => {
      expect(slugOf(path)).toBe(slug);
      expect(extOf(path)).toBe(ext);
    });
  }
});

describe('isHiddenPath', () => {
  test('only components starting with a dot count', () => {
    expect(isHiddenPath('a.b/c.md')).toBe(false);
    expect(isHiddenPath('a/b/.c/d.md')).toBe(true);
    expect(isHiddenPath('a./b.md')).toBe(false);
  });
});

describe('compareCodeUnits', () => {
  test('B < a < a-b < a/b < a_c (code units, not locale)', () => {
    const input = ['a_c', 'a/b', 'B', 'a-b', 'a'];
    expect([...input].sort(compareCodeUnits)).toEqual(['B', 'a', 'a-b', 'a/b', 'a_c']);
  });
  test('returns 0 for equal strings and is antisymmetric', () => {
    expect(compareCodeUnits('x', 'x')).toBe(0);
    expect(compareCodeUnits('a', 'b')).toBe(-1);
    expect(compareCodeUnits('b', 'a')).toBe(1);
  });
  test('orders by UTF-16 code units: an astral character (surrogates D800+) sorts before U+FFFD', () => {
    expect(['\u{1F600}', '\uFFFD'].sort(compareCodeUnits)).toEqual(['\u{1F600}', '\uFFFD']);
  });
});
