// Shortcuts taken for speed must give exactly what the general code gives.
import { describe, test, expect } from 'bun:test';
import picomatch from 'picomatch';
import { escapeControls, quoted } from '../../src/shared/controls.ts';
import { Budget } from '../../src/glob/budget.ts';
import { compileGlob } from '../../src/glob/pattern.ts';

/** Every string over `alphabet` up to `depth` characters long. */
function* strings(alphabet: string[], depth: number, prefix = ''): Generator<string> {
  yield prefix;
  if (depth === 0) return;
  for (const c of alphabet) yield* strings(alphabet, depth - 1, prefix + c);
}

describe('compileGlob("**") without running its regex', () => {
  test('agrees with picomatch on every short string of slug characters', () => {
    const re = picomatch.makeRe('**', { dot: false, nonegate: true, windows: false });
    // No machinery: `**` alone never loads it (glob/index.ts needsEngine).
    const fast = compileGlob('**', undefined);
    const budget = new Budget();
    let n = 0;
    for (const s of strings(['a', '.', '/', '..', ' ', 'é', '-'], 5)) {
      expect({ s, match: fast(s, budget) }).toEqual({ s, match: re.test(s) });
      n++;
    }
    expect(n).toBeGreaterThan(10000);
  });
});

describe('quoted: names that need no escape', () => {
  const slow = (s: string) => `"${escapeControls(s.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
  test('agrees with the escaping path on every short string of tricky characters', () => {
    for (const s of strings(['a', '"', '\\', '\n', '\u0000', '\u007f', '\u0085', '\u2028', 'é', '/'], 4)) {
      expect(quoted(s)).toBe(slow(s));
    }
  });
});
