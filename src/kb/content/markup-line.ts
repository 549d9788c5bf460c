// Lines that are markup alone: what a renderer or a site generator reads,
// not what a page says. Such a line is never a snippet nor part of a
// snippet's window (search/snippet.ts); loading still shows the file as it
// is. This is the one place the rule lives: `isTextLine` is what a snippet
// asks, and every kind of markup line joins it here. Told from the line
// alone, in any format (a `.txt` file may be reStructuredText, a `.md`
// file holds HTML), each test one pass over the line:
//
// - fence markers: ``` ```rust ```, `~~~`, and a container's (`::: tip
//   NOTE`, `:::note Title`, `::: {.aside}`: VitePress, Docusaurus, Pandoc,
//   MyST);
// - HTML alone: tags and nothing else (`<a id="x"></a>`, `<Listing
//   number="1-1" ...>`, `</Listing>`, `<img ...>`, a tag the line ends
//   inside), and comments (a line that opens or closes one);
// - Markdown link reference definitions (`[x]: ch04-02.html#y "t"`) and
//   image lines (`![alt](src)`, Pandoc's and Quarto's `![alt](src){.border
//   fig-alt="..."}`, a badge row `[![a](b)](c) ...`);
// - reStructuredText explicit markup: labels (`.. _name:`), directives
//   (`.. code-block:: rust`, `.. include:: x.rst`), substitution
//   definitions and comments (a line `..` and what follows it), footnotes
//   and citations (`.. [1] ...`) excepted: those are text;
// - AsciiDoc block macros and attribute lines (`image::x.png[]`,
//   `include::x.adoc[]`, `ifdef::x[]`, `[source,rust]`, `[[anchor]]`);
// - include directives of mdBook and its kin (`{{#include ../x.rs}}`), and
//   FastAPI's docs' code includes (`{* ../../docs_src/x.py hl[17:25] *}`);
// - module imports (`import Tabs from '@theme/Tabs';`, `import { Steps }
//   from '@astrojs/starlight/components';`, `import './x.css'`): an MDX
//   page's, which it never shows (a code example's too: never the line
//   that answers);
// - MyST's targets (`(label)=`), as reStructuredText's `.. _label:`;
// - template tags, Org keywords and drawers, field lines (content/markup.ts);
// - attributes alone (`src="x.png"`, `filter="Brightness" >}}`): the inside of
//   a tag or shortcode written over several lines;
// - a line with no letter or digit at all (rules, underlines, table
//   borders): nothing to read.
//
// Frontmatter (`frontmatterEnd`) is markup too: a block at the start of the
// file, so it is told from the text, not the line; and so is an HTML
// comment written over several lines (`commentLines`): the lines between
// the one that opens it and the one that closes it say nothing a reader
// of the page sees (a licence, a note to the next editor).

import { hasWord, markupOnly } from './markup.ts';

/** Whether a snippet may show `line`: it has a letter or a digit, and it is
 *  not markup alone (see above). */
export function isTextLine(line: string): boolean {
  return hasWord(line) && !isMarkupLine(line);
}

/** Whether `line` is markup alone (see above; a line without words is
 *  not counted here: `isTextLine` leaves it out anyway). */
export function isMarkupLine(line: string): boolean {
  return isMarkupIn(line, 0, line.length);
}

/** `isMarkupLine` of `text.slice(start, end)`, which is read only when
 *  its first and last characters may be markup's (nearly every line of
 *  prose is told from them alone: a search asks of every line it looks
 *  at). */
export function isMarkupIn(text: string, start: number, end: number): boolean {
  // Prose, told at once: a letter or digit first, and last a character
  // that is neither white space nor one that may close markup (a search
  // asks this of thousands of lines, most of them such).
  const f = text.charCodeAt(start) | 0x20;
  if (start < end && ((f >= 0x61 && f <= 0x7a) || (f >= 0x30 && f <= 0x39))) {
    const l = text.charCodeAt(end - 1);
    if (l > 0x20 && l < 0x7f && l !== 0x5d && l !== 0x3e && l !== 0x22 && l !== 0x27 && l !== 0x7d && l !== 0x3b) return false;
  }
  let s = start;
  while (s < end && isBlank(text.charCodeAt(s))) s++;
  let e = end;
  while (e > s && isBlank(text.charCodeAt(e - 1))) e--;
  if (s === e) return false;
  const first = text.charCodeAt(s);
  const last = text.charCodeAt(e - 1);
  // ` ~ < [ ! . { # : ( first, or ] > " ' } ; = last: else prose.
  if (first !== 0x60 && first !== 0x7e && first !== 0x3c && first !== 0x5b && first !== 0x21 && first !== 0x2e && first !== 0x7b && first !== 0x23 && first !== 0x3a && first !== 0x28 && last !== 0x5d && last !== 0x3e && last !== 0x22 && last !== 0x27 && last !== 0x7d && last !== 0x3b && last !== 0x3d) return false;
  const t = s === 0 && e === text.length ? text : text.slice(s, e);
  // The site generators' and editors' markup (content/markup.ts:
  // shortcodes, Org keywords and drawers, field lines) joins it here.
  return markupTrimmed(t) || markupOnly(t);
}

/** `isMarkupLine` of a line without white space at either end. */
function markupTrimmed(t: string): boolean {
  // A container's fence, as a code fence is (its label aside).
  if (t.charCodeAt(0) === 0x3a && t.startsWith(':::')) return true;
  switch (t.charCodeAt(0)) {
    case 0x60: // `
    case 0x7e: // ~
      return t.startsWith('```') || t.startsWith('~~~');
    case 0x3c: // <
      return t.startsWith('<!--') || tagsOnly(t);
    case 0x5b: // [
      return t.startsWith('[![') || linkDefinition(t) || (t.charCodeAt(t.length - 1) === 0x5d && (t.indexOf(']') === t.length - 1 || (t.startsWith('[[') && t.indexOf(']]') === t.length - 2)));
    case 0x21: // !
      return t.startsWith('![') && (t.endsWith(')') || t.endsWith(']') || (t.endsWith('}') && t.charCodeAt(t.lastIndexOf('{') - 1) === 0x29));
    case 0x2e: // .
      return rstExplicit(t);
    case 0x7b: // {
      return (t.startsWith('{{#') && t.endsWith('}}')) || (t.startsWith('{*') && t.endsWith('*}'));
    case 0x28: // (
      return mystTarget(t);
    default:
      return t.endsWith('-->') || blockMacro(t) || attributesOnly(t) || moduleImport(t);
  }
}

/** MyST's target: `(name)=`, the name without white space or parentheses. */
function mystTarget(t: string): boolean {
  if (!t.endsWith(')=') || t.length < 4) return false;
  for (let i = 1; i < t.length - 2; i++) {
    const c = t.charCodeAt(i);
    if (isBlank(c) || c === 0x28 || c === 0x29) return false;
  }
  return true;
}

/** An ECMAScript import alone: `import` then what it binds and `from`, or
 *  nothing, then a quoted module name, and a `;` or nothing. */
function moduleImport(t: string): boolean {
  const after = t.charCodeAt(6);
  if (!t.startsWith('import') || (!isBlank(after) && after !== 0x7b && after !== 0x27 && after !== 0x22)) return false;
  const end = t.charCodeAt(t.length - 1) === 0x3b ? t.length - 1 : t.length;
  const q = t.charCodeAt(end - 1);
  if (q !== 0x27 && q !== 0x22) return false;
  const open = t.lastIndexOf(q === 0x27 ? "'" : '"', end - 2);
  if (open < 7) return false;
  // The module's name, and before it `from` or `import` itself.
  for (let i = open + 1; i < end - 1; i++) if (isBlank(t.charCodeAt(i))) return false;
  let b = open;
  while (b > 6 && isBlank(t.charCodeAt(b - 1))) b--;
  return b === 6 || (t.startsWith('from', b - 4) && (isBlank(t.charCodeAt(b - 5)) || t.charCodeAt(b - 5) === 0x7d) && b - 4 > 7);
}

/** Whether `t` is attributes alone, `name="value"` or `name='value'`
 *  pairs and nothing else (a tag's `>`, `/>` or a shortcode's `>}}` may
 *  close them): the inside of a tag or shortcode written over several
 *  lines (`<img` / `src="x.png"` / `alt="y">`). One pass. */
function attributesOnly(t: string): boolean {
  let i = 0;
  let pairs = 0;
  while (i < t.length) {
    const nameStart = i;
    while (i < t.length && isNameChar(t.charCodeAt(i))) i++;
    if (i === nameStart || t.charCodeAt(i) !== 0x3d) break; // =
    const quote = t.charCodeAt(i + 1);
    if (quote !== 0x22 && quote !== 0x27) return false;
    const close = t.indexOf(quote === 0x22 ? '"' : "'", i + 2);
    if (close < 0) return false;
    pairs++;
    i = close + 1;
    while (i < t.length && isBlank(t.charCodeAt(i))) i++;
  }
  if (pairs === 0) return false;
  const rest = t.slice(i);
  return rest === '' || rest === '>' || rest === '/>' || rest === '>}}' || rest === '%}}';
}

/** A character of an attribute's name (HTML's, roughly: letters, digits,
 *  `-`, `_`, `:`, `.`). */
function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c === 0x3a || c === 0x2e;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0c || c === 0x0b || c === 0xa0 || c === 0xfeff;
}

/** Tags and white space alone (`t` starts with `<`): each `<` a letter,
 *  `/` or `!` follows opens a tag that runs to the next `>` (or to the end
 *  of the line: a tag written over several lines). */
function tagsOnly(t: string): boolean {
  let i = 0;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (isBlank(c)) {
      i++;
      continue;
    }
    if (c !== 0x3c) return false;
    const d = t.charCodeAt(i + 1);
    if (!(d === 0x2f || d === 0x21 || ((d | 0x20) >= 0x61 && (d | 0x20) <= 0x7a))) return false;
    const gt = t.indexOf('>', i + 1);
    if (gt < 0) return true;
    i = gt + 1;
  }
  return true;
}

/** `[label]: destination`, then nothing or a title (`"..."`, `'...'`,
 *  `(...)`): a Markdown link reference definition (a footnote, `[^1]:`,
 *  is text). */
function linkDefinition(t: string): boolean {
  if (t.charCodeAt(1) === 0x5e) return false;
  const close = t.indexOf(']:');
  if (close < 2 || t.indexOf(']') !== close) return false;
  let i = close + 2;
  while (i < t.length && isBlank(t.charCodeAt(i))) i++;
  if (i === t.length) return false;
  while (i < t.length && !isBlank(t.charCodeAt(i))) i++;
  while (i < t.length && isBlank(t.charCodeAt(i))) i++;
  if (i === t.length) return true;
  const q = t.charCodeAt(i);
  return q === 0x22 || q === 0x27 || q === 0x28;
}

/** reStructuredText explicit markup (`..` then white space or the end):
 *  a label, a directive, a substitution definition or a comment; not a
 *  footnote or citation (`.. [1] text`). */
function rstExplicit(t: string): boolean {
  if (t.charCodeAt(1) !== 0x2e) return false;
  if (t.length === 2) return true;
  if (!isBlank(t.charCodeAt(2))) return false;
  let i = 3;
  while (i < t.length && isBlank(t.charCodeAt(i))) i++;
  return t.charCodeAt(i) !== 0x5b;
}

/** An AsciiDoc block macro alone: `name::target[attributes]` (`image::`,
 *  `include::`, `ifdef::`, `toc::[]`), its name letters, digits or `-`. */
function blockMacro(t: string): boolean {
  if (t.charCodeAt(t.length - 1) !== 0x5d) return false;
  const colons = t.indexOf('::');
  if (colons < 1) return false;
  for (let i = 0; i < colons; i++) {
    const c = t.charCodeAt(i) | 0x20;
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d)) return false;
  }
  const open = t.indexOf('[', colons + 2);
  if (open < 0) return false;
  for (let i = colons + 2; i < open; i++) if (isBlank(t.charCodeAt(i))) return false;
  return true;
}

/** Where the frontmatter at the start of `text` ends (the offset after its
 *  closing line), 0 when there is none: `---` ... `---` (or `...`), or
 *  `+++` ... `+++`, the closing line within the first 64 KiB; then, as
 *  frontmatter too, Logseq's page properties that open what follows
 *  (`key:: value` lines, as Obsidian's Dataview writes fields; the title
 *  and description content/title.ts reads from them). */
export function frontmatterEnd(text: string): number {
  return propertiesEnd(text, fencedEnd(text));
}

/** A page property's line: a key of a letter then letters, digits, `-`
 *  and `_`, then `::` and a space or the line's end. */
const PROPERTY = /^[A-Za-z][\w-]*::(?:[ \t]|\r?$)/;

/** Where the page-property lines from `from` on end (`from` when there
 *  are none), within the first 64 KiB. Each line read once. */
function propertiesEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && at < 64 * 1024) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    if (!PROPERTY.test(text.slice(at, end))) break;
    at = nl < 0 ? text.length : nl + 1;
  }
  return at;
}

/** `frontmatterEnd`'s fenced block alone. */
function fencedEnd(text: string): number {
  const yaml = text.startsWith('---');
  if (!yaml && !text.startsWith('+++')) return 0;
  let at = text.indexOf('\n');
  if (at < 0 || text.slice(3, at).trim() !== '') return 0;
  const limit = Math.min(text.length, 64 * 1024);
  while (at >= 0 && at < limit) {
    const next = text.indexOf('\n', at + 1);
    const end = next < 0 ? text.length : next;
    const line = text.slice(at + 1, end).trimEnd();
    if (yaml ? line === '---' || line === '...' : line === '+++') return next < 0 ? text.length : next + 1;
    at = next;
  }
  return 0;
}

/** The lines of `text` inside HTML comments written over several lines, as
 *  a renderer hides them: from a line that opens with `<!--` (after spaces
 *  or tabs) and does not close it, to the line that holds the next `-->`,
 *  both included. A comment never closed hides nothing here (a renderer
 *  would hide the rest of the page; an opening in a code span or an
 *  example is likelier). Returns whether the line starting at an offset
 *  is one of them: a function, as few texts have such a comment (one
 *  native search tells; the blocks are then found once, in one pass). */
export function commentLines(text: string): (lineStart: number) => boolean {
  if (!text.includes('<!--')) return NO_LINE;
  const blocks = commentBlocks(text);
  if (blocks.length === 0) return NO_LINE;
  return (at) => {
    // The last block starting at or before `at`, by binary search.
    let lo = 0;
    let hi = blocks.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (blocks[2 * mid] <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && at < blocks[2 * (lo - 1) + 1];
  };
}
const NO_LINE = (): boolean => false;

/** `commentLines`' blocks: [start, end) pairs, flat, in order, each from
 *  the start of the line that opens a comment to the end of the line that
 *  closes it. Each line is searched back once at most (past an opening,
 *  the search goes on from the next line). */
export function commentBlocks(text: string): number[] {
  const out: number[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('<!--', from);
    if (open < 0) return out;
    const lineStart = text.lastIndexOf('\n', open) + 1;
    const nl = text.indexOf('\n', open);
    const lineEnd = nl < 0 ? text.length : nl;
    let opens = true;
    for (let i = lineStart; i < open && opens; i++) opens = text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09;
    const close = opens ? text.indexOf('-->', open + 4) : -1;
    if (opens && close < 0) return out;
    if (!opens || close < lineEnd) {
      if (nl < 0) return out;
      from = nl + 1;
      continue;
    }
    const closeNl = text.indexOf('\n', close);
    const end = closeNl < 0 ? text.length : closeNl;
    out.push(lineStart, end);
    if (closeNl < 0) return out;
    from = closeNl + 1;
  }
}
