// kb list: every topic and its subjects, marking hidden, disabled, learned
// and binary ones, with sizes. For people; the learn tool is for models.
import { relative } from 'node:path';
import { list } from '../../app/list.ts';
import { renderList } from '../../render/list.ts';
import { noArguments } from '../argv.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { openKnowledgeBase } from '../workspace.ts';

const command: Command = {
  args: {},
  help: {
    examples: [
      ['kb list', 'The topics and subjects of the workspace around the working directory'],
      ['kb -w examples list', 'Those of the workspace in examples/'],
    ],
  },
  async run(ctx) {
    noArguments('list', ctx.positionals);
    const kb = await openKnowledgeBase(ctx);
    print(renderList(list(kb, (dir) => relative(kb.config.root, dir) || '.')));
    return 0;
  },
};

export default command;
