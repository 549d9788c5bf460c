// Cooperative turns for long loops (shared/pace.ts): no pace without a
// signal; a turn once a slice is used up; a cancelled loop stops at its
// next step; the steps are counted on the signal.
import { describe, expect, test } from 'bun:test';
import { paceOf, stepsTaken } from '../../../src/shared/pace.ts';

describe('paceOf', () => {
  test('no signal, no pace (the CLI awaits nothing)', () => {
    expect(paceOf(undefined)).toBeUndefined();
  });

  test('within a slice a step goes on; past it, the step is a turn', async () => {
    const signal = new AbortController().signal;
    expect(paceOf(signal, 60_000)!()).toBeUndefined();
    const turn = paceOf(signal, 0)!();
    expect(turn).toBeInstanceOf(Promise);
    await turn;
  });

  test('once aborted, the next step throws the reason, and so does a turn under way', async () => {
    const control = new AbortController();
    const pace = paceOf(control.signal, 0)!;
    const turn = pace();
    control.abort(new Error('cancelled'));
    await expect(turn!).rejects.toThrow('cancelled');
    expect(() => pace()).toThrow('cancelled');
  });

  test('the steps of every pace of a signal are counted on it', () => {
    const signal = new AbortController().signal;
    const build = paceOf(signal, 60_000)!;
    const rank = paceOf(signal, 60_000)!;
    for (let i = 0; i < 3; i++) build();
    rank();
    expect(stepsTaken(signal)).toBe(4);
    expect(stepsTaken(new AbortController().signal)).toBe(0);
  });
});
