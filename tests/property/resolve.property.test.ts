// Properties of pattern resolution over generated subject sets and pattern
// lists (no file system: thousands of cases per property), and of the
// linear-time glob matcher against the native regex engine.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import picomatch from 'picomatch';
import type { Subject } from '../../src/kb/index/types.ts';
import { Budget } from '../../src/glob/budget.ts';
import { engine } from '../../src/glob/engine.ts';
import { classifyPattern, compileGlob, compileWith } from '../../src/glob/pattern.ts';
import { Nfa } from '../../src/glob/nfa.ts';
import { resolvePatterns } from '../../src/kb/index/resolve.ts';
import { describePath } from '../../src/kb/index/slug.ts';
import { compareCodeUnits } from '../../src/shared/text.ts';
import { FILE_PATH, GLOB, HOSTILE, NAME, PATTERN } from './generators.ts';

const RUNS = Number(process.env.KB_PROPERTY_RUNS ?? 3000);

/** Patterns as resolvePatterns takes them: compiled (the machinery
 *  imported directly, as no test may rely on a preload). */
const compiled = (patterns: string[]) => compileWith(patterns, engine);

/** An index as `indexSubjects` builds it: one subject per slug (collisions
 *  resolved as kb does), sorted by slug in code-unit order. */
function index(paths: string[]): Subject[] {
  const bySlug = new Map<string, Subject>();
  for (const path of [...new Set(paths)].sort(compareCodeUnits)) {
    const d = describePath(path);
    const s = { path, abs: `/topic/${path}`, size: 1, ...d } as Subject;
    const seen = bySlug.get(d.slug);
    if (!seen || (seen.hidden && !s.hidden)) bySlug.set(d.slug, s);
  }
  return [...bySlug.values()].sort((a, b) => compareCodeUnits(a.slug, b.slug));
}

const CASE = fc.record({
  paths: fc.array(FILE_PATH, { maxLength: 20 }),
  patterns: fc.array(PATTERN, { maxLength: 8 }),
  disabled: fc.array(fc.oneof(NAME, FILE_PATH.map((p) => p.replace(/\.[^./]*$/, ''))), { maxLength: 4 }),
});

describe('resolvePatterns', () => {
  test('a glob never returns a hidden or a disabled subject (a hidden one only when the glob is literally its slug)', () => {
    fc.assert(
      fc.property(CASE, ({ paths, patterns, disabled }) => {
        const subjects = index(paths);
        const bySlug = new Map(subjects.map((s) => [s.slug, s]));
        const { perPattern } = resolvePatterns(subjects, compiled(patterns), new Set(disabled));
        for (const p of perPattern) {
          for (const slug of p.slugs) {
            expect(disabled).not.toContain(slug);
            if (p.kind === 'glob' && bySlug.get(slug)!.hidden) expect(slug).toBe(classifyPattern(p.pattern, engine).pattern);
          }
        }
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  test('an exact pattern returns at most one subject: the one with that slug', () => {
    fc.assert(
      fc.property(CASE, ({ paths, patterns, disabled }) => {
        const subjects = index(paths);
        const { perPattern } = resolvePatterns(subjects, compiled(patterns), new Set(disabled));
        for (const p of perPattern) {
          if (p.kind !== 'exact') continue;
          expect(p.slugs.length).toBeLessThanOrEqual(1);
          if (p.slugs.length === 1) expect(p.slugs[0]).toBe(classifyPattern(p.pattern, engine).pattern);
        }
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  test('output is deterministic and de-duplicated, whatever the input order', () => {
    fc.assert(
      fc.property(CASE, fc.integer(), ({ paths, patterns, disabled }, seed) => {
        const subjects = index(paths);
        const a = resolvePatterns(subjects, compiled(patterns), new Set(disabled));
        const shuffledPaths = [...paths].sort(() => ((seed = (seed * 1103515245 + 12345) | 0) & 1 ? 1 : -1));
        const b = resolvePatterns(index(shuffledPaths), compiled(patterns), new Set([...disabled].reverse()));
        expect(b.perPattern).toEqual(a.perPattern);
        expect(b.matches.map((m) => [m.subject.slug, m.exact])).toEqual(a.matches.map((m) => [m.subject.slug, m.exact]));
        const slugs = a.matches.map((m) => m.subject.slug);
        expect(new Set(slugs).size).toBe(slugs.length);
        // Pattern order, first occurrence wins; each pattern's own list sorted.
        const expected: string[] = [];
        for (const p of a.perPattern) {
          expect(p.slugs).toEqual([...p.slugs].sort(compareCodeUnits));
          expect(new Set(p.slugs).size).toBe(p.slugs.length);
          for (const s of p.slugs) if (!expected.includes(s)) expected.push(s);
        }
        expect(slugs).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  test('patterns that leave the topic or are malformed select nothing, with a reason', () => {
    fc.assert(
      fc.property(fc.array(FILE_PATH, { maxLength: 20 }), fc.array(HOSTILE, { minLength: 1, maxLength: 5 }), (paths, patterns) => {
        const { matches, perPattern } = resolvePatterns(index(paths), compiled(patterns), new Set());
        for (const p of perPattern) {
          if (/(^|[\\/])\.\.([\\/]|$)|^[\\/]|^[A-Za-z]:|\u0000|^$|^\.\/?$/.test(p.pattern) || p.pattern.length > 1024) {
            expect(p.kind === 'invalid' || p.slugs.length === 0).toBe(true);
            if (p.pattern !== '.' && p.pattern !== '%2e%2e/secret') expect(p.kind).toBe('invalid');
          }
          if (p.kind === 'invalid') {
            expect(p.slugs).toEqual([]);
            expect(p.reason).toBeTruthy();
          }
        }
        for (const m of matches) expect(m.subject.abs.startsWith('/topic/')).toBe(true);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});

// Slugs over a small alphabet, short enough for the native engine to be
// quick even on the patterns it backtracks on.
const SLUG = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.', '/', '-', ' ', '(', '|'), maxLength: 10 }).filter((s) => s !== '');
const RICH_GLOB = fc
  .array(
    fc.constantFrom('a', 'b', 'c', '.', '/', '-', '*', '**', '?', '[ab]', '[!a]', '[a-c]', '[[:alpha:]]', '{a,b}', '{a,{b,}}', '{1..3}', '@(a|b)', '+(a)', '*(a|b)', '?(c)', '!(a)', '(a|b)', '\\*', ' ', '|', '$', '^', '+'),
    { minLength: 1, maxLength: 7 },
  )
  .map((parts) => parts.join(''));

describe('the linear-time matcher', () => {
  test('agrees with the native regex engine on every glob picomatch compiles', () => {
    const opts = { dot: false, nonegate: true, windows: false } as const;
    let compared = 0;
    fc.assert(
      fc.property(RICH_GLOB, fc.array(SLUG, { minLength: 1, maxLength: 8 }), (glob, slugs) => {
        let source: string;
        try {
          source = `^(?:${picomatch.makeRe(glob, opts, true) as unknown as string})$`;
          new RegExp(source);
        } catch {
          return;
        }
        const native = new RegExp(source);
        let nfa: Nfa;
        try {
          nfa = new Nfa(source);
        } catch {
          return; // refused constructs are covered by the CLI tests
        }
        for (const s of slugs) {
          compared++;
          expect([glob, s, nfa.test(s)]).toEqual([glob, s, native.test(s)]);
        }
      }),
      { numRuns: RUNS * 2 },
    );
    expect(compared).toBeGreaterThan(RUNS);
  }, 60_000);

  test('compileGlob agrees with picomatch (whatever engine it picks)', () => {
    fc.assert(
      fc.property(fc.oneof(GLOB, RICH_GLOB), fc.array(SLUG, { minLength: 1, maxLength: 8 }), (raw, slugs) => {
        const c = classifyPattern(raw, engine);
        if (c.kind !== 'glob') return;
        const glob = c.pattern.endsWith('/**') ? `${c.pattern}/*` : c.pattern;
        const re = picomatch.makeRe(glob, { dot: false, nonegate: true, windows: false });
        const m = compileGlob(c.pattern, engine);
        const budget = new Budget();
        for (const s of slugs) expect([raw, s, m(s, budget)]).toEqual([raw, s, re.test(s)]);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  test('classifying and matching any string of up to 1024 characters is fast', () => {
    const HOSTILE_UNIT = fc.constantFrom('*', '**', '/', 'a', '{', '}', ',', '(', ')', '|', '+', '@', '!', '?', '[', ']', '\\', '.', '-', '^', '$');
    const slugs = ['a'.repeat(200), `${'a/'.repeat(100)}b`, 'ab', '{a,b}'];
    fc.assert(
      fc.property(fc.string({ unit: HOSTILE_UNIT, minLength: 1, maxLength: 1024 }), (p) => {
        const t0 = performance.now();
        const c = classifyPattern(p, engine);
        if (c.kind === 'glob') {
          const m = compileGlob(c.pattern, engine);
          const budget = new Budget();
          for (const s of slugs) {
            try {
              m(s, budget);
            } catch {
              // PatternTooExpensive: bounded by design.
            }
          }
        }
        expect(performance.now() - t0).toBeLessThan(1000);
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  }, 60_000);
});
