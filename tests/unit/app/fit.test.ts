// app/fit.ts: the one fit to a token budget (search, recall, listings, the
// prompt's names), on rows whose costs are plain numbers.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { fit, fitAll, type FitCosts } from '../../../src/app/fit.ts';

/** Rows that cost their value; the whole is their sum plus the frame plus
 *  `extra` per row kept (what each estimate's rounding lost). */
function costs(frame: number, extra = 0, more: Partial<FitCosts<number>> = {}): FitCosts<number> {
  return { frame, row: (x) => x, whole: (kept) => frame + kept.reduce((n, x) => n + x + extra, 0), ...more };
}

describe('fit', () => {
  test('keeps rows from the first while the frame and their estimates are within the budget; the rest are left, in order', () => {
    expect(fit([3, 4, 5, 1], 10, costs(2))).toEqual({ kept: [3, 4], left: [5, 1] });
    expect(fit([3, 4], 9, costs(2))).toEqual({ kept: [3, 4], left: [] });
    expect(fit([3, 4], 1, costs(2))).toEqual({ kept: [], left: [3, 4] });
    expect(fit([], 10, costs(2))).toEqual({ kept: [], left: [] });
  });

  test('skip: a row that does not fit is left out and the next is still tried', () => {
    expect(fit([3, 9, 4, 1], 10, costs(2, 0, { skip: true }))).toEqual({ kept: [3, 4, 1], left: [9] });
  });

  test('a row too big for the room left comes in a smaller form when it has one', () => {
    // A big row comes as at most 4, in no less than 2.
    const shrink = (x: number, room: number) => (x > 10 && room >= 2 ? Math.min(room, 4) : undefined);
    expect(fit([3, 50, 2, 20, 30], 12, costs(0, 0, { shrink, skip: true }))).toEqual({ kept: [3, 4, 2, 3], left: [30] });
  });

  test('the whole is measured, and the most rows whose whole fits are kept', () => {
    // Each row costs one token more as a whole than its estimate.
    expect(fit([2, 2, 2, 2, 2], 12, costs(0, 1))).toEqual({ kept: [2, 2, 2, 2], left: [2] });
    expect(fit([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 10, costs(0, 4))).toEqual({ kept: [1, 1], left: [1, 1, 1, 1, 1, 1, 1, 1] });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 60 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 200 }), (rows, frame, extra, budget) => {
        const c = costs(frame, extra);
        const got = fit(rows, budget, c);
        // The most rows, from the first, whose whole is within the budget
        // (none when not even one fits), one fewer at a time.
        let m = 0;
        while (m < rows.length && frame + rows.slice(0, m + 1).reduce((n, x) => n + x, 0) <= budget) m++;
        while (m > 0 && c.whole!(rows.slice(0, m), []) > budget) m--;
        expect(got).toEqual({ kept: rows.slice(0, m), left: rows.slice(m) });
      }),
      { numRuns: 500 },
    );
  });

  test('the whole is measured only where the estimates and their slack leave doubt', () => {
    let measured = 0;
    const c = costs(2, 0, { slack: 0.5 });
    const whole = c.whole!;
    c.whole = (kept, left) => (measured++, whole(kept, left));
    // 2 + 3 + 0.5 * 3 = 6.5: within 7.
    expect(fit([1, 2], 7, c)).toEqual({ kept: [1, 2], left: [] });
    expect(measured).toBe(0);
    expect(fit([1, 2], 6, c)).toEqual({ kept: [1, 2], left: [] });
    expect(measured).toBe(1);
  });

  test('a bound that says the rows are within the room keeps them all unweighed, and the whole is measured', () => {
    let weighed = 0;
    let measured = 0;
    const got = fit([5, 5, 5], 11, { frame: 0, row: (x) => (weighed++, x), bound: () => false, whole: (kept) => (measured++, kept.length * 5) });
    expect(got).toEqual({ kept: [5, 5], left: [5] });
    expect(weighed).toBe(0);
    expect(measured).toBeGreaterThan(0);
  });

  test('rows that shrink give way one at a time: one already shrunk shrinks again, one kept whole is left out', () => {
    // Rows are sizes; a shrunk form is a negative size (its cost, -x).
    const row = (x: number) => Math.abs(x);
    const shrink = (x: number, room: number) => (room >= 1 ? -Math.min(Math.abs(x) - 1, room) : undefined);
    let extra = 3;
    const whole = (kept: readonly number[]) => kept.reduce((n, x) => n + Math.abs(x), 0) + extra;
    // 6 fits; 8 is too big for the 4 left and comes as -4; measured, the
    // whole is 3 over: -4 shrinks to -1.
    expect(fit([6, 8], 10, { frame: 0, row, shrink, whole, skip: true })).toEqual({ kept: [6, -1], left: [] });
    // Too far over for -4 to shrink: it is left out, then 6 (kept whole)
    // is, first among those left; 9 was left out while weighing.
    extra = 20;
    expect(fit([6, 8, 9], 10, { frame: 0, row, shrink, whole, skip: true })).toEqual({ kept: [], left: [6, -4, 9] });
    // Kept whole, measured 1 over: left out, not shrunk.
    extra = 5;
    expect(fit([6], 10, { frame: 0, row, shrink, whole, skip: true })).toEqual({ kept: [], left: [6] });
  });
});

describe('fitAll', () => {
  test('undefined as soon as a row does not fit by its estimate; else as fit', () => {
    expect(fitAll([3, 4, 5], 10, costs(2))).toBeUndefined();
    expect(fitAll([3, 4], 9, costs(2))).toEqual({ kept: [3, 4], left: [] });
    // Measured over as a whole: fewer rows, as fit.
    expect(fitAll([3, 4], 9, costs(2, 1))).toEqual({ kept: [3], left: [4] });
  });

  test('a bound that says the rows are over the room is the answer', () => {
    expect(fitAll([1], 10, { ...costs(0), bound: () => true })).toBeUndefined();
    expect(fit([1, 1], 10, { ...costs(0), bound: () => true })).toEqual({ kept: [1, 1], left: [] });
  });
});
