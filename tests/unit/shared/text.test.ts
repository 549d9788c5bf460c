// countText writes numbers out itself (no locale data to set up): it must
// read exactly as toLocaleString('en-US') does.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { countText } from '../../../src/shared/text.ts';

const en = (n: number) => Math.round(n).toLocaleString('en-US');

describe('countText', () => {
  test('thousands separators, as en-US', () => {
    for (const n of [0, 1, 12, 123, 999, 1000, 1001, 20_000, 123_456, 1_234_567, 25_930_069, -1, -999, -1000, -1_234_567, 0.4, 0.5, 999.5, -0.4, -1000.5, 1e15, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
      expect(countText(n)).toBe(en(n));
    }
    expect(countText(20_000)).toBe('20,000');
    expect(countText(1234567.4)).toBe('1,234,567');
  });

  test('beyond safe integers and odd values, as en-US', () => {
    for (const n of [2 ** 53, 1e21, 1e300, -1e21, NaN, Infinity, -Infinity, -0]) expect(countText(n)).toBe(en(n));
  });

  test('any integer or fraction, as en-US', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1e12, max: 1e12 }), fc.double({ min: -1e16, max: 1e16, noNaN: true }), fc.maxSafeInteger()), (n) => {
        expect(countText(n)).toBe(en(n));
      }),
      { numRuns: 3000 },
    );
  });
});
