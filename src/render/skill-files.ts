// What follows a loaded skill's SKILL.md. Apart from render/learn.ts, so
// that opening a knowledge base (app/topics.ts) loads nothing of the learn
// tool's text.
import type { BundledFile } from '../answer/learn.ts';
import { escapeControls } from '../shared/controls.ts';

/** Bundled files a loaded skill names, at most. */
export const MAX_BUNDLED_SHOWN = 100;

/** The tags around what kb adds after a skill's SKILL.md, so that the
 *  model tells it from the skill's own text. */
export const SKILL_FILES_OPEN = '<skill-files>';
export const SKILL_FILES_CLOSE = '</skill-files>';

/** What follows a loaded skill's SKILL.md: where the skill lives and its
 *  bundled files, so the model can read its references and run its
 *  scripts, in a `<skill-files>` block of its own after a blank line (kb's
 *  words, not the skill's). `dir` is workspace-relative. Ends with a
 *  newline. */
export function renderSkillFiles(dir: string, files: readonly BundledFile[]): string {
  const lines = ['', SKILL_FILES_OPEN, `Skill directory: ${escapeControls(dir)}`];
  if (files.length === 0) {
    lines.push('Bundled files: (none)');
  } else {
    lines.push('Bundled files (load one with `learn` by its exact slug; paths are relative to the skill directory):');
    for (const f of files.slice(0, MAX_BUNDLED_SHOWN)) lines.push(`- ${escapeControls(f.slug)} (${escapeControls(f.path)})`);
    if (files.length > MAX_BUNDLED_SHOWN) lines.push(`- … and ${files.length - MAX_BUNDLED_SHOWN} more`);
  }
  lines.push(SKILL_FILES_CLOSE);
  return `${lines.join('\n')}\n`;
}
