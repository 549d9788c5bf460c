// Types of scripts/lib/bench-report.mjs, for the tests.

/** A measurement as `npm run bench` reports it: a comparison with a
 *  reference (kb, ref, refName, ratio) or kb alone (kbValue in its unit). */
export interface BenchRow {
  what: string;
  id?: string;
  unit?: 'ms' | 'KiB' | 'fraction' | 'MB/s' | 'share' | 'count';
  kbValue?: number;
  kb?: number;
  ref?: number;
  refName?: string;
  ratio?: number;
  best?: number;
  speedup?: boolean;
  detail?: string;
  target?: number;
  cmp?: '<=' | '>=';
}
export function ms(x: number): string;
export function x(r: number): string;
export function mib(kib: number): string;
export function verdict(r: BenchRow): 'PASS' | 'FAIL' | 'info';
export function targetText(r: BenchRow): string;
export function plainRow(r: BenchRow): string[];
