// Whether stderr is a person's terminal, and whether kb may colour it
// (docs/reference/commands.md, "At a terminal"). Answered without node:tty: loading
// it pulls in the stream and socket modules, tens of milliseconds that
// every command printing a warning would pay. A terminal is a character
// device; /dev/null is one too and is told apart by its device number.
import { fstatSync, statSync } from 'node:fs';

let terminal: boolean | undefined;

/** stderr is a terminal (asked once). */
export function stderrIsTerminal(): boolean {
  if (terminal === undefined) {
    try {
      const st = fstatSync(2);
      terminal = st.isCharacterDevice() && st.rdev !== statSync('/dev/null').rdev;
    } catch {
      terminal = false;
    }
  }
  return terminal;
}

/** A line may be redrawn in place on stderr (a progress line: `\r`, then
 *  the text, then ESC [K to erase the rest): on a terminal that is not
 *  `TERM=dumb`, which has no erase (Emacs' shell and compilation buffers,
 *  for one, show the `\r` as `^M`). */
export function canRedraw(env: Record<string, string | undefined> = process.env): boolean {
  return env.TERM !== 'dumb' && stderrIsTerminal();
}

/**
 * The width of stderr's terminal in columns: the terminal's own, as it is
 * now (a resized terminal says its new width), else `COLUMNS` (a shell
 * variable most shells do not export), else 80. Asked only where a line
 * is drawn on a terminal: the first ask creates the runtime's stderr
 * stream, which costs tens of milliseconds (node:tty), once.
 */
export function terminalColumns(env: Record<string, string | undefined> = process.env): number {
  let own: number | undefined;
  try {
    own = process.stderr.columns;
  } catch {
    own = undefined;
  }
  if (typeof own === 'number' && Number.isInteger(own) && own > 0) return own;
  const given = Number(env.COLUMNS);
  return Number.isInteger(given) && given > 0 ? given : 80;
}

/** Colour on stderr: on a terminal, unless `NO_COLOR` is set (to anything
 *  but '') or `TERM` is `dumb`. */
export function colourOn(env: Record<string, string | undefined> = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stderrIsTerminal();
}

const RED = '\x1b[1;31m';
const YELLOW = '\x1b[1;33m';
const RESET = '\x1b[0m';

/** `error: ` / `warning: `, in red / yellow where colour is on. */
export function prefix(kind: 'error' | 'warning'): string {
  if (!colourOn()) return `${kind}: `;
  return `${kind === 'error' ? RED : YELLOW}${kind}:${RESET} `;
}
