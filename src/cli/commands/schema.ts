// kb schema: the learn tool definition, or nothing when no topic has a
// subject left to learn (NOTES 14). `--format` picks the provider's tool
// format (src/render/formats.ts); `generic` is the RFD's.
import type { Command } from '../command.ts';
import { workspace } from '../context.ts';
import { print } from '../output.ts';
import { UsageError } from '../../shared/errors.ts';
import { hasLearnable, openTopic } from '../../kb/index/view.ts';
import { SCHEMA_FORMATS, toolInFormat, type SchemaFormat } from '../../render/formats.ts';

const command: Command = {
  args: {
    format: {
      type: 'enum',
      options: [...SCHEMA_FORMATS],
      default: 'generic',
      description: 'Tool format: generic (the RFD\'s), openai (strict function tool), anthropic, gemini (function declaration), mcp (tools/list entry)',
    },
  },
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('kb schema takes no arguments', ctx.positionals[0]);
    const format = (ctx.flags.format as SchemaFormat | undefined) ?? 'generic';
    const config = await workspace(ctx);
    const learnable = config.topics.filter((t) => t.enable && hasLearnable(openTopic(t)));
    if (learnable.length === 0) return 0;
    print(`${JSON.stringify(toolInFormat(format, learnable), null, 2)}\n`);
    return 0;
  },
};

export default command;
