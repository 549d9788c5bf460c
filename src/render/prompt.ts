// The <knowledge> system-prompt section, exactly as the RFD specifies it.
import type { PromptCosts } from '../answer/cost.ts';
import type { Listing, SkillFiles } from '../answer/learn.ts';
import type { PreloadedTopic, Prompt } from '../answer/prompt.ts';
import { formattedText } from '../kb/content/format.ts';
import { estimateTokens } from '../kb/content/tokens.ts';
import { filter, map } from '../shared/arrays.ts';
import { quoted } from '../shared/controls.ts';
import { countText, trimEndChars } from '../shared/text.ts';
import { renderListing } from './listing.ts';
import { renderSkillFiles } from './skill-files.ts';
import { subjectBlock } from './subject.ts';
import { descriptionOf, headingOf, topicLine } from './topic.ts';

export const HIDDEN_NOTE = `(note: some topics may contain hidden subjects that are not listed via \`learn\`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)`;

/** The line after the topics available to learn. */
const USE_LEARN = 'Use the `learn` tool to consume this knowledge.';

/** What introduces the prompt's listings (`kb prompt --list`). */
const LISTINGS_INTRO = 'The subjects of some of these topics, as `learn` lists them (no need to list them again):';

/** A topic's listing (render/listing.ts `renderListing`) in the prompt. */
function listingBlock(topicId: string, listing: string): string {
  return `<listing ${quoted(topicId)}>\n${trimEndChars(listing, '\n')}\n</listing>`;
}

function listingText(l: Listing): string {
  return renderListing(l.topic, l.items, l.learned, l.fit, l.folder, l.topicNotes);
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
  for (const s of t.subjects) parts.push(formattedText(subjectBlock('', s.slug, s.content, skillText(s.skill))));
  const cut = cutNote(t);
  if (cut !== '') parts.push(cut);
  return `${parts.join('\n\n')}\n</topic>`;
}

/** What follows a skill's SKILL.md inside its block ('' for any other
 *  subject). */
function skillText(skill: SkillFiles | undefined): string {
  return skill === undefined ? '' : renderSkillFiles(skill.dir, skill.files);
}

/** The whole section, or '' when there is nothing to show: the pre-loaded
 *  topics, then the topics available to learn, with the listings (`kb
 *  prompt --list`) after them, before the line that says to use `learn`. */
export function renderPrompt(p: Prompt): string {
  const parts: string[] = [];
  const blocks = filter(p.preloaded, (t) => t.subjects.length > 0 || (t.cut?.length ?? 0) > 0 || (t.cutRest?.count ?? 0) > 0);
  if (blocks.length > 0) {
    parts.push('The following knowledge has been pre-loaded into your system prompt:');
    for (const t of blocks) parts.push(preloadedBlock(t));
  }
  if (p.available.length > 0) {
    parts.push('The following knowledge topics are available to learn:');
    parts.push(map(p.available, (t) => topicLine(t)).join('\n'));
    if (p.listings !== undefined && p.listings.length > 0) {
      parts.push(LISTINGS_INTRO);
      for (const l of p.listings) parts.push(listingBlock(l.topic.id, listingText(l)));
    }
    parts.push(USE_LEARN);
    parts.push(HIDDEN_NOTE);
  }
  if (parts.length === 0) return '';
  return `<knowledge>\n${parts.join('\n\n')}\n</knowledge>\n`;
}

/** Tokens of the note naming a topic's pre-loaded subjects that are not
 *  expanded, without the names (`... 2,951 subjects, which learn lists
 *  with topic "id", subjects "folder/".`), about. */
const CUT_NOTE_TOKENS = 60;

/** What the section's text costs (answer/cost.ts). A pre-loaded subject's
 *  block is its tags and a skill's files, one token more for what
 *  rounding each part may lose; a topic, its lines and its note naming
 *  what is not expanded. */
export const PROMPT_COSTS: PromptCosts = {
  whole: (p) => estimateTokens(renderPrompt(p)),
  topic: (t) => estimateTokens(topicLine(t)) + estimateTokens(descriptionOf(t)) + estimateTokens(headingOf(t)) + CUT_NOTE_TOKENS,
  subject: (slug, skill) => estimateTokens(`<subject ${quoted(slug)}>\n</subject>\n${skillText(skill)}`) + 1,
  listings: estimateTokens(`${LISTINGS_INTRO}\n\n\n\n`),
  listing: (topicId, l) => estimateTokens(listingBlock(topicId, l === undefined ? '' : listingText(l))),
};
