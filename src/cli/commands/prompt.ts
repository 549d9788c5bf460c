// kb prompt: the <knowledge> system-prompt section.
import { prompt } from '../../app/prompt.ts';
import { MAX_TOKENS_ARG } from '../budget.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { noArguments } from '../argv.ts';
import { openKnowledgeBase, report } from '../workspace.ts';

const command: Command = {
  args: { ...MAX_TOKENS_ARG },
  help: {
    examples: [
      ['kb prompt', 'The section for the workspace around the working directory'],
      ["kb prompt -k 'project/maintainers/*'", 'Also pre-load the subjects under maintainers/ of topic project'],
    ],
  },
  async run(ctx) {
    noArguments('prompt', ctx.positionals);
    const { text, problems } = prompt(await openKnowledgeBase(ctx));
    await report(problems);
    print(text);
    return 0;
  },
};

export default command;
