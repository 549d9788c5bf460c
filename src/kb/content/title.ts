// Titles: what a document calls itself, per format, read from its head
// (the first 8192 bytes the probe reads for the binary check, kb/fs/probe.ts:
// no extra read). The rules live here and only here:
//
// 1. Frontmatter: `title`, else `name` (read where the frontmatter is read,
//    index/describe.ts; `subjectTitle` below combines them).
// 2. The document's own title, by format (the extension says which), in the
//    text after the frontmatter:
//    - Markdown / MDX (md, markdown, mdx, mdown, mkd, mkdn; qmd, rmd): the first
//      level-1 heading, ATX (`# Title`) or setext (`Title` over a `===`
//      line), outside fenced code, unless it heads a section of a note
//      (the next heading is another `#` one, and no word is shared with
//      the file's name: sectionOfNote); without one, a heading of any level that
//      opens the document (`## What Is Ownership?` as its first line),
//      unless another heading of its level follows it at once (an empty
//      section: an outline or a template, `## Added` then `## Changed`),
//      or is the next heading later in the head, or the only one, while
//      it shares no word with the file's name (a note's first section:
//      `## Prerequisites` in `Analytics.md`; its only one: `## Albums` in
//      `Paul Chambers.md`; mdOpener).
//      Before all of these, Logseq's page properties opening the text
//      (`title:: ...`; `description:: ...` is its summary: pageProperties).
//    - reStructuredText (rst, rest): RFC 2822-style header fields at the
//      top (`Title: ...`, as PEPs have them, continuation lines folded);
//      else the document title: a heading over- and underlined, or
//      underlined, that opens the document (after comments, directives and
//      field lists).
//    - AsciiDoc (adoc, asciidoc, asc): `= Title` opening the document
//      (after comments, attribute lines and block attribute lines,
//      `[id="x"]`), or its two-line form (`Title` over a `===` line), or
//      a section title opening it (`=== Title`: a book's section file)
//      unless it heads a section beside others (adocSectionNext); its
//      `:description:` header attribute is its summary (a description).
//    - Org (org): the `#+TITLE:` keyword.
//    - HTML (html, htm, xhtml): `<title>`, else the first `<h1>`.
//    - Plain text (txt, text), whose format the text tells: header fields
//      with `Title:`, an AsciiDoc `= Title`, an underlined heading, or an
//      ATX heading (`# Title`), opening the document. A file without an
//      extension (as often a script or a Makefile, whose `#` lines are
//      comments) only by header fields or an underlined heading.
//    Other extensions (code, data) have no title but frontmatter's.
// 3. The man-page convention (Markdown, reStructuredText, AsciiDoc, plain
//    text, HTML): a `NAME` section whose first line reads `name - summary`
//    gives the summary, which serves as the description (the title of such
//    a page, `git-add(1)`, only repeats the slug). In HTML, a heading
//    (`<h1>`-`<h6>`) whose text is `NAME`, then the text up to the end of
//    its paragraph or section (as Asciidoctor, AsciiDoc, groff and mandoc
//    write man pages as HTML), its dash also a character reference.
// Never a title: a line of markup alone (markup.ts: a shortcode, an Org
// keyword), nor template expressions alone (`{{ docstitle }}`).
//
// A listing shows a title where the subject has no description and the
// title says more than the slug (`informativeTitle`). Section headings of
// every format that has them (`headingsIn`) name the sections recall
// shows.
//
// The head scan works on bytes (every marker is ASCII) and allocates
// nothing but its result: it runs on every subject a listing probes. An
// HTML page's head is read without its comments, scripts and style sheets
// (html-head.ts).

import { decodeEntities } from './entities.ts';
import { markupOnly } from './markup.ts';
import { unroff } from './roff.ts';

/** Document formats that have titles. */
export type TitleFormat = 'md' | 'rst' | 'adoc' | 'org' | 'html' | 'text' | 'plain' | 'roff';

const FORMATS: ReadonlyMap<string, TitleFormat> = new Map([
  ['md', 'md'],
  ['markdown', 'md'],
  ['mdx', 'md'],
  // Quarto's and R Markdown's: Markdown with YAML frontmatter.
  ['qmd', 'md'],
  ['rmd', 'md'],
  ['mdown', 'md'],
  ['mkd', 'md'],
  ['mkdn', 'md'],
  ['rst', 'rst'],
  ['rest', 'rst'],
  ['adoc', 'adoc'],
  ['asciidoc', 'adoc'],
  ['asc', 'adoc'],
  ['org', 'org'],
  ['html', 'html'],
  ['htm', 'html'],
  ['xhtml', 'html'],
  ['txt', 'text'],
  ['text', 'text'],
  ['', 'plain'],
  // Manual pages' sources (man and mdoc macros), by section.
  ['1', 'roff'],
  ['2', 'roff'],
  ['3', 'roff'],
  ['4', 'roff'],
  ['5', 'roff'],
  ['6', 'roff'],
  ['7', 'roff'],
  ['8', 'roff'],
  ['9', 'roff'],
  ['man', 'roff'],
  ['mdoc', 'roff'],
  ['roff', 'roff'],
] as [string, TitleFormat][]);

/** The title format of a lower-case extension (without the dot), if any. */
export function titleFormat(ext: string): TitleFormat | undefined {
  return FORMATS.get(ext);
}

/** The title format of a file path (its last extension, any case). */
export function titleFormatOfPath(path: string): TitleFormat | undefined {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  // `.bashrc`: a leading dot is no extension.
  if (dot <= slash + 1) return 'plain';
  let ext = path.slice(dot + 1);
  let f = FORMATS.get(ext);
  if (f === undefined && ext !== (ext = ext.toLowerCase())) f = FORMATS.get(ext);
  return f;
}

/** What the head scan found: [start, end) byte spans, -1 when none.
 *  Overwritten by the next scan. */
export interface HeadSpans {
  titleStart: number;
  titleEnd: number;
  summaryStart: number;
  summaryEnd: number;
}

const found: HeadSpans = { titleStart: -1, titleEnd: -1, summaryStart: -1, summaryEnd: -1 };

// Byte values.
const NL = 0x0a;
const CR = 0x0d;
const SP = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const EQ = 0x3d;
const DASH = 0x2d;
const COLON = 0x3a;
const SLASH = 0x2f;
const LT = 0x3c;
const GT = 0x3e;
const PLUS = 0x2b;
const STAR = 0x2a;

/** A line of the head: [s, e) without its line end; `next` is where the
 *  following line starts. One cursor, reused (`cursor`): no two scans
 *  use it at once. */
class Lines {
  s = 0;
  e = 0;
  next = 0;
  b: Uint8Array = new Uint8Array(0);
  n = 0;
  /** Starts over on `b`'s lines from `from` (before `n`). */
  reset(b: Uint8Array, from: number, n: number): this {
    this.b = b;
    this.n = n;
    this.next = from;
    this.s = this.e = from;
    return this;
  }
  /** Moves to the next line; false at the end of the head. */
  advance(): boolean {
    const { b, n } = this;
    if (this.next >= n) return false;
    this.s = this.next;
    let nl = b.indexOf(NL, this.s);
    if (nl < 0 || nl >= n) nl = n;
    this.next = nl + 1;
    this.e = nl > this.s && b[nl - 1] === CR ? nl - 1 : nl;
    return true;
  }
}

const cursor = new Lines();

function isBlank(b: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (b[i] !== SP && b[i] !== TAB) return false;
  return true;
}

/** The first index in [s, e) that is not a space or tab (e when none). */
function skipSpace(b: Uint8Array, s: number, e: number): number {
  while (s < e && (b[s] === SP || b[s] === TAB)) s++;
  return s;
}

/** `e` moved back over spaces and tabs. */
function trimBack(b: Uint8Array, s: number, e: number): number {
  while (e > s && (b[e - 1] === SP || b[e - 1] === TAB)) e--;
  return e;
}

/** Whether [s, e) is one punctuation character repeated (at least `min`
 *  times), trailing blanks allowed: an underline or overline. */
function isAdornment(b: Uint8Array, s: number, e: number, min = 3): boolean {
  e = trimBack(b, s, e);
  if (e - s < min) return false;
  const c = b[s];
  if (!((c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e))) return false;
  for (let i = s + 1; i < e; i++) if (b[i] !== c) return false;
  return true;
}

function setTitle(s: number, e: number): boolean {
  found.titleStart = s;
  found.titleEnd = e;
  return true;
}

/** The summary is [s, e) with its white space trimmed, when anything is
 *  left. */
function setSummary(b: Uint8Array, s: number, e: number): void {
  const ss = skipSpace(b, s, e);
  const se = trimBack(b, ss, e);
  if (se > ss) {
    found.summaryStart = ss;
    found.summaryEnd = se;
  }
}

/**
 * Scans a text file's head `bytes[from, n)` (`from`: after the frontmatter)
 * for the title and man-page summary of format `format`. Returns the spans
 * (a shared object, overwritten by the next scan), or undefined when the
 * head holds neither. The spans' text is raw: `cleanTitle` makes it a title.
 * `quick` false: every rule is run, even on a head that `untitled` tells
 * has no title (the same answer: its tests compare them). `name`: the
 * file's name (or path), which a Markdown section heading that opens the
 * document must share a word with to be its title (mdOpener).
 */
export function scanHead(bytes: Uint8Array, from: number, n: number, format: TitleFormat, quick = true, name?: string): HeadSpans | undefined {
  found.titleStart = found.titleEnd = found.summaryStart = found.summaryEnd = -1;
  if (from >= n) return undefined;
  if (format === 'roff') {
    // A manual page's title is its name, which the slug says already.
    roffSummary(bytes, from, n);
    return found.summaryStart < 0 ? undefined : found;
  }
  if (quick && untitled(bytes, from, n, format)) {
    // No title: only a man page's summary may be there, after a `NAME`.
    if (format === 'html' || format === 'org' || !within(bytes, 0x4e, from, Math.min(n, from + MAN_BYTES))) return undefined;
    manSummary(bytes, from, n);
    return found.summaryStart < 0 ? undefined : found;
  }
  const base = name === undefined ? undefined : name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  switch (format) {
    case 'md':
      mdTitle(bytes, from, n, base);
      break;
    case 'rst':
    case 'plain':
      if (!headerTitle(bytes, from, n)) openingTitle(bytes, from, n, format, base);
      break;
    case 'adoc':
      openingTitle(bytes, from, n, format, base);
      break;
    case 'org':
      orgTitle(bytes, from, n);
      break;
    case 'html':
      htmlTitle(bytes, from, n);
      break;
    case 'text':
      if (!headerTitle(bytes, from, n)) openingTitle(bytes, from, n, format, base);
      break;
  }
  if (format === 'html') htmlManSummary(bytes, from, n);
  else if (format !== 'org' && found.summaryStart < 0) manSummary(bytes, from, n);
  return found.titleStart < 0 && found.summaryStart < 0 ? undefined : found;
}

/** Whether byte `c` is in [from, to) (the runtime's byte search). */
function within(b: Uint8Array, c: number, from: number, to: number): boolean {
  const i = b.indexOf(c, from);
  return i >= 0 && i < to;
}

/** ASCII punctuation: what an underline or overline is made of. */
function isPunct(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
}

/**
 * Whether the head `b[from, n)` surely holds no title of `format`, told
 * from a few bytes, so that the rules below are not run on the many heads
 * (prose, notes) that have none. Where this cannot tell, false: the rules
 * decide. Each test is a consequence of the rules:
 * - Markdown: a heading needs a `#`, or a line of `=` or `-` under the
 *   first line of text; without a `#` or an `=` in the head, a `-` line
 *   can only title it as the second line, under a first line of text that
 *   opens the head (a letter or digit first, not an MDX `import`/`export`).
 * - reStructuredText, AsciiDoc, plain text: a title opens the document; a
 *   head whose first line starts with a letter or digit and holds no `:`
 *   (a header field) has one only when its second line is an underline,
 *   which starts with punctuation.
 * - Org: `#+TITLE:` needs a `#`; HTML: `<title>` or `<h1>`, a `<`.
 */
function untitled(b: Uint8Array, from: number, n: number, format: TitleFormat): boolean {
  switch (format) {
    case 'org':
      return !within(b, HASH, from, n);
    case 'html':
      return !within(b, LT, from, n);
    case 'md': {
      if (within(b, HASH, from, n) || within(b, EQ, from, n)) return false;
      // Page properties (`title:: ...`) open the text.
      const L = cursor.reset(b, from, n);
      if (L.advance() && propertyKeyEnd(b, L.s, L.e) >= 0) return false;
      if (!within(b, DASH, from, n)) return true;
      if (!isAlnum(b[from]) || startsWith(b, from, n, 'import ') || startsWith(b, from, n, 'export ')) return false;
      const nl = b.indexOf(NL, from);
      if (nl < 0 || nl + 1 >= n) return true;
      let k = nl + 1;
      while (k < n && (b[k] === SP || b[k] === TAB)) k++;
      return b[k] !== DASH || k >= n;
    }
    default: {
      // rst, adoc, text, plain: the first line is the document's first
      // content (no blank line, comment, directive or attribute before
      // it), neither `= Title` nor `# Title`, and not an overline.
      if (!isAlnum(b[from])) return false;
      const nl = b.indexOf(NL, from);
      if (nl < 0 || nl + 1 >= n) return format === 'adoc' || !within(b, COLON, from, n);
      if (format !== 'adoc' && within(b, COLON, from, nl)) return false;
      return !isPunct(b[nl + 1]);
    }
  }
}

/** An ATX heading at [s, e): its level (1-6) and text span in `atx`, or 0. */
const atx = { s: 0, e: 0 };
function atxLevel(b: Uint8Array, s: number, e: number): number {
  let i = s;
  let indent = 0;
  while (i < e && b[i] === SP && indent < 4) {
    i++;
    indent++;
  }
  if (indent > 3 || i >= e || b[i] !== HASH) return 0;
  let level = 0;
  while (i < e && b[i] === HASH) {
    i++;
    level++;
  }
  if (level > 6 || (i < e && b[i] !== SP && b[i] !== TAB)) return 0;
  let ts = skipSpace(b, i, e);
  let te = trimBack(b, ts, e);
  // A closing sequence of `#`s, after a space (or alone).
  let k = te;
  while (k > ts && b[k - 1] === HASH) k--;
  if (k === ts) te = ts;
  else if (k < te && (b[k - 1] === SP || b[k - 1] === TAB)) te = trimBack(b, ts, k);
  atx.s = ts;
  atx.e = te;
  return level;
}

/** A code fence opening at [s, e): its character and length, or 0. */
function fenceAt(b: Uint8Array, s: number, e: number): number {
  const i = skipSpace(b, s, Math.min(e, s + 3));
  const c = b[i];
  if (c !== 0x60 && c !== 0x7e) return 0;
  let k = i;
  while (k < e && b[k] === c) k++;
  return k - i >= 3 ? (c << 8) | (k - i) : 0;
}

function mdTitle(b: Uint8Array, from: number, n: number, name: string | undefined): void {
  if (pageProperties(b, from, n)) return;
  if (mdLevelOne(b, from, n, name)) return;
  mdOpener(b, from, n, name);
}

/** Logseq's page properties, which Obsidian's Dataview writes the same
 *  way: `key:: value` lines opening the text, up to the first line that
 *  is not one. `title::` is the title, `description::` the summary (a
 *  description). Whether a title was found (the head's title is then
 *  decided). */
function pageProperties(b: Uint8Array, from: number, n: number): boolean {
  const L = cursor.reset(b, from, n);
  while (L.advance()) {
    const { s, e } = L;
    const k = propertyKeyEnd(b, s, e);
    if (k < 0) break;
    if (found.titleStart < 0 && k - s === 5 && startsWithFolded(b, s, k, 'title')) {
      const ts = skipSpace(b, k + 2, e);
      const te = trimBack(b, ts, e);
      if (te > ts) setTitle(ts, te);
    } else if (found.summaryStart < 0 && k - s === 11 && startsWithFolded(b, s, k, 'description')) setSummary(b, k + 2, e);
  }
  return found.titleStart >= 0;
}

/** Where the `::` of a property line at [s, e) is (`key:: value`: a key
 *  of a letter then letters, digits, `-` and `_`, the value after a space
 *  or nothing), or -1 when the line is not one. */
function propertyKeyEnd(b: Uint8Array, s: number, e: number): number {
  if (s >= e || !isLetter(b[s])) return -1;
  let k = s + 1;
  while (k < e && (isAlnum(b[k]) || b[k] === DASH || b[k] === 0x5f)) k++;
  if (k + 1 >= e || b[k] !== COLON || b[k + 1] !== COLON) return -1;
  return k + 2 === e || b[k + 2] === SP || b[k + 2] === TAB ? k : -1;
}

function isLetter(c: number): boolean {
  return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
}

const NONE = Number.MAX_SAFE_INTEGER;
const UNKNOWN = -1;

/** The next `c` in [at, n), or NONE. */
function nextByte(b: Uint8Array, c: number, at: number, n: number): number {
  const i = b.indexOf(c, at);
  return i < 0 || i >= n ? NONE : i;
}

/**
 * The first level-1 heading (ATX `# `, or a one-line paragraph over `===`)
 * outside fenced code. Jumps from one `#` or `=` to the next (each found by
 * the runtime's byte search): most of a head is prose that holds none of
 * them at the start of a line, and is never looked at line by line. Fences
 * are followed only up to a candidate heading, and only then.
 */
function mdLevelOne(b: Uint8Array, from: number, n: number, name: string | undefined): boolean {
  resetFences(from);
  let ph = nextByte(b, HASH, from, n);
  // The next `=` is searched for only as far as the next `#` (UNKNOWN:
  // none in [eqAt, ph)): a head that opens with its `# Title` is never
  // searched through for an `=`.
  let pe = UNKNOWN;
  let eqAt = from;
  for (;;) {
    if (pe === UNKNOWN) {
      if (ph === NONE) pe = nextByte(b, EQ, eqAt, n);
      else {
        let k = eqAt;
        while (k < ph && b[k] !== EQ) k++;
        if (k < ph) pe = k;
        else eqAt = ph;
      }
    }
    const i = pe === UNKNOWN ? ph : Math.min(ph, pe);
    if (i === NONE) return false;
    const c = b[i];
    // At the start of a line (up to three spaces of indent)?
    let ls = i;
    while (ls > from && b[ls - 1] === SP && i - ls < 3) ls--;
    if (ls === from || b[ls - 1] === NL) {
      let le = b.indexOf(NL, i);
      if (le < 0 || le >= n) le = n;
      const e = le > i && b[le - 1] === CR ? le - 1 : le;
      if (c === HASH ? atxLevel(b, ls, e) === 1 && atx.e > atx.s : isSetextUnderline(b, ls, e, EQ) && ls > from) {
        fencesTo(b, from, n, ls);
        if (fenceState.fence === 0 && !commentAt(b, ls)) {
          if (c === HASH) {
            // (The search below moves `atx`: its span is taken first.)
            const ts = atx.s;
            const te = atx.e;
            return sectionOfNote(b, le + 1, n, ts, te, 1, name) || setTitle(ts, te);
          }
          if (setextAbove(b, from, ls)) return true;
        }
      }
      // The line is done: both searches go on after it.
      const at = le + 1;
      if (ph < at) ph = nextByte(b, HASH, at, n);
      if (pe === UNKNOWN || pe < at) {
        pe = UNKNOWN;
        if (eqAt < at) eqAt = at;
      }
      continue;
    }
    if (c === HASH) ph = nextByte(b, HASH, i + 1, n);
    else {
      pe = UNKNOWN;
      eqAt = i + 1;
    }
  }
}

/** The fence a Markdown head is in (char << 8 | length, 0: none), as
 *  followed up to `fenced`; and whether it is inside an HTML comment
 *  (`<!--` not yet closed by `-->`), as followed up to `commented`. */
const fenceState = { fence: 0, fenced: 0, comment: false, commented: 0 };

/** Whether offset `to` of a Markdown head is inside an HTML comment,
 *  following the comments from where the last call stopped (`to` only
 *  grows between resets: each byte is looked at once). A heading there is
 *  hidden (`<!-- [[[cog` / `# This is called from ...` / `]]] -->`). */
function commentAt(b: Uint8Array, to: number): boolean {
  let at = fenceState.commented;
  while (at < to) {
    // Inside a comment its close is looked for, else the next opening.
    const mark = fenceState.comment ? CLOSE_COMMENT : OPEN_COMMENT;
    const found = indexOfBytes(b, mark, at, to);
    if (found < 0) {
      at = to;
      break;
    }
    at = found + mark.length;
    fenceState.comment = !fenceState.comment;
  }
  fenceState.commented = at;
  return fenceState.comment;
}
const OPEN_COMMENT = [0x3c, 0x21, 0x2d, 0x2d];
const CLOSE_COMMENT = [0x2d, 0x2d, 0x3e];

/** Where the bytes `needle` start in b[from, to) (its end may be past
 *  `to`), or -1. Each byte looked at a bounded number of times (a needle
 *  is at most four bytes). */
function indexOfBytes(b: Uint8Array, needle: readonly number[], from: number, to: number): number {
  const first = needle[0];
  for (let i = b.indexOf(first, from); i >= 0 && i < to; i = b.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && b[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

/** Starts following fences and comments at `from`: none open. */
function resetFences(from: number): void {
  fenceState.fence = 0;
  fenceState.fenced = from;
  fenceState.comment = false;
  fenceState.commented = from;
}

/** Follows the fences that open or close in [fenceState.fenced, to). */
function fencesTo(b: Uint8Array, from: number, n: number, to: number): void {
  let pt = nextByte(b, 0x60, fenceState.fenced, to);
  let pl = nextByte(b, 0x7e, fenceState.fenced, to);
  for (;;) {
    const i = Math.min(pt, pl);
    if (i === NONE) break;
    let ls = i;
    while (ls > from && b[ls - 1] === SP && i - ls < 3) ls--;
    let next = i + 1;
    if (ls === from || b[ls - 1] === NL) {
      let le = b.indexOf(NL, i);
      if (le < 0 || le >= n) le = n;
      const e = le > i && b[le - 1] === CR ? le - 1 : le;
      const f = fenceAt(b, ls, e);
      const fence = fenceState.fence;
      if (f !== 0) {
        if (fence === 0) fenceState.fence = f;
        else if (f >> 8 === fence >> 8 && (f & 0xff) >= (fence & 0xff) && isBlank(b, i + (f & 0xff), e)) fenceState.fence = 0;
      }
      next = le + 1;
    }
    if (pt < next) pt = nextByte(b, 0x60, next, to);
    if (pl < next) pl = nextByte(b, 0x7e, next, to);
  }
  fenceState.fenced = to;
}

/** The line above an `===` underline at `ls`, when it is one line of
 *  paragraph text (a blank line or the start above it): the title. */
function setextAbove(b: Uint8Array, from: number, ls: number): boolean {
  let pe2 = ls - 1; // its line end
  if (pe2 > from && b[pe2 - 1] === CR) pe2--;
  let ps = pe2;
  while (ps > from && b[ps - 1] !== NL) ps--;
  const ts = skipSpace(b, ps, pe2);
  const te = trimBack(b, ts, pe2);
  const above = ps > from ? ps - 1 : -1; // the line end before it
  let before = above;
  while (before > from && b[before - 1] !== NL) before--;
  const lone = above < 0 || isBlank(b, before, above > from && b[above - 1] === CR ? above - 1 : above);
  const bc = b[ts];
  return te > ts && ts - ps < 4 && lone && bc !== HASH && bc !== GT && bc !== 0x60 && bc !== 0x7e && bc !== LT && !listItem(b, ts, te) ? setTitle(ts, te) : false;
}

/** Whether the line's text [i, e) opens with a list item's marker: `-`,
 *  `*` or `+`, or up to nine digits and `.` or `)`, then a space, a tab or
 *  the line's end. */
function listItem(b: Uint8Array, i: number, e: number): boolean {
  let k = i;
  const c = b[k];
  if (c === DASH || c === STAR || c === PLUS) k++;
  else {
    while (k < e && k - i < 9 && b[k] >= 0x30 && b[k] <= 0x39) k++;
    if (k === i || k >= e || (b[k] !== 0x2e && b[k] !== 0x29)) return false;
    k++;
  }
  return k >= e || b[k] === SP || b[k] === TAB;
}

/** A heading of any level that opens the document (its first content,
 *  after HTML comments, HTML-only lines and MDX imports): ATX, or a line
 *  over a setext underline. An ATX heading is no title when it heads an
 *  empty section (another heading of its level or above follows at once:
 *  an outline, a template), nor when such a heading is the next one later
 *  in the head and it shares no word with the file's name `name` (a
 *  section of a note: `## Prerequisites` then `## Enable analytics` in
 *  `Analytics.md`, where `## Separating Modules into Different Files`
 *  then `## Summary` names `ch07-05-separating-modules-into-different-files.md`). */
function mdOpener(b: Uint8Array, from: number, n: number, name: string | undefined): void {
  const L = cursor.reset(b, from, n);
  let comment = false; // inside an HTML comment
  while (L.advance()) {
    const { s, e } = L;
    if (comment) {
      if (includes(b, s, e, '-->')) comment = false;
      continue;
    }
    if (isBlank(b, s, e)) continue;
    const i = skipSpace(b, s, e);
    const c = b[i];
    if (c === LT && startsWith(b, i, e, '<!--')) {
      if (!includes(b, s, e, '-->')) comment = true;
      continue;
    }
    if (startsWith(b, s, e, 'import ') || startsWith(b, s, e, 'export ')) continue; // MDX
    // HTML alone on a line (anchors, badges): not content.
    if (c === LT && b[trimBack(b, s, e) - 1] === GT) continue;
    if (i - s > 3) return;
    if (c === HASH) {
      const level = atxLevel(b, s, e);
      if (level === 0 || atx.e <= atx.s) return;
      const ts = atx.s;
      const te = atx.e;
      // A heading followed at once by another of its level or above heads
      // an empty section (an outline, a template): not a title.
      let more = false; // the head goes on after it
      while (L.advance()) {
        if (isBlank(b, L.s, L.e)) continue;
        const next = b[skipSpace(b, L.s, L.e)] === HASH ? atxLevel(b, L.s, L.e) : 0;
        if (next > 0 && next <= level) return;
        more = true;
        break;
      }
      if (more && level > 1 && sectionOfNote(b, L.s, n, ts, te, level, name)) return;
      setTitle(ts, te);
      return;
    }
    // A list item is never a setext heading's text (`- Logseq lets you
    // embed...` over a `-` line: two items of an outline).
    if (c === 0x60 || c === 0x7e || c === GT || listItem(b, i, e)) return;
    const te = trimBack(b, i, e);
    if (L.advance() && (b[skipSpace(b, L.s, L.e)] === DASH || b[skipSpace(b, L.s, L.e)] === EQ) && isSetextUnderline(b, L.s, L.e, b[skipSpace(b, L.s, L.e)])) setTitle(i, te);
    return;
  }
}

/** Whether the heading [ts, te) of level `level`, whose line ends before
 *  `next`, heads a section of a note rather than naming it: it shares no
 *  word with the file's name `name`, and the next ATX heading in the rest
 *  of the head is of its level or above (a note of `# Definition`, then
 *  `# Example`: `Quadratic Form.md`), or, for a section heading (`##` or
 *  deeper), there is none (a note whose one section is `## Notes`, or
 *  `## Albums` in `Paul Chambers.md`: a chapter's title has its parts
 *  below it, `## What Is Ownership?` then `### The Stack and the Heap`).
 *  The file then has no title: true (the head's title is decided). */
function sectionOfNote(b: Uint8Array, next: number, n: number, ts: number, te: number, level: number, name: string | undefined): boolean {
  if (next >= n || !namesNothing(b, ts, te, name)) return false;
  const after = levelAfter(b, next, n);
  // (Without a name, nothing tells a note's only section from a title.)
  return after === 0 ? level > 1 && name !== undefined : after <= level;
}

/** Whether the heading [ts, te) shares no word with the file's name
 *  (sharesWord). */
function namesNothing(b: Uint8Array, ts: number, te: number, name: string | undefined): boolean {
  return !sharesWord(utf8.decode(b.subarray(ts, te)), name);
}

/** The level of the first ATX heading of b[from, n) (`from` a line's
 *  start), outside fenced code, or 0 when there is none: one of its level
 *  or above after a heading means that heading heads a section beside it,
 *  where a deeper one would be a part of it (`## Redirecting Errors to
 *  Standard Error`, then `### Checking Where Errors Are Written`: a
 *  chapter's title and its parts). Jumps from one `#` to the next (the
 *  runtime's byte search), and follows the fences only up to a heading
 *  found (mdLevelOne's way): a head of prose is not read line by line.
 *  Moves `atx` and the fence state. */
function levelAfter(b: Uint8Array, from: number, n: number): number {
  resetFences(from);
  for (let i = nextByte(b, HASH, from, n); i !== NONE; ) {
    let ls = i;
    while (ls > from && b[ls - 1] === SP && i - ls < 3) ls--;
    if (ls !== from && b[ls - 1] !== NL) {
      i = nextByte(b, HASH, i + 1, n);
      continue;
    }
    let le = b.indexOf(NL, i);
    if (le < 0 || le >= n) le = n;
    const e = le > i && b[le - 1] === CR ? le - 1 : le;
    const at = atxLevel(b, ls, e);
    if (at > 0 && atx.e > atx.s) {
      fencesTo(b, from, n, ls);
      if (fenceState.fence === 0 && !commentAt(b, ls)) return at;
    }
    i = nextByte(b, HASH, le + 1, n);
  }
  return 0;
}

/** Whether `heading` and the file name `name` (its extension dropped)
 *  share a word: three letters or digits or more, compared case aside; in
 *  a script written without spaces (a run holding a letter beyond ASCII),
 *  two characters in a row. Never with no name. Time linear in both. */
export function sharesWord(heading: string, name: string | undefined): boolean {
  if (name === undefined) return false;
  const dot = name.lastIndexOf('.');
  const words = new Set(wordsOf(dot > 0 ? name.slice(0, dot) : name));
  for (const w of wordsOf(heading)) if (words.has(w)) return true;
  return false;
}

/** The words of `s` for sharesWord. */
function wordsOf(s: string): string[] {
  const out: string[] = [];
  for (const run of s.normalize('NFKC').toLowerCase().match(WORD_RUNS) ?? []) {
    if (!NON_ASCII.test(run)) {
      if (run.length >= 3) out.push(run);
      continue;
    }
    const chars = [...run];
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  }
  return out;
}

const WORD_RUNS = /[\p{L}\p{N}]+/gu;
const NON_ASCII = /[^\x00-\x7f]/;

function isSetextUnderline(b: Uint8Array, s: number, e: number, c: number): boolean {
  let i = s;
  while (i < e && i - s < 3 && b[i] === SP) i++;
  const at = i;
  while (i < e && b[i] === c) i++;
  return i > at && isBlank(b, i, e);
}

function startsWith(b: Uint8Array, s: number, e: number, prefix: string): boolean {
  if (e - s < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (b[s + i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/** `startsWith`, ASCII letters in any case (`prefix` lower-case). */
function startsWithFolded(b: Uint8Array, s: number, e: number, prefix: string): boolean {
  if (e - s < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const c = b[s + i];
    if ((c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== prefix.charCodeAt(i)) return false;
  }
  return true;
}

function includes(b: Uint8Array, s: number, e: number, needle: string): boolean {
  return indexOfFolded(b, s, e, needle) >= 0;
}

/** The first index of `needle` (lower-case ASCII) in [s, e), letters in
 *  any case; -1 when none. */
function indexOfFolded(b: Uint8Array, s: number, e: number, needle: string): number {
  const c0 = needle.charCodeAt(0);
  const u0 = c0 >= 0x61 && c0 <= 0x7a ? c0 - 0x20 : c0;
  for (let i = s; i + needle.length <= e; i++) {
    const c = b[i];
    if ((c === c0 || c === u0) && startsWithFolded(b, i, e, needle)) return i;
  }
  return -1;
}

/** A field line `Name: value` (RFC 2822): the index after the colon, or -1. */
function fieldColon(b: Uint8Array, s: number, e: number): number {
  let i = s;
  const c = b[i];
  if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) return -1;
  while (i < e && (((b[i] | 0x20) >= 0x61 && (b[i] | 0x20) <= 0x7a) || (b[i] >= 0x30 && b[i] <= 0x39) || b[i] === DASH || b[i] === 0x5f)) i++;
  if (i >= e || b[i] !== COLON) return -1;
  if (i + 1 < e && b[i + 1] !== SP && b[i + 1] !== TAB) return -1;
  return i + 1;
}

/** RFC 2822-style header fields opening the document (its first lines are
 *  `Name: value`, up to a blank line): the `Title:` field, continuation
 *  lines included. */
function headerTitle(b: Uint8Array, from: number, n: number): boolean {
  const L = cursor.reset(b, from, n);
  let started = false;
  let inTitle = false;
  while (L.advance()) {
    const { s, e } = L;
    if (isBlank(b, s, e)) {
      if (started) break;
      continue;
    }
    if (started && (b[s] === SP || b[s] === TAB)) {
      if (inTitle) found.titleEnd = trimBack(b, s, e);
      continue;
    }
    const colon = fieldColon(b, s, e);
    if (colon < 0) break;
    started = true;
    inTitle = colon - s === 6 && startsWithFolded(b, s, e, 'title:');
    if (inTitle) {
      found.titleStart = skipSpace(b, colon, e);
      found.titleEnd = trimBack(b, found.titleStart, e);
    }
  }
  if (found.titleStart >= 0 && found.titleEnd <= found.titleStart) found.titleStart = found.titleEnd = -1;
  return found.titleStart >= 0;
}

/** A heading that opens the document: over- and underlined, underlined
 *  (AsciiDoc: by `=` only, its document title; other underlines are
 *  sections), or (AsciiDoc, plain text) `= Title` or `# Title`. Skips
 *  blank lines, reStructuredText comments and directives (`.. `, with
 *  their indented lines), field lists (`:name: value`), AsciiDoc comments
 *  (`//`) and attribute entries (`:name: value`). */
function openingTitle(b: Uint8Array, from: number, n: number, format: 'rst' | 'adoc' | 'text' | 'plain', name?: string): boolean {
  const lenient = format === 'adoc' || format === 'text';
  const L = cursor.reset(b, from, n);
  let inBlock = false; // an explicit markup block (.. x) and its indented lines
  let inComment = false; // an AsciiDoc `////` comment block
  while (L.advance()) {
    const { s, e } = L;
    if (isBlank(b, s, e)) continue;
    if (inComment) {
      if (startsWith(b, s, e, '////')) inComment = false;
      continue;
    }
    if (inBlock && (b[s] === SP || b[s] === TAB)) continue;
    inBlock = false;
    if (startsWith(b, s, e, '..') && (e - s === 2 || b[s + 2] === SP)) {
      inBlock = true;
      continue;
    }
    if (startsWith(b, s, e, '////')) {
      inComment = true;
      continue;
    }
    if (b[s] === SLASH && b[s + 1] === SLASH) continue;
    if (b[s] === COLON && e - s > 2 && b.indexOf(COLON, s + 2) > s + 1 && b.indexOf(COLON, s + 2) < e) {
      if (format === 'adoc') adocDescription(b, s, e);
      continue;
    }
    // AsciiDoc: a block attribute line over the title (`[id="x"]`, as
    // modular docs write them; `[[anchor]]`, `[role=x]`).
    if (format === 'adoc' && b[s] === 0x5b && b[trimBack(b, s, e) - 1] === 0x5d) continue;
    // The first content line. In AsciiDoc, a section title (`== Title`,
    // `=== Title`: an included fragment, a book's section) is one too,
    // unless it heads a section beside others (adocSectionNext).
    if (format === 'adoc' && b[s] === EQ && b[s + 1] === EQ) {
      let k = s;
      while (k < e && b[k] === EQ) k++;
      const level = k - s;
      if (level > 6 || b[k] !== SP) return false;
      const ts = skipSpace(b, k, e);
      const te = trimBack(b, ts, e);
      if (te <= ts) return false;
      if (L.advance() && adocSectionNext(L, level) && namesNothing(b, ts, te, name)) return false;
      return setTitle(ts, te);
    }
    if (lenient && (b[s] === EQ || b[s] === HASH) && e - s > 2 && b[s + 1] === SP) {
      const ts = skipSpace(b, s + 2, e);
      let te = trimBack(b, ts, e);
      if (b[s] === HASH) {
        atxLevel(b, s, e);
        te = atx.e;
      }
      if (te <= ts) return false;
      setTitle(ts, te);
      // The header's attribute lines under the title, to its first blank line.
      if (format === 'adoc') while (L.advance() && !isBlank(b, L.s, L.e)) if (b[L.s] === COLON) adocDescription(b, L.s, L.e);
      return true;
    }
    const first = { s, e };
    if (!L.advance()) return false;
    if (isAdornment(b, first.s, first.e)) {
      // Overline, title, underline.
      const ts = skipSpace(b, L.s, L.e);
      const te = trimBack(b, ts, L.e);
      if (te <= ts || !L.advance() || !isAdornment(b, L.s, L.e) || b[L.s] !== b[first.s]) return false;
      if (format !== 'adoc' && namesNothing(b, ts, te, name) && rstSectionNext(L, b[first.s], true)) return false;
      return setTitle(ts, te);
    }
    if (isAdornment(b, L.s, L.e, 2) && b[first.s] !== SP && b[first.s] !== TAB && (format !== 'adoc' || b[L.s] === EQ)) {
      const te = trimBack(b, first.s, first.e);
      // An underline at least nearly as long as the text (a `---` under a
      // long line is a rule, not a heading).
      if (trimBack(b, L.s, L.e) - L.s + 2 < te - first.s && b[L.s] !== EQ) return false;
      if (format !== 'adoc' && namesNothing(b, first.s, te, name) && rstSectionNext(L, b[L.s], false)) return false;
      return setTitle(first.s, te);
    }
    return false;
  }
  return false;
}

/** Whether a reStructuredText section title of the same style as the
 *  one just read (underlined with `c`, and overlined too when `over`)
 *  follows it in the head: a section beside it, so that neither is the
 *  document's title (docutils makes a lone top-level section the title,
 *  never one of several: a changelog's `Version 3.2.0`, then `Version
 *  3.1.1`). Line by line from `L`, once. */
function rstSectionNext(L: Lines, c: number, over: boolean): boolean {
  const b = L.b;
  let textAbove = false; // the line above is text that may be a title
  let adornAbove = false; // the line above is an adornment of `c`
  let adornTwoAbove = false;
  while (L.advance()) {
    const { s, e } = L;
    const blank = isBlank(b, s, e);
    const adorn = !blank && b[s] === c && isAdornment(b, s, e);
    if (adorn && textAbove && adornTwoAbove === over) return true;
    adornTwoAbove = adornAbove;
    adornAbove = adorn;
    textAbove = !blank && !adorn && b[s] !== SP && b[s] !== TAB;
  }
  return false;
}

/** Whether the first AsciiDoc section title from the line `L` is on
 *  (`==` to `======` and a space), outside delimited blocks (a line of four
 *  or more `-`, `.`, `=`, `*`, `_`, `+` or `/` opens and closes one, as
 *  adocHeadings reads them in a whole text), is of
 *  `level` or above: the title before it heads a section beside it, where
 *  a deeper one would be a part of it. Line by line, once. */
function adocSectionNext(L: Lines, level: number): boolean {
  const b = L.b;
  let block = 0; // the delimiter's character while inside a block
  do {
    const { s, e } = L;
    const c = b[s];
    const end = trimBack(b, s, e);
    if (end - s >= 4 && (c === DASH || c === DOT || c === EQ || c === STAR || c === 0x5f || c === PLUS || c === SLASH)) {
      let k = s;
      while (k < end && b[k] === c) k++;
      if (k === end) {
        block = block === 0 ? c : block === c ? 0 : block;
        continue;
      }
    }
    if (block !== 0 || c !== EQ) continue;
    let k = s;
    while (k < e && b[k] === EQ) k++;
    if (k - s <= 6 && b[k] === SP && skipSpace(b, k, e) < e) return k - s <= level;
  } while (L.advance());
  return false;
}

/** An AsciiDoc header attribute line `:description: text` at [s, e): its
 *  text is the summary (the page's description, as Asciidoctor and Antora
 *  write it into a page's meta description), unless one was found. */
function adocDescription(b: Uint8Array, s: number, e: number): void {
  if (found.summaryStart < 0 && startsWith(b, s, e, ':description:')) setSummary(b, s + 13, e);
}

function orgTitle(b: Uint8Array, from: number, n: number): void {
  const L = cursor.reset(b, from, n);
  while (L.advance()) {
    const { s, e } = L;
    if (b[s] === STAR && (b[s + 1] === SP || b[s + 1] === STAR)) return; // the first heading: past the preamble
    if (b[s] === HASH && b[s + 1] === PLUS && startsWithFolded(b, s, e, '#+title:')) {
      const ts = skipSpace(b, s + 8, e);
      const te = trimBack(b, ts, e);
      if (te > ts) {
        setTitle(ts, te);
        return;
      }
    }
  }
}

function htmlTitle(b: Uint8Array, from: number, n: number): void {
  if (htmlElement(b, from, n, '<title')) return;
  htmlElement(b, from, n, '<h1');
}

/** The content of the first element `open` (`<title`, lower-case) in the
 *  head, when it closes there. */
function htmlElement(b: Uint8Array, from: number, n: number, open: string): boolean {
  let at = from;
  for (;;) {
    const i = indexOfFolded(b, at, n, open);
    if (i < 0) return false;
    const after = b[i + open.length];
    if (after === GT || after === SP || after === TAB || after === NL || after === CR) {
      const gt = b.indexOf(GT, i);
      if (gt < 0 || gt >= n) return false;
      const close = indexOfFolded(b, gt + 1, n, `</${open.slice(1)}`);
      if (close < 0) return false;
      return close > gt + 1 ? setTitle(gt + 1, close) : false;
    }
    at = i + 1;
  }
}

/** Bytes looked at for a man page's NAME heading: it is the first
 *  section, near the top. */
const MAN_BYTES = 2048;

const DOT = 0x2e;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/** The man-page convention: a `NAME` heading (`NAME` over an underline,
 *  `# NAME`, `== NAME`) near the top, then a line `name - summary`: the
 *  summary. Found by jumping from one `N` to the next. */
function manSummary(b: Uint8Array, from: number, n: number): void {
  const limit = Math.min(n, from + MAN_BYTES);
  for (let i = b.indexOf(0x4e, from); i >= 0 && i < limit; i = b.indexOf(0x4e, i + 1)) {
    if (!startsWith(b, i, n, 'NAME')) continue;
    let ls = i;
    while (ls > from && (b[ls - 1] === SP || b[ls - 1] === HASH || b[ls - 1] === EQ)) ls--;
    if (ls > from && b[ls - 1] !== NL) continue;
    const L = cursor.reset(b, i, n);
    L.advance();
    if (!isBlank(b, i + 4, L.e)) continue;
    let lines = 0;
    while (L.advance() && lines++ < 4) {
      const { s, e } = L;
      if (isBlank(b, s, e) || isAdornment(b, s, e)) continue;
      nameLine(b, s, e);
      return;
    }
    return;
  }
}

/** A manual page's source (roff, with the man or the mdoc macros): the
 *  summary of its NAME section, `.SH NAME` (or `.Sh`, the name quoted or
 *  not) then `name \- summary` (nameLine) on one of its first lines (the
 *  names may fill some; requests between, `.PP` or mdoc's `.Nm close`,
 *  passed over), or mdoc's `.Nd summary`. The copyright comments before
 *  it (`.\"`, often 2 KiB and more) are passed by the runtime's search for
 *  the next `.`; each line is looked at once. */
function roffSummary(b: Uint8Array, from: number, n: number): void {
  for (let i = b.indexOf(DOT, from); i >= 0 && i < n; i = b.indexOf(DOT, i + 1)) {
    if (i > from && b[i - 1] !== NL) continue;
    if (isRequest(b, i, n, 'Nd')) return lineSummary(b, i + 3, n);
    if (!isRequest(b, i, n, 'SH') && !isRequest(b, i, n, 'Sh')) continue;
    let k = skipSpace(b, i + 3, n);
    if (b[k] === QUOTE) k++;
    if (!startsWith(b, k, n, 'NAME')) continue;
    const L = cursor.reset(b, i, n);
    L.advance();
    let lines = 0;
    while (L.advance() && lines++ < 8) {
      const { s, e } = L;
      if (isBlank(b, s, e)) continue;
      if (b[s] === DOT || b[s] === APOSTROPHE) {
        if (isRequest(b, s, e, 'Nd')) return lineSummary(b, s + 3, e);
        if (isRequest(b, s, e, 'SH') || isRequest(b, s, e, 'Sh')) return;
        continue;
      }
      // The names may fill lines before the one with the dash.
      nameLine(b, s, e);
      if (found.summaryStart >= 0) return;
    }
    return;
  }
}

/** Whether a roff request `.name` (two letters) starts at `i`, followed by
 *  a space, a tab or the line's end. */
function isRequest(b: Uint8Array, i: number, e: number, name: string): boolean {
  if (i + 3 > e || b[i + 1] !== name.charCodeAt(0) || b[i + 2] !== name.charCodeAt(1)) return false;
  const c = b[i + 3];
  return i + 3 === e || c === SP || c === TAB || c === NL || c === CR;
}

/** The summary: the text of the line from `s` (mdoc's `.Nd` argument). */
function lineSummary(b: Uint8Array, s: number, n: number): void {
  let e = b.indexOf(NL, s);
  if (e < 0 || e > n) e = n;
  setSummary(b, s, e);
}

/** The man-page convention in an HTML head: a heading whose text is
 *  `NAME` (tags inside it aside), then `name - summary` before the end of
 *  its paragraph or section (`</p>`, `</div>`, `</section>`, `</dd>`, the
 *  next heading), within MAN_BYTES: the summary. Each heading is looked at
 *  once. */
function htmlManSummary(b: Uint8Array, from: number, n: number): void {
  let at = from;
  for (;;) {
    const h = indexOfFolded(b, at, n, '<h');
    if (h < 0) return;
    const d = b[h + 2];
    if (d < 0x31 || d > 0x36 || !endsTagName(b[h + 3])) {
      at = h + 2;
      continue;
    }
    const gt = b.indexOf(GT, h + 3);
    if (gt < 0 || gt >= n) return;
    const close = indexOfFolded(b, gt + 1, n, '</h');
    if (close < 0) return;
    if (isNameText(b, gt + 1, close)) {
      const s = b.indexOf(GT, close);
      if (s >= 0 && s < n) htmlNameLine(b, s + 1, sectionEnd(b, s + 1, Math.min(n, s + 1 + MAN_BYTES)));
      return;
    }
    at = close + 3;
  }
}

function endsTagName(c: number): boolean {
  return c === GT || c === SP || c === TAB || c === NL || c === CR || c === 0x0c || c === SLASH;
}

/** Whether the text of [s, e), tags and white space aside, is `NAME`. */
function isNameText(b: Uint8Array, s: number, e: number): boolean {
  let k = 0;
  for (let i = s; i < e; i++) {
    const c = b[i];
    if (c === LT) {
      const gt = b.indexOf(GT, i);
      if (gt < 0 || gt >= e) return false;
      i = gt;
    } else if (c !== SP && c !== TAB && c !== NL && c !== CR) {
      if (k >= 4 || c !== 'NAME'.charCodeAt(k)) return false;
      k++;
    }
  }
  return k === 4;
}

/** Where the paragraph or section that starts at `s` ends: the first
 *  `</p`, `</div`, `</section`, `</dd` or `<h1`-`<h6` from `s`, else `e`. */
function sectionEnd(b: Uint8Array, s: number, e: number): number {
  for (let i = b.indexOf(LT, s); i >= 0 && i < e; i = b.indexOf(LT, i + 1)) {
    const c = b[i + 1];
    if ((c | 0x20) === 0x68 && b[i + 2] >= 0x31 && b[i + 2] <= 0x36) return i;
    if (c !== SLASH) continue;
    for (const name of ['p', 'div', 'section', 'dd']) {
      if (startsWithFolded(b, i + 2, e, name) && endsTagName(b[i + 2 + name.length])) return i;
    }
  }
  return e;
}

/** The dashes of `name - summary` written as character references. */
const DASH_REFERENCES = ['&minus;', '&mdash;', '&ndash;', '&#8722;', '&#8212;', '&#8211;', '&#x2212;', '&#x2014;', '&#x2013;'];

/** The length of a dash at `b[d]` (`-`, `\-`, an en, em or minus sign, as
 *  UTF-8 or as a reference) followed by white space, else 0. */
function dashAt(b: Uint8Array, d: number, e: number): number {
  let len = 0;
  if (b[d] === DASH) len = 1;
  else if (b[d] === 0x5c && b[d + 1] === DASH) len = 2;
  else if ((b[d] === 0xe2 && b[d + 1] === 0x80 && (b[d + 2] === 0x93 || b[d + 2] === 0x94)) || (b[d] === 0xe2 && b[d + 1] === 0x88 && b[d + 2] === 0x92)) len = 3;
  else if (b[d] === 0x26) {
    for (const r of DASH_REFERENCES) {
      if (startsWithFolded(b, d, e, r)) {
        len = r.length;
        break;
      }
    }
  }
  const c = b[d + len];
  return len > 0 && d + len < e && (c === SP || c === TAB || c === NL || c === CR) ? len : 0;
}

/** `name - summary` in the HTML of [s, e), tags aside: the summary's span
 *  (its tags and references are cleaned with the title's rules). */
function htmlNameLine(b: Uint8Array, s: number, e: number): void {
  let named = false;
  for (let i = s; i < e; i++) {
    const c = b[i];
    if (c === LT) {
      const gt = b.indexOf(GT, i);
      if (gt < 0 || gt >= e) return;
      i = gt;
      continue;
    }
    const blank = c === SP || c === TAB || c === NL || c === CR;
    if (!blank) {
      named = true;
      continue;
    }
    if (!named) continue;
    const len = dashAt(b, i + 1, e);
    if (len === 0) continue;
    let ss = i + 1 + len;
    while (ss < e && (b[ss] === SP || b[ss] === TAB || b[ss] === NL || b[ss] === CR)) ss++;
    let se = e;
    while (se > ss && (b[se - 1] === SP || b[se - 1] === TAB || b[se - 1] === NL || b[se - 1] === CR)) se--;
    if (se > ss) {
      found.summaryStart = ss;
      found.summaryEnd = se;
    }
    return;
  }
}

/** `name - summary` (also `name, other - summary`, `\-`, en or em dash):
 *  the summary's span. */
function nameLine(b: Uint8Array, s: number, e: number): void {
  for (let i = s + 1; i < e - 2; i++) {
    if (b[i] !== SP) continue;
    let d = i + 1;
    if (b[d] === 0x5c) d++; // `\-`
    let dashEnd = -1;
    if (b[d] === DASH && b[d + 1] === SP) dashEnd = d + 1;
    else if (b[d] === 0xe2 && b[d + 1] === 0x80 && (b[d + 2] === 0x93 || b[d + 2] === 0x94) && b[d + 3] === SP) dashEnd = d + 3;
    if (dashEnd < 0) continue;
    setSummary(b, dashEnd, e);
    return;
  }
}

/** A raw title span's text (decoded) as a title: white space collapsed and
 *  trimmed; HTML's tags dropped and character references decoded
 *  (entities.ts); Markdown's links and images kept as their text. '' when
 *  nothing is left, or only markup (markup.ts: a shortcode, an Org
 *  keyword). Each step is one pass in time linear in the text (a title can
 *  be a whole 8 KiB head of `[a` or `<a`, which a regular expression
 *  searched again from every bracket: tests/property/parsers.property.test.ts). */
export function cleanTitle(raw: string, format: TitleFormat | undefined): string {
  let s = raw;
  if (format === 'html') {
    if (s.includes('<')) s = dropTags(s);
    if (s.includes('&')) s = decodeEntities(s);
  } else if (format === 'md') {
    if (s.includes('](')) s = linkTexts(s);
    if (s.includes('{')) s = withoutAttributes(s);
    if (s.includes('<')) s = dropHtmlTags(s);
  } else if ((format === 'adoc' || format === 'text') && s.includes('[[')) {
    s = dropAnchors(s);
  } else if (format === 'roff' && s.includes('\\')) {
    s = unroff(s);
  }
  if ((format === 'rst' || format === 'text') && s.includes('``')) s = singleTicks(s);
  s = s.replace(/\s+/g, ' ').trim();
  return markupOnly(s) || expressionsOnly(s) ? '' : s;
}

/** Whether a title is template expressions alone (`{{ docstitle }}`, `{{
 *  .Title }} {{ suffix }}`, no brace inside one): a template's page, not
 *  its title. (A line of a page holding one is often code shown:
 *  markup.ts keeps those.) One pass: a regular expression of the same
 *  shape took time quadratic in a title of thousands. */
function expressionsOnly(s: string): boolean {
  let i = 0;
  if (s.length === 0) return false;
  while (i < s.length) {
    if (s.charCodeAt(i) !== 0x7b || s.charCodeAt(i + 1) !== 0x7b) return false;
    const close = s.indexOf('}}', i + 2);
    if (close < 0) return false;
    for (let k = i + 2; k < close; k++) {
      const c = s.charCodeAt(k);
      if (c === 0x7b || c === 0x7d) return false;
    }
    i = close + 2;
    if (s.charCodeAt(i) === 0x20) i++;
  }
  return true;
}

/** A Markdown heading without the attribute block that ends it
 *  (`## Usage {#usage}`, `{#id .class}`, `{.unnumbered}`, `{ #usage }`:
 *  Pandoc, kramdown, Hugo, VitePress and Python-Markdown give a heading
 *  its anchor so): a `{` after white space, then (spaces and) `#` or `.`,
 *  up to the closing `}` at the end, with no other brace between. */
function withoutAttributes(s: string): string {
  const t = s.trimEnd();
  if (t.charCodeAt(t.length - 1) !== 0x7d /* } */) return s;
  const open = t.lastIndexOf('{');
  // Python-Markdown's attribute lists may pad the block (`{ #first-steps }`).
  let inner = open + 1;
  while (t.charCodeAt(inner) === 0x20) inner++;
  const next = t.charCodeAt(inner);
  if (open <= 0 || (next !== 0x23 /* # */ && next !== 0x2e /* . */) || t.indexOf('}', open) !== t.length - 1) return s;
  const before = t.charCodeAt(open - 1);
  if (before === 0x20 || before === 0x09) return t.slice(0, open);
  // MDX escapes the brace (`Ejecting \{#ejecting}`); Docusaurus reads an
  // id written right after the text too (`provider{#choosing-a-provider}`).
  if (before === 0x5c) return t.slice(0, open - 1); // a backslash
  if (next === 0x23 && inner === open + 1) {
    for (let i = open + 2; i < t.length - 1; i++) if (t.charCodeAt(i) === 0x20 || t.charCodeAt(i) === 0x09) return s;
    return t.slice(0, open);
  }
  return s;
}

/** `s` without its tags: each `<` up to the next `>` dropped (what
 *  `s.replace(/<[^>]*>/g, '')` gives). A `<` with no `>` after it is kept,
 *  and so is everything after it: no later `<` has one either. */
function dropTags(s: string): string {
  let out = '';
  let at = 0;
  for (let lt = s.indexOf('<'); lt >= 0; lt = s.indexOf('<', at)) {
    const gt = s.indexOf('>', lt + 1);
    if (gt < 0) break;
    out += s.slice(at, lt);
    at = gt + 1;
  }
  return at === 0 ? s : out + s.slice(at);
}

/** A Markdown heading's inline HTML tags dropped (`# <img src="x.svg">
 *  Starlight`, `<code>learn</code>`): outside code spans, a start or end
 *  tag of an element a heading may hold (INLINE_TAGS), to the next `>`.
 *  Any other `<` is text: `a < b`, `Box<T>`, `Option<u32>`, and all of a
 *  code span (`` `Vec<String>` ``). */
function dropHtmlTags(s: string): string {
  let out = '';
  let at = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x60) {
      // A code span, skipped whole (a run never closed is text).
      let j = i;
      while (s.charCodeAt(j) === 0x60) j++;
      const close = closingRun(s, s.slice(i, j), j);
      i = (close < 0 ? j : close + (j - i)) - 1;
      continue;
    }
    if (c !== 0x3c) continue;
    const gt = inlineTagEnd(s, i);
    if (gt < 0) continue;
    out += s.slice(at, i);
    at = gt + 1;
    i = gt;
  }
  return at === 0 ? s : out + s.slice(at);
}

/** Elements a heading's text may hold inline (HTML's phrasing content,
 *  as READMEs and docs use it). */
const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'br', 'cite', 'code', 'del', 'dfn', 'em', 'font', 'i', 'img', 'ins', 'kbd', 'mark', 'picture', 'q', 's', 'samp', 'small', 'source', 'span', 'strike', 'strong', 'sub', 'sup', 'svg', 'time', 'tt', 'u', 'var', 'wbr']);

/** Where the tag at `s[lt]` (a `<`) ends, its `>`, when it is a start or
 *  end tag of INLINE_TAGS (the name in lower case, then white space, `/`
 *  or `>`); else -1. */
function inlineTagEnd(s: string, lt: number): number {
  let k = lt + 1;
  if (s.charCodeAt(k) === 0x2f) k++;
  const nameStart = k;
  while (k < s.length && k - nameStart <= 8 && ((s.charCodeAt(k) >= 0x61 && s.charCodeAt(k) <= 0x7a) || (k > nameStart && s.charCodeAt(k) >= 0x30 && s.charCodeAt(k) <= 0x39))) k++;
  if (!INLINE_TAGS.has(s.slice(nameStart, k))) return -1;
  const d = s.charCodeAt(k);
  if (!(d === 0x3e || d === 0x2f || d === 0x20 || d === 0x09)) return -1;
  return s.indexOf('>', k);
}

/** reStructuredText's inline literals as Markdown's code spans: ``` ``x``
 *  ``` (two backticks, then text without one, then two) as `` `x` ``, what
 *  the model reads everywhere else (`Using ``async`` and ``await```: `Using
 *  `async` and `await``). Markdown's own spans stay as they are; a run of
 *  two never closed too. One pass. */
function singleTicks(s: string): string {
  let out = '';
  let at = 0;
  for (let i = s.indexOf('``'); i >= 0; ) {
    let j = i;
    while (s.charCodeAt(j) === 0x60) j++;
    if (j - i !== 2) {
      i = s.indexOf('``', j);
      continue;
    }
    const close = closingRun(s, '``', j);
    const inner = close < 0 ? '' : s.slice(j, close);
    if (close < 0 || inner === '' || inner.includes('`')) {
      i = close < 0 ? -1 : s.indexOf('``', j);
      continue;
    }
    out += `${s.slice(at, i)}\`${inner}\``;
    at = close + 2;
    i = s.indexOf('``', at);
  }
  return at === 0 ? s : out + s.slice(at);
}

/** Where a run of backticks just like `run` closes, from `from` on (one
 *  not part of a longer run), or -1. */
function closingRun(s: string, run: string, from: number): number {
  for (let k = s.indexOf(run, from); k >= 0; k = s.indexOf(run, k + 1)) {
    let e = k + run.length;
    if (s.charCodeAt(e) !== 0x60) return k;
    while (s.charCodeAt(e) === 0x60) e++;
    k = e - 1;
  }
  return -1;
}

/** Markdown's links and images as their text: `[text](url)` and
 *  `![alt](url)` become `text` and `alt` (what
 *  `s.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')` gives). From a `[`, the
 *  first `]` after it decides: when no `(` follows that `]`, no `[` before
 *  it starts a link, and the search goes on after it. */
function linkTexts(s: string): string {
  let out = '';
  let at = 0; // the text before `at` is in `out`
  for (let from = 0, open = s.indexOf('['); open >= 0; open = s.indexOf('[', from)) {
    const close = s.indexOf(']', open + 1);
    if (close < 0) break;
    if (s.charCodeAt(close + 1) !== 0x28) {
      from = close + 1;
      continue;
    }
    const paren = s.indexOf(')', close + 2);
    if (paren < 0) break;
    const bang = open > at && s.charCodeAt(open - 1) === 0x21 ? 1 : 0;
    out += s.slice(at, open - bang) + s.slice(open + 1, close);
    at = from = paren + 1;
  }
  return at === 0 ? s : out + s.slice(at);
}

/** AsciiDoc's anchors (`[[id]]`, no `]` inside) each made a space (what
 *  `s.replace(/\[\[[^\]]*\]\]/g, ' ')` gives). */
function dropAnchors(s: string): string {
  let out = '';
  let at = 0;
  for (let from = 0, open = s.indexOf('[['); open >= 0; open = s.indexOf('[[', from)) {
    const close = s.indexOf(']', open + 2);
    if (close < 0) break;
    if (s.charCodeAt(close + 1) !== 0x5d) {
      from = close + 1;
      continue;
    }
    out += `${s.slice(at, open)} `;
    at = from = close + 2;
  }
  return at === 0 ? s : out + s.slice(at);
}

/** The title a subject has: frontmatter `title`, else `name`, else the
 *  document's own (`head`). */
export function subjectTitle(fields: { title?: unknown; name?: unknown } | undefined, head: string | undefined): string | undefined {
  if (fields === undefined) return head;
  for (const v of [fields.title, fields.name]) if (typeof v === 'string' && v.trim() !== '' && !markupOnly(v)) return v.replace(/\s+/g, ' ').trim();
  return head;
}

/** A name compared loosely: compatibility-normalised, lower-case, a man
 *  page's section (`(1)`) dropped, only letters and digits kept. */
export function looseName(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\(\d[a-z0-9]*\)\s*$/, '')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** `title`, unless it only repeats the slug (its last segment, or the whole
 *  slug), compared loosely (`looseName`): `# Jean` says nothing more about
 *  `maintainers/jean`. */
export function informativeTitle(title: string | undefined, slug: string): string | undefined {
  if (title === undefined || title === '') return undefined;
  // ASCII (most titles and slugs): compared in place, without a string
  // made; the same rule as `looseName`.
  if (isAscii(title) && isAscii(slug)) {
    const te = looseEnd(title);
    if (!hasAlnum(title, te)) return undefined;
    const cut = slug.lastIndexOf('/') + 1;
    return looseEqual(title, te, slug, cut, looseEnd(slug)) || (cut > 0 && looseEqual(title, te, slug, 0, looseEnd(slug))) ? undefined : title;
  }
  const t = looseName(title);
  if (t === '') return undefined;
  const last = slug.slice(slug.lastIndexOf('/') + 1);
  return t === looseName(last) || t === looseName(slug) ? undefined : title;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** An ASCII character's code lower-cased when a letter or digit, else -1. */
function alnum(c: number): number {
  if (c >= 0x61 && c <= 0x7a) return c;
  if (c >= 0x41 && c <= 0x5a) return c + 0x20;
  return c >= 0x30 && c <= 0x39 ? c : -1;
}

/** Where an ASCII string's loose name ends (`looseName`): before a man
 *  page's section (`(1)`, trailing white space allowed). */
function looseEnd(s: string): number {
  let e = s.length;
  while (e > 0 && isAsciiSpace(s.charCodeAt(e - 1))) e--;
  if (e < 3 || s.charCodeAt(e - 1) !== 0x29) return s.length;
  let i = e - 1;
  while (i > 0 && alnum(s.charCodeAt(i - 1)) >= 0) i--;
  // `(` then a digit, then letters and digits, then `)`.
  if (i === 0 || i === e - 1 || s.charCodeAt(i - 1) !== 0x28) return s.length;
  const d = s.charCodeAt(i);
  return d >= 0x30 && d <= 0x39 ? i - 1 : s.length;
}

function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function hasAlnum(s: string, e: number): boolean {
  for (let i = 0; i < e; i++) if (alnum(s.charCodeAt(i)) >= 0) return true;
  return false;
}

/** Whether the letters and digits of a[0, ae) and b[bs, be) are the same,
 *  case aside (ASCII). */
function looseEqual(a: string, ae: number, b: string, bs: number, be: number): boolean {
  let i = 0;
  let j = bs;
  for (;;) {
    let x = -1;
    while (i < ae && (x = alnum(a.charCodeAt(i))) < 0) i++;
    let y = -1;
    while (j < be && (y = alnum(b.charCodeAt(j))) < 0) j++;
    if (i >= ae || j >= be) return i >= ae && j >= be;
    if (x !== y) return false;
    i++;
    j++;
  }
}

/** The title and man-page summary of a whole text (or its head) in format
 *  `format`, frontmatter excluded (`from`: where the text after it
 *  starts, in bytes), of the file `name` (scanHead) when known. For
 *  callers that hold a file's bytes: the same rules as the probe. */
export function headTitleOf(bytes: Uint8Array, ext: string, from = 0, name?: string): { title?: string; summary?: string } {
  const format = titleFormat(ext.toLowerCase());
  if (format === undefined) return {};
  const n = Math.min(bytes.length, 8192);
  const spans = scanHead(bytes, from, n, format, true, name);
  if (spans === undefined) return {};
  const out: { title?: string; summary?: string } = {};
  if (spans.titleStart >= 0) {
    const t = cleanTitle(utf8.decode(bytes.subarray(spans.titleStart, spans.titleEnd)), format);
    if (t !== '') out.title = t;
  }
  if (spans.summaryStart >= 0) {
    const t = cleanTitle(utf8.decode(bytes.subarray(spans.summaryStart, spans.summaryEnd)), format);
    if (t !== '') out.summary = t;
  }
  return out;
}

const utf8 = new TextDecoder();

// --- Section headings (recall's sections, the search index's headings) ---

/** A heading in a text. */
export interface Heading {
  /** Where its section starts (the heading's first line, or its
   *  overline), in UTF-16 code units. */
  start: number;
  /** 1-based line of `start`. */
  line: number;
  /** 1 (the top) to 6. */
  level: number;
  text: string;
}

/** Whether `ext` is a format whose sections are headings. */
export function hasHeadings(ext: string): boolean {
  const f = titleFormat(ext);
  return f !== undefined && f !== 'text' && f !== 'plain';
}

/** The headings of a text of format `ext` (lower-case extension), in
 *  order: Markdown ATX and setext headings (outside fenced code),
 *  reStructuredText underlined (and overlined) titles, AsciiDoc `==`
 *  (and `#`) section titles, Org `*` headings, HTML `<h1>`-`<h6>`, a
 *  manual page's `.SH` and `.SS`. None for other formats. Levels follow
 *  the markup (reStructuredText's by order of appearance of each
 *  adornment style). */
export function headingsIn(text: string, ext: string): Heading[] {
  const format = titleFormat(ext);
  if (format === undefined || format === 'text' || format === 'plain') return [];
  if (format === 'html') return htmlHeadings(text);
  const out: Heading[] = [];
  const lines = linesOf(text);
  const push: PushHeading = (at, level, t) => {
    const clean = cleanTitle(t, format);
    if (clean !== '') out.push({ start: lines[at].start, line: at + 1, level, text: clean });
  };
  if (format === 'md') mdHeadings(lines, push);
  else if (format === 'rst') rstHeadings(lines, push);
  else if (format === 'adoc') adocHeadings(lines, push);
  else if (format === 'roff') roffHeadings(lines, push);
  else orgHeadings(lines, push);
  out.sort((a, b) => a.start - b.start);
  return out;
}

/** A line of a text: where it starts, and its text (without its `\r\n`
 *  or `\n`). */
interface Line {
  start: number;
  text: string;
}

/** Adds the heading of line `at`, of level `level`, whose text is `t`
 *  (as written: cleaned here; none when that leaves nothing). */
type PushHeading = (at: number, level: number, t: string) => void;

/** The lines of `text`. */
function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  for (let pos = 0; pos <= text.length; ) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    lines.push({ start: pos, text: text.charCodeAt(end - 1) === 13 ? text.slice(pos, end - 1) : text.slice(pos, end) });
    pos = end + 1;
  }
  return lines;
}

/** Line `i` is blank, or not there. */
function blankAt(lines: readonly Line[], i: number): boolean {
  return i < 0 || i >= lines.length || lines[i].text.trim() === '';
}

/** A reStructuredText adornment line. */
function isAdornmentLine(t: string): boolean {
  return runOf(t, 3, isPunct) !== '';
}

/** Markdown's ATX and setext headings, outside fenced code. */
function mdHeadings(lines: readonly Line[], push: PushHeading): void {
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].text;
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(l);
    if (f !== null) {
      if (fence === undefined) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const level = atxHeading(l);
    if (level > 0) {
      push(i, level, atxText);
      continue;
    }
    const u = /^ {0,3}(=+|-+)[ \t]*$/.exec(l);
    if (u !== null && i > 0 && !blankAt(lines, i - 1) && blankAt(lines, i - 2) && !/^ {0,3}(#|>|[-*+] |\d+[.)] |`{3}|~{3})/.test(lines[i - 1].text) && (u[1][0] === '=' || u[1].length >= 2)) {
      // A paragraph line over `===` (1) or `---` (2): a setext heading.
      push(i - 1, u[1][0] === '=' ? 1 : 2, lines[i - 1].text);
    }
  }
}

/** reStructuredText's underlined (and overlined) titles, levels by order
 *  of appearance of each adornment style. */
function rstHeadings(lines: readonly Line[], push: PushHeading): void {
  const styles: string[] = []; // adornment styles in order of appearance
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].text;
    // An overline precedes its text (and the same underline follows); an
    // underline follows its text.
    if (isAdornmentLine(l) && i + 2 < lines.length && !blankAt(lines, i + 1) && isAdornmentLine(lines[i + 2].text) && lines[i + 2].text.trim() === l.trim() && blankAt(lines, i - 1)) {
      const style = `${l.trim()[0]}${l.trim()[0]}`;
      if (!styles.includes(style)) styles.push(style);
      push(i, Math.min(6, styles.indexOf(style) + 1), lines[i + 1].text);
      i += 2;
      continue;
    }
    if (isAdornmentLine(l) && i > 0 && !blankAt(lines, i - 1) && blankAt(lines, i - 2) && !isAdornmentLine(lines[i - 1].text) && !/^\s/.test(lines[i - 1].text) && l.trimEnd().length >= Math.min(lines[i - 1].text.trimEnd().length, 4)) {
      const style = l.trim()[0];
      if (!styles.includes(style)) styles.push(style);
      push(i - 1, Math.min(6, styles.indexOf(style) + 1), lines[i - 1].text);
    }
  }
}

/** AsciiDoc's `==` (and `#`) section titles and two-line titles, outside
 *  delimited blocks. */
function adocHeadings(lines: readonly Line[], push: PushHeading): void {
  let block: string | undefined; // a delimited block (----, ...., ====, ****)
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].text;
    // The two-line form first: a title over a line of `=`, `-`, `~`, `^`
    // or `+` about as long (`NAME` over `----`), which would otherwise
    // read as a delimited block.
    const u = runOf(l, 2, isSectionUnderline);
    if (block === undefined && u !== '' && i > 0 && !blankAt(lines, i - 1) && blankAt(lines, i - 2) && Math.abs(l.trimEnd().length - lines[i - 1].text.trimEnd().length) <= 2 && /\w/.test(lines[i - 1].text)) {
      push(i - 1, '=-~^+'.indexOf(u) + 1, lines[i - 1].text);
      continue;
    }
    const d = /^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|\/{4,})\s*$/.exec(l);
    if (d !== null) {
      block = block === undefined ? d[1] : block === d[1] ? undefined : block;
      continue;
    }
    if (block !== undefined) continue;
    const m = /^(={1,6}|#{1,6})[ \t]+(\S.*)$/.exec(l);
    if (m !== null) push(i, m[1].length, withoutClosing(m[2]));
  }
}

/** A manual page's sections: `.SH NAME` and `.SS Sub` (mdoc's `.Sh`,
 *  `.Ss`), the name quoted or not; one without a name on its line is
 *  passed over. */
function roffHeadings(lines: readonly Line[], push: PushHeading): void {
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].text;
    if (t.charCodeAt(0) !== DOT || (t.charCodeAt(1) | 0x20) !== 0x73) continue;
    const kind = t.charCodeAt(2) | 0x20;
    if ((kind !== 0x68 && kind !== 0x73) || (t.length > 3 && t[3] !== ' ' && t[3] !== '\t')) continue;
    let name = t.slice(3).trim();
    if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) name = name.slice(1, -1);
    if (name !== '') push(i, kind === 0x68 ? 1 : 2, name);
  }
}

/** Org's `*` headings. */
function orgHeadings(lines: readonly Line[], push: PushHeading): void {
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\*+)[ \t]+(\S.*)$/.exec(lines[i].text);
    if (m !== null) push(i, Math.min(6, m[1].length), withoutTags(m[2]));
  }
}

// The helpers below read, each in one pass, what a regular expression
// read before, with the same result (tests/unit/kb/title.test.ts compares
// them on generated lines); those expressions backtracked in time
// quadratic in a line of spaces, or in a text of unclosed `<h1>`.

function isBlankChar(c: number): boolean {
  return c === SP || c === TAB;
}

/** A line terminator as a regular expression's `.` and `$` know them. */
function isTerminator(c: number): boolean {
  return c === NL || c === CR || c === 0x2028 || c === 0x2029;
}

/** White space as a regular expression's `\s` knows it. */
function isWhite(c: number): boolean {
  return (
    c === SP ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The character `t` is a run of (at least `min` of one character that
 *  `ok` takes, then only white space), or ''. What `/^([...])\1{min-1,}\s*$/`
 *  matched (a back-reference, which the ReDoS check cannot read). */
function runOf(t: string, min: number, ok: (c: number) => boolean): string {
  const c = t.charCodeAt(0);
  if (!ok(c)) return '';
  let k = 1;
  while (k < t.length && t.charCodeAt(k) === c) k++;
  if (k < min) return '';
  for (let i = k; i < t.length; i++) if (!isWhite(t.charCodeAt(i))) return '';
  return t[0];
}

/** An AsciiDoc two-line title's underline character (`=-~^+`). */
function isSectionUnderline(c: number): boolean {
  return c === EQ || c === DASH || c === 0x7e || c === 0x5e || c === PLUS;
}

/** The text of the last ATX heading `atxHeading` found. */
let atxText = '';

/**
 * A Markdown ATX heading line `l`: its level, its text in `atxText`; 0
 * when `l` is none, or its text is empty or only `#`s. What
 * `/^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/` matched, its text
 * group with `^#+$` made empty: the text runs from after the blanks that
 * follow the `#`s to the closing sequence (blanks, `#`s, blanks) or to the
 * trailing blanks, and holds one character at least.
 */
function atxHeading(l: string): number {
  const e = l.length;
  let i = 0;
  while (i < 3 && l.charCodeAt(i) === SP) i++;
  let h = i;
  while (h < e && l.charCodeAt(h) === HASH) h++;
  if (h === i || h - i > 6 || h === e || !isBlankChar(l.charCodeAt(h))) return 0;
  for (let k = h; k < e; k++) if (isTerminator(l.charCodeAt(k))) return 0;
  let w = h;
  while (w < e && isBlankChar(l.charCodeAt(w))) w++;
  if (w === e) return 0;
  let end = e;
  while (end > w && isBlankChar(l.charCodeAt(end - 1))) end--;
  let hashes = end;
  while (hashes > w && l.charCodeAt(hashes - 1) === HASH) hashes--;
  if (hashes < end && hashes > w && isBlankChar(l.charCodeAt(hashes - 1))) {
    end = hashes - 1;
    while (end > w && isBlankChar(l.charCodeAt(end - 1))) end--;
  }
  let k = w;
  while (k < end && l.charCodeAt(k) === HASH) k++;
  if (k === end) return 0;
  atxText = l.slice(w, end);
  return h - i;
}

/** The index where the white space (`\s`) that ends `s` starts. */
function whiteEnd(s: string): number {
  let t = s.length;
  while (t > 0 && isWhite(s.charCodeAt(t - 1))) t--;
  return t;
}

/** The index where the blanks that end `s` before `at` start. */
function blanksBefore(s: string, at: number): number {
  while (at > 0 && isBlankChar(s.charCodeAt(at - 1))) at--;
  return at;
}

/** An AsciiDoc section title without its closing sequence (blanks, then
 *  `=`s or `#`s, then white space, at the end): what
 *  `s.replace(/[ \t]+(=+|#+)\s*$/, '')` gives. */
function withoutClosing(s: string): string {
  const t = whiteEnd(s);
  const c = s.charCodeAt(t - 1);
  if (c !== EQ && c !== HASH) return s;
  let h = t - 1;
  while (h > 0 && s.charCodeAt(h - 1) === c) h--;
  if (h === 0 || !isBlankChar(s.charCodeAt(h - 1))) return s;
  return s.slice(0, blanksBefore(s, h));
}

/** A character of an Org tag list (`[\w@#%:]`). */
function isTagChar(c: number): boolean {
  return isAlnum(c) || c === 0x5f || c === 0x40 || c === HASH || c === 0x25 || c === COLON;
}

/** An Org heading without its tags (blanks, then `:tag:more:`, then white
 *  space, at the end): what `s.replace(/[ \t]+:[\w@#%:]+:\s*$/, '')` gives. */
function withoutTags(s: string): string {
  const t = whiteEnd(s);
  if (s.charCodeAt(t - 1) !== COLON) return s;
  let r = t;
  while (r > 0 && isTagChar(s.charCodeAt(r - 1))) r--;
  if (r === 0 || t - r < 3 || s.charCodeAt(r) !== COLON || !isBlankChar(s.charCodeAt(r - 1))) return s;
  return s.slice(0, blanksBefore(s, r));
}

/**
 * HTML's `<h1>`-`<h6>` headings: what
 * `/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi` found, in one pass. The closing
 * tags of each level are listed first; an opening tag takes the first one
 * of its level after its `>`, and one without any is passed over (the
 * expression searched the rest of the text from each of them again).
 */
function htmlHeadings(text: string): Heading[] {
  const out: Heading[] = [];
  const closers = closingTags(text);
  const next = [0, 0, 0, 0, 0, 0, 0];
  let line = 1;
  let lastNl = -1;
  let nextNl = text.indexOf('\n');
  let gt = -1;
  for (let lt = text.indexOf('<'); lt >= 0; lt = text.indexOf('<', lt + 1)) {
    const level = text.charCodeAt(lt + 2) - 0x30;
    if ((text.charCodeAt(lt + 1) | 0x20) !== 0x68 || level < 1 || level > 6 || isWordChar(text.charCodeAt(lt + 3))) continue;
    // The first `>` after the tag's name (the same for every tag before it).
    if (gt < lt + 3) gt = text.indexOf('>', lt + 3);
    if (gt < 0) break;
    const ends = closers[level];
    let k = next[level];
    while (k < ends.length && ends[k] <= gt) k += 2;
    next[level] = k;
    if (k >= ends.length) continue;
    while (nextNl >= 0 && nextNl < lt) {
      line++;
      lastNl = nextNl;
      nextNl = text.indexOf('\n', nextNl + 1);
    }
    const t = cleanTitle(text.slice(gt + 1, ends[k]), 'html');
    if (t !== '') out.push({ start: lastNl + 1, line, level, text: t });
    lt = ends[k + 1] - 1;
  }
  return out;
}

/** `[A-Za-z0-9_]`: what `\b` tells from the rest. */
function isWordChar(c: number): boolean {
  return isAlnum(c) || c === 0x5f;
}

/** The closing tags `</hN\s*>` of each level N (1-6), in order: where each
 *  starts and where it ends, flat. */
function closingTags(text: string): number[][] {
  const out: number[][] = [[], [], [], [], [], [], []];
  for (let i = text.indexOf('</'); i >= 0; i = text.indexOf('</', i + 2)) {
    const level = text.charCodeAt(i + 3) - 0x30;
    if ((text.charCodeAt(i + 2) | 0x20) !== 0x68 || level < 1 || level > 6) continue;
    let k = i + 4;
    while (k < text.length && isWhite(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) === GT) out[level].push(i, k + 1);
  }
  return out;
}
