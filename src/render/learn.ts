// The learn tool's model-facing texts. Subject contents come as chunks
// (a formatted body between two strings): the sink that receives them
// decides whether to stream them (the CLI) or join them (MCP).
import { trimTrailingNewlines, type Formatted } from '../kb/content/format.ts';
import { quoted } from './text.ts';
import { descriptionOf, headingLine, labelOf, type TopicLabel } from './topic.ts';

export type ListingTopic = TopicLabel;

/** What the model must know about a topic's directory as a whole: it
 *  could not be walked (`why`: does not exist, cannot be read...), or the
 *  walk stopped at its limit. */
export type TopicNote = { kind: 'no-directory'; why: string } | { kind: 'walk-limit'; limit: number };

/** One line about a topic's directory. */
export function renderTopicNote(n: TopicNote, topicId: string): string {
  if (n.kind === 'no-directory') return `Topic ${quoted(topicId)} has no subjects: its subjects directory ${n.why}.`;
  return `Topic ${quoted(topicId)} is only partly listed: kb reads at most ${n.limit.toLocaleString('en-US')} directory entries per topic, so some subjects may be missing.`;
}

/** `learn(topic)` without subjects: the RFD's listing, and a line per
 *  note about the topic's directory after the subjects. */
export function renderListing(t: ListingTopic, available: string[], learned: string[], notes: readonly TopicNote[] = []): string {
  const parts = [`# Topic: ${headingLine(t)}`];
  const description = descriptionOf(t);
  if (description) parts.push(description);
  parts.push('## Available subjects:');
  parts.push(available.length > 0 ? bullets(available) : '(none)');
  for (const n of notes) parts.push(renderTopicNote(n, t.id));
  parts.push('Use the `learn` tool with the `subjects` argument to learn specific subjects.');
  if (learned.length > 0) {
    parts.push('## Already learned (in system prompt):');
    parts.push(bullets(learned));
  }
  return `${parts.join('\n\n')}\n`;
}

/** `- item` lines (a listing can have thousands: one native join). */
function bullets(items: readonly string[]): string {
  return `- ${items.join('\n- ')}`;
}

export type Note =
  | { kind: 'already-learned'; slug: string }
  | { kind: 'binary'; slug: string }
  | { kind: 'no-match'; pattern: string }
  | { kind: 'invalid-pattern'; pattern: string; reason: string }
  | { kind: 'unreadable'; slug: string; message: string };

/** One line telling the model why something was not returned. */
export function renderNote(n: Note, topicId: string): string {
  switch (n.kind) {
    case 'already-learned':
      return `Subject ${quoted(n.slug)} is already in your system prompt (pre-loaded); it is not returned again.`;
    case 'binary':
      return `Skipped ${quoted(n.slug)}: it is a binary file.`;
    case 'no-match':
      return `No subjects match ${quoted(n.pattern)} in topic ${quoted(topicId)}. Call \`learn\` with only the topic to list its subjects.`;
    case 'invalid-pattern':
      return `Invalid pattern ${quoted(n.pattern)}: ${n.reason}.`;
    case 'unreadable':
      return `Could not read ${quoted(n.slug)}: ${n.message}.`;
  }
}

/** An unknown topic; the error lists the valid ones. */
export function renderUnknownTopic(topic: string, valid: TopicLabel[]): string {
  const list = valid.length > 0 ? valid.map(labelOf).join(', ') : '(none)';
  return `Unknown topic ${quoted(topic)}. Valid topics: ${list}.\n`;
}

/** A malformed tool call (bad arguments from the model). */
export function renderBadArguments(problem: string): string {
  return `Invalid arguments for \`learn\`: ${problem}. Expected {"topic": string, "subjects"?: string | string[] | null}.\n`;
}

/** Text, or text's UTF-8 bytes (a subject's body, written as read). */
export type Chunk = string | Uint8Array;

/** `prefix`, then a `<subject "slug">` block: tag, content, closing tag
 *  (README, "Results"). Its head, body and tail are the three chunks to
 *  write in order; `formattedText` joins them. */
export function subjectBlock(prefix: string, slug: string, content: Formatted): Formatted {
  const t = trimTrailingNewlines(content);
  return { head: `${prefix}<subject ${quoted(slug)}>\n${t.head}`, body: t.body, tail: `${t.tail}\n</subject>` };
}

/** A subject's content alone, ending with exactly one newline (a raw
 *  result; README, "Results" and "Files"). */
export function rawContent(content: Formatted): Formatted {
  const t = trimTrailingNewlines(content);
  return { head: t.head, body: t.body, tail: `${t.tail}\n` };
}
