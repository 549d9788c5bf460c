// scripts/lib/bench-report.mjs: every kind of row `npm run bench` reports
// renders as a table row with its target and verdict (a row of a unit the
// table did not know, the HTTP load's error count, once stopped the whole
// report with a TypeError after every measurement had run).

import { describe, expect, test } from 'bun:test';
import { plainRow, targetText, verdict } from '../../scripts/lib/bench-report.mjs';

describe('the bench report', () => {
  test('a count (the HTTP load\'s errors, the sockets left) shows as a number against its target', () => {
    expect(plainRow({ id: 'httpErrors', what: 'errors', kbValue: 0, unit: 'count', target: 0, cmp: '<=' })).toEqual(['errors', '0', '-', '-', '<= 0', 'PASS']);
    expect(plainRow({ id: 'httpSockets', what: 'sockets', kbValue: 2, unit: 'count', target: 0, cmp: '<=' })).toEqual(['sockets', '2', '-', '-', '<= 0', 'FAIL']);
  });

  test('every other unit, and a comparison with a reference, render', () => {
    expect(plainRow({ id: 'rss', what: 'rss', kbValue: 2048, target: 204800, cmp: '<=' })).toEqual(['rss', '2.0 MiB', '-', '-', '<= 200.0 MiB', 'PASS']);
    expect(plainRow({ what: 'p50', kbValue: 12.9, unit: 'ms', target: 5, cmp: '<=' })).toEqual(['p50', '12.9 ms', '-', '-', '<= 5 ms', 'FAIL']);
    expect(plainRow({ what: 'tokens', kbValue: 0.031, unit: 'fraction', detail: 'd', target: 0.05, cmp: '<=' })).toEqual(['tokens', '3.1%', 'o200k (gpt-tokenizer)', 'd', '<= 5%', 'PASS']);
    expect(plainRow({ what: 'read', kbValue: 812.4, unit: 'MB/s', target: 500, cmp: '>=' })).toEqual(['read', '812 MB/s', '-', '-', '>= 500 MB/s', 'PASS']);
    expect(plainRow({ what: 'share', kbValue: 0.5, unit: 'share', target: 0.8, cmp: '>=' })).toEqual(['share', '0.50', '-', '-', '>= 0.8', 'FAIL']);
    expect(plainRow({ id: 'binary', what: 'size', kbValue: 100, detail: 'd', target: 200, cmp: '<=' })).toEqual(['size', '100 B', '-', 'd', '<= 200 B', 'PASS']);
    expect(plainRow({ what: 'load', kb: 161.2, ref: 220, refName: 'cat', ratio: 0.733, best: 0.7, target: 0.8, cmp: '<=' })).toEqual(['load', '161 ms', '220 ms cat', '0.73x (fastest runs: 0.70x)', '<= 0.8x', 'PASS']);
    expect(plainRow({ what: 'dup', kb: 2, ref: 40, refName: 'old', ratio: 20, speedup: true, target: 10, cmp: '>=' })).toEqual(['dup', '2.00 ms', '40.0 ms old', '20.0x faster', '>= 10x faster', 'PASS']);
  });

  test('a row without a target is information, not a verdict', () => {
    expect(verdict({ what: 'x', kbValue: 3, unit: 'ms' })).toBe('info');
    expect(targetText({ what: 'x', kbValue: 3, unit: 'ms' })).toBe('-');
  });
});
