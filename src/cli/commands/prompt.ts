// kb prompt: the <knowledge> system-prompt section.
import { prompt } from '../../app/prompt.ts';
import { listedNames, PROMPT_LIST_ENV } from '../../app/prompt-names.ts';
import { renderPrompt } from '../../render/prompt.ts';
import { MAX_TOKENS_ARG } from '../budget.ts';
import { HTML_ARG } from '../html-flag.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { noArguments } from '../argv.ts';
import { openKnowledgeBase, report } from '../workspace.ts';

const command: Command = {
  args: {
    ...MAX_TOKENS_ARG,
    ...HTML_ARG,
    list: { type: 'string', valueHint: 'topic', description: `Also list this topic's subjects with their descriptions, within the budget (repeatable; default: ${PROMPT_LIST_ENV}, comma-separated)` },
  },
  help: {
    examples: [
      ['kb prompt', 'The section for the workspace around the working directory'],
      ["kb prompt -k 'project/maintainers/*'", 'Also pre-load the subjects under maintainers/ of topic project'],
      ['kb prompt --list skills', "Also list the skills topic's subjects, so the model knows them without a call"],
    ],
  },
  async run(ctx) {
    noArguments('prompt', ctx.positionals);
    const { names, from } = listedNames((ctx.flags.list as string[] | undefined) ?? [], ctx.env);
    // The section names topics and holds what they pre-load, never a
    // subject's title: the title rules are loaded only for a listing
    // (app/knowledge-base.ts OpenOptions.titles).
    const kb = await openKnowledgeBase(ctx, { titles: names.length > 0 });
    const section = await prompt(kb);
    // The listings' module is loaded only when a topic is to be listed.
    const { prompt: shown, problems } = names.length === 0 ? section : await (await import('../../app/prompt-list.ts')).withListings(kb, section, names, from);
    await report(problems);
    print(renderPrompt(shown));
    return 0;
  },
};

export default command;
