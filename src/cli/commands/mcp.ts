// kb mcp: serves the knowledge base to MCP clients (Claude Code, Cursor,
// Codex, Gemini CLI...) on stdio. The server (src/mcp/server.ts) is handed
// in by the entry module, which imports it, and with it the MCP SDK, only
// when this command runs: no other command loads them, and the CLI and the
// MCP front end never import each other.
//
// It draws no progress line, even when its stderr is a terminal
// (docs/commands.md, "At a terminal"). That terminal is not kb's: a client
// running in a terminal (a chat UI drawn in it) that hands its servers its
// own stderr would have a line redrawn with `\r` and ESC [K land in the
// middle of its screen, and a person trying the server by hand types the
// requests on that same terminal, where the redrawn line would overwrite
// what they type. A client that wants progress has MCP's own
// notifications for it.
import type { WorkspaceOptions } from '../../app/knowledge-base.ts';
import { listedNames, PROMPT_LIST_ENV } from '../../app/prompt-names.ts';
import { noArguments } from '../argv.ts';
import { MAX_TOKENS_ARG } from '../budget.ts';
import type { Command } from '../command.ts';
import { workspaceOptions } from '../workspace.ts';
import { enableProgress } from '../../shared/progress.ts';
import { NO_CACHE_ARG } from '../cache-flag.ts';

/** What the server offers beyond reading: the topics `--write` names (IDs
 *  or titles), which the write tools may write. */
export interface ServeOptions {
  write: string[];
  /** The topics the `knowledge` prompt lists (`--list`, else
   *  KB_PROMPT_LIST). */
  list?: { names: string[]; from: string };
}

export type Serve = (options: WorkspaceOptions, serve: ServeOptions) => Promise<number>;

export function mcpCommand(serve: Serve): Command {
  return {
    args: {
      write: { type: 'string', valueHint: 'topic', description: 'Serve the tools that write (kb --help names them) for this topic (repeatable; writing is off by default)' },
      list: { type: 'string', valueHint: 'topic', description: `The knowledge prompt also lists this topic's subjects with their descriptions (repeatable; default: ${PROMPT_LIST_ENV})` },
      ...MAX_TOKENS_ARG,
      ...NO_CACHE_ARG,
    },
    help: {
      examples: [
        ['kb mcp', 'Serve the workspace around the working directory'],
        ['claude mcp add kb -- kb mcp', 'Register it with Claude Code, for this project'],
        ['kb mcp --write notes', 'Also let the model remember, revise and forget subjects of topic notes'],
        ['kb mcp --list skills', "The knowledge prompt also lists the skills topic's subjects"],
      ],
    },
    async run(ctx) {
      noArguments('mcp', ctx.positionals);
      enableProgress(false);
      const list = listedNames((ctx.flags.list as string[] | undefined) ?? [], ctx.env);
      return serve(await workspaceOptions(ctx), { write: (ctx.flags.write as string[] | undefined) ?? [], ...(list.names.length > 0 ? { list } : {}) });
    },
  };
}
