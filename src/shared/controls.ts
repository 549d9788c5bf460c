// Characters that must never reach a terminal or a model raw: the one rule
// for every echo of configuration text (titles, introductions,
// descriptions, topic IDs), file names, patterns and messages.
//
// - Control characters (C0 and C1, DEL) and the Unicode line and paragraph
//   separators: a newline forges a line (`- FORGED` in a listing, a
//   `</subject>` tag), ESC and the C1 CSI drive a terminal (colours, cursor
//   moves, window titles), BEL rings, CR overwrites a line.
// - Invisible formatting characters: the bidirectional controls (U+202A to
//   U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C), which make a name
//   display as another (`evil\u202Egpj.md` shows as `evilmd.jpg`), and the
//   zero-width characters (U+200B to U+200D, U+2060 to U+2064, U+FEFF),
//   which make two different names look the same.
//
// All of them are written as escapes (`\n`, `\t`, `\u001b`, `\u202e`), so
// the text stays on its line and shows what it holds. File names holding
// any of them are left out of the index (kb/index/view.ts), with a notice
// showing the name escaped; configuration text is escaped wherever it is
// shown, and `kb check` warns about it (app/check.ts).

const CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff';

/** One character that is escaped wherever text is shown (see above). */
export const CONTROL = new RegExp(`[${CLASS}]`);

// The other patterns are made when first needed: every command loads this
// module, few escape anything, and building a pattern from a string costs
// its parse (with the string `replace` below, about 0.2 ms of a start).
let controlAll: RegExp | undefined;
let inText: RegExp | undefined;
let inTextAll: RegExp | undefined;
let suspectName: RegExp | undefined;

/** A control character (CONTROL) or U+FFFD, which a name that is not
 *  UTF-8 holds in place of its bytes: what marks a file name that
 *  kb/index/clean.ts must look at. */
export const SUSPECT_NAME = (): RegExp => (suspectName ??= new RegExp(`[${CLASS}\\ufffd]`));

const CONTROL_ALL = (): RegExp => (controlAll ??= new RegExp(`[${CLASS}]`, 'g'));

/** The same, but for text that may span lines (a topic's description):
 *  everything but the newline and the tab, and a carriage return only when
 *  it is not followed by a newline (CRLF line ends are kept). */
const IN_TEXT = (): RegExp => (inText ??= new RegExp(`[${CLASS.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f')}]|\\r(?!\\n)`));
const IN_TEXT_ALL = (): RegExp => (inTextAll ??= new RegExp(IN_TEXT().source, 'g'));

function escape(c: string): string {
  return c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `s` with every such character written as an escape (`\n`, `\t`,
 *  `\u001b`, `\u202e`), so that it stays on one line, and visible. For
 *  one-line text: a title, an introduction, a topic ID, a file name, a
 *  message. */
export function escapeControls(s: string): string {
  if (!CONTROL.test(s)) return s;
  return s.replace(CONTROL_ALL(), escape);
}

/** `s` with every such character escaped but newlines, tabs and CRLF line
 *  ends: for text made of lines (a topic's description). */
export function escapeText(s: string): string {
  if (!IN_TEXT().test(s)) return s;
  return s.replace(IN_TEXT_ALL(), escape);
}

/** The characters of `s` that `escapeControls` escapes, each once, escaped
 *  (`\n`, `\u001b`), for a message naming them. */
export function controlsIn(s: string, multiLine = false): string[] {
  const seen = new Set<string>();
  for (const m of s.matchAll(multiLine ? IN_TEXT_ALL() : CONTROL_ALL())) seen.add(escape(m[0][0]));
  return [...seen];
}

const LINE_OR_TERMINAL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** What `s` holds, for a message: `a control character` (newline, ESC...)
 *  or `a bidirectional or zero-width character`. */
export function controlWord(s: string): string {
  return LINE_OR_TERMINAL.test(s) ? 'a control character' : 'a bidirectional or zero-width character';
}

/** A backslash, a quote, or a control character: what `quoted` escapes. */
const NEEDS_QUOTE_ESCAPE = new RegExp(`["\\\\]|${CONTROL.source}`);

/** A title or ID as the RFD quotes it: `<topic "...">`, `<subject "...">`.
 *  Backslashes and quotes are escaped, and so are control characters (a
 *  newline or NUL byte in a model's pattern, a title), as `\n` or `\u0000`,
 *  so a quoted string always stays on its line. */
export function quoted(s: string): string {
  // Most names need no escape at all: one test instead of three passes.
  if (!NEEDS_QUOTE_ESCAPE.test(s)) return `"${s}"`;
  return `"${escapeControls(s.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
}

/** `value` as JSON (a quoted string, a call's arguments) with every such
 *  character escaped too (JSON.stringify leaves U+202E, U+2028 or U+0085
 *  raw): for a value echoed in a message. Still JSON, with the same value. */
export function jsonQuoted(value: unknown): string {
  return escapeControls(JSON.stringify(value) ?? 'null');
}

/** `value` as indented JSON (a `--format json` output), every such
 *  character in it escaped as `\uXXXX`: the same value, never a raw one. */
export function jsonDocument(value: unknown): string {
  return escapeText(JSON.stringify(value, null, 2));
}
