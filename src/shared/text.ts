// Small text utilities shared by every layer.

/** `512 B`, `1.0 GiB`, `16 MiB`: a size in bytes for people. */
export function humanSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** Plain UTF-16 code-unit order (never locale order):
 *  `B` < `a` < `a-b` < `a/b` < `a_c`. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
