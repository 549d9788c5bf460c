// The tools' names, in the order they are listed, and which of them write:
// what a command that describes one tool needs to know of the others
// without loading them (`kb schema`'s --tool and --write). The registry
// (app/tools.ts) is built in this order, and its test checks that the
// tools that write are these.
import type { ToolName } from '../../answer/tool.ts';

/** Every tool, in the order they are listed. */
export const TOOL_NAMES = ['learn', 'search', 'remember', 'revise', 'forget'] as const satisfies readonly ToolName[];

/** The tools whose `access` is `write`, in order. */
export const WRITE_TOOL_NAMES = ['remember', 'revise', 'forget'] as const satisfies readonly ToolName[];

/** A name of ToolName missing from TOOL_NAMES fails to compile here. */
export const ALL_NAMED: Exclude<ToolName, (typeof TOOL_NAMES)[number]> extends never ? true : never = true;
