// Messages and warnings go to stderr, never stdout. consola is loaded only
// when there is something to say, and only its core (`consola/core`): the
// package's main entry imports node:tty, node:readline and the process's
// stdio streams at load time, which a compiled binary would pay on every
// start, silent or not. The reporter below is all the formatting kb needs:
// `error:` and `warning:` in colour on a terminal (shared/terminal.ts), and
// a progress line on the screen cleared first (shared/progress.ts).
import type { ConsolaInstance, LogObject } from 'consola';
import { escapeControls } from './controls.ts';
import { printError } from './stdio.ts';
import { clearProgress } from './progress.ts';
import { prefix } from './terminal.ts';

let logger: ConsolaInstance | undefined;
let verbose = false;
/** -q: errors only. */
let quiet = false;

/** consola's levels: 0 errors, 1 warnings, 3 information, 4 debug. */
function level(): number {
  return quiet ? 0 : verbose ? 4 : 3;
}

export function setVerbose(v: boolean): void {
  verbose = v;
  if (logger) logger.level = level();
}

export function setQuiet(q: boolean): void {
  quiet = q;
  if (logger) logger.level = level();
}

export function isVerbose(): boolean {
  return verbose;
}

async function get(): Promise<ConsolaInstance> {
  if (!logger) {
    const { createConsola } = await import('consola/core');
    logger = createConsola({
      level: level(),
      // One line per message, whatever it quotes (a title, a file name):
      // never a raw control character on the terminal (controls.ts).
      reporters: [
        {
          log: (o: LogObject) => {
            clearProgress();
            printError(`${label(o.type)}${escapeControls(o.args.map(String).join(' '))}\n`);
          },
        },
      ],
    });
  }
  return logger;
}

function label(type: string): string {
  switch (type) {
    case 'warn': return prefix('warning');
    case 'error': case 'fatal': return prefix('error');
    case 'debug': case 'trace': case 'verbose': return 'debug: ';
    default: return '';
  }
}

/** Nothing with -q (not even loading consola). */
export async function warn(message: string): Promise<void> {
  if (quiet) return;
  (await get()).warn(message);
}

export async function error(message: string): Promise<void> {
  (await get()).error(message);
}

export async function info(message: string): Promise<void> {
  if (quiet) return;
  (await get()).info(message);
}

/** Only with --verbose; costs nothing otherwise. */
export async function debug(message: string | (() => string)): Promise<void> {
  if (!verbose) return;
  (await get()).debug(typeof message === 'function' ? message() : message);
}
