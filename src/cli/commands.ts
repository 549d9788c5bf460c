// The command table: names and one-line descriptions are here so that
// `kb --help` lists them without loading the commands' code.
//
// The commands that pipelines run on every prompt (`prompt`, `schema`,
// `learn`) are part of the binary's entry module: loading a module on
// demand costs about a millisecond more than having it there, which is a
// sixth of a hello world's start-up. The others load on demand (`mcp` pulls
// in the MCP SDK, `check` and `list` more of the configuration code).
import type { CommandEntry } from './command.ts';
import learn from '../commands/learn.ts';
import prompt from '../commands/prompt.ts';
import schema from '../commands/schema.ts';

export const COMMANDS: Record<string, CommandEntry> = {
  prompt: { description: 'Print the <knowledge> system-prompt section', load: async () => prompt },
  schema: { description: 'Print the learn tool definition as JSON', load: async () => schema },
  learn: { description: 'Run the learn tool: list a topic, or load subjects', load: async () => learn },
  check: { description: 'Validate the knowledge-base configuration and files', load: async () => (await import('../commands/check.ts')).default },
  list: { description: 'Show every topic and its subjects, for people', load: async () => (await import('../commands/list.ts')).default },
  mcp: { description: 'Serve the knowledge base to MCP clients on stdio', load: async () => (await import('../commands/mcp.ts')).default },
  'config-schema': { description: 'Print the JSON Schema of the configuration, for editors', load: async () => (await import('../commands/config-schema.ts')).default },
  completion: { description: 'Print the shell completion script for bash, zsh or fish', load: async () => (await import('../commands/completion.ts')).default },
  __complete: { description: 'Completion candidates for the shell scripts', hidden: true, load: async () => (await import('../commands/complete.ts')).default },
};
