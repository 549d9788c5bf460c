// kb: a file-based knowledge base for LLM assistants.
// No top-level await: the compiled binary is built with --bytecode.
//
// The entry module composes the program: the command table (each command
// imported only when it runs), the MCP server for `kb mcp` (the CLI and the
// MCP front end never import each other), and the reader thread's URL.
import type { CommandTable } from './cli/command.ts';
import { main } from './cli/main.ts';

const COMMANDS: CommandTable = {
  init: { description: 'Make this directory a workspace, with a topic for each folder given', load: async () => (await import('./cli/commands/init.ts')).default },
  prompt: { description: 'Print the <knowledge> system-prompt section', load: async () => (await import('./cli/commands/prompt.ts')).default },
  schema: { description: 'Print a tool definition as JSON (learn, search, remember, revise, forget)', load: async () => (await import('./cli/commands/schema.ts')).default },
  learn: { description: 'Run the learn tool: list a topic, or load subjects', load: async () => (await import('./cli/commands/learn.ts')).default },
  search: { description: 'Search the subjects by what they say, best first', load: async () => (await import('./cli/commands/search.ts')).default },
  recall: { description: 'Print the subjects most relevant to a text, packed within a token budget', load: async () => (await import('./cli/commands/recall.ts')).default },
  remember: { description: 'Write a new subject to a topic (never a duplicate)', load: async () => (await import('./cli/commands/remember.ts')).default },
  revise: { description: 'Replace a subject\'s text, keeping its slug and its earlier text', load: async () => (await import('./cli/commands/revise.ts')).default },
  forget: { description: 'Remove a subject from a topic (git keeps its history)', load: async () => (await import('./cli/commands/forget.ts')).default },
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
