// The learn tool's model-facing texts. Subject contents come as chunks
// (a formatted body between two strings): the sink that receives them
// decides whether to stream them (the CLI) or join them (MCP).
import { trimTrailingNewlines, type Formatted } from '../kb/content/format.ts';
import { quoted } from './text.ts';
import { headingOf, type TopicLabel } from './topic.ts';

export interface ListingTopic extends TopicLabel {
  description?: string;
}

/** `learn(topic)` without subjects: the RFD's listing. */
export function renderListing(t: ListingTopic, available: string[], learned: string[]): string {
  const parts = [`# Topic: ${headingOf(t)}`];
  if (t.description?.trim()) parts.push(t.description.trim());
  parts.push('## Available subjects:');
  parts.push(available.length > 0 ? bullets(available) : '(none)');
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
  const list = valid.length > 0 ? valid.map((t) => (t.title ? `${t.id} (${t.title})` : t.id)).join(', ') : '(none)';
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
