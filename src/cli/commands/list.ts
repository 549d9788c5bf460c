// kb list: every topic and its subjects, marking skills, bundled, hidden,
// disabled, learned and binary ones, with sizes and descriptions; with
// --ignored, what ignore files left out. For people; the learn tool is for
// models.
import { relative } from 'node:path';
import { list } from '../../app/list.ts';
import { renderList, renderListJson } from '../../render/list.ts';
import { noArguments } from '../argv.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { openKnowledgeBase } from '../workspace.ts';
import { isVerbose } from '../../shared/log.ts';

const command: Command = {
  args: {
    format: { type: 'enum', options: ['text', 'json'], default: 'text', description: 'Output format' },
    ignored: { type: 'boolean', description: 'Also show what .gitignore, .kbignore and the built-in defaults leave out, and by which rule' },
  },
  help: {
    examples: [
      ['kb list', 'The topics and subjects of the workspace around the working directory'],
      ['kb -w examples list', 'Those of the workspace in examples/'],
      ['kb list --ignored', 'Also what ignore files and the built-in defaults leave out'],
    ],
  },
  async run(ctx) {
    noArguments('list', ctx.positionals);
    const kb = await openKnowledgeBase(ctx);
    const topics = await list(kb, (dir) => relative(kb.config.root, dir) || '.', { ignored: ctx.flags.ignored === true });
    print(ctx.flags.format === 'json' ? renderListJson(topics) : renderList(topics, { verbose: isVerbose() }));
    return 0;
  },
};

export default command;
