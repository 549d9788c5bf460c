// A whole tool call, arguments exactly as a model sends them, its text
// joined: what `kb mcp` answers (without the cap on one result).
import type { KnowledgeBase } from '../../src/app/knowledge-base.ts';
import { validateLearnArgs } from '../../src/app/args.ts';
import { learn } from '../../src/app/learn.ts';
import { learnText, renderBadArguments } from '../../src/render/learn.ts';
import type { Problem } from '../../src/shared/problem.ts';

export interface CallResult {
  text: string;
  isError: boolean;
  problems: Problem[];
}

/** A learn call, arguments as a model sent them. */
export async function call(kb: KnowledgeBase, value: unknown): Promise<CallResult> {
  const parsed = validateLearnArgs(value);
  if (!parsed.ok) return { text: renderBadArguments(parsed.problem), isError: true, problems: [] };
  const parts: string[] = [];
  const problems: Problem[] = [];
  const text = learnText((chunk) => {
    if (chunk.length > 0) parts.push(chunk as string);
  });
  const isError = await learn(kb, parsed.args, { as: 'text', event: (e) => (e.kind === 'problem' ? void problems.push(e.problem) : text(e)) });
  return { text: parts.join(''), isError, problems };
}
