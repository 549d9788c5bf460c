import { describe, test, expect } from 'bun:test';
import { engine } from '../../../src/glob/engine.ts';
import { compileWith } from '../../../src/glob/pattern.ts';
import { findBySlug, resolvePatterns } from '../../../src/kb/index/resolve.ts';
import { extOf, isHiddenPath, slugOf } from '../../../src/kb/index/slug.ts';
import { compareCodeUnits } from '../../../src/shared/text.ts';
import type { Subject } from '../../../src/kb/index/types.ts';

/** In-memory subjects; their files do not exist, so resolution provably
 *  needs no file. */
function subjects(...paths: string[]): Subject[] {
  return paths
    .map((path) => ({ path, abs: `/nonexistent/${path}`, slug: slugOf(path), hidden: isHiddenPath(path), ext: extOf(path), size: 0 }))
    .sort((a, b) => compareCodeUnits(a.slug, b.slug));
}

const project = subjects(
  'maintainers/jean.md',
  'maintainers/ryan.md',
  'maintainers/alumni/joe.md',
  'maintainers.md',
  'code-quality.md',
  '.internal-notes.md',
  'ast-grep.md',
  'ast-grep/.rules.md',
  '.hidden-dir/visible.md',
);
/** Patterns as resolvePatterns takes them: compiled (the machinery
 *  imported directly, as no test may rely on a preload). */
const compiled = (patterns: string[]) => compileWith(patterns, engine);

const none = new Set<string>();
const slugsOf = (patterns: string[], disabled = none) => resolvePatterns(project, compiled(patterns), disabled).matches.map((m) => m.subject.slug);

describe('resolvePatterns: RFD glob table', () => {
  const rows: [string, string[]][] = [
    ['*', ['ast-grep', 'code-quality', 'maintainers']],
    ['**', ['ast-grep', 'code-quality', 'maintainers', 'maintainers/alumni/joe', 'maintainers/jean', 'maintainers/ryan']],
    ['maintainers/*', ['maintainers/jean', 'maintainers/ryan']],
    ['maintainers/**', ['maintainers/alumni/joe', 'maintainers/jean', 'maintainers/ryan']],
    ['ast-grep/rules', ['ast-grep/rules']],
    ['maintainers/j*', ['maintainers/jean']],
  ];
  for (const [pattern, expected] of rows) test(pattern, () => expect(slugsOf([pattern])).toEqual(expected));
});

describe('resolvePatterns: hidden subjects', () => {
  test('globs never match hidden subjects, at any level', () => {
    expect(slugsOf(['**'])).not.toContain('internal-notes');
    expect(slugsOf(['ast-grep/*'])).toEqual([]);
    expect(slugsOf(['hidden-dir/*'])).toEqual([]);
    expect(slugsOf(['hidden-dir/**'])).toEqual([]);
    expect(slugsOf(['internal-*'])).toEqual([]);
  });
  test('exact patterns match hidden subjects', () => {
    expect(slugsOf(['internal-notes'])).toEqual(['internal-notes']);
    expect(slugsOf(['hidden-dir/visible'])).toEqual(['hidden-dir/visible']);
    expect(slugsOf(['./ast-grep/rules'])).toEqual(['ast-grep/rules']);
  });
  test('the on-disk spelling is not a slug', () => {
    expect(slugsOf(['.internal-notes'])).toEqual([]);
    expect(slugsOf(['code-quality.md'])).toEqual([]);
  });
});

describe('resolvePatterns: disabled', () => {
  test('disabled slugs match nothing, not even exactly', () => {
    const disabled = new Set(['maintainers/jean', 'internal-notes']);
    expect(slugsOf(['maintainers/jean'], disabled)).toEqual([]);
    expect(slugsOf(['internal-notes'], disabled)).toEqual([]);
    expect(slugsOf(['maintainers/*'], disabled)).toEqual(['maintainers/ryan']);
  });
  test('disabled entries are exact slugs, not globs', () => {
    expect(slugsOf(['maintainers/*'], new Set(['maintainers/*']))).toEqual(['maintainers/jean', 'maintainers/ryan']);
  });
});

describe('resolvePatterns: order and de-duplication', () => {
  test('pattern order, each pattern sorted, first occurrence wins', () => {
    expect(slugsOf(['maintainers/ryan', 'maintainers/*', 'code-quality', '*'])).toEqual([
      'maintainers/ryan',
      'maintainers/jean',
      'code-quality',
      'ast-grep',
      'maintainers',
    ]);
  });
  test('code-unit order within a glob: B < a < a-b < a/b < a_c', () => {
    const s = subjects('a_c.md', 'a/b.md', 'a-b.md', 'a.md', 'B.md');
    expect(resolvePatterns(s, compiled(['**']), none).matches.map((m) => m.subject.slug)).toEqual(['B', 'a', 'a-b', 'a/b', 'a_c']);
  });
  test('perPattern keeps every pattern\'s own matches, duplicates included', () => {
    const r = resolvePatterns(project, compiled(['maintainers/*', 'maintainers/jean', 'nope', '../x']), none);
    expect(r.perPattern).toEqual([
      { pattern: 'maintainers/*', kind: 'glob', slugs: ['maintainers/jean', 'maintainers/ryan'] },
      { pattern: 'maintainers/jean', kind: 'exact', slugs: ['maintainers/jean'] },
      { pattern: 'nope', kind: 'exact', slugs: [] },
      { pattern: '../x', kind: 'invalid', reason: expect.stringContaining('..'), slugs: [] },
    ]);
  });
  test('exact flag: set when any pattern names the subject exactly', () => {
    const r = resolvePatterns(project, compiled(['maintainers/*', 'maintainers/jean']), none);
    expect(r.matches.map((m) => [m.subject.slug, m.exact])).toEqual([
      ['maintainers/jean', true],
      ['maintainers/ryan', false],
    ]);
  });
});

describe('resolvePatterns: invalid patterns match nothing', () => {
  for (const p of ['/etc/passwd', '../secret', 'a/../maintainers/jean', '', 'x\0y']) {
    test(JSON.stringify(p), () => {
      const r = resolvePatterns(project, compiled([p]), none);
      expect(r.matches).toEqual([]);
      expect(r.perPattern[0].kind).toBe('invalid');
    });
  }
});

describe('resolvePatterns: slugs containing glob syntax', () => {
  const s = subjects('notes (draft).md', 'notes draft.md', 'v[1].md', 'v1.md', '.x[1].md');
  test('a glob-looking pattern equal to a slug selects it as an exact name', () => {
    const r = resolvePatterns(s, compiled(['notes (draft)']), none);
    expect(r.perPattern[0].kind).toBe('glob');
    // Parentheses group in a glob, so it also matches `notes draft`.
    expect(r.matches.map((m) => [m.subject.slug, m.exact])).toEqual([
      ['notes (draft)', true],
      ['notes draft', false],
    ]);
  });
  test('the glob still matches what it matches as a glob', () => {
    expect(resolvePatterns(s, compiled(['v[1]']), none).matches.map((m) => m.subject.slug)).toEqual(['v1', 'v[1]']);
  });
  test('a hidden slug is selected only by its literal name', () => {
    expect(resolvePatterns(s, compiled(['x[1]']), none).matches.map((m) => m.subject.slug)).toEqual(['x[1]']);
    expect(resolvePatterns(s, compiled(['x*']), none).matches).toEqual([]);
  });
});

describe('findBySlug', () => {
  test('binary search in slug order', () => {
    for (const sub of project) expect(findBySlug(project, sub.slug)).toBe(sub);
    expect(findBySlug(project, 'zzz')).toBeUndefined();
    expect(findBySlug(project, '')).toBeUndefined();
    expect(findBySlug([], 'a')).toBeUndefined();
  });
});
