// kb prompt: the <knowledge> system-prompt section.
import type { Command } from '../cli/command.ts';
import { workspace } from '../cli/context.ts';
import { warn } from '../cli/log.ts';
import { print } from '../cli/output.ts';
import { UsageError } from '../errors.ts';
import { hasListable, loadLearned, openTopic } from '../kb/topic.ts';
import { renderPrompt, type PreloadedTopic } from '../render/prompt.ts';
import type { TopicLabel } from '../render/topic.ts';
import { warnNotices } from './notices.ts';

const command: Command = {
  args: {},
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('kb prompt takes no arguments', ctx.positionals[0]);
    const config = await workspace(ctx);
    const preloaded: PreloadedTopic[] = [];
    const available: TopicLabel[] = [];
    for (const topic of config.topics) {
      if (!topic.enable) continue;
      const view = openTopic(topic);
      await warnNotices(view);
      const subjects: PreloadedTopic['subjects'] = [];
      for (const item of loadLearned(view)) {
        if (item.kind === 'subject') subjects.push({ slug: item.slug, content: item.content });
        else if (item.kind === 'binary') await warn(`learned subject "${item.slug}" of topic "${topic.id}" is a binary file; skipped`);
        else if (item.kind === 'unreadable') await warn(`cannot read learned subject "${item.slug}" of topic "${topic.id}": ${item.message}`);
      }
      if (subjects.length > 0) preloaded.push({ ...topic, subjects });
      if (hasListable(view)) available.push(topic);
    }
    print(renderPrompt(preloaded, available));
    return 0;
  },
};

export default command;
