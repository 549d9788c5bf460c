// The learn tool's model-facing texts. Subject contents come as chunks
// (a formatted body between two strings): the sink that receives them
// decides whether to stream them (the CLI) or join them (MCP).
import { trimTrailingNewlines, type Formatted } from '../kb/content/format.ts';
import type { Fallback, Reason } from '../kb/index/near.ts';
import type { MissHint } from '../kb/index/types.ts';
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
  | { kind: 'no-match'; pattern: string; hint?: MissHint }
  | { kind: 'invalid-pattern'; pattern: string; reason: string }
  | { kind: 'unreadable'; slug: string; message: string }
  | Fallback;

/** One line telling the model why something was not returned. */
export function renderNote(n: Note, topicId: string): string {
  switch (n.kind) {
    case 'already-learned':
      return `Subject ${quoted(n.slug)} is already in your system prompt (pre-loaded); it is not returned again.`;
    case 'binary':
      return `Skipped ${quoted(n.slug)}: it is a binary file.`;
    case 'no-match':
      return `No subjects match ${quoted(n.pattern)} in topic ${quoted(topicId)}.${missHint(n.hint)} Call \`learn\` with only the topic to list its subjects.`;
    case 'invalid-pattern':
      return `Invalid pattern ${quoted(n.pattern)}: ${n.reason}.`;
    case 'unreadable':
      return `Could not read ${quoted(n.slug)}: ${n.message}.`;
    case 'read-as':
    case 'split':
      return `Note: ${fallbackSummary(n)} (${fallbackReason(n)}).`;
    case 'folder':
      return renderFolder(n);
  }
}

/** A no-match's near-miss details, with a leading space, or ''. */
function missHint(hint: MissHint | undefined): string {
  if (hint === undefined) return '';
  let out = '';
  if (hint.suggestions !== undefined && hint.suggestions.length > 0) out += ` Closest subjects: ${hint.suggestions.map(quoted).join(', ')}.`;
  if (hint.hidden !== undefined && hint.hidden > 0) {
    out += ` The glob skipped ${hint.hidden === 1 ? '1 hidden subject' : `${hint.hidden} hidden subjects`}: hidden subjects load only by their exact slug.`;
  }
  return out;
}

/** What a near miss was read as, in one clause (the model's note and the
 *  user's warning say it alike). */
export function fallbackSummary(f: Fallback): string {
  switch (f.kind) {
    case 'read-as':
      return `${quoted(f.pattern)} matched no subject; used ${quoted(f.slug)} instead`;
    case 'split':
      return `${quoted(f.pattern)} matched no subject; read it as ${f.parts.length === 1 ? '1 pattern' : `${f.parts.length} patterns`}: ${f.parts.map(quoted).join(', ')}`;
    case 'folder':
      return `${quoted(f.pattern)} matched no subject; ${f.folder === f.pattern ? 'it' : quoted(f.folder)} is a folder, listed instead`;
  }
}

const REASONS: Record<Reason, string> = {
  prefix: '',
  extension: 'slugs have no file extension',
  dot: 'slugs drop the leading "." of hidden names',
  case: 'slugs are case-sensitive',
  'file-name': 'it is the only subject with that file name; slugs include their folders',
};

function fallbackReason(f: Fallback & { kind: 'read-as' | 'split' }): string {
  if (f.kind === 'split') return 'give several subjects as an array of strings';
  return f.reasons
    .map((r) => (r === 'prefix' ? `slugs are relative to the topic's directory: no leading ${quoted(f.prefix ?? '')}` : REASONS[r]))
    .join('; ');
}

/** A folder named where a subject was expected: its listing. */
function renderFolder(f: Fallback & { kind: 'folder' }): string {
  const name = f.folder === f.pattern ? 'it' : quoted(f.folder);
  const lines = [`No subject is named ${quoted(f.pattern)}; ${name} is a folder. Its subjects:`, bullets(f.slugs)];
  if (f.more > 0) lines.push(`- … and ${f.more} more`);
  const all = f.nested ? `${quoted(`${f.folder}/**`)} (${quoted(`${f.folder}/*`)} for this level only)` : quoted(`${f.folder}/*`);
  lines.push(`Load one by its slug, or all of them with ${all}.`);
  return lines.join('\n');
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
