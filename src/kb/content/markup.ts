// Lines that are markup only: what a site generator or an editor reads, not
// what the page says. Such a line is never a snippet (search/snippet.ts),
// a title (title.ts `cleanTitle`, `subjectTitle`) or a description
// (frontmatter.ts `descriptionValue`); loading still shows the file as it
// is. Told from the line alone, in any format:
//
// - template tags: Hugo shortcodes (`{{< figure ... >}}`, `{{% include
//   "..." %}}`), Liquid and Jinja tags and comments (`{% include x.html
//   %}`, `{# ... #}`), Org macros (`{{{title}}}`); a line holding nothing
//   else (a tag the line ends inside runs to its end: a multi-line
//   shortcode's first line; its last, `>}}`, is one too). Not a Go or
//   Handlebars expression (`{{ .Title }}`): in a page, mostly code shown;
// - Org keywords and block lines: `#+STARTUP: ...`, `#+OPTIONS: ...`,
//   `#+TITLE: ...`, `#+begin_src`;
// - drawer and field lines: `:PROPERTIES:`, `:END:`, `:CUSTOM_ID: x` (Org),
//   and of the same form AsciiDoc's attribute entries (`:toc: left`) and
//   reStructuredText's field lists (`:Author: ...`);
// - block markup of reStructuredText and AsciiDoc (sniff.ts `blockMarkup`):
//   targets and directives (`.. _cache-design:`, `.. note::`), block
//   attribute lines (`[verse]`, `[[id]]`) and block macros
//   (`include::x[]`, `ifdef::x[]`).
//
// One pass over the line, no regular expression.

import { blockMarkup } from './sniff.ts';

/** Whether `line` is markup only (see above): no letter or digit outside
 *  template tags, or an Org keyword line, or a drawer or field line. */
export function markupOnly(line: string): boolean {
  let s = 0;
  while (s < line.length && isBlank(line.charCodeAt(s))) s++;
  if (s >= line.length) return false;
  const c = line.charCodeAt(s);
  if (c === 0x23 && line.charCodeAt(s + 1) === 0x2b && isLetter(line.charCodeAt(s + 2))) return true; // #+
  if (c === 0x3a && isField(line, s)) return true;
  if ((c === 0x2e || c === 0x5b || isLetter(c)) && blockMarkup(line, s)) return true;
  return line.includes('{') || line.includes('}') ? templateOnly(line) : false;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a || c === 0x0c || c === 0x0b || c === 0xa0 || c === 0xfeff;
}

function isLetter(c: number): boolean {
  return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
}

/** `:NAME:` alone, or followed by white space (and a value): NAME one or
 *  more characters, none of them white space or a colon. */
function isField(line: string, s: number): boolean {
  let i = s + 1;
  while (i < line.length && line.charCodeAt(i) !== 0x3a && !isBlank(line.charCodeAt(i))) i++;
  if (i === s + 1 || line.charCodeAt(i) !== 0x3a) return false;
  return i + 1 >= line.length || isBlank(line.charCodeAt(i + 1));
}

/** A letter or a digit, in any script (what a word is made of). */
const WORDY = /[\p{L}\p{N}]/u;

/** Whether `text` has a letter or a digit, in any script (WORDY): an ASCII
 *  one is looked for first, so that ASCII text (nearly every line a search
 *  shows) is told without the pattern, whose Unicode classes cost a
 *  one-shot process about 0.13 ms to compile. */
export function hasWord(text: string): boolean {
  let other = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) other = true;
    else if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) return true;
  }
  return other && WORDY.test(text);
}

/** The length of the template tag opener at `line[i]` (`{{<`, `{{%`,
 *  `{{{`, `{%`, `{#`), else 0. A Go or Handlebars expression (`{{ .Title
 *  }}`) is not one: in a page it is mostly a code example. */
function openerAt(line: string, i: number): number {
  if (line.charCodeAt(i) !== 0x7b) return 0;
  const b = line.charCodeAt(i + 1);
  if (b === 0x25 || b === 0x23) return 2;
  const c = line.charCodeAt(i + 2);
  return b === 0x7b && (c === 0x3c || c === 0x25 || c === 0x7b) ? 3 : 0;
}

/** The length of the closer at `line[i]` (`>}}`, `%}}`, `}}}`, `%}`,
 *  `#}`), else 0. */
function closerAt(line: string, i: number): number {
  const a = line.charCodeAt(i);
  if (a !== 0x3e && a !== 0x25 && a !== 0x7d && a !== 0x23) return 0;
  if (line.charCodeAt(i + 1) !== 0x7d) return 0;
  if (a !== 0x23 && line.charCodeAt(i + 2) === 0x7d) return 3;
  return a === 0x25 || a === 0x23 ? 2 : 0;
}

/** Whether `line` has no letter or digit outside template tags (an
 *  opener up to its closer; before the first closer, when no opener comes
 *  before it, the end of a tag that began on an earlier line). */
function templateOnly(line: string): boolean {
  let tag = false;
  let saw = false;
  let rest = '';
  let from = 0;
  for (let i = 0; i < line.length; i++) {
    const open = tag ? 0 : openerAt(line, i);
    if (open > 0) {
      rest += line.slice(from, i);
      tag = saw = true;
      i += open - 1;
      continue;
    }
    const close = closerAt(line, i);
    // A closer outside a tag, after one: text.
    if (close === 0 || (!tag && saw)) continue;
    tag = false;
    saw = true;
    from = i + close;
    i += close - 1;
  }
  if (!saw) return false;
  if (!tag) rest += line.slice(from);
  return !hasWord(rest);
}
