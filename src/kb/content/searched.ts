// The text search reads of a file: what the index holds (kb/search/topic.ts)
// and what a result's snippet and passages come from (app/search.ts), so
// that a snippet's words are the words that matched. One rule for both:
// - an HTML page: its text (html.ts);
// - a manual page's source (an extension title.ts reads as roff, and a head
//   that looks like a page: roff.ts `looksRoff`): the text it prints, line
//   for line;
// - anything else: the text as it is.
// In every format, soft hyphens are dropped, as a reader never sees them
// (`&shy;`, and U+00AD itself: German docs break long words with them,
// `Konfigurations&shy;optionen`, which is one word to find).

import { htmlText, isHtmlExt } from './html.ts';
import { looksRoff, roffText } from './roff.ts';
import { titleFormat } from './title.ts';

/** The text search reads of `text`, a file of extension `ext` (lower
 *  case). */
export function searchedText(text: string, ext: string): string {
  if (isHtmlExt(ext)) return withoutSoftHyphens(htmlText(text));
  return withoutSoftHyphens(titleFormat(ext) === 'roff' && looksRoff(text) ? roffText(text) : text);
}

/** `text` without soft hyphens, written as a character or as `&shy;`
 *  (two native searches tell a text without either, nearly every one). */
export function withoutSoftHyphens(text: string): string {
  if (!text.includes('\u00ad') && !text.includes('&shy;')) return text;
  return text.replace(SOFT_HYPHENS, '');
}
const SOFT_HYPHENS = /\u00ad|&shy;/g;
