// A progress line for slow work (docs/reference/commands.md, "At a terminal"): work
// that passes about a second (building a search index, checking a large
// topic) says what it is doing on stderr, on one line that is redrawn in
// place and cleared when the work is done. Only for the command line
// (enableProgress; `kb mcp` turns it off), never with -q, never when
// stderr is not a terminal or is a `TERM=dumb` one (shared/terminal.ts
// canRedraw), fitted to the terminal's own width.
// The work calls `tick` as it goes: one clock read each, nothing drawn
// before the first second nor more than ten times a second.
import { escapeControls } from './controls.ts';
import { printError } from './stdio.ts';
import { canRedraw, terminalColumns } from './terminal.ts';
import { fitColumns } from './text.ts';

/** The line appears once the work has taken this long. */
const AFTER_MS = 1000;
/** ...and is redrawn at most this often. */
const EVERY_MS = 100;

let enabled = false;
/** The line on the screen now, if any. */
let shown: Line | undefined;

/** A terminal narrower than this gets no progress line: nothing useful
 *  fits. */
const MIN_COLUMNS = 10;

/** The command line turns progress on (not with -q); `kb mcp` turns it
 *  off (docs/reference/commands.md, "At a terminal"). */
export function enableProgress(on: boolean): void {
  enabled = on;
}

export interface Progress {
  /** What is being done now (`reading subjects`). */
  step(text: string): void;
  /** `done` of `total` items. */
  tick(done: number, total: number): void;
  /** The work is over: the line is cleared. */
  done(): void;
}

const NONE: Progress = { step() {}, tick() {}, done() {} };

/** A progress line labelled `label` (`indexing topic "docs"`), or one that
 *  draws nothing (progress off). */
export function startProgress(label: string): Progress {
  return enabled ? new Line(label) : NONE;
}

/** Clears the progress line before another message goes to stderr (it is
 *  drawn again on the next tick). */
export function clearProgress(): void {
  if (shown === undefined) return;
  shown = undefined;
  printError('\r\x1b[K');
}

/**
 * The delay before the line appears: AFTER_MS, or for kb's own tests only
 * (not a user setting) `KB_TEST_PROGRESS_MS`, so that a test on a small
 * topic sees the line without waiting a second. Read when a line starts,
 * never on a path without progress.
 */
function delay(): number {
  const ms = Number(process.env.KB_TEST_PROGRESS_MS);
  return process.env.KB_TEST_PROGRESS_MS !== undefined && Number.isFinite(ms) ? ms : AFTER_MS;
}

class Line implements Progress {
  readonly #label: string;
  #detail = '';
  #next = Date.now() + delay();

  constructor(label: string) {
    this.#label = label;
  }

  step(text: string): void {
    this.#detail = text;
    this.#draw();
  }

  tick(done: number, total: number): void {
    if (Date.now() < this.#next) return;
    this.#detail = `${done}/${total}`;
    this.#draw();
  }

  done(): void {
    if (shown === this) clearProgress();
  }

  #draw(): void {
    const now = Date.now();
    if (now < this.#next || !canRedraw()) return;
    this.#next = now + EVERY_MS;
    // Read at every draw: a terminal may be resized while the work runs.
    const columns = terminalColumns();
    if (columns < MIN_COLUMNS) return;
    const text = escapeControls(this.#detail === '' ? `${this.#label}…` : `${this.#label}: ${this.#detail}`);
    shown = this;
    printError(`\r${fitColumns(text, columns)}\x1b[K`);
  }
}
