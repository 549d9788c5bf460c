// A whole tool call, arguments exactly as a model sends them, its text
// joined: what `kb mcp` answers (app/tools.ts runTool, without the cap on
// one result).
import type { KnowledgeBase } from '../../src/app/knowledge-base.ts';
import { runTool, toolNamed, type RunContext } from '../../src/app/tools.ts';
import type { Problem } from '../../src/shared/problem.ts';

export interface CallResult {
  text: string;
  isError: boolean;
  problems: Problem[];
}

/** A call of the tool `name`. */
export async function toolCall(kb: KnowledgeBase, name: string, value: unknown, ctx: RunContext = { source: 'model' }): Promise<CallResult> {
  const tool = toolNamed(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  const parts: string[] = [];
  const problems: Problem[] = [];
  const write = (chunk: string | Uint8Array) => {
    if (chunk.length > 0) parts.push(chunk as string);
  };
  const isError = await runTool(kb, tool, value, { as: 'text', write, problem: (p) => void problems.push(p) }, ctx);
  return { text: parts.join(''), isError, problems };
}

/** A learn call. */
export function call(kb: KnowledgeBase, value: unknown): Promise<CallResult> {
  return toolCall(kb, 'learn', value);
}
