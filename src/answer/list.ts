// `kb list`: every topic and its subjects, as data (app/list.ts), as
// render/list.ts writes it.
import type { BinarySummary } from './binary.ts';

export interface ListRow {
  slug: string;
  size: number;
  marks: string[]; // skill, bundled, hidden, disabled, learned, binary
  /** From the subject's frontmatter. */
  description?: string;
  /** Estimated tokens (text subjects). */
  tokens?: number;
  /** From the subject's frontmatter: when it was written, and last
   *  revised (content/frontmatter.ts `timeValue`). */
  created?: string;
  updated?: string;
}

/** What an ignore file or a built-in default left out. */
export interface IgnoredRow {
  path: string;
  source: string;
  rule: string;
}

export interface ListTopic {
  /** Every file, binary ones included (marked `binary`): `kb list`
   *  shows those only with --verbose, and sums them up in `binary`. */
  id: string;
  title?: string;
  enabled: boolean;
  dir: string;
  rows: ListRow[];
  /** The binary rows, summed up; absent when none. */
  binary?: BinarySummary;
  problems: string[];
  /** With `--ignored`. */
  ignored?: IgnoredRow[];
}
