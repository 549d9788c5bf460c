// Slugs for new subjects (docs/guide/search-and-memory.md, "Remembering"). Pure (no I/O).
//
// From a text: its first line that holds a word (a Markdown heading's
// marks dropped), folded to ASCII (accents dropped), lower-cased, function
// words dropped (unless nothing else is left), at most SLUG_WORDS words and
// SLUG_CHARS characters, joined by `-`. `note` when no word is left.
// Unique: `-2`, `-3`... appended while the slug is taken.
//
// Given (`--slug`): checked by given.ts (apart, so that checking a tool
// call's arguments loads nothing of search).

import { hasWord } from '../content/markup.ts';
import { isStopWord } from '../search/tokenize.ts';

export { badSlug, MAX_SLUG } from './given.ts';

export const SLUG_WORDS = 6;
export const SLUG_CHARS = 48;

/** A readable slug for `text` (not yet unique). */
export function slugFromText(text: string): string {
  const line = text.split('\n').find((l) => hasWord(l)) ?? '';
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
