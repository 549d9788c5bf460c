// A slug given for a new subject (`--slug`, the remember tool's `slug`):
// `/`-separated components of letters, digits, `.`, `_` and `-`, none
// empty, `.` or `..`, none starting with `.` (hidden). Pure.
import { jsonQuoted } from '../../shared/controls.ts';

/** A given slug's length, at most. */
export const MAX_SLUG = 200;

/** Why a given slug cannot name a new subject, or undefined. */
export function badSlug(slug: string): string | undefined {
  if (slug === '') return 'it is empty';
  if (slug.length > MAX_SLUG) return `it is longer than ${MAX_SLUG} characters`;
  for (const c of slug.split('/')) {
    if (c === '') return 'it has an empty path component';
    if (c === '.' || c === '..') return `it has a "${c}" component`;
    if (c.startsWith('.')) return `${jsonQuoted(c)} starts with a dot (a hidden subject is never listed)`;
    if (!/^[A-Za-z0-9._-]+$/.test(c)) return `${jsonQuoted(c)} has characters other than letters, digits, ".", "_" and "-"`;
  }
  return undefined;
}
