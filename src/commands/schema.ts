// kb schema: the learn tool definition, or nothing when no topic has a
// subject left to learn (NOTES 14).
import type { Command } from '../cli/command.ts';
import { workspace } from '../cli/context.ts';
import { print } from '../cli/output.ts';
import { UsageError } from '../errors.ts';
import { hasLearnable, openTopic } from '../kb/topic.ts';
import { learnTool } from '../render/schema.ts';

const command: Command = {
  args: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('kb schema takes no arguments', ctx.positionals[0]);
    const config = await workspace(ctx);
    const learnable = config.topics.filter((t) => t.enable && hasLearnable(openTopic(t)));
    if (learnable.length === 0) return 0;
    print(`${JSON.stringify(learnTool(learnable), null, 2)}\n`);
    return 0;
  },
};

export default command;
