import { describe, test, expect } from 'bun:test';
import { Budget } from '../../../src/glob/budget.ts';
import { engine } from '../../../src/glob/engine.ts';
import { classifyPattern, compileGlob, type GlobMatcher } from '../../../src/glob/pattern.ts';

/** A compiled glob as a plain slug predicate (a fresh budget per test). */
function glob(pattern: string): (slug: string) => boolean {
  const m: GlobMatcher = compileGlob(pattern, engine);
  const budget = new Budget();
  return (slug) => m(slug, budget);
}

describe('classifyPattern', () => {
  const rows: [string, string, string][] = [
    // input, kind, normalised
    ['ast-grep/rules', 'exact', 'ast-grep/rules'],
    ['maintainers/jean', 'exact', 'maintainers/jean'],
    ['./code-quality', 'exact', 'code-quality'],
    ['././a/b', 'exact', 'a/b'],
    // The slashes after a leading `./` go with it: `.//x` is `./x`.
    ['.//etc/passwd', 'exact', 'etc/passwd'],
    ['.//./a', 'exact', 'a'],
    ['*', 'glob', '*'],
    ['**', 'glob', '**'],
    ['maintainers/*', 'glob', 'maintainers/*'],
    ['maintainers/**', 'glob', 'maintainers/**'],
    ['maintainers/j*', 'glob', 'maintainers/j*'],
    ['./maintainers/*', 'glob', 'maintainers/*'],
    ['a?', 'glob', 'a?'],
    ['{a,b}', 'glob', '{a,b}'],
    ['[ab]', 'glob', '[ab]'],
    ['!a', 'exact', '!a'],
    ['a.b', 'exact', 'a.b'],
  ];
  for (const [input, kind, pattern] of rows) {
    test(`${JSON.stringify(input)} is ${kind}`, () => {
      const c = classifyPattern(input, engine);
      expect(c.kind).toBe(kind as never);
      expect(c.pattern).toBe(pattern);
      expect(c.reason).toBeUndefined();
    });
  }

  const invalid: [string, RegExp][] = [
    ['', /empty/],
    ['./', /empty/],
    ['/etc/passwd', /absolute/],
    ['/**', /absolute/],
    ['.//', /empty/],
    ['\\windows', /absolute/],
    ['C:/x', /absolute/],
    ['..', /\.\./],
    ['../secrets', /\.\./],
    ['a/../../x', /\.\./],
    ['a/..', /\.\./],
    ['**/../*', /\.\./],
    ['a\\..\\b', /\.\./],
    ['a\0b', /NUL/],
    ['a'.repeat(1025), /1024/],
  ];
  for (const [input, reason] of invalid) {
    test(`${JSON.stringify(input.length > 40 ? input.slice(0, 10) + '…' : input)} is invalid`, () => {
      const c = classifyPattern(input, engine);
      expect(c.kind).toBe('invalid');
      expect(c.reason).toMatch(reason);
    });
  }

  test('1024 characters is still valid', () => {
    expect(classifyPattern('a'.repeat(1024), engine).kind).toBe('exact');
  });

  test('dots inside names are not `..` segments', () => {
    expect(classifyPattern('a..b', engine).kind).toBe('exact');
    expect(classifyPattern('..a/b', engine).kind).toBe('exact');
  });
});

describe('compileGlob (RFD "Glob Behavior" table, on slugs)', () => {
  const slugs = ['code-quality', 'maintainers/jean', 'maintainers/ryan', 'maintainers/alumni/joe', 'maintainers', 'ast-grep', 'ast-grep/rules', 'jx'];
  const rows: [string, string[]][] = [
    ['*', ['code-quality', 'maintainers', 'ast-grep', 'jx']],
    ['**', slugs],
    ['maintainers/*', ['maintainers/jean', 'maintainers/ryan']],
    ['maintainers/**', ['maintainers/jean', 'maintainers/ryan', 'maintainers/alumni/joe']],
    ['maintainers/j*', ['maintainers/jean']],
    ['*/rules', ['ast-grep/rules']],
    ['**/jean', ['maintainers/jean']],
    ['**/j*', ['maintainers/jean', 'maintainers/alumni/joe', 'jx']],
    ['*/**', ['maintainers/jean', 'maintainers/ryan', 'maintainers/alumni/joe', 'ast-grep/rules']],
    ['{code-quality,jx}', ['code-quality', 'jx']],
    ['maintainers/{jean,ryan}', ['maintainers/jean', 'maintainers/ryan']],
  ];
  for (const [pattern, expected] of rows) {
    test(`${pattern}`, () => {
      const m = glob(pattern);
      expect(slugs.filter((s) => m(s))).toEqual(expected);
    });
  }

  test('dir/** never matches the sibling subject `dir` itself', () => {
    const m = glob('maintainers/**');
    expect(m('maintainers')).toBe(false);
    expect(m('maintainers/x')).toBe(true);
    expect(m('maintainers-x/y')).toBe(false);
    expect(glob('a/b/**')('a/b')).toBe(false);
    expect(glob('a/b/**')('a/b/c/d')).toBe(true);
  });

  test('a leading ! is literal, not a negation', () => {
    const m = glob('!a*');
    expect(m('!abc')).toBe(true);
    expect(m('b')).toBe(false);
  });

  test('separators are always /, backslashes are not separators', () => {
    expect(glob('*')('a\\b')).toBe(true);
    expect(glob('a/*')('a/b')).toBe(true);
  });
});
