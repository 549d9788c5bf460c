// What one tool is (app/tools.ts lists them): its definition, its argument
// validation, and its run function, in one module per tool
// (app/tools/<name>.ts). Run functions import their operation (app/learn.ts,
// app/search.ts, app/memory.ts) only when they run, so that a command that
// only describes the tools (`kb schema`, `kb mcp`'s tools/list) loads none
// of it.
import type { ReadAs } from '../../kb/index/load.ts';
import type { Chunk } from '../../answer/learn.ts';
import type { Source } from '../../answer/write.ts';
import type { Problem } from '../../shared/problem.ts';
import type { JsonSchemaObject, ToolAnnotations } from '../../shared/tool.ts';
import type { KnowledgeBase } from '../knowledge-base.ts';
import type { Parsed } from './validate.ts';
import { map } from '../../shared/arrays.ts';

/** A topic as a tool's description names it. */
export interface ToolTopic {
  id: string;
  title?: string;
}

/** Where a tool call's result goes. */
export interface ToolOutput {
  /** How subject bodies are wanted: `bytes` (as read, to stream them) or
   *  `text`. */
  readonly as: ReadAs;
  /** The next chunk of the model's text (a bytes chunk may be a view into
   *  a buffer the next read reuses: write or copy it now). */
  write(chunk: Chunk): void;
  /** Something the user should know (stderr), never the model. */
  problem(p: Problem): void | Promise<void>;
  /** True once the output takes no more text (a bound on one result). */
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

export interface Tool<A = unknown> {
  /** [a-zA-Z_][a-zA-Z0-9_-]{0,63}: valid in every provider's format. */
  readonly name: string;
  readonly title: string;
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
  /** Runs a validated call: the model's text into `out`. Returns whether
   *  the result is an error (`kb` exits 1, MCP sets `isError`). */
  run(kb: KnowledgeBase, args: A, out: ToolOutput, ctx: RunContext): Promise<boolean>;
  /** What the model is told after a result cut at the limit of one MCP
   *  result. */
  readonly whenCut: string;
}

/** A tool of any arguments (the registry's list: each tool's `validate`
 *  gives what its `run` takes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;

/** The `- id (title)` lines tool descriptions list topics with. */
export function topicLines(topics: readonly ToolTopic[]): string {
  return map(topics, (t) => (t.title ? `- ${t.id} (${t.title})` : `- ${t.id}`)).join('\n');
}
