// Pattern resolution against a subject index (never reads files).
//
// - Results follow the pattern order; each pattern's matches are in slug
//   order; a subject selected again by a later pattern keeps its first
//   position (its `exact` flag becomes true if any pattern named it exactly).
// - Exact patterns select the subject with that slug, hidden or not.
// - Globs select non-hidden subjects only. A subject whose slug equals a glob
//   pattern character for character (a file named `notes (draft).md` and the
//   pattern `notes (draft)`) is selected as if named exactly, as the RFD's
//   resolution algorithm does (`elif slug == pattern`).
// - Disabled slugs are selected by nothing, not even exactly.
// - Invalid patterns select nothing. So does a glob too expensive to match
//   against this topic (see glob/pattern.ts): it is reported as invalid, with
//   nothing of what it had matched so far, so results never depend on where
//   the budget ran out.
// - A glob that selects nothing counts the hidden subjects it would have
//   matched (`hiddenSkipped`), so the reply can say that globs skip them
//   (without naming them).

import { Budget, PatternTooExpensive, type CompiledPattern } from '../../glob/index.ts';
import { slugLowerBound } from './slug.ts';
import type { Alias, Match, PatternResult, Subject } from './types.ts';
import { map } from '../../shared/arrays.ts';

export type { Match, PatternResult } from './types.ts';

export interface Resolution {
  /** De-duplicated, in pattern order. */
  matches: Match[];
  /** One per pattern, in order. */
  perPattern: PatternResult[];
}

/** Binary search in a slug-sorted subject list. */
export function findBySlug(subjects: readonly Subject[], slug: string): Subject | undefined {
  const at = slugLowerBound(subjects, slug);
  return at < subjects.length && subjects[at].slug === slug ? subjects[at] : undefined;
}

/** The subject an exact name selects: the subject with that slug, else
 *  the file an alias names (a colliding file's slug plus extension, a
 *  skill's `<dir>/SKILL`); none when that slug is disabled. */
export function findExact(
  subjects: readonly Subject[],
  slug: string,
  disabled: ReadonlySet<string>,
  aliases?: ReadonlyMap<string, Alias>,
): Subject | undefined {
  const subject = findBySlug(subjects, slug);
  if (subject !== undefined) return disabled.has(subject.slug) ? undefined : subject;
  const alias = aliases?.get(slug);
  if (alias === undefined || disabled.has(alias.of) || disabled.has(slug)) return undefined;
  return alias.subject;
}

/** Resolves compiled `patterns` (glob/index.ts `compilePatterns`) against
 *  `subjects`, which must be in slug order (`SubjectIndex.subjects` is). */
export function resolvePatterns(
  subjects: readonly Subject[],
  patterns: readonly CompiledPattern[],
  disabled: ReadonlySet<string>,
  aliases?: ReadonlyMap<string, Alias>,
): Resolution {
  // Most topics pre-load nothing: no budget, map or result to build (a
  // start of kb schema or kb prompt opens every topic's view).
  if (patterns.length === 0) return { matches: [], perPattern: [] };
  const bySlug = new Map<string, Match>();
  const perPattern: PatternResult[] = [];
  const budget = new Budget();

  const add = (subject: Subject, exact: boolean): void => {
    const seen = bySlug.get(subject.slug);
    if (seen === undefined) bySlug.set(subject.slug, { subject, exact });
    else if (exact) seen.exact = true;
  };

  for (const c of patterns) {
    const raw = c.raw;
    if (c.kind === 'invalid') {
      perPattern.push({ pattern: raw, kind: 'invalid', reason: c.reason, slugs: [] });
      continue;
    }
    const selected: Match[] = [];
    if (c.kind === 'exact') {
      const subject = findExact(subjects, c.pattern, disabled, aliases);
      if (subject !== undefined) selected.push({ subject, exact: true });
    } else {
      const isMatch = c.test!;
      try {
        for (const subject of subjects) {
          if (disabled.has(subject.slug)) continue;
          if (subject.slug === c.pattern) selected.push({ subject, exact: true });
          else if (!subject.hidden && isMatch(subject.slug, budget)) selected.push({ subject, exact: false });
        }
      } catch (err) {
        if (!(err instanceof PatternTooExpensive)) throw err;
        perPattern.push({ pattern: raw, kind: 'invalid', reason: err.message, slugs: [] });
        continue;
      }
    }
    const result: PatternResult = { pattern: raw, kind: c.kind, slugs: map(selected, (m) => m.subject.slug) };
    if (c.kind === 'glob' && selected.length === 0) {
      const skipped = countHidden(subjects, c.test!, disabled, budget);
      if (skipped.hidden > 0) result.hiddenSkipped = skipped.hidden;
      if (skipped.bundled > 0) result.bundledSkipped = skipped.bundled;
    }
    perPattern.push(result);
    // One pattern selects each subject at most once: no de-duplication (a
    // glob over a whole topic selects thousands).
    if (patterns.length === 1) return { matches: selected, perPattern };
    for (const m of selected) add(m.subject, m.exact);
  }
  // (A loop, not a spread of the map's values: the runtime's iterator
  // spread costs about 0.1 ms the first time a process uses it.)
  const matches: Match[] = [];
  for (const m of bySlug.values()) matches.push(m);
  return { matches, perPattern };
}

/** How many hidden, non-disabled subjects `isMatch` matches, skills'
 *  bundled files counted apart (0 once the budget runs out: the count is a
 *  courtesy, never worth an error). */
function countHidden(subjects: readonly Subject[], isMatch: NonNullable<CompiledPattern['test']>, disabled: ReadonlySet<string>, budget: Budget): { hidden: number; bundled: number } {
  const n = { hidden: 0, bundled: 0 };
  try {
    for (const s of subjects) if (s.hidden && !disabled.has(s.slug) && isMatch(s.slug, budget)) n[s.bundled === true ? 'bundled' : 'hidden']++;
  } catch (err) {
    if (!(err instanceof PatternTooExpensive)) throw err;
    return { hidden: 0, bundled: 0 };
  }
  return n;
}
