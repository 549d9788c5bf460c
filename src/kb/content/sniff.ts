// The markup of a file its extension does not name: a `.txt`, `.text` or
// extensionless file written in reStructuredText (Sphinx projects name
// their sources `.txt`: Django's docs), AsciiDoc (git's documentation
// sources) or Markdown, told from its head (the first HEAD_CHARS
// characters, what the probe reads of a file). Such a file is then read as
// a file of that extension would be, wherever the format matters to what
// kb finds in it: its headings are sections (recall's labels name them),
// and Markdown's are the search index's headings field. Loading still
// shows the file as it is: a `.txt` passes through, as the RFD says.
//
// Each line of the head is looked at once, from its first few characters
// (and an adornment line's length against the line before it): time
// linear in the head, no regular expression. What counts, by format:
//
// - reStructuredText: an explicit markup line (`.. _target:`,
//   `.. directive::`, `.. |name| directive::`); a title between an
//   overline and an underline alike; a title underlined with punctuation
//   that only reStructuredText uses for it (`*`, `#`, `"`, `'`, `:`, `.`,
//   `_`, `` ` ``...), at least as long as the title.
// - AsciiDoc: a section title `== Title` (2 to 6 `=`), or `= Title` as
//   the document's first line; a block macro alone on its line
//   (`include::x[]`, `ifdef::x[]`, `image::x[]`); a block attribute line
//   (`[verse]`, `[source,sh]`, `[[id]]`).
// - Markdown: a fence line (```` ``` ````, `~~~`) after a blank line, an
//   inline link (`[text](url)`), an ATX heading (`## Title`). In an
//   extensionless file, where `#` starts a comment (a Makefile, a script),
//   a heading counts only with a blank line before and after it, and a
//   file that starts with `#!` is a script, never markup.
//
// The format with the most signs wins (reStructuredText, then AsciiDoc,
// then Markdown, on a tie). A head with none, but with a title underlined
// by `=` or `-` (which all three write alike), is read as
// reStructuredText, whose rule for them is the strictest. Otherwise the
// file stays plain text.

/** How much of a file's head is looked at (characters). */
export const HEAD_CHARS = 8192;

/** A markup told from a head, as the extension that names it. */
export type Sniffed = 'rst' | 'adoc' | 'md';

/** Extensions (lower case) whose markup is told from the head. */
const SNIFFED = new Set(['txt', 'text', '']);

/** Whether the markup of a file with extension `ext` (lower case) is told
 *  from its head. */
export function sniffable(ext: string): boolean {
  return SNIFFED.has(ext);
}

/** The extension `ext` (lower case) stands for, for a file whose text is
 *  `text`: the markup its head is written in, for a `.txt`, `.text` or
 *  extensionless file; else `ext` itself. */
export function markupExt(ext: string, text: string): string {
  if (!SNIFFED.has(ext)) return ext;
  return sniffMarkup(text, ext === '') ?? ext;
}

/** The markup `text`'s head is written in (see the top of this file), or
 *  undefined. `bare`: an extensionless file. */
export function sniffMarkup(text: string, bare = false): Sniffed | undefined {
  if (bare && text.startsWith('#!')) return undefined;
  // The head, read in place (a slice of a long text cost more than the
  // scan). A search for `](` or `[` may run past it, once: what it finds
  // there is past every line read.
  const n = Math.min(text.length, HEAD_CHARS);
  // The next `](` at or after the line being read (-1: none).
  let link = text.indexOf('](');
  // The next `[` (an inline macro's is looked for only in a line that has
  // one: most have none).
  let bracket = text.indexOf('[');
  let rst = 0;
  let adoc = 0;
  let md = 0;
  let underlined = 0;
  let attributes = 0;
  // In an extensionless file: the line before was an ATX heading with a
  // blank line before it (it counts if a blank line follows).
  let heading = false;
  // The line before, and the one before it: where each starts and ends.
  let prevStart = -1;
  let prevEnd = -1;
  let prev2Start = -1;
  let prev2End = -1;
  let first = true;
  for (let start = 0; start < n; ) {
    let end = text.indexOf('\n', start);
    if (end < 0 || end > n) end = n;
    let e = end;
    while (e > start && isSpace(text.charCodeAt(e - 1))) e--;
    if (heading && e === start) md++;
    heading = false;
    if (e > start) {
      const c = text.charCodeAt(start);
      if (c === DOT) {
        if (explicitMarkup(text, start, e)) rst++;
      } else if (c === EQ && first && text.charCodeAt(start + 1) === SP) {
        adoc++;
      } else if (c === EQ && sectionTitle(text, start, e)) {
        adoc++;
      } else if (c === LBRACKET && text.charCodeAt(e - 1) === RBRACKET && blockAttribute(text, start, e)) {
        attributes++;
      } else if ((c === BACKTICK || c === TILDE) && prevEnd === prevStart && fence(text, start, e, c)) {
        md++;
      } else if (c === HASH && atxHeading(text, start, e)) {
        if (!bare) md++;
        else heading = prevEnd === prevStart;
      } else if (isLetter(c) && blockMacro(text, start, e)) {
        adoc++;
      }
      if (bracket >= 0 && bracket < start) bracket = text.indexOf('[', start);
      if (bracket >= start && bracket < e && inlineMacro(text, start, e)) attributes++;
      const under = adornment(text, start, e);
      if (under !== 0 && prevEnd > prevStart && !adornment(text, prevStart, prevEnd) && e - start >= prevEnd - prevStart) {
        // A title under an overline alike, or underlined.
        if (prev2End > prev2Start && text.slice(prev2Start, prev2End) === text.slice(start, e)) rst++;
        else if (onlyRst(under)) rst++;
        // Alike in more than one (AsciiDoc's two-line titles, its
        // delimiters, Markdown's setext headings and rules): a title only
        // after a blank line (not a paragraph's last line over a rule).
        else if (prev2End === prev2Start) underlined++;
      }
      if (link >= 0 && link < start) link = text.indexOf('](', start);
      if (link >= start && link < e && inlineLink(text, start, link, e)) md++;
      first = false;
    }
    prev2Start = prevStart;
    prev2End = prevEnd;
    prevStart = start;
    prevEnd = e;
    start = end + 1;
  }
  return verdict(rst, adoc, heading ? md + 1 : md, underlined, attributes);
}

/** The markup with the most signs (see the top of this file). */
function verdict(rst: number, adoc: number, md: number, underlined: number, attributes: number): Sniffed | undefined {
  // Block attribute lines and inline macros are AsciiDoc's only beside
  // other signs (an INI file's `[section]` lines look the same).
  const a = adoc > 0 || underlined > 0 ? adoc + attributes : adoc;
  if (rst > 0 && rst >= a && rst >= md) return 'rst';
  if (a > 0 && a >= md) return 'adoc';
  if (md > 0) return 'md';
  return underlined > 0 ? 'rst' : undefined;
}

/** Whether the line `line`, from its first character that is not white
 *  space (`s`), is a line of block markup of reStructuredText or AsciiDoc
 *  alone: an explicit markup line (`.. _target:`, `.. directive:: ...`),
 *  a block attribute line (`[verse]`, `[[id]]`) or a block macro
 *  (`include::x[]`, `ifdef::x[]`). What a snippet, a title or a
 *  description never is (content/markup.ts), in any file: such lines are
 *  rare outside these formats. */
export function blockMarkup(line: string, s: number): boolean {
  let e = line.length;
  while (e > s && isSpace(line.charCodeAt(e - 1))) e--;
  if (e - s < 3) return false;
  const c = line.charCodeAt(s);
  if (c === DOT) return explicitMarkup(line, s, e);
  if (c === LBRACKET) return line.charCodeAt(e - 1) === RBRACKET && blockAttribute(line, s, e);
  return isLetter(c) && blockMacro(line, s, e);
}

const SP = 0x20;
const DOT = 0x2e;
const EQ = 0x3d;
const DASH = 0x2d;
const TILDE = 0x7e;
const CARET = 0x5e;
const PLUS = 0x2b;
const HASH = 0x23;
const COLON = 0x3a;
const BACKTICK = 0x60;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const PIPE = 0x7c;
const UNDERSCORE = 0x5f;

function isSpace(c: number): boolean {
  return c === SP || c === 0x09 || c === 0x0d;
}

function isLetter(c: number): boolean {
  return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
}

function isNameChar(c: number): boolean {
  return isLetter(c) || (c >= 0x30 && c <= 0x39) || c === DASH || c === UNDERSCORE || c === PLUS || c === DOT;
}

/** ASCII punctuation (what reStructuredText adorns titles with). */
function isPunct(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

/** Whether only reStructuredText underlines titles with `c`: not `=`, `-`,
 *  `~`, `^`, `+` (AsciiDoc's two-line titles, Markdown's setext), nor `.`,
 *  `*`, `_`, `/` (AsciiDoc's block delimiters, Markdown's rules). */
function onlyRst(c: number): boolean {
  return c !== EQ && c !== DASH && c !== TILDE && c !== CARET && c !== PLUS && c !== DOT && c !== 0x2a && c !== UNDERSCORE && c !== 0x2f;
}

/** The character of a line [s, e) that is one punctuation character
 *  repeated, three times at least; else 0. */
function adornment(t: string, s: number, e: number): number {
  if (e - s < 3) return 0;
  const c = t.charCodeAt(s);
  if (!isPunct(c)) return 0;
  for (let i = s + 1; i < e; i++) if (t.charCodeAt(i) !== c) return 0;
  return c;
}

/** `.. _target:`, `.. name::` or `.. |name| name::` at [s, e). */
function explicitMarkup(t: string, s: number, e: number): boolean {
  if (t.charCodeAt(s + 1) !== DOT || t.charCodeAt(s + 2) !== SP) return false;
  let i = s + 3;
  const c = t.charCodeAt(i);
  if (c === UNDERSCORE) {
    // A target: `.. _name:` (the name may hold spaces, or be quoted).
    return t.charCodeAt(e - 1) === COLON || indexIn(t, COLON, i, e) >= 0;
  }
  if (c === PIPE) {
    const close = indexIn(t, PIPE, i + 1, e);
    if (close < 0) return false;
    i = close + 1;
    while (i < e && t.charCodeAt(i) === SP) i++;
  }
  const from = i;
  while (i < e && isNameChar(t.charCodeAt(i))) i++;
  return i > from && t.charCodeAt(i) === COLON && t.charCodeAt(i + 1) === COLON;
}

/** `== Title` to `====== Title` at [s, e), the title holding a letter or
 *  a digit (not a table's border, `=== ===`). */
function sectionTitle(t: string, s: number, e: number): boolean {
  let i = s;
  while (i < e && t.charCodeAt(i) === EQ) i++;
  if (i - s < 2 || i - s > 6 || t.charCodeAt(i) !== SP) return false;
  for (let k = i + 1; k < e; k++) if (isAlnum(t.charCodeAt(k))) return true;
  return false;
}

/** An inline macro in [s, e): `name:target[text]` (`linkgit:git-add[1]`,
 *  `link:https://x[text]`, `kbd:[Ctrl]`), a word of two letters at least
 *  before the colon. Each character is looked at once or twice. */
function inlineMacro(t: string, s: number, e: number): boolean {
  let letters = 0;
  // The line's last `]` (found when first needed; -2: not yet).
  let last = -2;
  for (let i = s; i < e; i++) {
    const c = t.charCodeAt(i);
    if (isLetter(c)) {
      letters++;
      continue;
    }
    if (c === COLON && letters >= 2 && (i - letters === s || !isAlnum(t.charCodeAt(i - letters - 1)))) {
      // The target: up to a `[` (the macro) or white space (not one).
      let k = i + 1;
      while (k < e && t.charCodeAt(k) !== LBRACKET && !isSpace(t.charCodeAt(k))) k++;
      if (k < e && t.charCodeAt(k) === LBRACKET) {
        if (last === -2) for (last = e - 1; last >= s && t.charCodeAt(last) !== RBRACKET; last--);
        if (last > k) return true;
        // No `]` after it: none after any later `[` either.
        return false;
      }
      i = k - 1;
    }
    letters = 0;
  }
  return false;
}

function isAlnum(c: number): boolean {
  return isLetter(c) || (c >= 0x30 && c <= 0x39);
}

/** `[verse]`, `[source,sh]`, `[[id]]`, `[#id.role]`: a block attribute
 *  line [s, e), which ends with `]`; not a Markdown link reference
 *  (`[x]: url`) or a task (`[ ] x`). */
function blockAttribute(t: string, s: number, e: number): boolean {
  const c = t.charCodeAt(s + 1);
  if (c === LBRACKET) return t.charCodeAt(e - 2) === RBRACKET && e - s > 4;
  if (!(isLetter(c) || c === HASH || c === DOT || c === 0x22)) return false;
  for (let i = s + 1; i < e - 1; i++) if (t.charCodeAt(i) === RBRACKET || t.charCodeAt(i) === LBRACKET) return false;
  return true;
}

/** A block macro alone on [s, e): `name::target[attributes]`. */
function blockMacro(t: string, s: number, e: number): boolean {
  if (t.charCodeAt(e - 1) !== RBRACKET) return false;
  let i = s;
  while (i < e && isLetter(t.charCodeAt(i))) i++;
  return i > s && t.charCodeAt(i) === COLON && t.charCodeAt(i + 1) === COLON && t.charCodeAt(i + 2) !== SP && indexIn(t, LBRACKET, i + 2, e) >= 0;
}

/** A fence line: three backticks or tildes, at least, opening [s, e). */
function fence(t: string, s: number, e: number, c: number): boolean {
  return e - s >= 3 && t.charCodeAt(s + 1) === c && t.charCodeAt(s + 2) === c;
}

/** `# Title` to `###### Title` at [s, e). */
function atxHeading(t: string, s: number, e: number): boolean {
  let i = s;
  while (i < e && t.charCodeAt(i) === HASH) i++;
  return i - s <= 6 && t.charCodeAt(i) === SP && i + 1 < e;
}

/** `[text](target)` within [s, e), whose `](` is at `at`: a `[` before
 *  it and a `)` after it, in the line. */
function inlineLink(t: string, s: number, at: number, e: number): boolean {
  return indexIn(t, LBRACKET, s, at) >= 0 && indexIn(t, 0x29, at + 2, e) >= 0;
}

/** Where `c` first is in [from, to) of `t`, or -1. */
function indexIn(t: string, c: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (t.charCodeAt(i) === c) return i;
  return -1;
}
