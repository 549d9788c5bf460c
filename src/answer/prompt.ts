// The <knowledge> system-prompt section as data (app/prompt.ts);
// render/prompt.ts writes it.
import type { Formatted } from '../kb/content/format.ts';
import type { Listing, SkillFiles } from './learn.ts';
import type { TopicLabel } from './topic.ts';

export interface PreloadedTopic extends TopicLabel {
  description?: string;
  /** `skill`: a skill's directory and bundled files, which follow its
   *  content inside the block. */
  subjects: { slug: string; content: Formatted; skill?: SkillFiles }[];
  /** Pre-loaded subjects left out to stay within the token budget: named,
   *  not expanded. */
  cut?: string[];
  /** More of them, too many to name within the budget: how many, and the
   *  folder whose listing shows them all (none: the topic's listing). */
  cutRest?: { count: number; folder?: string };
}

/** The whole section: the pre-loaded topics, the topics available to
 *  learn, and the listings of some of them (`kb prompt --list`), after
 *  the topics available. */
export interface Prompt {
  preloaded: readonly PreloadedTopic[];
  available: readonly TopicLabel[];
  listings?: readonly Listing[];
}
