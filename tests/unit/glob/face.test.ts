// The glob module as its users see it (src/glob/index.ts): compiling is an
// explicit async step that loads the machinery itself when a pattern may
// need it, matching is synchronous. Nothing here loads the machinery by
// hand, and no preload may do it for these tests.
import { describe, test, expect } from 'bun:test';
import { join } from 'node:path';
import { Budget, compilePatterns, MAX_PATTERN_LENGTH, mayBeGlob, needsEngine, pathGlob, PatternTooExpensive, withoutDotSlash, type CompiledPattern } from '../../../src/glob/index.ts';
import { resolvePatterns } from '../../../src/kb/index/resolve.ts';
import type { Subject } from '../../../src/kb/index/types.ts';

const REPO = join(import.meta.dir, '../../..');

/** The parts of a compiled pattern a caller reads (not the matcher). */
const shape = (c: CompiledPattern) => ({ kind: c.kind, pattern: c.pattern, raw: c.raw, reason: c.reason, test: typeof c.test });

/** `test` of a compiled glob as a slug predicate, one budget for all calls. */
function matcher(c: CompiledPattern): (slug: string) => boolean {
  expect(c.kind).toBe('glob');
  const budget = new Budget();
  return (slug) => c.test!(slug, budget);
}

/** Subjects in slug order, as resolvePatterns needs them. */
function subjects(slugs: string[]): Subject[] {
  return [...slugs].sort().map((slug) => ({ path: `${slug}.md`, abs: `/nonexistent/${slug}.md`, slug, hidden: false, ext: '.md', size: 0 }) as Subject);
}

describe('compilePatterns', () => {
  test('exact patterns: normalised, no matcher', async () => {
    expect((await compilePatterns(['notes', './a/b', 'x+y', '!important'])).map(shape)).toEqual([
      { kind: 'exact', pattern: 'notes', raw: 'notes', reason: undefined, test: 'undefined' },
      { kind: 'exact', pattern: 'a/b', raw: './a/b', reason: undefined, test: 'undefined' },
      { kind: 'exact', pattern: 'x+y', raw: 'x+y', reason: undefined, test: 'undefined' },
      { kind: 'exact', pattern: '!important', raw: '!important', reason: undefined, test: 'undefined' },
    ]);
  });

  test('no patterns: nothing', async () => {
    expect(await compilePatterns([])).toEqual([]);
  });

  test('`**` and `./**`: globs over every visible slug', async () => {
    const compiled = await compilePatterns(['**', './**']);
    expect(compiled.map(shape)).toEqual([
      { kind: 'glob', pattern: '**', raw: '**', reason: undefined, test: 'function' },
      { kind: 'glob', pattern: '**', raw: './**', reason: undefined, test: 'function' },
    ]);
    for (const c of compiled) {
      const m = matcher(c);
      expect(['a', 'a/b/c', 'a.b', '.hidden', 'a/.hidden', 'a/.hidden/b'].filter((s) => m(s))).toEqual(['a', 'a/b/c', 'a.b']);
    }
  });

  test('real globs: kinds, normalised patterns and what they match', async () => {
    const compiled = await compilePatterns(['maintainers/*', './{a,b}', 'maintainers/**', 'v[12]', 'x*']);
    expect(compiled.map(shape)).toEqual([
      { kind: 'glob', pattern: 'maintainers/*', raw: 'maintainers/*', reason: undefined, test: 'function' },
      { kind: 'glob', pattern: '{a,b}', raw: './{a,b}', reason: undefined, test: 'function' },
      { kind: 'glob', pattern: 'maintainers/**', raw: 'maintainers/**', reason: undefined, test: 'function' },
      { kind: 'glob', pattern: 'v[12]', raw: 'v[12]', reason: undefined, test: 'function' },
      { kind: 'glob', pattern: 'x*', raw: 'x*', reason: undefined, test: 'function' },
    ]);
    const slugs = ['a', 'ab', 'b', 'c', 'maintainers', 'maintainers/jean', 'maintainers/alumni/joe', 'maintainers-x/y', 'v1', 'v3', 'x', 'xyz', 'x/y'];
    const [star, braces, deep, klass, prefix] = compiled.map(matcher);
    expect(slugs.filter(star)).toEqual(['maintainers/jean']);
    expect(slugs.filter(braces)).toEqual(['a', 'b']);
    expect(slugs.filter(deep)).toEqual(['maintainers/jean', 'maintainers/alumni/joe']);
    expect(slugs.filter(klass)).toEqual(['v1']);
    expect(slugs.filter(prefix)).toEqual(['x', 'xyz']);
  });

  test('`dir/**` does not match `dir` itself', async () => {
    const [deep, deeper] = (await compilePatterns(['dir/**', 'a/b/**'])).map(matcher);
    expect(deep('dir')).toBe(false);
    expect(deep('dir/x')).toBe(true);
    expect(deep('dir/x/y')).toBe(true);
    expect(deep('dirx/y')).toBe(false);
    expect(deeper('a/b')).toBe(false);
    expect(deeper('a/b/c/d')).toBe(true);
  });

  test('glob syntax in a name that picomatch does not read as a glob: exact', async () => {
    // `{` and `[` may begin a glob, so the machinery is asked, and says no.
    expect(['notes {draft', 'v[1', 'a{b}'].map((p) => needsEngine(p))).toEqual([true, true, true]);
    expect((await compilePatterns(['notes {draft', './v[1', 'a{b}'])).map(shape)).toEqual([
      { kind: 'exact', pattern: 'notes {draft', raw: 'notes {draft', reason: undefined, test: 'undefined' },
      { kind: 'exact', pattern: 'v[1', raw: './v[1', reason: undefined, test: 'undefined' },
      { kind: 'exact', pattern: 'a{b}', raw: 'a{b}', reason: undefined, test: 'undefined' },
    ]);
  });

  test('invalid patterns: kind, pattern and reason, no matcher', async () => {
    const nested = `${'{a,'.repeat(11)}b${'}'.repeat(11)}`;
    const long = 'a'.repeat(MAX_PATTERN_LENGTH + 1);
    const compiled = await compilePatterns(['', './', '../x', 'a/../../x', '/abs', '//abs', 'C:/x', 'a\0b', long, `${long.slice(1)}*`, nested]);
    expect(compiled.map((c) => [c.kind, c.raw.length > MAX_PATTERN_LENGTH ? 'long' : c.pattern, c.test])).toEqual([
      ['invalid', '', undefined],
      ['invalid', './', undefined],
      ['invalid', '../x', undefined],
      ['invalid', 'a/../../x', undefined],
      ['invalid', '/abs', undefined],
      ['invalid', '//abs', undefined],
      ['invalid', 'C:/x', undefined],
      ['invalid', 'a\0b', undefined],
      ['invalid', 'long', undefined],
      ['invalid', 'long', undefined],
      ['invalid', nested, undefined],
    ]);
    const reasons = compiled.map((c) => c.reason);
    expect(reasons[0]).toMatch(/empty/);
    expect(reasons[1]).toMatch(/empty/);
    expect(reasons[2]).toMatch(/`\.\.` segments are not allowed/);
    expect(reasons[3]).toMatch(/`\.\.` segments are not allowed/);
    expect(reasons[4]).toMatch(/absolute paths are not allowed/);
    expect(reasons[5]).toMatch(/absolute paths are not allowed/);
    expect(reasons[6]).toMatch(/absolute paths are not allowed/);
    expect(reasons[7]).toMatch(/NUL byte/);
    expect(reasons[8]).toBe(`the pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
    expect(reasons[9]).toBe(`the pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
    expect(reasons[10]).toMatch(/nested more than 10 levels deep/);
  });

  test('a glob nested 10 levels deep is still a glob', async () => {
    const [c] = await compilePatterns([`${'{a,'.repeat(10)}b${'}'.repeat(10)}`]);
    expect(c.kind).toBe('glob');
    const m = matcher(c);
    expect(['a', 'b', 'c'].filter(m)).toEqual(['a', 'b']);
  });

  test('globs that cannot be matched in linear time: invalid, with a reason', async () => {
    const [c] = await compilePatterns(['(a)\\1']);
    expect(c).toMatchObject({ kind: 'invalid', pattern: '(a)\\1', reason: 'not a supported glob: back-references are not supported' });
  });

  test('order is kept, mixed kinds in one call', async () => {
    expect((await compilePatterns(['b', '*', '../x', '**', 'a'])).map((c) => c.kind)).toEqual(['exact', 'glob', 'invalid', 'glob', 'exact']);
  });

  test('exact patterns and `**` compile without loading the machinery; a glob loads it', () => {
    // A fresh process: in this one, other tests may have loaded it already.
    const script = `
      import { compilePatterns } from ${JSON.stringify(join(REPO, 'src/glob/index.ts'))};
      const loaded = () => Object.keys(require.cache).some((k) => /picomatch|glob\\/(engine|nfa)\\.ts$/.test(k));
      const kinds = (await compilePatterns(['a', './b', '**', './**', '../x', ''])).map((c) => c.kind).join();
      const before = loaded();
      await compilePatterns(['a*']);
      console.log(JSON.stringify({ kinds, before, after: loaded() }));
    `;
    const run = Bun.spawnSync([process.execPath, '-e', script], { cwd: REPO, stderr: 'pipe' });
    expect(run.stderr.toString()).toBe('');
    expect(JSON.parse(run.stdout.toString())).toEqual({ kinds: 'exact,exact,glob,glob,invalid,invalid', before: false, after: true });
  });
});

describe('needsEngine and mayBeGlob', () => {
  test('`**` (with or without ./) needs no machinery; other globs do; plain names never', () => {
    expect(['**', './**', 'a*', 'abc'].map((p) => needsEngine(p))).toEqual([false, false, true, false]);
    expect(['**', './**', 'a*', 'abc'].map((p) => mayBeGlob(p))).toEqual([true, true, true, false]);
    expect(['a/**', '**/x', './/*', '{a,b}', '[ab]', 'a?', '@(a)'].every((p) => needsEngine(p))).toBe(true);
    expect(needsEngine('.//**')).toBe(false);
  });

  test('withoutDotSlash drops every leading ./ (with the slashes after it) and nothing else', () => {
    expect(['./a', '././a', './/a', './/./a', 'a/./b', '.a', './', '/a', 'a//b'].map(withoutDotSlash)).toEqual(['a', 'a', 'a', 'a', 'a/./b', '.a', '', '/a', 'a//b']);
  });
});

describe('pathGlob', () => {
  test('a plain path is not a glob', async () => {
    expect(await pathGlob('conf/a.toml')).toBeUndefined();
    expect(await pathGlob('./conf.d/a.toml')).toBeUndefined();
    // May be a glob, is not one to picomatch.
    expect(await pathGlob('conf/a{b}.toml')).toBeUndefined();
  });

  test('a glob: its base, and a matcher for paths below the base', async () => {
    const g = await pathGlob('conf.d/*.toml');
    expect(g).toBeDefined();
    expect(g!.base).toBe('conf.d');
    expect(g!.glob).toBe('*.toml');
    expect(g!.matches('x.toml')).toBe(true);
    // Hidden files match, as in JP (its `glob` crate's defaults).
    expect(g!.matches('.hidden.toml')).toBe(true);
    expect(g!.matches('x.json')).toBe(false);
    expect(g!.matches('sub/x.toml')).toBe(false);
  });

  test('a deep glob', async () => {
    const g = (await pathGlob('conf.d/**/*.toml'))!;
    expect([g.base, g.glob]).toEqual(['conf.d', '**/*.toml']);
    expect(g.matches('a/b/x.toml')).toBe(true);
  });
});

describe('the matching budget', () => {
  // 300 `*a`: about 600 live automaton states per character, far past the
  // 64 steps per character the budget grows by (src/glob/budget.ts).
  const hostile = `${'*a'.repeat(300)}b`;
  // Long, similar slugs: the worst case for that glob, and none matches.
  const long = (n: number, tag = '') => subjects(Array.from({ length: n }, (_, i) => `${'a'.repeat(240)}${tag}${String(i).padStart(4, '0')}`));

  test('a budget shared by patterns: the glob that exhausts it throws PatternTooExpensive', async () => {
    const [a, b] = await compilePatterns(['*a*a*a*b', '*b*b*b*a']);
    const slugs = Array.from({ length: 200 }, (_, i) => `${'ab'.repeat(20)}${i}`);
    // What each costs alone (a budget large enough for both).
    const cost = [a, b].map((c) => {
      const own = new Budget();
      for (const s of slugs) c.test!(s, own);
      return own.steps;
    });
    expect(Math.min(...cost)).toBeGreaterThan(0);
    // A budget either fits, but not both: the second pattern runs it out.
    const base = Math.max(...cost) + Math.floor(Math.min(...cost) / 2);
    for (const c of [a, b]) {
      const own = new Budget(base, 0);
      for (const s of slugs) c.test!(s, own);
    }
    const shared = new Budget(base, 0);
    for (const s of slugs) a.test!(s, shared);
    expect(() => {
      for (const s of slugs) b.test!(s, shared);
    }).toThrow(PatternTooExpensive);
    expect(shared.steps).toBeGreaterThan(shared.limit);
  });

  test('a pathological glob over many long slugs: invalid, "too complex", quickly', async () => {
    const topic = long(200);
    const t0 = performance.now();
    const r = resolvePatterns(topic, await compilePatterns([hostile, 'a*']), new Set());
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(r.perPattern[0]).toEqual({
      pattern: hostile,
      kind: 'invalid',
      reason: 'the pattern is too complex to match against this topic in reasonable time; use a simpler glob',
      slugs: [],
    });
    // A cheap glob after it still runs (the native engine takes no budget).
    expect(r.perPattern[1].kind).toBe('glob');
    expect(r.perPattern[1].slugs).toHaveLength(200);
  });

  test('the budget is the call\'s: one such glob fits, the same work twice does not', async () => {
    const topic = long(100);
    const alone = resolvePatterns(topic, await compilePatterns([hostile]), new Set());
    expect(alone.perPattern.map((p) => p.kind)).toEqual(['glob']);
    expect(alone.matches).toEqual([]);
    const twice = resolvePatterns(topic, await compilePatterns([hostile, `${hostile}b`]), new Set());
    expect(twice.perPattern.map((p) => [p.kind, p.reason])).toEqual([
      ['glob', undefined],
      ['invalid', 'the pattern is too complex to match against this topic in reasonable time; use a simpler glob'],
    ]);
    // A new call, a new budget.
    expect(resolvePatterns(topic, await compilePatterns([hostile]), new Set()).perPattern[0].kind).toBe('glob');
  });
});
