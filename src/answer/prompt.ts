// The <knowledge> system-prompt section as data (app/prompt.ts);
// render/prompt.ts writes it.
import type { Formatted } from '../kb/content/format.ts';
import type { TopicLabel } from './topic.ts';

export interface PreloadedTopic extends TopicLabel {
  description?: string;
  /** `after`: what follows the content inside the block (a skill's
   *  directory and bundled files). */
  subjects: { slug: string; content: Formatted; after?: string }[];
  /** Pre-loaded subjects left out to stay within the token budget: named,
   *  not expanded. */
  cut?: string[];
  /** More of them, too many to name within the budget: how many, and the
   *  folder whose listing shows them all (none: the topic's listing). */
  cutRest?: { count: number; folder?: string };
}
