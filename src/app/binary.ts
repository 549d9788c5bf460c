// Summing a topic's binary files up (answer/binary.ts).
import type { BinarySummary } from '../answer/binary.ts';

/** The count of `exts` (one per binary file, lower case), by extension. */
export function binarySummary(exts: readonly string[]): BinarySummary {
  const by = new Map<string, number>();
  for (const e of exts) by.set(e, (by.get(e) ?? 0) + 1);
  const extensions = [...by].map(([ext, count]) => ({ ext, count }));
  extensions.sort((a, b) => b.count - a.count || (a.ext < b.ext ? -1 : a.ext > b.ext ? 1 : 0));
  return { count: exts.length, extensions };
}
