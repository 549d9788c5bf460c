// An HTML page as text: what search indexes, snippets and recall read of
// it, and what `learn` shows of it in the text view (`--html text`,
// KB_HTML=text). Its words in reading order, with the structure a model
// reads in Markdown: headings as `#` lines, list items as `- ` and `1. `
// lines, preformatted blocks fenced, table rows one a line with ` | `
// between cells, a definition's text indented under its term. No tags, no
// attributes but an image's `alt`, character references decoded
// (entities.ts).
//
// Left out with everything in them: `<style>`, `<script>`, `<noscript>`
// (what a browser shows when scripts are off: the page does not say it),
// `<iframe>`, `<noembed>`, `<noframes>`, `<template>` (inert until a
// script uses it), `<svg>` (drawing commands) and navigation (`<nav>`, an
// element with `role="navigation"`: a site's menus, repeated on every
// page). The `<title>` comes first as a heading when the page has no
// `<h1>` (it names the page; else the `<h1>` does).
//
// A scanner of its own rather than a parser library: one pass, in time and
// output linear in the page (indentation is capped, so deep nesting cannot
// make it grow faster), no tree built, and nothing loaded at start-up; the
// probe's byte-level rules for a page's head are in html-head.ts.
// tests/property/parsers.property.test.ts holds it to linear time.

import { decodeEntities } from './entities.ts';
import type { Body } from './body.ts';
import { bodyText } from './body.ts';
import type { Formatted } from './format.ts';

/** Extensions of HTML pages (lower case). */
const HTML_EXTS = new Set(['html', 'htm', 'xhtml']);

/** Whether `ext` (any case) is an HTML page's. */
export function isHtmlExt(ext: string): boolean {
  return HTML_EXTS.has(ext) || HTML_EXTS.has(ext.toLowerCase());
}

/** How `learn` shows an HTML page: as written (a fenced `html` block, the
 *  RFD's presentation of other formats: the default) or as its text. */
export type HtmlView = 'raw' | 'text';

/** The line before an HTML page shown as text: what the model got and
 *  how to get the page as written. `learnRaw`: `learn` shows pages as
 *  written (recall, which always shows the text, then points to it). */
export function textViewNote(learnRaw: boolean, empty = false): string {
  const what = empty ? 'it has no text outside its tags, styles and scripts' : 'tags, styles and scripts left out';
  return learnRaw ? `[HTML page shown as text: ${what}; the learn tool loads it as written]\n` : `[HTML page shown as text: ${what}; kb --html raw (or KB_HTML=raw) shows it as written]\n`;
}

/** A page's body in the text view: the note, then its text (a page
 *  without text: a note that says so, and nothing after it). */
export function htmlTextView(body: Body, learnRaw = false): Formatted {
  const text = htmlText(bodyText(body));
  return { head: textViewNote(learnRaw, text === ''), body: text, tail: '' };
}

/** Elements left out with their content, found by their end tag alone
 *  (raw text: no markup inside). */
const RAW = new Set(['script', 'style', 'noscript', 'iframe', 'noembed', 'noframes']);
/** Elements left out with their content, markup and all (their nesting
 *  counted). */
const SKIPPED = new Set(['template', 'svg', 'nav']);
/** Elements that start a paragraph (a blank line before and after). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'details', 'dialog', 'dir', 'div', 'dl', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'header', 'hgroup', 'hr', 'legend', 'main', 'menu', 'ol', 'p', 'section', 'summary', 'table', 'ul',
]);
/** Elements that start a line. */
const LINES = new Set(['li', 'dt', 'dd', 'tr', 'br', 'option', 'thead', 'tbody', 'tfoot']);
/** Elements without content (no end tag). */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** Indentation levels at most: a page nested thousands deep indents no
 *  further, so the text stays linear in the page. */
const MAX_INDENT = 8;

/** A list being written: bullets (`ul`), numbers (`ol`, the next one), or
 *  definitions (`dl`: its `dd` text indented). */
interface List {
  kind: 'ul' | 'ol' | 'dl';
  n: number;
  /** A `dl` whose `dd` is open: its text indented. */
  inDd: boolean;
}

/** A start or end tag, as read. */
interface Tag {
  name: string;
  end: boolean;
  selfClosing: boolean;
  alt: string | undefined;
  navigation: boolean;
  /** Where the text after the tag starts; -1: the page ends inside it. */
  next: number;
}

/** The text written so far, and what the next text must be preceded by. */
class Writer {
  out = '';
  /** Line breaks owed before the next text: 0, 1 (a line) or 2 (a blank
   *  line). */
  breaks = 0;
  space = false;
  /** What starts the next line of text: a bullet, a heading's `#`s. */
  marker = '';
  /** An item or a definition has started and has no text yet: a block
   *  that opens it (`<li><p>`) adds no blank line. */
  fresh = false;
  /** Indentation levels (lists, definitions), and the open lists. */
  indent = 0;
  lists: List[] = [];
  /** Inside a heading or a table cell: its text stays on one line. */
  heading = false;
  cell = false;
  /** Cells begun in the current table row. */
  cells = 0;
  /** Where the page's text starts in the output and in the page, as flat
   *  pairs [output offset, page offset], one a piece of text written
   *  (`htmlTextLines`); undefined: not kept. */
  anchors: number[] | undefined;
  /** The page offset of the text written next (kept with `anchors`). */
  src = 0;
  /** Where the page's title is, when it was put first as a heading (kept
   *  with `anchors`, which it then does not join: it is out of the page's
   *  order). */
  titleAt = -1;

  brk(n: 1 | 2): void {
    if (this.heading || this.cell) {
      this.space = true;
      return;
    }
    if (n > this.breaks && !this.fresh) this.breaks = n;
    this.cells = 0;
  }

  /** Text, white space already collapsed. */
  text(t: string): void {
    if (t === '') return;
    if (t === ' ') {
      this.space = true;
      return;
    }
    let s = t;
    if (s.charCodeAt(0) === 0x20) {
      this.space = true;
      s = s.slice(1);
    }
    const trailing = s.charCodeAt(s.length - 1) === 0x20;
    if (trailing) s = s.slice(0, -1);
    this.start();
    if (this.anchors !== undefined) this.anchors.push(this.out.length, this.src);
    this.out += s;
    this.space = trailing;
  }

  /** The indentation of a line of text (bullets' lines one level less). */
  private margin(bullet: boolean): string {
    const level = Math.min(this.indent, MAX_INDENT);
    return '  '.repeat(bullet ? Math.max(0, level - 1) : level);
  }

  /** What comes before the next text: line breaks and indentation, a
   *  marker, else a space. */
  private start(): void {
    if (this.breaks > 0 || this.out === '') {
      if (this.out !== '') this.out += this.breaks === 2 ? '\n\n' : '\n';
      this.out += this.margin(this.marker !== '' && this.marker[0] !== '#') + this.marker;
      this.breaks = 0;
      this.marker = '';
    } else if (this.space) {
      this.out += ' ';
    }
    this.space = false;
    this.fresh = false;
  }

  /** A fenced block (a `<pre>`'s text, as written), on lines of its own
   *  (in a table cell too), indented as the text around it. */
  fenced(t: string, at = 0): void {
    const lead = t.charCodeAt(0) === 0x0a ? 1 : t.charCodeAt(0) === 0x0d && t.charCodeAt(1) === 0x0a ? 2 : 0;
    const s = (lead > 0 ? t.slice(lead) : t).trimEnd();
    if (s === '') return;
    let run = 0;
    let longest = 0;
    for (let i = 0; i < s.length; i++) {
      run = s.charCodeAt(i) === 0x60 ? run + 1 : 0;
      if (run > longest) longest = run;
    }
    const fence = '`'.repeat(Math.max(3, longest + 1));
    const margin = this.margin(false);
    if (this.out !== '') this.out += '\n\n';
    // The fence's line is the `<pre>`'s, its first line of text the line
    // the block's text starts on (after the line end that may open it).
    if (this.anchors !== undefined) this.anchors.push(this.out.length, at, this.out.length + margin.length * 2 + fence.length + 1, this.src + lead);
    this.out += `${margin}${fence}\n${margin === '' ? s : margin + s.replace(/\n/g, `\n${margin}`)}\n${margin}${fence}`;
    this.breaks = 2;
    this.marker = '';
    this.space = false;
    this.fresh = false;
  }
}

/** The text of HTML page `html` (see the top of this file): lines, ending
 *  with a line break ('' for a page without text). */
export function htmlText(html: string): string {
  return pageText(html, new Writer());
}

/** `htmlText` of `html`, and the line of the page each of its lines comes
 *  from (1-based, both): where its first piece of text is in the page, or,
 *  for a line that starts with none (a preformatted block's), the lines
 *  after the last line that does. A search numbers a page's passages by
 *  the page as written, which `learn` loads by default, with this. */
export function htmlTextLines(html: string): { text: string; pageLine: (textLine: number) => number } {
  const w = new Writer();
  w.anchors = [];
  const text = pageText(html, w);
  const a = w.anchors;
  // The first anchor of each line of the text, and its page line: both
  // counted forward once (the text is written in the page's order; a
  // title put first is the one piece out of it, counted on its own).
  const textLines: number[] = w.titleAt < 0 ? [] : [1];
  const pageLines: number[] = w.titleAt < 0 ? [] : [lineAt(html, w.titleAt)];
  // The next line end of each, kept: each is looked for once (many pieces
  // of text share a line of a page written on one line).
  let tLine = 1;
  let tEnd = endFrom(text, 0);
  let pLine = 1;
  let pEnd = endFrom(html, 0);
  for (let k = 0; k < a.length; k += 2) {
    const out = a[k];
    const src = a[k + 1];
    for (; tEnd < out; tEnd = endFrom(text, tEnd + 1)) tLine++;
    if (textLines.length > 0 && textLines[textLines.length - 1] === tLine) continue;
    for (; pEnd < src; pEnd = endFrom(html, pEnd + 1)) pLine++;
    textLines.push(tLine);
    pageLines.push(pLine);
  }
  const pageLine = (textLine: number): number => {
    // The last line with an anchor at or before `textLine`.
    let lo = 0;
    let hi = textLines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (textLines[mid] <= textLine) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? textLine : pageLines[lo - 1] + (textLine - textLines[lo - 1]);
  };
  return { text, pageLine };
}

/** The first line end of `s` from `from` on; past its end when none. */
function endFrom(s: string, from: number): number {
  const q = s.indexOf('\n', from);
  return q < 0 ? Infinity : q;
}

/** The 1-based line of `text` that offset `at` is on. */
function lineAt(text: string, at: number): number {
  let n = 1;
  for (let q = text.indexOf('\n'); q >= 0 && q < at; q = text.indexOf('\n', q + 1)) n++;
  return n;
}

/** `htmlText`, written by `w`. */
function pageText(html: string, w: Writer): string {
  let title: string | undefined;
  let titleAt = 0;
  let h1 = false;
  /** Inside `<pre>` (its depth), and its text so far, in pieces. */
  let pre = 0;
  let preText: string[] = [];
  /** Where the outermost open `<pre>` tag is. */
  let preAt = 0;
  /** Inside an element left out (SKIPPED, or navigation): its name and
   *  depth. */
  let skip = '';
  let skipDepth = 0;
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    const end = lt < 0 ? html.length : lt;
    if (end > at && skip === '') textRun(w, html, at, end, pre > 0 ? preText : undefined);
    if (lt < 0) break;
    const after = markupEnd(html, lt);
    if (after === NOT_MARKUP) {
      if (skip === '') textRun(w, html, lt, lt + 1, pre > 0 ? preText : undefined);
      at = lt + 1;
      continue;
    }
    if (after !== TAG) {
      at = after;
      continue;
    }
    const tag = readTag(html, lt);
    if (tag.next < 0) break;
    at = tag.next;
    const name = tag.name;
    if (skip !== '') {
      if (name === skip && !tag.selfClosing) skipDepth += tag.end ? -1 : 1;
      if (skipDepth === 0) skip = '';
      if (!tag.end && RAW.has(name)) at = rawEnd(html, at, name);
      continue;
    }
    if (tag.end) {
      pre = endTag(w, name, pre, preText, preAt);
      continue;
    }
    if (RAW.has(name)) {
      at = rawEnd(html, at, name);
      continue;
    }
    if (name === 'title') {
      const close = rawEnd(html, at, name);
      if (title === undefined) titleAt = at + leadingWhite(html.slice(at, closeStart));
      title ??= collapse(decodeEntities(html.slice(at, closeStart))).trim();
      at = close;
      continue;
    }
    if ((SKIPPED.has(name) || tag.navigation) && !tag.selfClosing && !VOID.has(name)) {
      skip = name;
      skipDepth = 1;
      continue;
    }
    if (name === 'h1') h1 = true;
    if (name === 'pre') {
      if (pre++ === 0) {
        preText = [];
        w.src = at; // where the block's text starts (Writer.fenced)
        preAt = lt;
      }
      continue;
    }
    if (pre > 0) {
      if (name === 'br') preText.push('\n');
      continue;
    }
    w.src = lt;
    startTag(w, tag);
  }
  if (pre > 0) w.fenced(preText.join(''), preAt);
  const text = !h1 && title !== undefined && title !== '' ? titled(w, title, titleAt) : w.out;
  return text === '' ? '' : `${text}\n`;
}

/** The text of `html` from `from` to `to` (no markup in it): into
 *  `preText` inside a `<pre>`, else written, white space collapsed. */
function textRun(w: Writer, html: string, from: number, to: number, preText: string[] | undefined): void {
  const raw = html.slice(from, to);
  if (preText !== undefined) preText.push(decodeEntities(raw));
  else {
    if (w.anchors !== undefined) w.src = from + leadingWhite(raw);
    w.text(collapse(decodeEntities(raw)));
  }
}

/** The text `w` wrote, after the page's title as a heading (a page
 *  without `<h1>`), the title at `titleAt` in the page. */
function titled(w: Writer, title: string, titleAt: number): string {
  const head = w.out === '' ? `# ${title}` : `# ${title}\n\n`;
  if (w.anchors !== undefined) {
    for (let k = 0; k < w.anchors.length; k += 2) w.anchors[k] += head.length;
    w.titleAt = titleAt;
  }
  return w.out === '' ? head : head + w.out;
}

/** HTML's white space (ASCII; and no-break spaces, which a model reads as
 *  spaces) collapsed to one space. */
function collapse(s: string): string {
  // One pass; most runs between tags are short, and a regular expression's
  // call cost more than the scan (a page of 17,000 tags: 19 ms).
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isWhite(c)) continue;
    let j = i + 1;
    while (j < s.length && isWhite(s.charCodeAt(j))) j++;
    if (c === 0x20 && j === i + 1) continue; // one space: as it is
    out += `${s.slice(from, i)} `;
    from = j;
    i = j - 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** HTML's white space, and a no-break space. */
function isWhite(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c || c === 0xa0;
}

/** A start tag's effect on the text. */
function startTag(w: Writer, tag: Tag): void {
  const name = tag.name;
  const level = headingLevel(name);
  if (level > 0) {
    w.brk(2);
    w.fresh = false;
    w.marker = `${'#'.repeat(level)} `;
    w.heading = true;
    return;
  }
  if (name === 'ul' || name === 'ol' || name === 'dl') {
    // A list in a list's item starts on the next line.
    w.brk(w.lists.length > 0 ? 1 : 2);
    w.lists.push({ kind: name, n: 0, inDd: false });
    if (name !== 'dl') w.indent++;
    return;
  }
  const list = w.lists[w.lists.length - 1];
  if (name === 'li') {
    startItem(w, list);
    w.marker = list?.kind === 'ol' ? `${list.n}. ` : '- ';
    return;
  }
  if (name === 'dd' || name === 'dt') {
    startItem(w, name === 'dt' ? list : undefined);
    if (list?.kind === 'dl' && list.inDd !== (name === 'dd')) {
      list.inDd = name === 'dd';
      w.indent += list.inDd ? 1 : -1;
    }
    return;
  }
  if (name === 'td' || name === 'th') {
    w.cell = false;
    if (w.cells++ > 0) w.text(' | ');
    w.cell = true;
    return;
  }
  if (name === 'tr') w.cell = false;
  if (name === 'img') {
    if (tag.alt !== undefined) w.text(collapse(tag.alt));
    return;
  }
  if (BLOCKS.has(name)) w.brk(2);
  else if (LINES.has(name)) w.brk(1);
}

/** A list item or a definition starts on a line of its own; after the
 *  first of its list (`list`), with no blank line before it, whatever
 *  the item before ended with (`<li><p>...</p></li>`). */
function startItem(w: Writer, list: List | undefined): void {
  w.cell = false;
  w.fresh = false;
  w.brk(1);
  if (list !== undefined && list.n++ > 0 && w.breaks > 1) w.breaks = 1;
  w.fresh = true;
}

function headingLevel(name: string): number {
  const level = name.length === 2 && name[0] === 'h' ? name.charCodeAt(1) - 0x30 : 0;
  return level >= 1 && level <= 6 ? level : 0;
}

/** An end tag's effect on the text, inside `pre` `<pre>` elements whose
 *  text is `preText`; how many are open after it. */
function endTag(w: Writer, name: string, pre: number, preText: readonly string[], preAt: number): number {
  if (name === 'pre') {
    if (pre > 0 && --pre === 0) w.fenced(preText.join(''), preAt);
    return pre;
  }
  if (pre > 0) return pre;
  if (headingLevel(name) > 0) {
    w.heading = false;
    w.marker = '';
    w.brk(2);
    return pre;
  }
  if (name === 'td' || name === 'th') {
    w.cell = false;
    return pre;
  }
  if (name === 'tr' || name === 'table') w.cell = false;
  if (name === 'ul' || name === 'ol' || name === 'dl') {
    const list = w.lists[w.lists.length - 1];
    if (list?.kind === name) {
      w.lists.pop();
      if (name !== 'dl' || list.inDd) w.indent--;
    }
    w.marker = '';
    w.fresh = false;
    w.brk(2);
    return pre;
  }
  if (name === 'dd') {
    const list = w.lists[w.lists.length - 1];
    if (list?.kind === 'dl' && list.inDd) {
      list.inDd = false;
      w.indent--;
    }
  }
  if (BLOCKS.has(name)) w.brk(2);
  else if (LINES.has(name)) w.brk(1);
  return pre;
}

/** What `<` at `lt` starts: a tag (TAG), no markup (NOT_MARKUP: the `<` is
 *  text), or a comment, doctype or processing instruction: where it ends. */
const TAG = -1;
const NOT_MARKUP = -2;
function markupEnd(html: string, lt: number): number {
  const c = html.charCodeAt(lt + 1);
  if (isLetter(c)) return TAG;
  if (c === 0x2f) {
    if (isLetter(html.charCodeAt(lt + 2))) return TAG;
    if (html.charCodeAt(lt + 2) === 0x3e) return lt + 3; // `</>`: nothing
  } else if (c === 0x21) {
    if (html.startsWith('<!--', lt)) {
      // `<!-->` and `<!--->` close at once.
      if (html.charCodeAt(lt + 4) === 0x3e) return lt + 5;
      if (html.startsWith('->', lt + 4)) return lt + 6;
      const close = html.indexOf('-->', lt + 4);
      return close < 0 ? html.length : close + 3;
    }
  } else if (c !== 0x3f) {
    return NOT_MARKUP;
  }
  // `<!DOCTYPE ...>`, `<?xml ...?>`, `<![CDATA[...]]>` outside foreign
  // content, `</ x>`: up to the next `>`.
  const gt = html.indexOf('>', lt + 2);
  return gt < 0 ? html.length : gt + 1;
}

function isLetter(c: number): boolean {
  return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

const tag: Tag = { name: '', end: false, selfClosing: false, alt: undefined, navigation: false, next: 0 };

/** The tag at `lt` (a `<` then a letter, or `</` then a letter): its name
 *  (lower case), the attributes read (`alt`, `role="navigation"`), where it
 *  ends. Quoted values may hold `>`. One object, reused. */
function readTag(html: string, lt: number): Tag {
  tag.end = html.charCodeAt(lt + 1) === 0x2f;
  tag.alt = undefined;
  tag.navigation = false;
  tag.selfClosing = false;
  let i = lt + (tag.end ? 2 : 1);
  const start = i;
  while (i < html.length && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 0x2f && html.charCodeAt(i) !== 0x3e) i++;
  tag.name = html.slice(start, i).toLowerCase();
  for (;;) {
    while (i < html.length && (isSpace(html.charCodeAt(i)) || html.charCodeAt(i) === 0x2f)) {
      tag.selfClosing = html.charCodeAt(i) === 0x2f;
      i++;
    }
    if (i >= html.length) break;
    if (html.charCodeAt(i) === 0x3e) {
      tag.next = i + 1;
      return tag;
    }
    tag.selfClosing = false;
    const ns = i;
    while (i < html.length && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 0x2f && html.charCodeAt(i) !== 0x3e && (html.charCodeAt(i) !== 0x3d || i === ns)) i++;
    const attr = html.slice(ns, i).toLowerCase();
    let k = i;
    while (k < html.length && isSpace(html.charCodeAt(k))) k++;
    if (html.charCodeAt(k) !== 0x3d) continue;
    k++;
    while (k < html.length && isSpace(html.charCodeAt(k))) k++;
    const q = html.charCodeAt(k);
    let value: string;
    if (q === 0x22 || q === 0x27) {
      const close = html.indexOf(q === 0x22 ? '"' : "'", k + 1);
      if (close < 0) break;
      value = html.slice(k + 1, close);
      i = close + 1;
    } else {
      i = k;
      while (i < html.length && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 0x3e) i++;
      value = html.slice(k, i);
    }
    if (attr === 'alt') tag.alt = decodeEntities(value);
    else if (attr === 'role' && value.trim().toLowerCase() === 'navigation') tag.navigation = true;
  }
  tag.next = -1; // the page ends inside the tag
  return tag;
}

/** Where the end tag of raw-text element `name` starts (`closeStart`;
 *  the page's end without one), and where it ends (returned). */
let closeStart = 0;
function rawEnd(html: string, from: number, name: string): number {
  for (let i = html.indexOf('</', from); i >= 0; i = html.indexOf('</', i + 2)) {
    const after = i + 2 + name.length;
    if (html.slice(i + 2, after).toLowerCase() !== name) continue;
    const c = html.charCodeAt(after);
    if (!(isSpace(c) || c === 0x2f || c === 0x3e || after >= html.length)) continue;
    closeStart = i;
    const gt = html.indexOf('>', after);
    return gt < 0 ? html.length : gt + 1;
  }
  closeStart = html.length;
  return html.length;
}

/** How many of `s`'s first characters are HTML white space. */
function leadingWhite(s: string): number {
  let i = 0;
  while (i < s.length && isWhite(s.charCodeAt(i))) i++;
  return i;
}
