// How a topic is named to the assistant: by its title, else its ID
// (README, "The prompt").

export interface TopicLabel {
  id: string;
  title?: string;
  introduction?: string;
}

/** `# Topic: <title or id>`, `<topic "<title or id>">`. */
export function headingOf(t: TopicLabel): string {
  return t.title ?? t.id;
}

/** `- id (**title**): introduction`, dropping the parts that are absent. */
export function topicLine(t: TopicLabel): string {
  let line = `- ${t.id}`;
  if (t.title) line += ` (**${t.title}**)`;
  if (t.introduction) line += `: ${t.introduction}`;
  return line;
}
