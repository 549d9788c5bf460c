// Fitting an answer to a token budget, one way for every answer that has
// one: a search's results, a recall's subjects, a listing's lines, the
// names of the pre-loaded subjects the prompt does not expand. An answer is
// a frame and rows; render/ says what each costs (answer/cost.ts), and the
// operation passes its rows, those costs and the budget, and gets back the
// rows kept and those left out.
//
// Two steps. First the rows are weighed one by one by their estimates, in
// order (cheap: the sum stops at the first row over the budget, and a
// bound may spare weighing each). Then the answer is measured as a whole,
// only where the estimates leave doubt, and cut further until it fits: the
// last row kept gives way first (one already shrunk shrinks again, when
// rows can shrink), else the most rows whose whole fits are searched for
// from the top (1, 2, 4... fewer, then halving between).

/** What an answer's parts cost, and how its rows may be cut. */
export interface FitCosts<T> {
  /** The answer without its rows, estimated (what a cut adds to it, a
   *  note, included at most). */
  readonly frame: number;
  /** A row's estimate, after the rows `kept` before it. */
  row(x: T, kept: readonly T[]): number;
  /** Whether the rows are, all of them, surely over `room` (true) or
   *  surely within it (false); undefined: each row is weighed. A bound
   *  that spares weighing thousands of lines (a listing's folders). */
  bound?(room: number): boolean | undefined;
  /** The answer with the rows `kept` and `left` out, measured as a whole
   *  (render's estimate of its text); absent: the estimates are the
   *  measure. */
  whole?(kept: readonly T[], left: readonly T[]): number;
  /** How far the whole may be over the frame and its rows' estimates, for
   *  each of them (what each estimate's rounding may lose): within that,
   *  the whole is not measured. Absent: it is measured. */
  readonly slack?: number;
  /** A smaller form of row `x` within `room` tokens, if it has one (a
   *  subject's most relevant sections). */
  shrink?(x: T, room: number, kept: readonly T[]): T | undefined;
  /** A row that does not fit is left out and the next is still tried (a
   *  recall's subjects); by default every row after it is left out too (a
   *  prefix: the rows' order is the answer's). */
  readonly skip?: boolean;
}

/** The rows kept, in order, and those left out. */
export interface Fitted<T> {
  kept: T[];
  left: T[];
}

/** The rows of `rows` that fit in `budget` tokens with `costs`. */
export function fit<T>(rows: readonly T[], budget: number, costs: FitCosts<T>): Fitted<T> {
  return measured(weighed(rows, budget, costs, false)!, budget, costs);
}

/** `fit`, only when every row fits by its estimate: undefined when one
 *  does not (a listing then tries another way of listing). */
export function fitAll<T>(rows: readonly T[], budget: number, costs: FitCosts<T>): Fitted<T> | undefined {
  const w = weighed(rows, budget, costs, true);
  return w === undefined ? undefined : measured(w, budget, costs);
}

/** The first step's result: the frame and the rows kept, weighed (`used`:
 *  undefined when the bound kept them all unweighed), and which rows are
 *  shrunk forms. */
interface Weighed<T> extends Fitted<T> {
  used: number | undefined;
  shrunk: Set<T> | undefined;
}

/** The rows kept by their estimates (`all`: undefined as soon as one is
 *  left out). */
function weighed<T>(rows: readonly T[], budget: number, costs: FitCosts<T>, all: boolean): Weighed<T> | undefined {
  const bound = costs.bound?.(budget - costs.frame);
  if (bound === false) return { kept: rows.slice(), left: [], used: undefined, shrunk: undefined };
  if (bound === true && all) return undefined;
  const kept: T[] = [];
  const left: T[] = [];
  let shrunk: Set<T> | undefined;
  let used = costs.frame;
  for (let i = 0; i < rows.length; i++) {
    const x = rows[i];
    const cost = costs.row(x, kept);
    if (used + cost <= budget) {
      kept.push(x);
      used += cost;
      continue;
    }
    const smaller = costs.shrink?.(x, budget - used, kept);
    if (smaller !== undefined) {
      used += costs.row(smaller, kept);
      kept.push(smaller);
      (shrunk ??= new Set()).add(smaller);
      continue;
    }
    if (all) return undefined;
    if (costs.skip) left.push(x);
    else {
      for (let j = i; j < rows.length; j++) left.push(rows[j]);
      break;
    }
  }
  return { kept, left, used, shrunk };
}

/** The rows kept, the answer measured as a whole where the estimates
 *  leave doubt, and cut until it fits. */
function measured<T>(w: Weighed<T>, budget: number, costs: FitCosts<T>): Fitted<T> {
  const { kept, left } = w;
  if (costs.whole === undefined || kept.length === 0) return { kept, left };
  // Within its parts and their slack, the whole is within the budget.
  if (w.used !== undefined && costs.slack !== undefined && w.used + costs.slack * (kept.length + 1) <= budget) return { kept, left };
  const over = costs.whole(kept, left) - budget;
  if (over <= 0) return { kept, left };
  return costs.shrink === undefined ? fewest(kept, left, budget, costs.whole) : giveWay(w, over, budget, costs);
}

/** The most rows of `kept`, from the first, whose whole fits, the first
 *  `kept.length` known not to (the whole grows with the rows): down by
 *  1, 2, 4... until a count fits, then halving between. No row kept needs
 *  no measure. */
function fewest<T>(kept: T[], left: T[], budget: number, whole: (kept: readonly T[], left: readonly T[]) => number): Fitted<T> {
  const fits = (m: number) => m === 0 || whole(kept.slice(0, m), [...kept.slice(m), ...left]) <= budget;
  let over = kept.length;
  let under = 0;
  for (let step = 1; ; step *= 2) {
    const m = Math.max(0, over - step);
    if (fits(m)) {
      under = m;
      break;
    }
    over = m;
  }
  while (over - under > 1) {
    const mid = (over + under) >>> 1;
    if (fits(mid)) under = mid;
    else over = mid;
  }
  return { kept: kept.slice(0, under), left: [...kept.slice(under), ...left] };
}

/** Rows that can shrink: the last row kept gives way, one at a time, until
 *  the whole (`over` the budget by so much) fits: one that is a shrunk form shrinks by what the whole is
 *  over (when that makes it smaller), else it is left out, first among
 *  those left. */
function giveWay<T>(w: Weighed<T>, over: number, budget: number, costs: FitCosts<T>): Fitted<T> {
  const { kept, left } = w;
  const whole = costs.whole!;
  while (over > 0 && kept.length > 0) {
    const last = kept.pop()!;
    const cost = costs.row(last, kept);
    const smaller = w.shrunk?.has(last) ? costs.shrink!(last, cost - over, kept) : undefined;
    if (smaller !== undefined && costs.row(smaller, kept) < cost) {
      kept.push(smaller);
      w.shrunk!.add(smaller);
    } else left.unshift(last);
    over = whole(kept, left) - budget;
  }
  return { kept, left };
}
