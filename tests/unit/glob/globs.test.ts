// The glob machinery loads only for patterns that may be globs. That is
// safe only if a pattern without any of the characters `mayBeGlob` looks
// for is never a glob to picomatch: checked here, against picomatch itself.
import { describe, test, expect } from 'bun:test';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { engine } from '../../../src/glob/engine.ts';
import { mayBeGlob, needsEngine } from '../../../src/glob/index.ts';
import { classifyPattern, compileWith } from '../../../src/glob/pattern.ts';

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
      expect(classifyPattern(p, engine).kind).toBe('exact');
    }
    for (const p of ['*', 'a/**', 'a?', '[ab]', '{a,b}', '@(a|b)']) {
      expect(mayBeGlob(p)).toBe(true);
      expect(classifyPattern(p, engine).kind).toBe('glob');
    }
  });

  test('`**` needs no machinery; other globs do', () => {
    expect(['**', './**', './/**', './*/**'].map((p) => needsEngine(p))).toEqual([false, false, false, true]);
    expect(['*', 'a/**', '**/x', 'notes'].map((p) => needsEngine(p))).toEqual([true, true, true, false]);
    expect(classifyPattern('./**', engine)).toEqual({ kind: 'glob', pattern: '**' });
    // What needsEngine promises: these classify without the machinery.
    expect(classifyPattern('./**', undefined)).toEqual({ kind: 'glob', pattern: '**' });
    expect(classifyPattern('notes', undefined)).toEqual({ kind: 'exact', pattern: 'notes' });
  });

  test('what needsEngine says needs no machinery compiles the same without it, on generated patterns', () => {
    const char = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('*', '**', './', '/', '.', '..', '?', '[', '{', '(', '\0', '\\', 'C:') },
      { weight: 5, arbitrary: fc.integer({ min: 32, max: 126 }).map((c) => String.fromCharCode(c)) },
    );
    const shape = ({ test, ...rest }: { test?: unknown }) => ({ ...rest, test: typeof test });
    let checked = 0;
    fc.assert(
      fc.property(fc.array(char, { maxLength: 8 }).map((cs) => cs.join('')), (p) => {
        if (needsEngine(p)) return;
        checked++;
        expect(compileWith([p], undefined).map(shape)).toEqual(compileWith([p], engine).map(shape));
      }),
      { numRuns: Number(process.env.KB_PROPERTY_RUNS ?? 3000), seed: 7 },
    );
    expect(checked).toBeGreaterThan(100);
  });

  test('the machinery tests call the internals with (engine.ts) is the picomatch checked here', () => {
    expect(typeof engine.picomatch.scan).toBe('function');
    expect(engine.picomatch).toBe(picomatch);
  });
});
