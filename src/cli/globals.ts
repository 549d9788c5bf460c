// Options every command takes, in citty's argument-definition format, which
// both the parser (argv.ts) and --help (help.ts) read.
import type { ArgsDef } from 'citty';

export const GLOBAL_ARGS = {
  workspace: { type: 'string', alias: 'w', valueHint: 'dir', description: 'Workspace root (default: nearest parent directory holding .jp/)' },
  cfg: { type: 'string', alias: 'c', valueHint: 'value', description: 'Configuration override: KEY=VALUE, KEY+=VALUE, KEY:=JSON, KEY:+=JSON, @PATH or a load path (repeatable)' },
  knowledge: { type: 'string', alias: 'k', valueHint: 'topic/pattern', description: 'Pre-load subjects: append PATTERN to the topic\'s learned list (repeatable)' },
  verbose: { type: 'boolean', description: 'Say which files were read and which file set each value; show stack traces' },
  quiet: { type: 'boolean', alias: 'q', description: 'Print no warnings on stderr (errors still print); not with --verbose' },
  help: { type: 'boolean', alias: 'h', description: 'Show this help' },
} as const satisfies ArgsDef;

export interface Globals {
  workspace?: string;
  cfg: string[];
  knowledge: string[];
  verbose: boolean;
  /** No warnings on stderr (shared/log.ts). */
  quiet: boolean;
}

export function globalsOf(flags: Record<string, string | boolean | string[]>): Globals {
  return {
    workspace: flags.workspace as string | undefined,
    cfg: (flags.cfg as string[]) ?? [],
    knowledge: (flags.knowledge as string[]) ?? [],
    verbose: flags.verbose === true,
    quiet: flags.quiet === true,
  };
}
