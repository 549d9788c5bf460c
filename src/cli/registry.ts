// The command table: names and one-line descriptions are here so that
// `kb --help` lists them without importing any command.
import type { CommandEntry } from './command.ts';

export const COMMANDS: Record<string, CommandEntry> = {
  prompt: { description: 'Print the <knowledge> system-prompt section', load: async () => (await import('./commands/prompt.ts')).default },
  schema: { description: 'Print the learn tool definition as JSON', load: async () => (await import('./commands/schema.ts')).default },
  learn: { description: 'Run the learn tool: list a topic, or load subjects', load: async () => (await import('./commands/learn.ts')).default },
  check: { description: 'Validate the knowledge-base configuration and files', load: async () => (await import('./commands/check.ts')).default },
  list: { description: 'Show every topic and its subjects, for people', load: async () => (await import('./commands/list.ts')).default },
  mcp: { description: 'Serve the knowledge base to MCP clients on stdio', load: async () => (await import('./commands/mcp.ts')).default },
  'config-schema': { description: 'Print the JSON Schema of the configuration, for editors', load: async () => (await import('./commands/config-schema.ts')).default },
  completion: { description: 'Print the shell completion script for bash, zsh or fish', load: async () => (await import('./commands/completion.ts')).default },
  __complete: { description: 'Completion candidates for the shell scripts', hidden: true, load: async () => (await import('./commands/complete.ts')).default },
};
