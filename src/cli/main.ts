// Finds the command, parses its arguments strictly, runs it, and turns every
// failure into `error: <what> (<where>)` on stderr with a non-zero exit.
import type { ArgsDef } from 'citty';
import { escapeControls } from '../shared/controls.ts';
import { KbError, UsageError, describe } from '../shared/errors.ts';
import { parseArgv } from './argv.ts';
import type { CommandTable } from './command.ts';
import { GLOBAL_ARGS, globalsOf } from './globals.ts';
import { setVerbose } from '../shared/log.ts';
import { PipeClosed, print } from './output.ts';
import { VERSION } from '../shared/version.ts';

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

const ROOT_META = { name: 'kb', version: VERSION, description: 'A file-based knowledge base for LLM assistants' };

/** citty renders --help; it is loaded only then. Colours only on a terminal. */
async function citty(): Promise<typeof import('citty')> {
  const { isatty } = await import('node:tty');
  if (!isatty(1)) process.env.NO_COLOR ??= '1';
  return import('citty');
}

function visibleCommands(commands: CommandTable) {
  return Object.entries(commands).filter(([, c]) => !c.hidden);
}

async function rootUsage(commands: CommandTable): Promise<string> {
  const { defineCommand, renderUsage } = await citty();
  const sub = Object.fromEntries(visibleCommands(commands).map(([name, c]) => [name, { meta: { name, description: c.description } }]));
  const root = defineCommand({ meta: ROOT_META, args: { ...GLOBAL_ARGS, version: { type: 'boolean', description: 'Print the version' } } as ArgsDef, subCommands: sub });
  return renderUsage(root);
}

async function commandUsage(name: string, description: string, args: ArgsDef): Promise<string> {
  const { defineCommand, renderUsage } = await citty();
  const cmd = defineCommand({ meta: { name, description }, args: { ...args, ...GLOBAL_ARGS } as ArgsDef });
  return renderUsage(cmd, defineCommand({ meta: { name: 'kb' } }));
}

export async function main(argv: readonly string[], commands: CommandTable, readerThreadUrl: string): Promise<number> {
  let verbose = argv.includes('--verbose');
  setVerbose(verbose);
  try {
    const at = commandIndex(argv);
    if (at === -1) {
      const { flags } = parseArgv(argv, { ...GLOBAL_ARGS, version: { type: 'boolean' } } as ArgsDef);
      if (flags.version) { print(`${VERSION}\n`); return 0; }
      if (flags.help) { print(`${await rootUsage(commands)}\n`); return 0; }
      process.stderr.write(`${await rootUsage(commands)}\n`);
      throw new UsageError('no command given');
    }
    const name = argv[at];
    const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!entry) throw new UsageError(`unknown command "${name}"; commands: ${visibleCommands(commands).map(([n]) => n).join(', ')}`);
    const cmd = await entry.load();
    const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
    const defs = { ...cmd.args, ...GLOBAL_ARGS } as ArgsDef;
    // After `--` every word is an argument, `--help` included.
    const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
    if (options.includes('--help') || options.includes('-h')) {
      print(`${await commandUsage(name, entry.description, cmd.args)}\n`);
      return 0;
    }
    const { flags, positionals } = parseArgv(rest, defs);
    const globals = globalsOf(flags);
    verbose = globals.verbose;
    return await cmd.run({ flags, positionals, globals, cwd: process.cwd(), env: process.env, commands, readerThreadUrl });
  } catch (err) {
    return report(err, verbose);
  }
}

function report(err: unknown, verbose: boolean): number {
  if (err instanceof PipeClosed) return 0;
  if (err instanceof KbError) {
    process.stderr.write(`error: ${escapeControls(describe(err))}\n`);
    if (err instanceof UsageError) process.stderr.write('Run `kb --help` for usage.\n');
    if (verbose && err.stack) process.stderr.write(`${err.stack}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  process.stderr.write(`error: ${escapeControls(e?.message ?? String(err))}\n`);
  if (verbose && e?.stack) process.stderr.write(`${e.stack}\n`);
  else process.stderr.write('(run with --verbose for details)\n');
  return 1;
}
