import { describe, test, expect } from 'bun:test';
import fc from 'fast-check';
import { editDistance, levenshtein } from '../../../src/shared/edit-distance.ts';

/** The plain dynamic programme, the whole table (`swaps`: neighbours
 *  swapped are one edit). */
function plain(a: string, b: string, swaps = true): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

describe('editDistance', () => {
  test('a swap of neighbours is one edit', () => {
    expect(editDistance('titel', 'title')).toBe(1);
    expect(editDistance('release', 'relaese', 2)).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
  });

  test('unbounded: the distance', () => {
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('flaw', 'lawn')).toBe(2);
    expect(editDistance('abc', 'abc')).toBe(0);
  });

  test('bounded: the distance within the bound, else the bound + 1', () => {
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 1)).toBe(2);
    expect(editDistance('', 'ab', 2)).toBe(2);
    expect(editDistance('abc', 'abc', 0)).toBe(0);
    expect(editDistance('abc', 'abd', 0)).toBe(1);
    expect(editDistance('a'.repeat(300), `${'a'.repeat(299)}b`, 1)).toBe(1);
  });

  test('a part of `b`, read in place', () => {
    expect(editDistance('abc', 'xabcx', 1, 1, 3)).toBe(0);
    expect(editDistance('abc', 'xacbx', 1, 1, 3)).toBe(1);
    expect(editDistance('release', 'relaese', 2, 0, 7)).toBe(1);
  });

  test('agrees with the whole table, for any bound and any part', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, word, word, fc.integer({ min: 0, max: 4 }), (a, b, pre, post, max) => {
        const full = plain(a, b);
        expect(editDistance(a, b)).toBe(full);
        expect(editDistance(a, b, max)).toBe(full <= max ? full : max + 1);
        expect(editDistance(a, pre + b + post, max, pre.length, b.length)).toBe(full <= max ? full : max + 1);
      }),
      { numRuns: 3000 },
    );
  });

  test('levenshtein: no swaps', () => {
    expect(levenshtein('ab', 'ba')).toBe(2);
    expect(levenshtein('f20', 'f02', 1)).toBe(2);
    expect(levenshtein('kitten', 'sitting', 3)).toBe(3);
    expect(levenshtein('kitten', 'sitting', 2)).toBe(3);
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        const full = plain(a, b, false);
        expect(levenshtein(a, b)).toBe(full);
        expect(levenshtein(a, b, max)).toBe(full <= max ? full : max + 1);
      }),
      { numRuns: 2000 },
    );
  });
});
