// Lines of one subject in a learn call: `SLUG:FIRST-LAST` (lines FIRST to
// LAST), `SLUG:FIRST-` (from FIRST to the end), `SLUG:LINE` (that line),
// beside the RFD's exact slugs and globs (docs/learn.md, "Lines of a
// subject"). Numbers are 1-based, as search shows them. Only an exact slug
// takes a range: a glob never does, and a subject whose slug really ends
// in `:120-160` is that subject (the exact slug wins). Read in one pass
// from the pattern's last colon.

/** Lines `first` to `last` (undefined: to the end), 1-based. */
export interface LineRange {
  first: number;
  last?: number;
}

/** The longest number a range takes (a line past 999,999,999 is past any
 *  file kb reads). */
const DIGITS = 9;

/** `pattern` read as `SLUG:RANGE`: the slug and the range, or the slug and
 *  why the range is not one (`0`, a range that ends before it starts);
 *  undefined when it does not end in a range at all. */
export function splitLineRange(pattern: string): { slug: string; range: LineRange } | { slug: string; problem: string } | undefined {
  const colon = pattern.lastIndexOf(':');
  if (colon < 1) return undefined;
  const r = parseRange(pattern.slice(colon + 1));
  return r === undefined ? undefined : { slug: pattern.slice(0, colon), ...r };
}

/** A range as written (`120-160`, `120-`, `120`): the range, or why it is
 *  not one; undefined when it is not written as one at all. */
export function parseRange(text: string): { range: LineRange } | { problem: string } | undefined {
  if (text.length > 2 * DIGITS + 1) return undefined;
  const m = /^(\d{1,9})(?:-(\d{0,9}))?$/.exec(text);
  if (m === null) return undefined;
  const first = Number(m[1]);
  const last = m[2] === undefined ? first : m[2] === '' ? undefined : Number(m[2]);
  if (first === 0 || last === 0) return { problem: 'lines are numbered from 1' };
  if (last !== undefined && last < first) return { problem: `the range ends (line ${last}) before it starts (line ${first})` };
  return { range: last === undefined ? { first } : { first, last } };
}

/** A range as a call writes it: `120-160`, `120-`, `120`. */
export function rangeText(r: LineRange): string {
  return r.last === undefined ? `${r.first}-` : r.last === r.first ? `${r.first}` : `${r.first}-${r.last}`;
}
