// `--max-tokens N` (learn, mcp, prompt) and `KB_MAX_TOKENS`: the token
// budget (app/budget.ts).
import { DEFAULT_MAX_TOKENS, MAX_TOKENS_ENV, parseBudget } from '../app/budget.ts';
import type { RunContext } from './command.ts';
import { settingOf } from './setting.ts';

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
  return settingOf<number>(ctx, 'max-tokens', MAX_TOKENS_ENV, (t) => {
    const b = parseBudget(t);
    return b.ok ? b.tokens : b;
  }, DEFAULT_MAX_TOKENS);
}
