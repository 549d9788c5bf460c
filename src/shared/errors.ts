// One error family, one handler (cli/main.ts `report`). A KbError carries what
// went wrong, where (a file, `file:line:col`, a flag, an environment variable)
// and the exit code. Users see `error: <what> (<where>)`; a stack trace only
// with --verbose.

import { formatProblem } from './problem.ts';

export type ExitCode = 1 | 2;

export class KbError extends Error {
  override name = 'KbError';
  constructor(
    message: string,
    readonly where?: string,
    readonly exitCode: ExitCode = 1,
  ) {
    super(message);
  }
}

/** Wrong usage of the command line: exit 2. */
export class UsageError extends KbError {
  override name = 'UsageError';
  constructor(message: string, where?: string) {
    super(message, where, 2);
  }
}

/** A configuration that cannot be loaded or used: exit 1. */
export class ConfigError extends KbError {
  override name = 'ConfigError';
}

/** Renders `error: <what> (<where>)` (without the `error: ` prefix). */
export function describe(err: KbError): string {
  return formatProblem(err);
}
