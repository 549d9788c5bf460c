// The lead of a document: the first sentence of its first paragraph of
// prose. `kb init` drafts a topic's introduction from the folder's index
// or README page with it (docs/reference/commands.md, "`kb init`").
//
// A paragraph of prose is a run of text lines between blank lines that is
// none of a format's machinery: headings, front matter, comments, code
// and other blocks, tables, lists, directives and attribute lines,
// shortcodes, HTML. One that ends with `:` introduces what follows (a
// command, a list) and says little on its own: it is passed over. Its
// first sentence ends at `.`, `!` or `?` followed by a space and a
// capital letter, a digit or an opening quote (so `e.g. by` goes on), or
// at its end. Each step is one pass over the lines: linear in the text.

import { isMarkupLine } from './markup-line.ts';
import { cleanTitle, type TitleFormat } from './title.ts';

/** Characters of a lead, at most: past it, cut at a word with `…`. */
export const LEAD_CHARS = 240;
/** Characters of a paragraph whose markup is read, at most. */
const PARAGRAPH_CHARS = 2000;

/** The first sentence of `text`'s first paragraph of prose, in the
 *  format its extension names (`md`, `org`, `rst`, `adoc`, `html`, text
 *  otherwise), on one line; undefined when it has none. */
export function leadSentence(text: string, ext: string): string | undefined {
  const format = formatOf(ext);
  const para = format === 'html' ? htmlParagraph(text) : firstParagraph(text, format);
  if (para === undefined) return undefined;
  // The first sentence is short: the inline markup of a paragraph's start
  // is all that is read (its expressions are then bounded in time too).
  const clean = inline(para.length > PARAGRAPH_CHARS ? para.slice(0, PARAGRAPH_CHARS) : para, format);
  if (clean === '') return undefined;
  return cut(firstSentence(clean), LEAD_CHARS);
}

/** Whether a document's title opens it: in Markdown and plain text, its
 *  first line of content (after front matter, blank lines, HTML, images
 *  and badges) is a heading (`# Title`, or a line over `===`); a README
 *  whose first `#` heading is `# Install`, below its lead, has no title
 *  of its own. Other formats say their titles explicitly (`#+TITLE:`,
 *  `<title>`) or open with them (reStructuredText, AsciiDoc). */
export function opensWithTitle(text: string, ext: string): boolean {
  const format = formatOf(ext);
  if (format !== 'md' && format !== 'text') return true;
  const lines = text.split(/\r?\n/, 4096);
  for (let i = skipFrontMatter(lines); i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === '' || t[0] === '<' || t.startsWith('![') || t.startsWith('[![')) continue;
    return t[0] === '#' || /^=+$/.test(lines[i + 1]?.trim() ?? '');
  }
  return false;
}

/** The first sentence of a text of one paragraph (a frontmatter
 *  `description`), on one line; undefined when it is blank. */
export function firstSentenceOf(text: string): string | undefined {
  const line = (text.length > PARAGRAPH_CHARS ? text.slice(0, PARAGRAPH_CHARS) : text).replace(/\s+/g, ' ').trim();
  return line === '' ? undefined : cut(firstSentence(line), LEAD_CHARS);
}

type Format = 'md' | 'org' | 'rst' | 'adoc' | 'html' | 'text';

function formatOf(ext: string): Format {
  switch (ext) {
    case 'md':
    case 'markdown':
    case 'mdown':
    case 'mkd':
    case 'mkdn':
    case 'mdx':
    case 'qmd':
    case 'rmd':
      return 'md';
    case 'org':
      return 'org';
    case 'rst':
    case 'rest':
      return 'rst';
    case 'adoc':
    case 'asciidoc':
    case 'asc':
      return 'adoc';
    case 'html':
    case 'htm':
    case 'xhtml':
      return 'html';
    default:
      return 'text';
  }
}

/** The first paragraph of prose of a text format, its lines joined. */
function firstParagraph(text: string, format: Format): string | undefined {
  const lines = text.split(/\r?\n/);
  let i = skipFrontMatter(lines);
  if (format === 'adoc') i = skipAdocHeader(lines, i);
  let para: string[] = [];
  let block: string | undefined; // the line that ends the block we are in
  for (; i < lines.length; i++) {
    const line = lines[i];
    const t = line.trim();
    if (block !== undefined) {
      if (blockEnds(t, block)) block = undefined;
      continue;
    }
    const opens = blockOpens(t, format);
    if (opens !== undefined) {
      block = opens;
      para = [];
      continue;
    }
    if (t === '') {
      if (accepted(para)) return para.join(' ');
      para = [];
      continue;
    }
    // A line of one punctuation character: a heading's over- or
    // underline (the line before it is the heading), or a rule.
    if (isUnderline(t)) {
      para = [];
      continue;
    }
    if (machinery(line, t, format)) {
      if (accepted(para)) return para.join(' ');
      para = [];
      continue;
    }
    para.push(t);
  }
  return accepted(para) ? para.join(' ') : undefined;
}

/** Where an AsciiDoc document's header ends: a document title (`= Title`,
 *  after blank and comment lines) opens a header that runs to the first
 *  blank line, its author and revision lines and attribute entries none
 *  of them prose (`Dan Allen <https://...>; Sarah White`); `from` when
 *  the document has no title. */
function skipAdocHeader(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && (lines[i].trim() === '' || (lines[i].startsWith('//') && !lines[i].startsWith('////')))) i++;
  if (i >= lines.length || !/^= \S/.test(lines[i])) return from;
  while (i < lines.length && lines[i].trim() !== '') i++;
  return i;
}

/** A paragraph worth a lead: some words, not a lead-in to what follows. */
function accepted(para: readonly string[]): boolean {
  if (para.length === 0) return false;
  const last = para[para.length - 1];
  if (last.endsWith(':')) return false;
  return para.join(' ').split(' ').length >= 3;
}

/** The line after YAML (`---`) or TOML (`+++`) front matter, or 0. */
function skipFrontMatter(lines: readonly string[]): number {
  const fence = lines[0]?.trim();
  if (fence !== '---' && fence !== '+++') return 0;
  for (let i = 1; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === fence || (fence === '---' && t === '...')) return i + 1;
  }
  return 0;
}

/** A line that opens a block whose lines are not prose: what ends it. */
function blockOpens(t: string, format: Format): string | undefined {
  if (t.startsWith('```') || t.startsWith('~~~')) return t.slice(0, 3);
  if (t.startsWith('<!--') && !t.includes('-->')) return '-->';
  // A style sheet or a script in the page (a docs site hides its own
  // heading so): its lines are no prose.
  const raw = rawBlock(t);
  if (raw !== undefined) return raw;
  if (format === 'org') {
    const lower = t.toLowerCase();
    if (lower.startsWith('#+begin')) return '#+end';
    if (t.startsWith(':') && t.endsWith(':') && t.length > 2 && !t.includes(' ') && t.toUpperCase() === t) return ':END:';
  }
  if (format === 'adoc' && t.length >= 4 && /^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|\/{4,})$/.test(t)) return t;
  if (format === 'adoc' && t.startsWith('|===')) return '|===';
  return undefined;
}

/** The end tag of a `<style>` or `<script>` element that `t` opens and
 *  does not close, else undefined. */
function rawBlock(t: string): string | undefined {
  const lower = t.slice(0, 8).toLowerCase();
  const name = lower.startsWith('<style') ? 'style' : lower.startsWith('<script') ? 'script' : undefined;
  if (name === undefined) return undefined;
  const next = t.charCodeAt(name.length + 1);
  if (!(next === 0x3e || next === 0x20 || next === 0x09 || Number.isNaN(next))) return undefined;
  const end = `</${name}`;
  return t.toLowerCase().includes(end) ? undefined : end;
}

function blockEnds(t: string, end: string): boolean {
  if (end === '</style' || end === '</script') return t.toLowerCase().includes(end);
  if (end === '-->') return t.includes('-->');
  if (end === '#+end') return t.toLowerCase().startsWith('#+end');
  if (end === ':END:') return t.toUpperCase() === ':END:';
  return t.startsWith(end);
}

/** A line of a format's machinery, never prose. */
function machinery(line: string, t: string, format: Format): boolean {
  const c = t[0];
  if (c === '<' || c === '|' || c === '!' || t.startsWith('{{') || t.startsWith('{%') || t.startsWith('[!')) return true;
  if (isListItem(t)) return true;
  if (line.startsWith('    ') || line.startsWith('\t')) return true; // indented code, a quote in rst
  switch (format) {
    case 'md':
    case 'text':
      // A line opening with a link goes on a paragraph (`[cortex][cortex]
      // theme.`); a link definition, a badge row or an anchor alone is
      // markup (markup-line.ts).
      return c === '#' || c === '>' || (c === '[' && isMarkupLine(t)) || c === '=' || t.startsWith('import ') || t.startsWith('export ') || t.startsWith(':::') || /^[-=]{3,}$/.test(t);
    case 'org':
      return c === '#' || c === ':' || (c === '*' && /^\*+ /.test(t)) || c === '-' || c === '+';
    case 'rst':
      return t.startsWith('..') || (c === ':' && t.indexOf(':', 1) > 0);
    case 'adoc':
      return c === '=' || c === ':' || c === '[' || c === '.' || t.startsWith('//') || t.includes('::');
    default:
      return false;
  }
}

function isListItem(t: string): boolean {
  if ((t[0] === '-' || t[0] === '*' || t[0] === '+') && t[1] === ' ') return true;
  return /^\d{1,9}[.)] /.test(t);
}

/** A line of one repeated punctuation character (a heading's underline). */
function isUnderline(t: string): boolean {
  if (t.length < 3) return false;
  const c = t[0];
  if (!'=-~^"\'`#*+_:.'.includes(c)) return false;
  for (let i = 1; i < t.length; i++) if (t[i] !== c) return false;
  return true;
}

/** The text of an HTML page's first paragraph (`<p>`) of prose, in its
 *  body, outside `<script>` and `<style>`. */
function htmlParagraph(html: string): string | undefined {
  const lower = html.toLowerCase();
  let at = lower.indexOf('<body');
  if (at < 0) at = 0;
  for (;;) {
    const p = nextTag(lower, '<p', at);
    if (p < 0) return undefined;
    const open = lower.indexOf('>', p);
    if (open < 0) return undefined;
    const close = lower.indexOf('</p', open);
    const end = close < 0 ? lower.length : close;
    const text = cleanTitle(html.slice(open + 1, end), 'html');
    if (text.split(' ').length >= 3 && !text.endsWith(':')) return text;
    at = end;
  }
}

/** The next `<p` that opens a paragraph (`<p>` or `<p ...>`, not `<pre>`)
 *  at or after `from`. */
function nextTag(lower: string, tag: string, from: number): number {
  for (let i = lower.indexOf(tag, from); i >= 0; i = lower.indexOf(tag, i + 1)) {
    const next = lower[i + tag.length];
    if (next === '>' || next === ' ' || next === '\n' || next === '\t' || next === '\r') return i;
  }
  return -1;
}

/** Inline markup dropped: links become their text, code and emphasis
 *  markers go. */
function inline(s: string, format: Format): string {
  let out = s;
  if (format === 'org') out = orgLinks(out);
  else if (format === 'md' || format === 'text') out = cleanTitle(out, 'md').replace(/\[([^[\]]*)\](?:\[[^[\]]*\])?/g, '$1');
  else if (format === 'adoc') out = out.replace(/(?:\b(?:https?|link|xref):[^\s[]*|\{[\w-]+\})\[([^\]]*)\]/g, '$1');
  else if (format === 'rst') out = out.replace(/`([^`<]*)<[^>`]*>`_{1,2}/g, (_, text: string) => text.trimEnd());
  out = out.replace(/`+/g, '');
  if (format === 'org') out = out.replace(/(^|[\s(])[=~*/+_]([^\s=~*/+_][^=~*/+_]*?)[=~*/+_](?=[\s.,;:!?)]|$)/g, '$1$2');
  else out = emphasisDropped(out);
  return out.replace(/\s+/g, ' ').trim();
}

/** Markdown's and reStructuredText's emphasis markers dropped (`**a**`,
 *  `__a__`, `*a*`, `_a_`), strong first: one expression a marker, each
 *  linear (the marker cannot be inside the text it closes). */
function emphasisDropped(s: string): string {
  return s
    .replace(/(^|[\s(])\*\*([^\s*_][^*_]*?)\*\*(?=[\s.,;:!?)]|$)/g, '$1$2')
    .replace(/(^|[\s(])__([^\s*_][^*_]*?)__(?=[\s.,;:!?)]|$)/g, '$1$2')
    .replace(/(^|[\s(])\*([^\s*_][^*_]*?)\*(?=[\s.,;:!?)]|$)/g, '$1$2')
    .replace(/(^|[\s(])_([^\s*_][^*_]*?)_(?=[\s.,;:!?)]|$)/g, '$1$2');
}

/** Org's links as their text: `[[target][text]]` is `text`, `[[target]]`
 *  is `target`. One pass. */
function orgLinks(s: string): string {
  let out = '';
  let at = 0;
  for (let open = s.indexOf('[[', at); open >= 0; open = s.indexOf('[[', at)) {
    const close = s.indexOf(']]', open + 2);
    if (close < 0) break;
    const inside = s.slice(open + 2, close);
    const mid = inside.indexOf('][');
    out += s.slice(at, open) + (mid < 0 ? inside : inside.slice(mid + 2));
    at = close + 2;
  }
  return out + s.slice(at);
}

/** Words that end with a `.` without ending a sentence. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'cf', 'approx', 'no', 'dr', 'mr', 'mrs', 'ms', 'st', 'fig', 'eq', 'vol', 'ch', 'sec']);

/** The text up to the end of its first sentence. */
function firstSentence(s: string): string {
  for (let i = 0; i + 2 < s.length; i++) {
    const c = s[i];
    if ((c !== '.' && c !== '!' && c !== '?') || s[i + 1] !== ' ') continue;
    const next = s[i + 2];
    if (!/[\p{Lu}\p{N}"'“‘(]/u.test(next)) continue;
    if (c === '.') {
      const word = s.slice(s.lastIndexOf(' ', i - 1) + 1, i).toLowerCase();
      if (ABBREVIATIONS.has(word) || word.length === 1) continue;
    }
    return s.slice(0, i + 1);
  }
  return s;
}

/** `s`, at most `max` characters: cut at the last space before, with `…`. */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const space = s.lastIndexOf(' ', max - 1);
  const head = s.slice(0, space > max / 2 ? space : max - 1);
  let end = head.length;
  while (end > 0 && ' \t\n\r,;:'.includes(head[end - 1])) end--;
  return `${head.slice(0, end)}…`;
}
