// kb schema: the learn tool definition, or nothing when no topic has a
// subject left to learn (README, "The tool"). `--format` picks the provider's tool
// format (src/render/providers.ts); `generic` is the RFD's. `--tool search`
// prints the search tool instead (README, "Search and recall").
import { SCHEMA_FORMATS, toolInFormat, type SchemaFormat } from '../../render/providers.ts';
import { noArguments } from '../argv.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { openKnowledgeBase } from '../workspace.ts';

const command: Command = {
  args: {
    format: {
      type: 'enum',
      options: [...SCHEMA_FORMATS],
      default: 'generic',
      description: 'Tool format: generic (the RFD\'s), openai (strict function tool), anthropic, gemini (function declaration), mcp (tools/list entry)',
    },
    tool: { type: 'enum', options: ['learn', 'search'], default: 'learn', description: 'Which tool: learn (the RFD\'s) or search' },
  },
  help: {
    examples: [
      ['kb schema', "The tool definition in the RFD's format"],
      ['kb schema --format openai', 'The same tool as an OpenAI strict function tool'],
      ['kb schema --tool search --format anthropic', 'The search tool, for the Anthropic API'],
    ],
  },
  async run(ctx) {
    noArguments('schema', ctx.positionals);
    const format = (ctx.flags.format as SchemaFormat | undefined) ?? 'generic';
    const kb = await openKnowledgeBase(ctx);
    const tool = ctx.flags.tool === 'search' ? kb.searchTool() : kb.learnTool();
    if (tool) print(`${JSON.stringify(toolInFormat(format, tool), null, 2)}\n`);
    return 0;
  },
};

export default command;
