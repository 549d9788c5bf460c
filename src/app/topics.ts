// Topics as the application sees them: resolving a learn call's topic, and
// the problems a topic's view reports, each sentence written once.
import { relative } from 'node:path';
import type { Topic } from '../config/types.ts';
import { isHiddenPath } from '../kb/index/slug.ts';
import type { Subject } from '../kb/index/types.ts';
import type { SkillFiles, TopicNote } from '../answer/learn.ts';
import type { TopicView } from '../kb/index/view.ts';
import type { Notice, PatternResult } from '../kb/index/types.ts';
import { filter, find, map } from '../shared/arrays.ts';
import { isVerbose } from '../shared/log.ts';
import { warning, type Problem, type ProblemCode } from '../shared/problem.ts';

/** A learn call's topic resolves by exact ID, then by
 *  case-insensitive title; a disabled topic does not resolve. */
export function resolveTopic(topics: readonly Topic[], name: string): Topic | undefined {
  const enabled = filter(topics, (t) => t.enable);
  const byId = find(enabled, (t) => t.id === name);
  if (byId) return byId;
  const lower = name.toLowerCase();
  return find(enabled, (t) => t.title !== undefined && t.title.toLowerCase() === lower);
}

/** Whether a command that lists, searches or pre-loads a topic used what
 *  a walk notice is about: not a path inside a hidden folder or a hidden
 *  file (`.claude/skills/...`), which those never read (an exact load
 *  reaches one, and then says what it found). A slug collision is always
 *  used: the slug it is about may be a visible subject's. `kb check`
 *  reports every notice. */
export function usedNotice(n: { where?: string; code?: string }): boolean {
  return n.where === undefined || n.where === '' || n.code === 'slug-collision' || !isHiddenPath(n.where);
}

/** What a topic's walk noticed (a missing directory, a dangling link, a
 *  symlink loop, a slug collision...), as warnings, but for what the
 *  command never reads (`usedNotice`). Shared slugs, which real folders
 *  have by the hundred (Cargo.toml beside Cargo.lock), are summed up in
 *  one line; `--verbose` (and `kb check`) gives each, one line a slug. */
export function noticeProblems(view: TopicView): Problem[] {
  const id = view.topic.id;
  const detailed = isVerbose();
  const out: Problem[] = [];
  let collisions = 0;
  for (const n of view.index.notices) {
    if (!usedNotice(n)) continue;
    if (n.code === 'slug-collision' && !detailed) collisions++;
    else out.push(warning(n.code, `topic "${id}": ${n.message}`));
  }
  if (collisions > 0) {
    out.push(
      warning(
        'slug-collision',
        `topic "${id}": ${collisions === 1 ? '1 slug names' : `${collisions} slugs name`} several files; a shared slug loads its document, the other files load by slug plus extension (kb check, or --verbose, lists them)`,
      ),
    );
  }
  return out;
}

/** Notices about a topic's directory as a whole: it is missing, not a
 *  directory, unreadable, a link loop, or the walk stopped at its limit. */
export function directoryNotices(view: TopicView): Notice[] {
  return filter(view.index.notices, (n) => n.where === '');
}

/** What the model must be told about a topic's directory, one note per
 *  directory notice (`limit`: the walk limit in force). */
export function directoryNotes(view: TopicView, limit: number): TopicNote[] {
  return map(directoryNotices(view), (n): TopicNote => {
    switch (n.code) {
      case 'walk-limit':
        return { kind: 'walk-limit', limit };
      case 'missing-directory':
      case 'vanished':
        return { kind: 'no-directory', why: 'does not exist' };
      case 'not-a-directory':
        return { kind: 'no-directory', why: 'is not a directory' };
      case 'symlink-loop':
        return { kind: 'no-directory', why: 'is a symbolic link loop' };
      default:
        return { kind: 'no-directory', why: `cannot be read (${n.reason ?? 'unreadable'})` };
    }
  });
}

/** A learned pattern that is invalid or matches no subject, or undefined. */
export function learnedPatternProblem(id: string, p: PatternResult): { code: ProblemCode; message: string } | undefined {
  if (p.kind === 'invalid') return { code: 'learned-invalid', message: `topic "${id}": learned pattern "${p.pattern}" is invalid: ${p.reason}` };
  if (p.slugs.length === 0) return { code: 'learned-no-match', message: `topic "${id}": learned pattern "${p.pattern}" matches no subject` };
  return undefined;
}

/** The view's notices, then its learned patterns that match nothing. */
export function viewProblems(view: TopicView): Problem[] {
  const out = noticeProblems(view);
  for (const p of view.learnedPatterns) {
    const found = learnedPatternProblem(view.topic.id, p);
    if (found) out.push(warning(found.code, found.message));
  }
  return out;
}

/** A subject whose invalid bytes were replaced when it was decoded. */
export function replacedProblem(topicId: string, slug: string): Problem {
  return warning('invalid-utf8', `subject "${slug}" of topic "${topicId}" has byte sequences that are invalid in its encoding; they were replaced with U+FFFD`);
}

/** An HTML page shown as text has none: the model's text says so (its
 *  note), and so does this, for the user, who may want it as written. */
export function emptyTextProblem(topicId: string, slug: string): Problem {
  return warning('html-text', `learn ${topicId}: HTML page "${slug}" has no text outside its tags, styles and scripts; shown as text it is empty (--html raw or KB_HTML=raw shows it as written)`);
}

/** A loaded skill's SKILL.md is followed, wherever it is loaded (learn,
 *  the prompt, an MCP resource), by its directory (workspace-relative) and
 *  bundled files: those, or undefined for any other subject. */
export function skillOf(kb: { config: { root: string } }, topic: Topic, subject: Subject): SkillFiles | undefined {
  const skill = subject.skill;
  if (skill === undefined) return undefined;
  const dir = relative(kb.config.root, `${topic.subjectsDir}/${skill.dir}`) || '.';
  const from = skill.dir.length + 1;
  // A skill that loads is not disabled, so a bundled file of it is only by
  // its own slug (kb/index/disabled.ts): such a file is not offered.
  const off = topic.disabled.length === 0 ? undefined : new Set(topic.disabled);
  const files = off === undefined ? skill.files : filter(skill.files, (f) => !off.has(f.slug));
  return { dir, files: map(files, (f) => ({ slug: f.slug, path: f.path.slice(from) })) };
}
