// A whole tool call, arguments exactly as a model sends them, its text
// joined: what `kb mcp` answers (app/tools.ts runTool, the text form of
// render/forms.ts, without the cap on one result).
import type { KnowledgeBase } from '../../src/app/knowledge-base.ts';
import { isRefused, runTool, toolNamed, type RunContext } from '../../src/app/tools.ts';
import { formsOf } from '../../src/render/forms.ts';
import type { Problem } from '../../src/shared/problem.ts';

export interface CallResult {
  text: string;
  /** With `json`: the same call's data form, fed the same events (what
   *  MCP returns as structuredContent). */
  data?: Record<string, unknown>;
  isError: boolean;
  problems: Problem[];
}

/** A call of the tool `name`, in the form `format` (the model's text by
 *  default). */
export async function toolCall(kb: KnowledgeBase, name: string, value: unknown, ctx: RunContext = { source: 'model' }, format: 'text' | 'json' = 'text'): Promise<CallResult> {
  const tool = toolNamed(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  const parts: string[] = [];
  const problems: Problem[] = [];
  const write = (chunk: string | Uint8Array) => {
    if (chunk.length > 0) parts.push(chunk as string);
  };
  const forms = await formsOf(tool.name);
  const form = forms[format](write);
  const data = format === 'json' ? forms.data() : undefined;
  const event = (e: never) => {
    form.event(e);
    data?.event(e);
  };
  const outcome = await runTool(kb, tool, value, { as: 'text', event, problem: (p) => void problems.push(p) }, ctx);
  for (const f of data === undefined ? [form] : [form, data]) {
    if (isRefused(outcome)) f.refused(outcome, tool);
    else f.end(outcome);
  }
  return { text: parts.join(''), ...(data !== undefined ? { data: data.value() } : {}), isError: isRefused(outcome) || outcome.isError, problems };
}

/** A learn call. */
export function call(kb: KnowledgeBase, value: unknown): Promise<CallResult> {
  return toolCall(kb, 'learn', value);
}
