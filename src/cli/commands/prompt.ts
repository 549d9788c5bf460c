// kb prompt: the <knowledge> system-prompt section.
import type { Command } from '../command.ts';
import { workspace } from '../context.ts';
import { warn } from '../../shared/log.ts';
import { print } from '../output.ts';
import { UsageError } from '../../shared/errors.ts';
import { knowledgeSection } from '../../app/prompt.ts';

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
