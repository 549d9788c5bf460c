// The tools kb offers an assistant: one registry. Each tool is one module
// (app/tools/<name>.ts) exporting its definition (the JSON Schema of its
// arguments, which every provider format and MCP carry), its argument
// validation (checked against that schema: app/tools/validate.ts) and its
// run function, which returns the tool's outcome as data (answer/tool.ts;
// render/forms.ts writes it). The CLI's tool commands, MCP `tools/list`
// and `tools/call` all go through this list; `kb schema` prints the learn
// tool without loading the others (their names: tools/names.ts) and
// comes here for any other.
//
// Describing the tools loads none of their operations: a run function
// imports its operation (app/learn.ts, app/search.ts, app/memory.ts,
// app/revise.ts) when
// it runs.
import type { EventOf, OutcomeOf, ToolName } from '../answer/tool.ts';
import type { ToolDefinition } from '../shared/tool.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { forget } from './tools/forget.ts';
import { learn } from './tools/learn.ts';
import { remember } from './tools/remember.ts';
import { revise } from './tools/revise.ts';
import { search } from './tools/search.ts';
import { definitionOf, type AnyTool, type RunContext, type Tool, type ToolSink, type ToolTopic } from './tools/tool.ts';
import { TOOL_NAMES as NAMES } from './tools/names.ts';
import type { Refused } from './tools/validate.ts';
import { find, map } from '../shared/arrays.ts';

export type { JsonSchema, JsonSchemaObject, JsonType, ToolAnnotations, ToolDefinition } from '../shared/tool.ts';
export type { AnyTool, RunContext, Tool, ToolSink, ToolTopic } from './tools/tool.ts';
export { definitionOf, schemaDefinition, toolDefinition, topicsFor } from './tools/tool.ts';
export { WRITE_TOOL_NAMES } from './tools/names.ts';
export type { Parsed, Refused } from './tools/validate.ts';
export { LEARN_ANNOTATIONS, LEARN_NO_TOPICS_DESCRIPTION, LEARN_PARAMETERS, LEARN_TOOL_NAME, learnDescription } from './tools/learn.ts';
export { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SEARCH_PARAMETERS, SEARCH_TOOL_NAME, searchDescription } from './tools/search.ts';
export { REMEMBER_LIMITS, REMEMBER_MAX_BYTES, REMEMBER_PARAMETERS, REMEMBER_TOOL_NAME, WRITE_ARGS_BYTES } from './tools/remember.ts';
export { REVISE_PARAMETERS, REVISE_TOOL_NAME } from './tools/revise.ts';
export { FORGET_PARAMETERS, FORGET_TOOL_NAME } from './tools/forget.ts';

/** Each tool by its name: one for every name (the type says so). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const BY_NAME: { readonly [N in ToolName]: Tool<N, any> } = { learn, search, remember, revise, forget };

/** Every tool, in the order they are listed (tools/names.ts). */
export const TOOLS: readonly AnyTool[] = map(NAMES, (n) => BY_NAME[n]);

/** The tools' names, in order (the docs' tool list is checked against
 *  it). */
export const TOOL_NAMES: readonly ToolName[] = NAMES;

/** The tool of that name, if any. */
export function toolNamed(name: string): AnyTool | undefined {
  return find(TOOLS, (t) => t.name === name);
}

/** The tools a front end serves: the read tools always, the write tools
 *  when some topic is writable (`kb mcp --write`). */
export function servedTools(writable: ReadonlySet<string>): AnyTool[] {
  return TOOLS.filter((t) => t.access === 'read' || writable.size > 0);
}

/** Whether a call's result is its refusal (the arguments did not fit). */
export function isRefused(r: OutcomeOf<ToolName> | Refused): r is Refused {
  return (r as Partial<Refused>).ok === false;
}

/**
 * A whole tool call, arguments exactly as a model sent them (MCP
 * `tools/call`, `--args`): checked against the tool's schema, then run.
 * Returns the outcome, or the refusal when the arguments do not fit (an
 * error result the model can read).
 */
export async function runTool(kb: KnowledgeBase, tool: AnyTool, value: unknown, sink: ToolSink<EventOf<ToolName>>, ctx: RunContext): Promise<OutcomeOf<ToolName> | Refused> {
  const parsed = tool.validate(value);
  if (!parsed.ok) return parsed;
  return tool.run(kb, parsed.args, sink, ctx);
}

// The definitions as functions of their topics (tests, the formats'
// reference output).
export function learnTool(topics: readonly ToolTopic[]): ToolDefinition {
  return definitionOf(learn, topics);
}

export function searchTool(topics: readonly ToolTopic[]): ToolDefinition {
  return definitionOf(search, topics);
}

export function rememberTool(topics: readonly ToolTopic[]): ToolDefinition {
  return definitionOf(remember, topics);
}

export function reviseTool(topics: readonly ToolTopic[]): ToolDefinition {
  return definitionOf(revise, topics);
}

export function forgetTool(topics: readonly ToolTopic[]): ToolDefinition {
  return definitionOf(forget, topics);
}
