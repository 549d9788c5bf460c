// The one shape of a problem kb reports, wherever it is found (a
// configuration file, a topic's directory, a subject, a model's call), and
// the one way it is written for people: `message (where)`.

export type Severity = 'error' | 'warning';

export interface Problem {
  severity: Severity;
  /** Stable machine code, e.g. `toml-syntax`, `unknown-key`, `wrong-type`,
   *  `missing-subjects`, `subjects-not-found`, `slug-collision`,
   *  `learned-no-match`, `disabled-no-match`, `binary-subject`,
   *  `invalid-utf8`, `extends-cycle`, `extends-depth` (README, "kb check"). */
  code: string;
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

export function warning(code: string, message: string, where?: string, topic?: string): Problem {
  const p: Problem = { severity: 'warning', code, message };
  if (where !== undefined) p.where = where;
  if (topic !== undefined) p.topic = topic;
  return p;
}
