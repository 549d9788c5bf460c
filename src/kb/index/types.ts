// What the kb layer knows about a topic directory.

import type { PatternKind } from '../../glob/index.ts';
import type { Formatted } from '../content/format.ts';
import type { FollowedLink, Notice } from '../fs/walk.ts';

export type { PatternKind };
export type { FollowedLink, Notice, NoticeCode } from '../fs/walk.ts';

/** One file found under a topic's subjects directory. */
export interface Subject {
  /** Path relative to the subjects directory, `/`-separated, as on disk
   *  (e.g. `ast-grep/.rules.md`). */
  path: string;
  /** Absolute path used to read it (through symlinks as walked). */
  abs: string;
  /** Slug: `path` with the last extension stripped and the leading `.` of
   *  every component dropped (`ast-grep/rules`). */
  slug: string;
  /** Any component of `path` starts with `.`. */
  hidden: boolean;
  /** Lower-case extension without the dot, '' when none. */
  ext: string;
  /** Size in bytes from stat. Stat'ed lazily on first access (the walk
   *  only stats symbolic links); -1 when the file cannot be stat'ed. */
  readonly size: number;
}

/** A topic directory walked and indexed: unique slugs, sorted by code units. */
export interface SubjectIndex {
  dir: string;
  /** One per slug (collisions resolved: non-hidden wins, then the
   *  lexicographically first path), sorted by slug in code-unit order. */
  subjects: Subject[];
  /** Collisions, dangling links, loops, unreadable entries... Those about
   *  the directory as a whole (missing, unreadable, the walk limit) have
   *  the `where` ''. */
  notices: Notice[];
  /** The symbolic links the walk followed. */
  links: FollowedLink[];
}

/** A subject selected by a pattern. */
export interface Match {
  subject: Subject;
  /** Some pattern named this subject exactly (an exact pattern, or a glob
   *  pattern equal to the slug). Decides whether a binary file gets a notice
   *  and whether a hidden subject may match. */
  exact: boolean;
}

/** What one pattern of a call selected. */
export interface PatternResult {
  /** The pattern as given (not normalised). */
  pattern: string;
  kind: PatternKind;
  /** Why the pattern is invalid (kind `invalid` only). */
  reason?: string;
  /** Every slug this pattern selected, sorted, including slugs an earlier
   *  pattern already selected. */
  slugs: string[];
}

/** One item produced while loading subjects (see view.ts `loadPatterns`). */
export type LoadItem =
  | { kind: 'subject'; slug: string; subject: Subject; /** formatted by extension */ content: Formatted; /** invalid input was replaced */ replaced: boolean }
  /** Only for exactly named binaries (glob-matched binaries are dropped silently). */
  | { kind: 'binary'; slug: string }
  /** Matched but pre-loaded through `learned`: not returned again. */
  | { kind: 'already-learned'; slug: string }
  /** The pattern selected nothing that could be returned or noted. */
  | { kind: 'no-match'; pattern: string }
  | { kind: 'invalid-pattern'; pattern: string; reason: string }
  | { kind: 'unreadable'; slug: string; message: string };
