// `kb export`: every visible subject as a record, for another engine (a
// search service, an embedding pipeline, a data warehouse), as data
// (app/export.ts) that render/export.ts writes one JSON line each.

import type { Problem } from '../shared/problem.ts';

/** One subject, whole. */
export interface ExportRecord {
  /** The topic's ID. */
  topic: string;
  slug: string;
  /** Frontmatter `title`, else `name`, else the document's own title;
   *  null for none. */
  title: string | null;
  /** Frontmatter `description`, else a man page's NAME summary; null for
   *  none. */
  description: string | null;
  /** Frontmatter `tags` (a list, or one string); [] for none. */
  tags: string[];
  /** The file, relative to the workspace root, `/`-separated. */
  path: string;
  /** The file's size in bytes, as read. */
  size: number;
  /** The file's text as it is (frontmatter included), decoded: UTF-8, or
   *  UTF-16 after its byte-order mark; invalid bytes as U+FFFD. */
  text: string;
}

/** Why a subject was not exported. */
export type ExportSkipReason = 'binary' | 'unreadable';

/** What an export gives, in order: per topic its problems (what its walk
 *  noticed), then its subjects, each exported or skipped; last, the
 *  summary. */
export type ExportItem =
  | { kind: 'problem'; problem: Problem }
  | { kind: 'subject'; record: ExportRecord; /** invalid bytes were replaced */ replaced: boolean }
  | { kind: 'skipped'; topic: string; slug: string; path: string; why: ExportSkipReason; /** what the read said */ message?: string }
  | { kind: 'summary'; summary: ExportSummary };

export interface ExportSummary {
  /** The topics exported, by ID. */
  topics: string[];
  exported: number;
  /** Exported with invalid bytes replaced by U+FFFD. */
  replaced: number;
  binary: number;
  unreadable: number;
  /** Hidden subjects left out (without `--hidden`). */
  hidden: number;
  /** Disabled subjects (never exported). */
  disabled: number;
}
