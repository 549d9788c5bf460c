// The validated configuration handed from the config layer to the rest of kb.

/** Where a value came from: a file (absolute path), `--cfg <text>`,
 *  `env JP_CFG_...`, `-k <value>`, or `default`. */
export type Source = string;

/** A problem found while loading or validating configuration (the one
 *  problem type, shared/problem.ts). `where` is `file`, `file:line` or
 *  `file:line:col` (paths relative to the workspace root when inside it),
 *  or a flag / variable name. */
export type { Problem, Severity } from '../shared/problem.ts';
import type { Problem } from '../shared/problem.ts';

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
  diagnostics: Problem[];
  /** The files that were read, lowest precedence first. */
  files: string[];
  /** What --verbose tells besides: a configuration source skipped, and why. */
  notes?: string[];
}
