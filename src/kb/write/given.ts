// A slug given for a new subject (`--slug`, the remember tool's `slug`):
// `/`-separated components of letters, digits, `.`, `_` and `-`, none
// empty, `.` or `..`, none starting with `.` (hidden), and never one whose
// file would change how the subjects beside it are read (`SKILL.md`, in
// any case: its folder would become an Agent Skill). Pure.
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
  return reservedName(`${slug.slice(slug.lastIndexOf('/') + 1)}.md`);
}

/**
 * Why kb never creates a file of this name (`SKILL.md`, any case; a
 * hidden name, such as `.kbignore` or `.gitignore`), or undefined: such a
 * file changes how the subjects already beside it are read (a `SKILL.md`
 * makes its folder an Agent Skill, whose other files are bundled, never
 * listed, searched or forgotten; an ignore file hides subjects).
 */
export function reservedName(file: string): string | undefined {
  if (file.startsWith('.')) return `"${file}" is hidden (a hidden file is never listed, and some, like .kbignore, change what is)`;
  if (/^skill\.md$/i.test(file)) return `a file named ${file} would make its folder an Agent Skill, and every subject beside it a bundled file`;
  return undefined;
}
