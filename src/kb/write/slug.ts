// Slugs for new subjects (README, "Remembering"). Pure (no I/O).
//
// From a text: its first line that holds a word (a Markdown heading's
// marks dropped), folded to ASCII (accents dropped), lower-cased, function
// words dropped (unless nothing else is left), at most SLUG_WORDS words and
// SLUG_CHARS characters, joined by `-`. `note` when no word is left.
// Unique: `-2`, `-3`... appended while the slug is taken.
//
// Given (`--slug`): `/`-separated components of letters, digits, `.`,
// `_` and `-`, none empty, `.` or `..`, none starting with `.` (hidden).

import { isStopWord } from '../search/tokenize.ts';

export const SLUG_WORDS = 6;
export const SLUG_CHARS = 48;
/** A given slug's length, at most. */
export const MAX_SLUG = 200;

/** A readable slug for `text` (not yet unique). */
export function slugFromText(text: string): string {
  const line = text.split('\n').find((l) => /[\p{L}\p{N}]/u.test(l)) ?? '';
  const folded = line
    .replace(/^\s*#+\s*/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const words = folded.split(/[^a-z0-9]+/).filter((w) => w !== '');
  const content = words.filter((w) => !isStopWord(w));
  const chosen = content.length > 0 ? content : words;
  let slug = '';
  for (const w of chosen.slice(0, SLUG_WORDS)) {
    const next = slug === '' ? w.slice(0, SLUG_CHARS) : `${slug}-${w}`;
    if (next.length > SLUG_CHARS) break;
    slug = next;
  }
  return slug === '' ? 'note' : slug;
}

/** `base`, or `base-2`, `base-3`... : the first that `taken` refuses not. */
export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const s = `${base}-${n}`;
    if (!taken(s)) return s;
  }
}

/** Why a given slug cannot name a new subject, or undefined. */
export function badSlug(slug: string): string | undefined {
  if (slug === '') return 'it is empty';
  if (slug.length > MAX_SLUG) return `it is longer than ${MAX_SLUG} characters`;
  for (const c of slug.split('/')) {
    if (c === '') return 'it has an empty path component';
    if (c === '.' || c === '..') return `it has a "${c}" component`;
    if (c.startsWith('.')) return `"${c}" starts with a dot (a hidden subject is never listed)`;
    if (!/^[A-Za-z0-9._-]+$/.test(c)) return `"${c}" has characters other than letters, digits, ".", "_" and "-"`;
  }
  return undefined;
}
