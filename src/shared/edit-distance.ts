// The one edit distance kb uses, in two variants of one table: with swaps
// of neighbours (configuration keys, "did you mean `title`?", config/
// suggest.ts; command names, cli/main.ts; fuzzy search terms,
// kb/search/engine.ts) and without (a
// missing learn pattern's near misses, kb/index/near.ts, whose suggestions
// are pinned by tests and kept as they are).

/** Rows of the table, reused (one call at a time). */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * The optimal-string-alignment distance between `a` and
 * `b.slice(at, at + n)` (code units): Levenshtein plus swaps of adjacent
 * characters, so `titel` is one edit from `title`. Returns it when it is at
 * most `max`, else `max + 1` (Infinity without a bound). Only a band of
 * `2 * max + 1` cells per row is computed, and it stops as soon as a row
 * exceeds `max`; `b` is read in place (no slice is made).
 */
export function editDistance(a: string, b: string, max = Infinity, at = 0, n = b.length - at): number {
  return distance(a, b, max, at, n, true);
}

/** The Levenshtein distance (no swaps: `ab` is two edits from `ba`), as
 *  `editDistance` returns it. */
export function levenshtein(a: string, b: string, max = Infinity): number {
  return distance(a, b, max, 0, b.length, false);
}

function distance(a: string, b: string, max: number, at: number, n: number, swaps: boolean): number {
  const m = a.length;
  if (Math.abs(m - n) > max) return max + 1;
  // A distance never exceeds the longer length: a bound past it is none.
  const limit = Math.min(max, Math.max(m, n));
  if (rows[0].length < n + 2) rows = [new Int32Array(n + 2), new Int32Array(n + 2), new Int32Array(n + 2)];
  let [prev2, prev, cur] = rows;
  firstRow(prev, n, limit);
  for (let i = 1; i <= m; i++) {
    const aPrev = swaps && i > 1 ? a.charCodeAt(i - 2) : -1;
    if (nextRow(cur, prev, prev2, i, a.charCodeAt(i - 1), aPrev, b, at, n, limit) > limit) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[n] <= limit ? prev[n] : max + 1;
}

/** Row 0 of the table against `n` columns (`n + 1` cells), bounded by
 *  `limit`: see `nextRow`. */
export function firstRow(row: Int32Array, n: number, limit: number): void {
  for (let j = 0; j <= n; j++) row[j] = j <= limit ? j : limit + 1;
}

/**
 * Row `i` of the table into `cur`, from rows `i - 1` (`prev`) and `i - 2`
 * (`prev2`; any row when `i` is 1): the distances from the first `i`
 * characters of one string, whose `i`th is `ai` and the one before it
 * `aPrev` (-1: none, or no swaps), to each start of `b.slice(at, at + n)`.
 * Only the band of cells within `limit` of the diagonal is computed; the
 * cells next to it hold `limit + 1`, as every cell capped there does, so
 * the distances up to `limit` are exact. Returns the row's least cell: past
 * `limit`, no longer string starting with those `i` characters is within
 * it either (every cell of the next row is at least one of this row's: a
 * match, change, addition or deletion adds 0 or 1 to one, and a swap's
 * cell is never below this row's cell to its left). The
 * rows of editDistance, and those of a walk over sorted words where the
 * words that start alike share their first rows (kb/search/engine.ts
 * `near`).
 */
export function nextRow(cur: Int32Array, prev: Int32Array, prev2: Int32Array, i: number, ai: number, aPrev: number, b: string, at: number, n: number, limit: number): number {
  const big = limit + 1;
  const lo = Math.max(1, i - limit);
  const hi = Math.min(n, i + limit);
  cur[0] = i <= limit ? i : big;
  if (lo > 1) cur[lo - 1] = big;
  let best = cur[0];
  for (let j = lo; j <= hi; j++) {
    const bj = b.charCodeAt(at + j - 1);
    let v = prev[j - 1] + (ai === bj ? 0 : 1);
    const up = (j <= i - 1 + limit ? prev[j] : big) + 1;
    if (up < v) v = up;
    const left = cur[j - 1] + 1;
    if (left < v) v = left;
    // A swap of neighbours: row i - 2 holds the cell (its band covers it).
    if (j > 1 && aPrev === bj && ai === b.charCodeAt(at + j - 2) && prev2[j - 2] + 1 < v) v = prev2[j - 2] + 1;
    if (v > big) v = big;
    cur[j] = v;
    if (v < best) best = v;
  }
  if (hi < n) cur[hi + 1] = big;
  return best;
}

/** The candidate closest to `name` (case-insensitively), when it is close
 *  enough to be a plausible typo: at most 2 edits and fewer than half the
 *  name's length. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= 2 && bestDistance < lower.length / 2 ? best : undefined;
}
