// A setting a command takes from its flag or from the environment
// (`--max-tokens` and KB_MAX_TOKENS, `--html` and KB_HTML): the flag, then
// the variable (when set and not empty), then the default.
import { UsageError } from '../shared/errors.ts';
import type { RunContext } from './command.ts';

/** The value of `--flag`, else of the environment variable `env`, else
 *  `fallback`; `parse` reads a value or says why it cannot (`problem`; a
 *  setting's values are not such objects), and a value it refuses is a
 *  usage error naming where it came from. */
export function settingOf<T>(ctx: RunContext, flag: string, env: string, parse: (text: string) => T | { problem: string }, fallback: T): T {
  const given = ctx.flags[flag];
  const [text, where] = typeof given === 'string' ? [given, `--${flag}`] : [ctx.env[env], env];
  if (text === undefined || (text === '' && where === env)) return fallback;
  const v = parse(text);
  if (typeof v === 'object' && v !== null && 'problem' in v) throw new UsageError(`invalid ${where}: ${v.problem}`, where);
  return v as T;
}
