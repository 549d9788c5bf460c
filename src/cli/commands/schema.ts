// kb schema: the learn tool definition, or nothing when no topic has a
// subject left to learn (README, "The tool"). `--format` picks the provider's tool
// format (src/render/providers.ts); `generic` is the RFD's.
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
  },
  help: {
    examples: [
      ['kb schema', "The tool definition in the RFD's format"],
      ['kb schema --format openai', 'The same tool as an OpenAI strict function tool'],
    ],
  },
  async run(ctx) {
    noArguments('schema', ctx.positionals);
    const format = (ctx.flags.format as SchemaFormat | undefined) ?? 'generic';
    const tool = (await openKnowledgeBase(ctx)).learnTool();
    if (tool) print(`${JSON.stringify(toolInFormat(format, tool), null, 2)}\n`);
    return 0;
  },
};

export default command;
