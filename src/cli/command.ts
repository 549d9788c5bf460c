// What a command is. Commands are thin: parse arguments -> the knowledge
// base (app/) -> render -> write. Each is imported only when it runs (or
// shows its help). To add one: a module in cli/commands/ whose default
// export is a `Command` (its arguments, help examples and `run`), and a line
// in the command table (src/cli.ts).
import type { ArgsDef } from 'citty';
import type { Globals } from './globals.ts';

export interface RunContext {
  flags: Record<string, string | boolean | string[]>;
  positionals: string[];
  globals: Globals;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Every command (`kb __complete` completes their names and flags). */
  commands: CommandTable;
  /** The reader thread's entry point (src/reader-thread.ts), which only
   *  the entry module can name. */
  readerThreadUrl: string;
}

/** What `kb <command> --help` shows beyond the arguments' definitions. */
export interface CommandHelp {
  /** The usage lines after `kb <command> [OPTIONS]`, when the positional
   *  arguments alone do not tell (learn: TOPIC [PATTERN...], or --args). */
  usage?: readonly string[];
  /** At least one: a command line, and what it does. */
  examples: readonly (readonly [string, string])[];
}

export interface Command {
  args: ArgsDef;
  help: CommandHelp;
  /** Returns the exit code. */
  run(ctx: RunContext): Promise<number> | number;
}

export interface CommandEntry {
  /** One line for `kb --help`; a tool's command has its tool's own
   *  (`summary`, app/tools.ts), read when help is shown. */
  description?: string;
  /** The command runs the tool of its name (cli/commands/tool.ts). */
  tool?: true;
  /** Left out of `kb --help` and the "unknown command" list (internal). */
  hidden?: boolean;
  load: () => Promise<Command>;
}

/** Names and one-line descriptions, so that `kb --help` lists the
 *  commands without importing any of them (the registry of tools, for the
 *  tools' lines, only then). */
export type CommandTable = Readonly<Record<string, CommandEntry>>;
