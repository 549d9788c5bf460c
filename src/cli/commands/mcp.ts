// kb mcp: serves the knowledge base to MCP clients (Claude Code, Cursor,
// Codex, Gemini CLI...) on stdio. The server (src/mcp/server.ts) is handed
// in by the entry module, which imports it, and with it the MCP SDK, only
// when this command runs: no other command loads them, and the CLI and the
// MCP front end never import each other.
//
// It draws no progress line, even when its stderr is a terminal
// (docs/reference/commands.md, "At a terminal"). That terminal is not kb's: a client
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
import { HTML_ARG } from '../html-flag.ts';
import type { Command } from '../command.ts';
import { workspaceOptions } from '../workspace.ts';
import { enableProgress } from '../../shared/progress.ts';
import type { HttpFlags, ServeOptions } from '../../shared/serve-options.ts';
import { NO_CACHE_ARG } from '../cache-flag.ts';
import { UsageError } from '../../shared/errors.ts';

const HTTP_ONLY = ['token-file', 'insecure', 'allow-origin', 'timeout', 'idle'] as const;

export type Serve = (options: WorkspaceOptions, serve: ServeOptions) => Promise<number>;

export function mcpCommand(serve: Serve): Command {
  return {
    args: {
      write: { type: 'string', valueHint: 'topic', description: 'Serve the tools that write (kb --help names them) for this topic (repeatable; writing is off by default)' },
      list: { type: 'string', valueHint: 'topic', description: `The knowledge prompt also lists this topic's subjects with their descriptions (repeatable; default: ${PROMPT_LIST_ENV})` },
      ...MAX_TOKENS_ARG,
      ...HTML_ARG,
      ...NO_CACHE_ARG,
      http: { type: 'string', valueHint: '[host:]port', description: 'Serve over HTTP (Streamable HTTP, endpoint /mcp) instead of stdio; the host defaults to 127.0.0.1' },
      'token-file': { type: 'string', valueHint: 'file', description: 'With --http: clients must send this bearer token (default: KB_MCP_TOKEN)' },
      insecure: { type: 'boolean', description: 'With --http: serve a non-loopback address without a token' },
      'allow-origin': { type: 'string', valueHint: 'origin', description: 'With --http: a browser Origin let in besides loopback pages (repeatable)' },
      timeout: { type: 'string', valueHint: 'seconds', description: 'With --http: the longest a request may take to arrive, and a connection may stay idle (default 10)' },
      idle: { type: 'string', valueHint: 'seconds', description: 'With --http: a 2025-11-25 session ends after this long unused (default 1800)' },
    },
    help: {
      examples: [
        ['kb mcp', 'Serve the workspace around the working directory'],
        ['claude mcp add kb -- kb mcp', 'Register it with Claude Code, for this project'],
        ['kb mcp --write notes', 'Also let the model remember, revise and forget subjects of topic notes'],
        ['kb mcp --list skills', "The knowledge prompt also lists the skills topic's subjects"],
        ['KB_MCP_TOKEN=$(cat token) kb mcp --http 0.0.0.0:8080', 'Serve a team over HTTP, with a bearer token'],
      ],
    },
    async run(ctx) {
      noArguments('mcp', ctx.positionals);
      enableProgress(false);
      const list = listedNames((ctx.flags.list as string[] | undefined) ?? [], ctx.env);
      const http = httpFlags(ctx.flags, ctx.env);
      return serve(await workspaceOptions(ctx), { write: (ctx.flags.write as string[] | undefined) ?? [], ...(list.names.length > 0 ? { list } : {}), ...(http ? { http } : {}) });
    },
  };
}

function httpFlags(flags: Record<string, string | boolean | string[]>, env: Readonly<Record<string, string | undefined>>): HttpFlags | undefined {
  const listen = flags.http as string | undefined;
  if (listen === undefined) {
    const stray = HTTP_ONLY.find((f) => flags[f] !== undefined && !(Array.isArray(flags[f]) && flags[f].length === 0));
    if (stray !== undefined) throw new UsageError(`--${stray} is an option of kb mcp --http`, `--${stray}`);
    return undefined;
  }
  return {
    listen,
    tokenEnv: env.KB_MCP_TOKEN,
    tokenFile: flags['token-file'] as string | undefined,
    insecure: flags.insecure === true,
    allowOrigins: (flags['allow-origin'] as string[] | undefined) ?? [],
    timeout: flags.timeout as string | undefined,
    idle: flags.idle as string | undefined,
  };
}
