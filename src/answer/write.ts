// What a remember, revise or forget call did, as data (app/memory.ts,
// app/revise.ts); render/memory.ts writes it.
import type { TopicLabel } from './topic.ts';

export type WriteTool = 'remember' | 'revise' | 'forget';

/** Who asked: the command line's user, or a model (a tool call). */
export type Source = 'user' | 'model';

/** How a remember, revise or forget call went. `update`: not written, the
 *  text looks like an update of an existing subject; `unchanged`: revise
 *  was given the text the subject already says. */
export type Status = 'written' | 'duplicate' | 'near-duplicate' | 'update' | 'revised' | 'unchanged' | 'forgotten' | 'error';

/** An existing subject a new text duplicates, and how similar it is (0-1,
 *  as measured: `WriteResult.existing` has it rounded). */
export interface Similar {
  slug: string;
  similarity: number;
}

/** A duplicate check that the bound on the work under the topic's lock
 *  cut: subjects compared, subjects left out, and the bound (bytes). */
export interface Checked {
  compared: number;
  left: number;
  limit: number;
}

/** Why nothing was written or removed. */
export type WriteFailure =
  | { kind: 'unknown-topic'; topic: string; valid: readonly TopicLabel[] }
  | { kind: 'disabled-topic'; topic: string }
  | { kind: 'not-writable'; topic: string; writable: readonly string[] }
  /** The topic's directory, its lock or the file system said no. */
  | { kind: 'failed'; topic: string; why: string }
  /** The topic's subjects directory really is outside the workspace:
   *  `link` (relative to the workspace root) leads there, pointing at
   *  `to`; `real` is where it leads. */
  | { kind: 'outside-workspace'; topic: string; subjects: string; link?: string; to?: string; real: string }
  | { kind: 'near-duplicate'; topic: string; similar: Similar; source: Source }
  /** The text looks like a new version of `similar`: `was` (there) and
   *  `now` (in the text) are the values that differ. */
  | { kind: 'update'; topic: string; similar: Similar; was: readonly string[]; now: readonly string[]; source: Source }
  | { kind: 'slug-taken'; topic: string; slug: string; disabled: boolean }
  | { kind: 'cannot-place'; topic: string; rel: string; why: string }
  | { kind: 'exists'; path: string }
  | { kind: 'no-subject'; topic: string; slug: string; aliasOf?: string }
  | { kind: 'kept'; topic: string; slug: string; why: 'bundled' | 'skill' | 'hidden' | 'disabled' }
  | { kind: 'cannot-remove'; path: string; why: string }
  /** revise: a subject kb did not write, without `force`. */
  | { kind: 'not-ours'; topic: string; slug: string; source: Source }
  /** revise: the subject cannot be revised (not Markdown, too large, not
   *  UTF-8, a link, its history not kb's...), or changed meanwhile. */
  | { kind: 'cannot-revise'; topic: string; slug: string; why: string };

/** What a remember or forget call did, as data. */
export interface WriteOutcome {
  tool: WriteTool;
  status: Status;
  isError: boolean;
  topic?: string;
  slug?: string;
  /** The new or removed file, relative to the workspace root. */
  path?: string;
  /** The existing subject a duplicate names, and how similar it is
   *  (rounded to 3 decimals). */
  existing?: { slug: string; similarity: number };
  /** Written although this subject is similar (`force`). */
  near?: Similar;
  /** Why nothing was written or removed. */
  failure?: WriteFailure;
  /** Written after a duplicate check that was bounded. */
  checked?: Checked;
  /** remember: the topic's folder, relative to the workspace root, which
   *  did not exist and was created. */
  created?: string;
  /** forget: the folders the removal emptied, removed too (relative to the
   *  workspace root, deepest first). */
  emptied?: string[];
  /** remember, written with `force`: the subject it looks like an update
   *  of (`near` is set too). */
  updateOf?: boolean;
  /** revise: the history file that keeps the earlier text (relative to the
   *  workspace root), how many earlier texts it keeps, and how many old
   *  ones this revision dropped from it (its bound). */
  history?: { path: string; kept: number; dropped: number; limit: number };
}
