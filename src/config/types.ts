// The validated configuration handed from the config layer to the rest of kb.

/** Where a value came from: a file (absolute path), `--cfg <text>`,
 *  `env JP_CFG_...`, `-k <value>`, or `default`. */
export type Source = string;

export type Severity = 'error' | 'warning';

/** A problem found while loading or validating configuration. `where` is
 *  `file`, `file:line` or `file:line:col` (paths relative to the workspace
 *  root when inside it), or a flag / variable name. */
export interface Diagnostic {
  severity: Severity;
  /** Stable machine code, e.g. `toml-syntax`, `unknown-key`, `wrong-type`,
   *  `missing-subjects`, `subjects-not-found`, `slug-collision`,
   *  `learned-no-match`, `disabled-no-match`, `binary-subject`,
   *  `invalid-utf8`, `extends-cycle`. */
  code: string;
  message: string;
  where?: string;
  /** Topic ID the diagnostic is about, when there is one. */
  topic?: string;
}

export const TOPIC_FIELDS = ['enable', 'title', 'introduction', 'description', 'subjects', 'learned', 'disabled'] as const;
export type TopicField = (typeof TOPIC_FIELDS)[number];

export interface Topic {
  /** The key in `[kb.topic.<id>]`. */
  id: string;
  enable: boolean;
  title?: string;
  introduction?: string;
  description?: string;
  /** As configured (relative to the workspace root). */
  subjects: string;
  /** Absolute, resolved against the workspace root. */
  subjectsDir: string;
  /** Glob or exact patterns, in order (config layers, then --cfg, then -k). */
  learned: string[];
  /** Exact slugs. */
  disabled: string[];
  /** Which layer set each field that was set (absent: default). */
  sources: Partial<Record<TopicField, Source>>;
  /** Where each set field was set, for messages: `file:line` (relative to
   *  the workspace root when inside it), `--cfg <text>`, `env NAME`,
   *  `-k <value>`. */
  where?: Partial<Record<TopicField, string>>;
}

export interface Config {
  /** Absolute workspace root. */
  root: string;
  /** Every configured topic, in configuration order, enabled or not. Topics
   *  that failed validation (e.g. no `subjects`) are left out and reported in
   *  `diagnostics`. */
  topics: Topic[];
  diagnostics: Diagnostic[];
  /** The files that were read, lowest precedence first. */
  files: string[];
}
