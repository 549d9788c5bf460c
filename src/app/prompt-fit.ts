// The pre-loaded subjects the prompt section names but does not expand
// (knowledge-base.ts decides which are expanded) are budgeted too: as many
// names as fit in what the section leaves of the budget, in configuration
// order, then a count of the rest per topic and the `learn` call that
// lists them. The section never exceeds the budget on their account: the
// number of names is the largest whose whole section, measured, fits
// (app/fit.ts; each name costs a token at least, so no more than `budget`
// names are tried, and each try is one measure of a section about the
// budget's size).
import type { PreloadedTopic } from '../answer/prompt.ts';
import { fit } from './fit.ts';

/**
 * Trims the `cut` names of `preloaded` (each topic's full list, in order)
 * so that `measure(preloaded)` (the whole section's tokens) is at most
 * `budget`, moving the rest into `cutRest` (in place).
 */
export function fitCutNames(preloaded: PreloadedTopic[], budget: number, measure: (p: PreloadedTopic[]) => number): void {
  const full = preloaded.map((t) => t.cut ?? []);
  const total = full.reduce((n, c) => n + c.length, 0);
  if (total === 0 || !Number.isFinite(budget)) return;
  /** Keeps the first `k` names overall. */
  const keep = (k: number): PreloadedTopic[] => {
    let left = k;
    return preloaded.map((t, i) => {
      const names = full[i];
      if (names.length === 0) return t;
      const n = Math.min(left, names.length);
      left -= n;
      const rest = names.length - n;
      return { ...t, cut: names.slice(0, n), ...(rest > 0 ? { cutRest: { count: rest, ...folderOf(names, n) } } : {}) };
    });
  };
  // The names by their place overall; each takes a token at least.
  const names = Array.from({ length: total }, (_, i) => i);
  const { kept } = fit(names, budget, { frame: 0, row: () => 1, whole: (shown) => measure(keep(shown.length)) });
  const fitted = keep(kept.length);
  for (let i = 0; i < preloaded.length; i++) preloaded[i] = fitted[i];
}

/** The deepest folder holding every slug of `names` from `from` on, as
 *  the listing pattern `folder/`; none when they share no folder. */
function folderOf(names: readonly string[], from: number): { folder?: string } {
  let prefix: string | undefined;
  for (let i = from; i < names.length; i++) {
    const slug = names[i];
    if (prefix === undefined) {
      const slash = slug.lastIndexOf('/');
      if (slash < 0) return {};
      prefix = slug.slice(0, slash + 1);
    }
    while (prefix !== '' && !slug.startsWith(prefix)) {
      const slash = prefix.lastIndexOf('/', prefix.length - 2);
      prefix = slash < 0 ? '' : prefix.slice(0, slash + 1);
    }
    if (prefix === '') return {};
  }
  return prefix === undefined ? {} : { folder: prefix };
}
