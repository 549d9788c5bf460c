// kb mcp: serves the knowledge base to MCP clients (Claude Code, Cursor,
// Codex, Gemini CLI...) on stdio. The server and the MCP SDK are imported
// only here, when the command runs: no other command loads them.
import type { Command } from '../command.ts';
import { UsageError } from '../../shared/errors.ts';

const command: Command = {
  args: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('kb mcp takes no arguments', ctx.positionals[0]);
    const { serve } = await import('../../mcp/server.ts');
    return serve(ctx);
  },
};

export default command;
