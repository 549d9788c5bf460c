// What a topic's walk noticed (a missing directory, a dangling link, a
// symlink loop, a slug collision...), and learned patterns that match
// nothing, as warnings on stderr.
import { warn } from '../cli/log.ts';
import type { TopicView } from '../kb/topic.ts';

export async function warnNotices(view: TopicView): Promise<void> {
  for (const n of view.index.notices) await warn(`topic "${view.topic.id}": ${n.message}`);
  for (const p of view.learnedPatterns) {
    if (p.kind === 'invalid') await warn(`topic "${view.topic.id}": learned pattern "${p.pattern}" is invalid: ${p.reason}`);
    else if (p.slugs.length === 0) await warn(`topic "${view.topic.id}": learned pattern "${p.pattern}" matches no subject`);
  }
}
