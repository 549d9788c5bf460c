// The <knowledge> system-prompt section, exactly as the RFD specifies it.
import { formattedText, type Formatted } from '../kb/content/format.ts';
import { subjectBlock } from './subject.ts';
import { quoted } from '../shared/controls.ts';
import { countText, trimEndChars } from '../shared/text.ts';
import type { PreloadedTopic } from '../answer/prompt.ts';
import type { TopicLabel } from '../answer/topic.ts';
import { descriptionOf, headingOf, topicLine } from './topic.ts';
import { filter, map } from '../shared/arrays.ts';

export const HIDDEN_NOTE = `(note: some topics may contain hidden subjects that are not listed via \`learn\`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)`;

/** The line after the topics available to learn. */
const USE_LEARN = 'Use the `learn` tool to consume this knowledge.';

/** What introduces the prompt's listings (`kb prompt --list`). */
const LISTINGS_INTRO = 'The subjects of some of these topics, as `learn` lists them (no need to list them again):';

/** A topic's listing (render/learn.ts `renderListing`) in the prompt. */
export function listingBlock(topicId: string, listing: string): string {
  return `<listing ${quoted(topicId)}>\n${trimEndChars(listing, '\n')}\n</listing>`;
}

/** The section with `blocks` (listingBlock) after the topics available to
 *  learn, before the line that says to use `learn`; `text` '' gives what
 *  the intro alone adds. A section without that line (no topic to learn)
 *  is returned as it is. */
export function insertListings(text: string, blocks: readonly string[]): string {
  const added = `${LISTINGS_INTRO}\n\n${blocks.join('\n\n')}\n\n`;
  if (text === '') return added;
  const at = text.indexOf(`\n\n${USE_LEARN}\n`);
  return at < 0 ? text : `${text.slice(0, at + 2)}${added}${text.slice(at + 2)}`;
}

/** The sentence naming a topic's pre-loaded subjects that were not
 *  expanded, or ''. */
export function cutNote(t: Pick<PreloadedTopic, 'id' | 'cut' | 'cutRest'>): string {
  const named = t.cut ?? [];
  const rest = t.cutRest?.count ?? 0;
  if (named.length === 0 && rest === 0) return '';
  const head = 'Also pre-loaded, but not expanded here to stay within the token budget (load them with `learn`): ';
  if (rest === 0) return `${head}${named.map(quoted).join(', ')}.`;
  const listed = `topic ${quoted(t.id)}${t.cutRest?.folder !== undefined ? `, subjects ${quoted(t.cutRest.folder)}` : ''}`;
  const more = named.length === 0 ? `${countText(rest)} subject${rest === 1 ? '' : 's'}` : `${named.map(quoted).join(', ')} and ${countText(rest)} more`;
  return `${head}${more}, which \`learn\` lists with ${listed}.`;
}

function preloadedBlock(t: PreloadedTopic): string {
  const parts = [`<topic ${quoted(headingOf(t))}>`];
  const description = descriptionOf(t);
  if (description) parts.push(description);
  for (const s of t.subjects) parts.push(formattedText(subjectBlock('', s.slug, s.content, s.after)));
  const cut = cutNote(t);
  if (cut !== '') parts.push(cut);
  return `${parts.join('\n\n')}\n</topic>`;
}

/** The whole section, or '' when there is nothing to show. */
export function renderPrompt(preloaded: PreloadedTopic[], available: TopicLabel[]): string {
  const parts: string[] = [];
  const blocks = filter(preloaded, (t) => t.subjects.length > 0 || (t.cut?.length ?? 0) > 0 || (t.cutRest?.count ?? 0) > 0);
  if (blocks.length > 0) {
    parts.push('The following knowledge has been pre-loaded into your system prompt:');
    for (const t of blocks) parts.push(preloadedBlock(t));
  }
  if (available.length > 0) {
    parts.push('The following knowledge topics are available to learn:');
    parts.push(map(available, (t) => topicLine(t)).join('\n'));
    parts.push(USE_LEARN);
    parts.push(HIDDEN_NOTE);
  }
  if (parts.length === 0) return '';
  return `<knowledge>\n${parts.join('\n\n')}\n</knowledge>\n`;
}
