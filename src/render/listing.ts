// A topic's listing as the model reads it (`learn` with only the topic, or
// a folder; the prompt's listings): its lines, its notes, and what its text
// costs (app/listing.ts fits it to the budget). Apart from render/learn.ts,
// so that the prompt's listings load nothing of the learn tool's text.
import type { ListingCosts } from '../answer/cost.ts';
import type { Listed, ListingFit, ListingTopic, TopicNote } from '../answer/learn.ts';
import { TokenTally } from '../kb/content/tokens.ts';
import { CONTROL, escapeControls, quoted } from '../shared/controls.ts';
import { map } from '../shared/arrays.ts';
import { aboutTokens, countText } from '../shared/text.ts';
import { descriptionOf, headingLine } from './topic.ts';

/** One line about a topic's directory. */
export function renderTopicNote(n: TopicNote, topicId: string): string {
  if (n.kind === 'no-directory') return `Topic ${quoted(topicId)} has no subjects: its subjects directory ${n.why}.`;
  return `Topic ${quoted(topicId)} is only partly listed: kb reads at most ${countText(n.limit)} directory entries per topic, so some subjects may be missing.`;
}

/** Characters of a description a listing shows, about 80 tokens: the
 *  median description in a public skills collection (anthropics/skills,
 *  17 skills: 204 to 1068 characters) is 319 characters, so half are shown
 *  whole and the rest keep their first sentences, where descriptions say
 *  what a subject is and when to use it; a hundred described subjects
 *  then cost at most about 8k tokens. A longer one ends with an ellipsis;
 *  the subject's content always has the whole of it. */
export const DESCRIPTION_CHARS = 320;

/** A description on one line: runs of white space (line breaks included)
 *  become one space, control characters are escaped, and past `max`
 *  characters it is cut (at a space when one is near) and ends with `…`. */
export function oneLine(text: string, max = DESCRIPTION_CHARS): string {
  // Most descriptions are one short line already: one test, nothing else.
  if (text.length <= max && !NOT_ONE_LINE.test(text)) return text;
  const flat = escapeControls(text.replace(/[\s\u0085]+/g, ' ').trim());
  // No more code units than `max`: no more characters either.
  if (flat.length <= max) return flat;
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  let cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  if (space >= max * 0.8) cut = cut.slice(0, space);
  return `${cut.trimEnd()}…`;
}

/** White space other than single spaces between words, or a control
 *  character. */
const NOT_ONE_LINE = new RegExp(`\\s\\s|[^\\S ]|^\\s|\\s$|\\u0085|${CONTROL.source}`);

/** Characters of a folder's description (its index page's line) on the
 *  line that sums the folder up, at most: a summed-up folder stands for
 *  many subjects, so it keeps a short one even where the subjects'
 *  descriptions are left out. */
export const FOLDER_CHARS = 80;

/** One listing line's text: `slug`, `slug: description`, or
 *  `folder/ (N subjects, ~T tokens)`, with `: description` from its
 *  index page. */
export function listedLine(s: Listed, chars = DESCRIPTION_CHARS): string {
  if (s.folder !== undefined) {
    const line = `${s.folder}/ (${s.subjects} subject${s.subjects === 1 ? '' : 's'}, ${aboutTokens(s.tokens)})`;
    return s.description === undefined ? line : `${line}: ${oneLine(s.description, FOLDER_CHARS)}`;
  }
  return s.description === undefined || chars === 0 ? s.slug : `${s.slug}: ${oneLine(s.description, chars)}`;
}

/** `learn(topic)` without subjects: the RFD's listing, with each
 *  subject's description when it has one, a line per note about the
 *  topic's directory after the subjects, and what fitting the listing to
 *  the budget did. */
export function renderListing(
  t: ListingTopic,
  available: readonly Listed[],
  learned: readonly string[],
  fit: ListingFit = {},
  folder?: string,
  topicNotes: readonly TopicNote[] = [],
): string {
  const parts = [`# Topic: ${headingLine(t)}`];
  const description = descriptionOf(t);
  if (description) parts.push(description);
  parts.push(folder === undefined ? '## Available subjects:' : `## Available subjects in ${folder}/:`);
  const chars = fit.descriptionChars ?? DESCRIPTION_CHARS;
  parts.push(available.length > 0 ? bullets(map(available, (s) => listedLine(s, chars))) : '(none)');
  for (const n of topicNotes) parts.push(renderTopicNote(n, t.id));
  const notes: string[] = [];
  // The lines kept are the first (in slug order): the rest come after the
  // last one listed, which a model must not take for the end of the topic.
  if (fit.omitted) notes.push(`${fit.omitted} more subject${fit.omitted === 1 ? ', after the last one listed, is' : 's, after the last one listed, are'} not listed`);
  if (fit.collapsed) notes.push('folders marked `/` are summed up: list one with the pattern `folder/`');
  if (fit.descriptionChars !== undefined) notes.push(fit.descriptionChars === 0 ? 'descriptions are left out' : `descriptions are cut to ${fit.descriptionChars} characters`);
  if (notes.length > 0) parts.push(`[To stay within the ${fit.budget !== undefined && Number.isFinite(fit.budget) ? countText(fit.budget) : ''}-token budget, ${notes.join('; ')}.${fit.omitted ? ' Use a glob pattern to load or narrow them.' : ''}]`);
  parts.push('Use the `learn` tool with the `subjects` argument to learn specific subjects.');
  if (learned.length > 0) {
    parts.push('## Already learned (in system prompt):');
    parts.push(bullets(learned));
  }
  return `${parts.join('\n\n')}\n`;
}

/** What a listing's text costs, in the parts app/listing.ts weighs
 *  (answer/cost.ts): the frame, as `renderListing` writes it without a
 *  line, and a line as `- ` + slug + `: ` + description, or `- ` + a
 *  folder summed up. */
export const LISTING_COSTS: ListingCosts = {
  frame: (l, fit) => new TokenTally().add(renderListing(l.topic, [], l.learned, fit, l.folder, l.topicNotes)),
  none: new TokenTally().add('(none)'),
  bullet: new TokenTally().add('- '),
  separator: new TokenTally().add(': '),
  description: (text, chars) => oneLine(text, chars),
  folder: (f) => listedLine(f),
};

/** `- item` lines (a listing can have thousands: one native join). */
export function bullets(items: readonly string[]): string {
  return `- ${items.join('\n- ')}`;
}
