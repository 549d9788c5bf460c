// kb list: every topic and its subjects, marking hidden, disabled, learned
// and binary ones, with sizes. For people; the learn tool is for models.
import { relative } from 'node:path';
import type { Command } from '../command.ts';
import { workspace } from '../context.ts';
import { print } from '../output.ts';
import { UsageError } from '../../shared/errors.ts';
import { sniffBinary } from '../../kb/fs/probe.ts';
import { openTopic } from '../../kb/index/view.ts';
import { renderList, type ListTopic } from '../../render/list.ts';

const command: Command = {
  args: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('kb list takes no arguments', ctx.positionals[0]);
    const config = await workspace(ctx);
    const topics: ListTopic[] = config.topics.map((topic) => {
      const view = openTopic(topic);
      return {
        id: topic.id,
        title: topic.title,
        enabled: topic.enable,
        dir: relative(config.root, topic.subjectsDir) || '.',
        rows: view.index.subjects.map((s) => {
          const marks: string[] = [];
          if (s.hidden) marks.push('hidden');
          if (view.disabled.has(s.slug)) marks.push('disabled');
          else if (view.learnedSlugs.has(s.slug)) marks.push('learned');
          if (sniffBinary(s.abs)) marks.push('binary');
          return { slug: s.slug, size: s.size, marks };
        }),
        problems: view.index.notices.map((n) => n.message),
      };
    });
    print(renderList(topics));
    return 0;
  },
};

export default command;
