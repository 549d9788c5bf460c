// The Agent Skills specification's rules for a skill's `name` and
// `description`, in one place: `kb check` warns by them, and `kb mcp`
// serves over the Skills extension only the skills that keep them (a
// skill's URI ends in its name, so the name must be a valid one, and the
// directory's).

import { jsonQuoted } from '../../shared/controls.ts';

/** 1-64 characters of a-z, 0-9 and `-`, no leading, trailing or doubled
 *  hyphen. */
export const SKILL_NAME = /^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/;
export const MAX_SKILL_DESCRIPTION = 1024;

/** What is wrong with the `name` of the skill of slug `slug` in directory
 *  `dir` (its last component), in `kb check`'s words; undefined: nothing. */
export function skillNameProblem(slug: string, name: unknown, dir: string): string | undefined {
  if (typeof name !== 'string' || name === '') return `skill "${slug}" has no name (a string, the directory's name)`;
  if (!SKILL_NAME.test(name)) return `skill "${slug}": name ${jsonQuoted(name)} must be 1-64 characters of a-z, 0-9 and -, with no leading, trailing or doubled hyphen`;
  if (name !== dir) return `skill "${slug}": name ${jsonQuoted(name)} differs from its directory's name ${jsonQuoted(dir)}`;
  return undefined;
}

/** Whether a skill has a description at all (a string that is not blank). */
export function hasSkillDescription(description: unknown): description is string {
  return typeof description === 'string' && description.trim() !== '';
}

/** What is wrong with a skill's `description`, in `kb check`'s words;
 *  undefined: nothing. */
export function skillDescriptionProblem(slug: string, description: unknown): string | undefined {
  if (!hasSkillDescription(description)) return `skill "${slug}" has no description (a string of 1-${MAX_SKILL_DESCRIPTION} characters)`;
  const length = Array.from(description).length;
  if (length > MAX_SKILL_DESCRIPTION) return `skill "${slug}": description is ${length} characters; at most ${MAX_SKILL_DESCRIPTION}`;
  return undefined;
}

export const MAX_SKILL_COMPATIBILITY = 500;

/** What is wrong with a skill's optional fields the specification
 *  constrains: `compatibility` (1-500 characters), `metadata` (a mapping
 *  of strings to strings); none: []. */
export function skillFieldsProblems(slug: string, fields: Record<string, unknown>): string[] {
  const out: string[] = [];
  const compatibility = fields.compatibility;
  if (compatibility !== undefined) {
    const length = typeof compatibility === 'string' ? Array.from(compatibility).length : 0;
    if (length < 1 || length > MAX_SKILL_COMPATIBILITY) out.push(`skill "${slug}": compatibility must be a string of 1-${MAX_SKILL_COMPATIBILITY} characters`);
  }
  const metadata = fields.metadata;
  if (metadata !== undefined && !stringMap(metadata)) out.push(`skill "${slug}": metadata must map strings to strings`);
  return out;
}

function stringMap(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  if (v instanceof Map) return [...v].every(([k, x]) => typeof k === 'string' && typeof x === 'string');
  return Object.values(v).every((x) => typeof x === 'string');
}

/** Every way a skill's frontmatter breaks the Agent Skills specification
 *  (`dir`: its directory's name), in `kb check`'s words. */
export function skillProblems(slug: string, fields: Record<string, unknown>, dir: string): string[] {
  const out: string[] = [];
  for (const p of [skillNameProblem(slug, fields.name, dir), skillDescriptionProblem(slug, fields.description)]) if (p !== undefined) out.push(p);
  return [...out, ...skillFieldsProblems(slug, fields)];
}
