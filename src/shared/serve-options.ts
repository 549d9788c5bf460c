// What `kb mcp` is asked to serve, as its command line gives it: the one
// description of it that the CLI (cli/commands/mcp.ts), which reads the
// flags, and the MCP server (mcp/server.ts, mcp/http-main.ts), which
// checks and uses them, share; they never import each other. Types only.

/** `--http [HOST:]PORT` and its options, as given (mcp/http-main.ts
 *  checks them). */
export interface HttpFlags {
  listen: string;
  /** KB_MCP_TOKEN, as the environment gives it. */
  tokenEnv: string | undefined;
  /** The --token-file's path. */
  tokenFile: string | undefined;
  insecure: boolean;
  allowOrigins: string[];
  timeout: string | undefined;
  idle: string | undefined;
}

/** What the server offers beyond reading: the topics `--write` names (IDs
 *  or titles), which the write tools may write. */
export interface ServeOptions {
  write: readonly string[];
  /** The topics the `knowledge` prompt lists (`--list`, else
   *  KB_PROMPT_LIST). */
  list?: { names: string[]; from: string };
  /** `--http [HOST:]PORT` and its options, as given. */
  http?: HttpFlags;
}
