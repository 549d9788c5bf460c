// Which topics the prompt lists (app/prompt-list.ts): the names as the
// command line and the environment give them. Small on purpose: `kb prompt`
// imports it on every run, and the listings only when a topic is named.
import { splitOutsideBraces } from '../shared/text.ts';

/** The environment variable naming the topics to list: IDs (or titles)
 *  separated by commas. */
export const PROMPT_LIST_ENV = 'KB_PROMPT_LIST';

/** The topics to list: the given values (`flag`, repeatable; each may
 *  hold several separated by commas), else the environment's; `from`
 *  names where they came from, for warnings. */
export function listedNames(given: readonly string[], env: Record<string, string | undefined>, flag = '--list'): { names: string[]; from: string } {
  const values = given.length > 0 ? given : [env[PROMPT_LIST_ENV] ?? ''];
  const names: string[] = [];
  for (const v of values) for (const name of splitOutsideBraces(v, ',')) if (name.trim() !== '') names.push(name.trim());
  return { names, from: given.length > 0 ? flag : PROMPT_LIST_ENV };
}
