// The glob machinery loads only for patterns that may be globs. That is
// safe only if a pattern without any of the characters `mayBeGlob` looks
// for is never a glob to picomatch: checked here, against picomatch itself.
import { describe, test, expect } from 'bun:test';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { globEngine, mayBeGlob, needsGlobEngine } from '../../../src/glob/index.ts';
import { classifyPattern } from '../../../src/glob/pattern.ts';

describe('mayBeGlob', () => {
  test('is true for every glob picomatch knows, on generated patterns', () => {
    // Every printable ASCII character and some others, the glob ones often.
    const char = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('*', '?', '[', ']', '{', '}', '(', ')', '!', '+', '@', ',', '.', '..', '\\', '/', '|', '^', '$') },
      { weight: 5, arbitrary: fc.integer({ min: 32, max: 126 }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.constantFrom('é', '✓', '\t', ' ') },
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 12 }).map((cs) => cs.join('')), (p) => {
        if (picomatch.scan(p).isGlob) expect({ p, may: mayBeGlob(p) }).toEqual({ p, may: true });
      }),
      { numRuns: Number(process.env.KB_PROPERTY_RUNS ?? 3000) * 5, seed: 7 },
    );
  });

  test('patterns without glob characters are exact, globs are globs', () => {
    for (const p of ['notes', 'a/b.c', 'x+y', 'a@b', '!important', 'dir/', 'a,b', 'a..b']) {
      expect(mayBeGlob(p)).toBe(false);
      expect(classifyPattern(p).kind).toBe('exact');
    }
    for (const p of ['*', 'a/**', 'a?', '[ab]', '{a,b}', '@(a|b)']) {
      expect(mayBeGlob(p)).toBe(true);
      expect(classifyPattern(p).kind).toBe('glob');
    }
  });

  test('`**` needs no machinery; other globs do', () => {
    expect(['**', './**', './/**'].map(needsGlobEngine)).toEqual([false, false, true]);
    expect(['*', 'a/**', '**/x', 'notes'].map(needsGlobEngine)).toEqual([true, true, true, false]);
    expect(classifyPattern('./**')).toEqual({ kind: 'glob', pattern: '**' });
  });

  test('the machinery is loaded in tests (tests/support/on-demand.ts)', () => {
    expect(typeof globEngine().picomatch.scan).toBe('function');
  });
});
