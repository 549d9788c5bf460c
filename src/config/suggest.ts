// "did you mean `title`?" for misspelled keys.

import { editDistance } from '../shared/edit-distance.ts';

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
