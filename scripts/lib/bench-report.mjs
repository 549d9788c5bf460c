// How `npm run bench` shows a measurement: its figures, its target and its
// verdict, one table row a measurement (scripts/bench.mjs). A row is
// { what, unit?, id?, target?, cmp?, ... }: a comparison with a reference
// has kb, ref, refName and ratio (speedup: shown as "N x faster"); a
// measurement of kb alone has kbValue in its unit (ms, KiB, fraction,
// MB/s, share, count, or bytes for the binary).

export const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
export const x = (r) => `${r.toFixed(2)}x`;
export const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;

/** PASS or FAIL against the row's target; info where it has none. */
export function verdict(r) {
  if (r.target === undefined) return 'info';
  const v = r.ratio ?? r.kbValue;
  return (r.cmp === '<=' ? v <= r.target : v >= r.target) ? 'PASS' : 'FAIL';
}

/** The row's target as the table shows it. */
export function targetText(r) {
  if (r.target === undefined) return '-';
  if (r.id === 'rss' || r.unit === 'KiB') return `<= ${mib(r.target)}`;
  if (r.unit === 'ms') return `<= ${r.target} ms`;
  if (r.unit === 'fraction') return `<= ${(r.target * 100).toFixed(0)}%`;
  if (r.unit === 'MB/s') return `>= ${r.target} MB/s`;
  if (r.unit === 'share' || r.unit === 'count') return `${r.cmp} ${r.target}`;
  if (r.id === 'binary') return `<= ${r.target} B`;
  return `${r.cmp === '<=' ? '<=' : '>='} ${r.target}x${r.speedup ? ' faster' : ''}`;
}

/** The table's cells for a row: measurement, kb, reference, ratio,
 *  target, result. */
export function plainRow(r) {
  if (r.id === 'rss' || r.unit === 'KiB') return [r.what, mib(r.kbValue), '-', '-', targetText(r), verdict(r)];
  if (r.unit === 'ms') return [r.what, `${ms(r.kbValue)} ms`, '-', '-', targetText(r), verdict(r)];
  if (r.unit === 'fraction') return [r.what, `${(r.kbValue * 100).toFixed(1)}%`, 'o200k (gpt-tokenizer)', r.detail, targetText(r), verdict(r)];
  if (r.unit === 'MB/s') return [r.what, `${r.kbValue.toFixed(0)} MB/s`, '-', '-', targetText(r), verdict(r)];
  if (r.unit === 'share') return [r.what, r.kbValue.toFixed(2), '-', '-', targetText(r), verdict(r)];
  if (r.unit === 'count') return [r.what, String(r.kbValue), '-', '-', targetText(r), verdict(r)];
  if (r.id === 'binary') return [r.what, `${r.kbValue} B`, '-', r.detail, targetText(r), verdict(r)];
  const ratio = r.speedup ? `${r.ratio.toFixed(1)}x faster` : `${x(r.ratio)}${r.best ? ` (fastest runs: ${x(r.best)})` : ''}`;
  return [r.what, `${ms(r.kb)} ms`, `${ms(r.ref)} ms ${r.refName}`, ratio, targetText(r), verdict(r)];
}
