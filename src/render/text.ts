// Small text rules shared by every renderer.
import { CONTROL, escapeControls } from '../shared/controls.ts';

/** A backslash, a quote, or a control character: what `quoted` escapes. */
const NEEDS_ESCAPE = new RegExp(`["\\\\]|${CONTROL.source}`);

/** A title or ID as the RFD quotes it: `<topic "...">`, `<subject "...">`.
 *  Backslashes and quotes are escaped, and so are control characters (a
 *  newline or NUL byte in a model's pattern, a title), as `\n` or `\u0000`,
 *  so a quoted string always stays on its line. */
export function quoted(s: string): string {
  // Most names need no escape at all: one test instead of three passes.
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  return `"${escapeControls(s.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
}
