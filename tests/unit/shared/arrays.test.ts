// shared/arrays.ts inCodeUnitOrder: items by their keys in code-unit
// order (the engine's string sort, each key given its index), equal keys
// in their first order, the items given not written.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { inCodeUnitOrder } from '../../../src/shared/arrays.ts';

/** What inCodeUnitOrder must give: a stable sort by a comparator. */
function expected(keys: readonly string[]): number[] {
  return keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
}

function check(keys: string[]): void {
  const items = keys.map((_, i) => i);
  const given = [...items];
  expect(inCodeUnitOrder(items, [...keys])).toEqual(expected(keys));
  expect(items).toEqual(given);
}

// Code units either side of the NUL and index suffix the sort adds: a key
// that starts another, 16-bit units, lone surrogates.
const key = fc.string({ unit: fc.constantFrom('a', 'b', 'B', '-', '/', '.', '0', '9', '\u0001', 'é', '東', '\ud83d', '\ude00'), maxLength: 5 });

describe('inCodeUnitOrder', () => {
  test('any keys, equal ones too: a stable sort in code-unit order', () => {
    fc.assert(fc.property(fc.array(key, { maxLength: 400 }), (keys) => check(keys)), { numRuns: 500 });
  });

  test('more than 65,536 keys: each index told apart', () => {
    const keys = Array.from({ length: 70_000 }, (_, i) => ['b', 'a', 'a/'][i % 3]);
    check(keys);
  });
});
