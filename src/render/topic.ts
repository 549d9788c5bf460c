// How a topic is named to the assistant: by its title, else its ID
// (docs/guide/knowledge-base.md, "The prompt"). Configuration text is shown escaped
// (shared/controls.ts): the ID, the title and the introduction are one-line
// fields and stay on their line whatever they hold; the description keeps
// its lines, but nothing else that could drive a terminal or forge markup.

import type { TopicLabel } from '../answer/topic.ts';
import { escapeControls, escapeText, quoted } from '../shared/controls.ts';

/** The title, else the ID, as configured: for `quoted` (which escapes). */
export function headingOf(t: TopicLabel): string {
  return t.title ?? t.id;
}

/** `# Topic: <title or id>`: the heading, on one line. */
export function headingLine(t: TopicLabel): string {
  return escapeControls(headingOf(t));
}

/** `id (title)`, or the ID: how lists of topics name one. */
export function labelOf(t: TopicLabel): string {
  return t.title ? `${escapeControls(t.id)} (${escapeControls(t.title)})` : escapeControls(t.id);
}

/** The ID and title escaped, for a text that names topics itself (the
 *  learn tool's description, app/tools.ts). */
export function shownLabel(t: TopicLabel): { id: string; title?: string } {
  return t.title === undefined ? { id: escapeControls(t.id) } : { id: escapeControls(t.id), title: escapeControls(t.title) };
}

/** The description, trimmed and escaped ('' when there is none). */
export function descriptionOf(t: TopicLabel): string {
  const d = t.description?.trim();
  return d ? escapeText(d) : '';
}

/** `- id (**title**): introduction`, dropping the parts that are absent. */
export function topicLine(t: TopicLabel): string {
  let line = `- ${escapeControls(t.id)}`;
  if (t.title) line += ` (**${escapeControls(t.title)}**)`;
  if (t.introduction) line += `: ${escapeControls(t.introduction)}`;
  return line;
}

/** An unknown topic; the error lists the valid ones. */
export function renderUnknownTopic(topic: string, valid: readonly TopicLabel[]): string {
  const list = valid.length > 0 ? valid.map(labelOf).join(', ') : '(none)';
  return `Unknown topic ${quoted(topic)}. Valid topics: ${list}.\n`;
}
