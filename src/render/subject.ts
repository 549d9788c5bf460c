// A subject as the model reads it: its `<subject>` block or its raw content.
// Apart from render/learn.ts, so that the prompt (which expands pre-loaded
// subjects) loads nothing of the learn tool's text.
import type { SkillFiles } from '../answer/learn.ts';
import { formattedText, trimTrailingNewlines, type Formatted } from '../kb/content/format.ts';
import { quoted } from '../shared/controls.ts';
import { renderSkillFiles } from './skill-files.ts';

/** `prefix`, then a `<subject "slug">` block: tag, content, closing tag
 *  (docs/guide/knowledge-base.md, "Results"). Its head, body and tail are the three chunks to
 *  write in order; `formattedText` joins them. */
export function subjectBlock(prefix: string, slug: string, content: Formatted, after = ''): Formatted {
  const t = trimTrailingNewlines(content);
  return { head: `${prefix}<subject ${quoted(slug)}>\n${t.head}`, body: t.body, tail: `${t.tail}\n${after}</subject>` };
}

/** A subject's content alone, ending with exactly one newline (a raw
 *  result; docs/guide/knowledge-base.md, "Results" and "Files"). */
export function rawContent(content: Formatted, after = ''): Formatted {
  const t = trimTrailingNewlines(content);
  return { head: t.head, body: t.body, tail: `${t.tail}\n${after}` };
}

/** A subject read alone (MCP `resources/read`): its content, then a
 *  skill's files, exactly as `kb learn TOPIC SLUG` prints it. */
export function resourceText(content: Formatted, skill?: SkillFiles): string {
  return formattedText(rawContent(content, skill === undefined ? '' : renderSkillFiles(skill.dir, skill.files)));
}
