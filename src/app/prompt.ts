// The <knowledge> system-prompt section for the configured topics, shared by
// `kb prompt` and the MCP prompt `knowledge`. Returns the text and what the
// user should be told (on stderr, never to the model).
import type { Topic } from '../config/types.ts';
import { hasListable, loadLearned, openTopic, type TopicView } from '../kb/index/view.ts';
import { renderPrompt, type PreloadedTopic } from '../render/prompt.ts';
import type { TopicLabel } from '../render/topic.ts';

export interface Section {
  /** The whole section, or '' when there is nothing to show. */
  text: string;
  warnings: string[];
}

export function knowledgeSection(topics: readonly Topic[]): Section {
  const preloaded: PreloadedTopic[] = [];
  const available: TopicLabel[] = [];
  const warnings: string[] = [];
  for (const topic of topics) {
    if (!topic.enable) continue;
    const view = openTopic(topic);
    warnings.push(...viewNotices(view));
    const subjects: PreloadedTopic['subjects'] = [];
    for (const item of loadLearned(view)) {
      if (item.kind === 'subject') subjects.push({ slug: item.slug, content: item.content });
      else if (item.kind === 'binary') warnings.push(`learned subject "${item.slug}" of topic "${topic.id}" is a binary file; skipped`);
      else if (item.kind === 'unreadable') warnings.push(`cannot read learned subject "${item.slug}" of topic "${topic.id}": ${item.message}`);
    }
    if (subjects.length > 0) preloaded.push({ ...topic, subjects });
    if (hasListable(view)) available.push(topic);
  }
  return { text: renderPrompt(preloaded, available), warnings };
}

/** What a topic's walk noticed (a missing directory, a dangling link, a
 *  symlink loop, a slug collision...), and learned patterns that match
 *  nothing. */
export function viewNotices(view: TopicView): string[] {
  const id = view.topic.id;
  const out = view.index.notices.map((n) => `topic "${id}": ${n.message}`);
  for (const p of view.learnedPatterns) {
    if (p.kind === 'invalid') out.push(`topic "${id}": learned pattern "${p.pattern}" is invalid: ${p.reason}`);
    else if (p.slugs.length === 0) out.push(`topic "${id}": learned pattern "${p.pattern}" matches no subject`);
  }
  return out;
}
