// kb: a file-based knowledge base for LLM assistants.
// No top-level await: the compiled binary is built with --bytecode.
//
// The entry module composes the program: the command table (each command
// imported only when it runs), the MCP server for `kb mcp` (the CLI and the
// MCP front end never import each other), and the reader thread's URL.
import type { Command, CommandEntry, CommandTable } from './cli/command.ts';
import { main } from './cli/main.ts';

/** A tool's command (cli/commands/tool.ts): the command of the tool of
 *  that name in the registry (app/tools.ts), which says what it does. */
function tool(load: () => Promise<{ default: Command }>): CommandEntry {
  return { tool: true, load: async () => (await load()).default };
}

const COMMANDS: CommandTable = {
  init: { description: 'Make this directory a workspace, with a topic for each folder given', load: async () => (await import('./cli/commands/init.ts')).default },
  prompt: { description: 'Print the <knowledge> system-prompt section', load: async () => (await import('./cli/commands/prompt.ts')).default },
  schema: { description: 'Print a tool definition as JSON (the learn tool, or the one --tool names)', load: async () => (await import('./cli/commands/schema.ts')).default },
  learn: tool(() => import('./cli/commands/learn.ts')),
  search: tool(() => import('./cli/commands/search.ts')),
  recall: { description: 'Print the subjects most relevant to a text, packed within a token budget', load: async () => (await import('./cli/commands/recall.ts')).default },
  remember: tool(() => import('./cli/commands/remember.ts')),
  revise: tool(() => import('./cli/commands/revise.ts')),
  forget: tool(() => import('./cli/commands/forget.ts')),
  check: { description: 'Validate the knowledge-base configuration and files', load: async () => (await import('./cli/commands/check.ts')).default },
  list: { description: 'Show every topic and its subjects, for people', load: async () => (await import('./cli/commands/list.ts')).default },
  mcp: {
    description: 'Serve the knowledge base to MCP clients on stdio',
    load: async () => (await import('./cli/commands/mcp.ts')).mcpCommand(async (options, serving) => (await import('./mcp/server.ts')).serve(options, serving)),
  },
  'config-schema': { description: 'Print the JSON Schema of the configuration, for editors', load: async () => (await import('./cli/commands/config-schema.ts')).default },
  completion: { description: 'Print the shell completion script for bash, zsh, fish or PowerShell', load: async () => (await import('./cli/commands/completion.ts')).default },
  __complete: { description: 'Completion candidates for the shell scripts', hidden: true, load: async () => (await import('./cli/commands/complete.ts')).default },
};

// Relative to this file, the URL names the thread's entry point both when
// the sources run and in the compiled binary (src/reader-thread.ts).
const readerThreadUrl = new URL('./reader-thread.ts', import.meta.url).href;

main(process.argv.slice(2), COMMANDS, readerThreadUrl).then((code) => {
  process.exitCode = code;
});
