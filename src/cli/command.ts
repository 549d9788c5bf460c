// What a command module exports. Commands are thin: parse args -> core ->
// render -> write. Each is imported only when it runs (or shows its help).
import type { ArgsDef } from 'citty';
import type { Globals } from './globals.ts';

export interface RunContext {
  flags: Record<string, string | boolean | string[]>;
  positionals: string[];
  globals: Globals;
  cwd: string;
  env: Record<string, string | undefined>;
}

export interface Command {
  args: ArgsDef;
  /** Returns the exit code. */
  run(ctx: RunContext): Promise<number> | number;
}

export interface CommandEntry {
  description: string;
  /** Left out of `kb --help` and the "unknown command" list (internal). */
  hidden?: boolean;
  load: () => Promise<Command>;
}
