// Control characters in names and texts that end up inside one line of
// output: file names in listings and `<subject "...">` tags, patterns echoed
// back to the model, notices.

/** C0 and C1 control characters (newline, tab, NUL, ESC...), DEL, and the
 *  Unicode line and paragraph separators. */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_ALL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `s` with every control character written as an escape (`\n`, `\t`,
 *  `\u001b`), so that it stays on one line, and visible. */
export function escapeControls(s: string): string {
  if (!CONTROL.test(s)) return s;
  return s.replace(CONTROL_ALL, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
