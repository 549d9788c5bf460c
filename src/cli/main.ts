// Finds the command, parses its arguments strictly, runs it, and turns every
// failure into `error: <what> (<where>)` on stderr with a non-zero exit.
import type { ArgsDef } from 'citty';
import { isAbsolute } from 'node:path';
import { escapeControls } from '../shared/controls.ts';
import { KbError, UsageError, describe } from '../shared/errors.ts';
import { parseArgv } from './argv.ts';
import type { CommandTable } from './command.ts';
import { GLOBAL_ARGS, globalsOf } from './globals.ts';
import { setQuiet, setVerbose } from '../shared/log.ts';
import { clearProgress, enableProgress } from '../shared/progress.ts';
import { prefix } from '../shared/terminal.ts';
import { PipeClosed, print, printError } from './output.ts';
import { versionLine } from '../shared/version.ts';

/** The help pages: imported only when asked for. */
async function help(): Promise<typeof import('./help.ts')> {
  return import('./help.ts');
}

const VALUE_FLAGS = new Set(['-w', '--workspace', '-c', '--cfg', '-k', '--knowledge']);

/** Index of the command name: the first positional, skipping global flags' values. */
function commandIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return -1;
    if (VALUE_FLAGS.has(a)) { i++; continue; }
    if (a.startsWith('-') && a !== '-') continue;
    return i;
  }
  return -1;
}

function visibleCommands(commands: CommandTable) {
  return Object.entries(commands).filter(([, c]) => !c.hidden);
}

export async function main(argv: readonly string[], commands: CommandTable, readerThreadUrl: string): Promise<number> {
  let verbose = argv.includes('--verbose');
  setVerbose(verbose);
  /** The command line whose --help a usage error points at. */
  let where = 'kb';
  try {
    const at = commandIndex(argv);
    if (at === -1) {
      const { flags } = parseArgv(argv, { ...GLOBAL_ARGS, version: { type: 'boolean' } } as ArgsDef, where);
      if (flags.version) { print(`${versionLine()}\n`); return 0; }
      if (flags.help) { print(await (await help()).rootHelp(commands)); return 0; }
      printError(await (await help()).rootHelp(commands));
      throw new UsageError('no command given');
    }
    const name = argv[at];
    const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!entry) {
      const names = visibleCommands(commands).map(([n]) => n);
      const { closest } = await import('../shared/edit-distance.ts');
      const near = closest(name, names);
      throw new UsageError(`unknown command "${name}"; ${near !== undefined ? `did you mean "${near}"? ` : ''}commands: ${names.join(', ')}`);
    }
    where = `kb ${name}`;
    const cmd = await entry.load();
    const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
    const defs = { ...cmd.args, ...GLOBAL_ARGS } as ArgsDef;
    // After `--` every word is an argument, `--help` included.
    const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
    if (options.includes('--help') || options.includes('-h')) {
      const pages = await help();
      print(pages.commandHelp(name, await pages.descriptionOf(name, entry), cmd));
      return 0;
    }
    const { flags, positionals } = parseArgv(rest, defs, where);
    const globals = globalsOf(flags);
    if (globals.quiet && globals.verbose) throw new UsageError('--quiet and --verbose cannot be combined', where);
    verbose = globals.verbose;
    setQuiet(globals.quiet);
    enableProgress(!globals.quiet);
    return await cmd.run({ flags, positionals, globals, cwd: workingDirectory(globals.workspace), env: process.env, commands, readerThreadUrl });
  } catch (err) {
    return report(err, verbose, where);
  }
}

/** The working directory. When it was deleted (the runtime starts anyway:
 *  scripts/build.mjs), an absolute `-w` stands in for it, and kb changes
 *  to it; without one nothing can be resolved, and kb says so. */
function workingDirectory(workspace: string | undefined): string {
  try {
    return process.cwd();
  } catch {
    if (workspace === undefined || !isAbsolute(workspace)) {
      throw new KbError('the working directory no longer exists (it was deleted); change to a directory that exists, or give the workspace as an absolute path with -w');
    }
    try {
      process.chdir(workspace);
    } catch {
      // Not a directory: finding the workspace says so.
    }
    return workspace;
  }
}

function report(err: unknown, verbose: boolean, where: string): number {
  if (err instanceof PipeClosed) return 0;
  if (err instanceof KbError) {
    clearProgress();
    printError(`${prefix('error')}${escapeControls(describe(err))}\n`);
    // A usage error is about the command line, never kb's code: no stack.
    if (err instanceof UsageError) printError(`run '${where} --help' for usage\n`);
    else if (verbose && err.stack) printError(`${err.stack}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  clearProgress();
  printError(`${prefix('error')}${escapeControls(e?.message ?? String(err))}\n`);
  if (verbose && e?.stack) printError(`${e.stack}\n`);
  else printError('(run with --verbose for details)\n');
  return 1;
}
