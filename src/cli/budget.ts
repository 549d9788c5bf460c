// `--max-tokens N` (learn, mcp, prompt) and `KB_MAX_TOKENS`: the token
// budget (app/budget.ts).
import { DEFAULT_MAX_TOKENS, MAX_TOKENS_ENV, parseBudget } from '../app/budget.ts';
import { UsageError } from '../shared/errors.ts';
import type { RunContext } from './command.ts';

export const MAX_TOKENS_ARG = {
  'max-tokens': {
    type: 'string',
    valueHint: 'n',
    description: `Token budget for what this command gives a model (default ${DEFAULT_MAX_TOKENS}, or ${MAX_TOKENS_ENV}; 0: no limit)`,
  },
} as const;

/** The budget the command line or the environment sets: the flag, then
 *  KB_MAX_TOKENS, then the default. A malformed one is a usage error. */
export function maxTokensOf(ctx: RunContext): number {
  const flag = ctx.flags['max-tokens'];
  if (typeof flag === 'string') {
    const b = parseBudget(flag);
    if (!b.ok) throw new UsageError(`invalid --max-tokens: ${b.problem}`, '--max-tokens');
    return b.tokens;
  }
  const env = ctx.env[MAX_TOKENS_ENV];
  if (env !== undefined && env !== '') {
    const b = parseBudget(env);
    if (!b.ok) throw new UsageError(`invalid ${MAX_TOKENS_ENV}: ${b.problem}`, MAX_TOKENS_ENV);
    return b.tokens;
  }
  return DEFAULT_MAX_TOKENS;
}
