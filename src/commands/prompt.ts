// kb prompt: the <knowledge> system-prompt section.
import type { Command } from '../cli/command.ts';
import { workspace } from '../cli/context.ts';
import { warn } from '../cli/log.ts';
import { print } from '../cli/output.ts';
import { UsageError } from '../errors.ts';
import { knowledgeSection } from '../tool/prompt.ts';

const command: Command = {
  args: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('kb prompt takes no arguments', ctx.positionals[0]);
    const config = await workspace(ctx);
    const { text, warnings } = knowledgeSection(config.topics);
    for (const w of warnings) await warn(w);
    print(text);
    return 0;
  },
};

export default command;
