// What one tool is (app/tools.ts lists them): its definition, its argument
// validation, and its run function, in one module per tool
// (app/tools/<name>.ts). A run returns the tool's outcome as data
// (answer/tool.ts); a streamed answer (learn's) goes to the caller's sink
// as events while it runs. The front ends write the outcome in the form
// they want (render/forms.ts). Run functions import their operation
// (app/learn.ts, app/search.ts, app/memory.ts) only when they run, so that
// a command that only describes the tools (`kb schema`, `kb mcp`'s
// tools/list) loads none of it.
import type { ReadAs } from '../../kb/index/load.ts';
import type { Source } from '../../answer/write.ts';
import type { EventOf, OutcomeOf, ToolName } from '../../answer/tool.ts';
import type { Problem } from '../../shared/problem.ts';
import type { JsonSchemaObject, ToolAnnotations, ToolDefinition } from '../../shared/tool.ts';
import { escapeControls } from '../../shared/controls.ts';
import type { KnowledgeBase } from '../knowledge-base.ts';
import type { Parsed } from './validate.ts';
import { map } from '../../shared/arrays.ts';

/** A topic as a tool's description names it. */
export interface ToolTopic {
  id: string;
  title?: string;
}

/** Where a running call's events and problems go. */
export interface ToolSink<E = never> {
  /** How subject bodies are wanted: `bytes` (as read, to stream them) or
   *  `text`. */
  readonly as: ReadAs;
  /** The next event of a streamed answer (a subject's body may be a view
   *  into a buffer the next read reuses: write or copy it now). */
  event(e: E): void;
  /** Something the user should know (stderr), never the model. */
  problem(p: Problem): void | Promise<void>;
  /** True once the caller takes no more (a bound on one result): no
   *  further subject is read. */
  full?(): boolean;
}

/** Who calls, and which topics a write may go to (MCP: the `--write`
 *  topics; undefined: every enabled topic). */
export interface RunContext {
  source: Source;
  writable?: ReadonlySet<string>;
  /** Aborted when the call is cancelled (MCP): the operation stops. */
  signal?: AbortSignal;
}

export interface Tool<N extends ToolName = ToolName, A = unknown> {
  /** [a-zA-Z_][a-zA-Z0-9_-]{0,63}: valid in every provider's format. */
  readonly name: N;
  readonly title: string;
  /** What it does, for people: the line of its command in `kb --help`. */
  readonly summary: string;
  /** What it does, for a model: the MCP server's instructions say
   *  "the `name` tool <instruction>". */
  readonly instruction: string;
  /** The JSON Schema of its arguments: every provider format and MCP
   *  carry it, and `validate` checks calls against it. */
  readonly parameters: JsonSchemaObject;
  readonly annotations: ToolAnnotations;
  /** Optional parameters' descriptions where they cannot be left out
   *  (shared/tool.ts `ToolDefinition.nullDescriptions`). */
  readonly nullDescriptions?: Readonly<Record<string, string>>;
  /** `read`: served always; its description names the topics with
   *  something to learn. `write`: served by `kb mcp` only for the topics
   *  `--write` names, which its description names. */
  readonly access: 'read' | 'write';
  /** The description, naming `topics`. */
  describe(topics: readonly ToolTopic[]): string;
  /** A call's arguments exactly as a model sent them (untrusted). */
  validate(value: unknown): Parsed<A>;
  /** The most a call's arguments may hold as JSON text (UTF-8 bytes):
   *  `--args` longer than this is refused unread. */
  readonly argsBytes: number;
  /** Imports what `run` needs (its operation): a front end may start it
   *  early, while it opens the knowledge base. */
  load(): Promise<unknown>;
  /** Runs a validated call: its events (if it streams) into `sink`, and
   *  its outcome returned. */
  run(kb: KnowledgeBase, args: A, sink: ToolSink<EventOf<N>>, ctx: RunContext): Promise<OutcomeOf<N>>;
  /** What the model is told after a result cut at the limit of one MCP
   *  result. */
  readonly whenCut: string;
}

/** A tool of any arguments (the registry's list: each tool's `validate`
 *  gives what its `run` takes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<ToolName, any>;

/** The `- id (title)` lines tool descriptions list topics with, the ID
 *  and title escaped (shared/controls.ts): a title holding a newline
 *  stays on its line. */
export function topicLines(topics: readonly ToolTopic[]): string {
  return map(topics, (t) => (t.title ? `- ${escapeControls(t.id)} (${escapeControls(t.title)})` : `- ${escapeControls(t.id)}`)).join('\n');
}

/** `tool`'s definition, for the topics its description names: the
 *  learnable ones (a read tool), or the writable ones (a write tool: those
 *  `writable` names, or every enabled topic). */
export function definitionOf(tool: AnyTool, topics: readonly ToolTopic[]): ToolDefinition {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.describe(topics),
    parameters: tool.parameters,
    annotations: tool.annotations,
    ...(tool.nullDescriptions !== undefined ? { nullDescriptions: tool.nullDescriptions } : {}),
  };
}

/** The topics `tool`'s description names in `kb`. */
export function topicsFor(kb: KnowledgeBase, tool: AnyTool, writable?: ReadonlySet<string>): ToolTopic[] {
  return tool.access === 'read' ? kb.learnableTopics() : kb.writableTopics(writable);
}

/** `tool`'s definition in `kb` (MCP `tools/list`: always one). */
export function toolDefinition(kb: KnowledgeBase, tool: AnyTool, writable?: ReadonlySet<string>): ToolDefinition {
  return definitionOf(tool, topicsFor(kb, tool, writable));
}

/** `kb schema --tool NAME`: undefined for a read tool when no topic has
 *  anything to learn (docs/guide/knowledge-base.md, "The tool"). */
export function schemaDefinition(kb: KnowledgeBase, tool: AnyTool, writable?: ReadonlySet<string>): ToolDefinition | undefined {
  const topics = topicsFor(kb, tool, writable);
  return tool.access === 'read' && topics.length === 0 ? undefined : definitionOf(tool, topics);
}
