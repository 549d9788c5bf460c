// Token budgets: how much text a learn result, a listing or the prompt
// section may hold. One number, set by `--max-tokens N` (learn, mcp,
// prompt) or `KB_MAX_TOKENS`, 20,000 by default, 0 for no limit. Claude
// Code warns above 10k tokens per MCP result and fails above 25k: the
// default leaves room for the note that says what was left out.

export const DEFAULT_MAX_TOKENS = 20_000;

/** The environment variable that sets the budget. */
export const MAX_TOKENS_ENV = 'KB_MAX_TOKENS';

/** A budget as given (`--max-tokens`, `KB_MAX_TOKENS`): a whole number of
 *  tokens, 0 for none. Returns the budget (Infinity for none), or why the
 *  text is not one. */
export function parseBudget(text: string): { ok: true; tokens: number } | { ok: false; problem: string } {
  const t = text.trim();
  if (!/^\d{1,12}$/.test(t)) return { ok: false, problem: `"${text}" is not a whole number of tokens (0 for no limit)` };
  const n = Number(t);
  return { ok: true, tokens: n === 0 ? Infinity : n };
}

/** Tokens a `<subject "...">` block adds around its content, about. */
export const BLOCK_TOKENS = 8;

/** Bytes a token covers at least: a budget estimate from file sizes alone
 *  (unread files) divides by this. */
export const BYTES_PER_TOKEN_ESTIMATE = 4;

/** A number of tokens for people: 20,000. */
export { countText as tokensText } from '../shared/text.ts';

/** Tokens the prompt section needs besides pre-loaded subjects, about:
 *  its sentences, the hidden-subjects note, a line per topic. */
export function promptReserve(topics: number): number {
  return 200 + 40 * topics;
}
