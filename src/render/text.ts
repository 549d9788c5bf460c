// Small text rules shared by every renderer.
import { CONTROL, escapeControls } from '../shared/controls.ts';

/** A backslash, a quote, or a control character: what `quoted` escapes. */
const NEEDS_ESCAPE = new RegExp(`["\\\\]|${CONTROL.source}`);

/** Drops trailing line breaks (and only those): content is placed before a
 *  closing tag or at the end of the output, which adds its own newline. */
export function trimTrailingNewlines(s: string): string {
  let end = s.length;
  while (end > 0 && (s.charCodeAt(end - 1) === 10 || s.charCodeAt(end - 1) === 13)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** NOTES 18: every output ends with exactly one newline. */
export function endWithNewline(s: string): string {
  return `${trimTrailingNewlines(s)}\n`;
}

/** A title or ID as the RFD quotes it: `<topic "...">`, `<subject "...">`.
 *  Backslashes and quotes are escaped, and so are control characters (a
 *  newline or NUL byte in a model's pattern, a title), as `\n` or `\u0000`,
 *  so a quoted string always stays on its line. */
export function quoted(s: string): string {
  // Most names need no escape at all: one test instead of three passes.
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  return `"${escapeControls(s.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
}
