// The text search reads of a file: what the index holds (kb/search/topic.ts)
// and what a result's snippet and passages come from (app/search.ts), so
// that a snippet's words are the words that matched. One rule for both:
// - an HTML page: its text (html.ts);
// - a manual page's source (an extension title.ts reads as roff, and a head
//   that looks like a page: roff.ts `looksRoff`): the text it prints, line
//   for line;
// - anything else: the text as it is.

import { htmlText, isHtmlExt } from './html.ts';
import { looksRoff, roffText } from './roff.ts';
import { titleFormat } from './title.ts';

/** The text search reads of `text`, a file of extension `ext` (lower
 *  case). */
export function searchedText(text: string, ext: string): string {
  if (isHtmlExt(ext)) return htmlText(text);
  return titleFormat(ext) === 'roff' && looksRoff(text) ? roffText(text) : text;
}
