// The one shape of a problem kb reports, wherever it is found (a
// configuration file, a topic's directory, a subject, a model's call), and
// the one way it is written for people: `message (where)`.

export type Severity = 'error' | 'warning';

/** Every code a problem may have: stable, for tests and tools (docs/reference/commands.md,
 *  "`kb check`"). */
export type ProblemCode =
  // A configuration file, flag or environment variable (config/).
  | 'toml-syntax'
  | 'json-syntax'
  | 'json5-syntax'
  | 'yaml-syntax'
  | 'read-error'
  | 'unknown-format'
  | 'unknown-key'
  | 'wrong-type'
  | 'missing-subjects'
  | 'extends-cycle'
  | 'extends-not-found'
  | 'extends-depth'
  | 'extends-truncated'
  | 'bad-walk-limit'
  // A topic's subjects directory, as a walk finds it (kb/fs/walk.ts
  // NoticeCode) and as kb check reports it (app/check.ts).
  | 'missing-directory'
  | 'not-a-directory'
  | 'subjects-not-found'
  | 'subjects-not-a-directory'
  | 'subjects-unreadable'
  | 'link-outside-workspace'
  | 'dangling-link'
  | 'symlink-loop'
  | 'unreadable'
  | 'vanished'
  | 'slug-collision'
  | 'special-file'
  | 'control-character'
  | 'walked-elsewhere'
  | 'walk-limit'
  | 'long-slug'
  // A topic's configuration against its subjects, and its subjects' content.
  | 'learned-invalid'
  | 'learned-no-match'
  | 'disabled-no-match'
  | 'disabled-glob'
  | 'binary-subject'
  | 'invalid-utf8'
  | 'frontmatter'
  | 'skill'
  | 'near-duplicate'
  | 'two-versions'
  | 'preloaded-tokens'
  // A call: learn, search, recall, remember, forget.
  | 'budget'
  | 'near-miss'
  | 'lines'
  | 'prompt-list'
  | 'ignored'
  | 'html-text'
  | 'recall'
  | 'search-cache'
  | 'search-stale'
  | 'write-temp'
  | 'write-rename'
  | 'duplicate-check-bounded'
  // kb init.
  | 'init';

export interface Problem {
  severity: Severity;
  /** Stable machine code (ProblemCode). */
  code: ProblemCode;
  message: string;
  /** `file`, `file:line` or `file:line:col` (relative to the workspace root
   *  when inside it), a flag (`--cfg ...`), an environment variable, or a
   *  path inside a topic. */
  where?: string;
  /** The topic the problem is about, when there is one. */
  topic?: string;
}

/** `message (where)`, or the message alone. */
export function formatProblem(p: { message: string; where?: string }): string {
  return p.where ? `${p.message} (${p.where})` : p.message;
}

export function warning(code: ProblemCode, message: string, where?: string, topic?: string): Problem {
  const p: Problem = { severity: 'warning', code, message };
  if (where !== undefined) p.where = where;
  if (topic !== undefined) p.topic = topic;
  return p;
}
