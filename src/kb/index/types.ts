// What the kb layer knows about a topic directory.

import type { PatternKind } from '../../glob/index.ts';
import type { Body } from '../content/body.ts';
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
  /** The folder part of `slug`, with its trailing `/` ('' at the top):
   *  the subjects of one folder share one string, so a listing tells
   *  where a folder ends without looking into slugs. Absent: worked out
   *  from the slug. */
  readonly folder?: string;
  /** Set on an Agent Skill: a directory holding SKILL.md, whose subject
   *  is that file (`path`, `abs`) under the directory's slug. */
  readonly skill?: SkillInfo;
  /** One of a skill's bundled files (also `hidden`: never listed, never
   *  matched by a glob, loadable by exact slug). */
  readonly bundled?: boolean;
}

/** An Agent Skill's directory and its bundled files. */
export interface SkillInfo {
  /** Relative to the subjects directory, `/`-separated. */
  readonly dir: string;
  /** Every other file below the directory, in walk order. */
  readonly files: Subject[];
}

/** Another exact name for a subject: a colliding file's slug plus its
 *  extension (`listing-01-01/Cargo.toml`), or a skill's `<dir>/SKILL`. */
export interface Alias {
  /** The file, under the alias as its slug. */
  readonly subject: Subject;
  /** The slug the file has otherwise (a disabled one disables the alias). */
  readonly of: string;
}

export type { Ignored } from '../fs/ignore.ts';

/** A topic directory walked and indexed: unique slugs, sorted by code units. */
export interface SubjectIndex {
  dir: string;
  /** One per slug (a slug several files share names the first of them
   *  by precedence.ts: the document), sorted by slug in code-unit order. */
  subjects: Subject[];
  /** Collisions, dangling links, loops, unreadable entries... Those about
   *  the directory as a whole (missing, unreadable, the walk limit) have
   *  the `where` ''. */
  notices: Notice[];
  /** What `.gitignore`, `.kbignore` and the built-in defaults left out. */
  ignored: readonly import('../fs/ignore.ts').Ignored[];
  /** Exact names beside the slugs (see Alias); none is a slug. */
  aliases: ReadonlyMap<string, Alias>;
  /** The symbolic links the walk followed. */
  links: FollowedLink[];
  /** The slugs several files share, by slug; absent when none. */
  shared?: ReadonlyMap<string, SharedSlug>;
  /** The walk that made it read no name holding a control character or
   *  U+FFFD (kb/fs/walk.ts `oddNames`): clean.ts need not look at the
   *  paths for one. */
  plainNames?: true;
}

/** A slug several files share: the file it loads, and the others, in
 *  order of precedence (kb/index/precedence.ts), each with the exact name
 *  that loads it (the slug plus its extension: an alias). */
export interface SharedSlug {
  /** The path of the file the slug loads. */
  readonly path: string;
  readonly others: readonly { readonly name: string; readonly path: string }[];
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
  /** A glob that selected nothing: how many hidden subjects it would have
   *  matched (globs skip them), skills' bundled files apart; absent when
   *  none. */
  hiddenSkipped?: number;
  bundledSkipped?: number;
}

/** One item produced while loading subjects (see view.ts `loadPatterns`). */
export type LoadItem =
  | {
      kind: 'subject';
      slug: string;
      subject: Subject;
      /** formatted by extension */
      content: Formatted;
      /** the body as read, before formatting (windows are cut from it);
       *  an HTML page's text in the text view */
      body: Body;
      /** invalid input was replaced */
      replaced: boolean;
      /** Some pattern named it exactly (Match.exact). */
      exact: boolean;
      /** An HTML page in the text view: the line before its text (and
       *  before each window of it), saying so. */
      note?: string;
    }
  /** A continuation (`@from:...`) named a subject the patterns do not
   *  select (any more). */
  | { kind: 'from-missing'; slug: string }
  /** Only for exactly named binaries (glob-matched binaries are dropped silently). */
  | { kind: 'binary'; slug: string }
  /** Matched but pre-loaded through `learned`: not returned again. */
  | { kind: 'already-learned'; slug: string }
  /** The pattern selected nothing that could be returned or noted. */
  | { kind: 'no-match'; pattern: string; /** near-miss details (near.ts) */ hint?: MissHint }
  | { kind: 'invalid-pattern'; pattern: string; reason: string }
  | { kind: 'unreadable'; slug: string; message: string };

/** Why a pattern matched nothing, for the model (kb/index/near.ts). */
export interface MissHint {
  /** Up to five visible slugs close to an exact pattern, best first. */
  suggestions?: string[];
  /** A glob: how many hidden subjects it skipped (never which), and how
   *  many of skills' bundled files. */
  hidden?: number;
  bundled?: number;
  /** A file the pattern names that an ignore rule leaves out (ignored.ts). */
  ignored?: IgnoredHint;
}

/** A file an ignore rule leaves out, which a pattern would have selected. */
export interface IgnoredHint {
  slug: string;
  /** Relative to the subjects directory. */
  path: string;
  /** The control file (relative to the subjects directory) or `built-in`,
   *  the rule as written and its line. */
  source: string;
  rule: string;
  line?: number;
  /** The line that brings it back (`!Clippings/`), and the control file
   *  to add it to (relative to the subjects directory). */
  negation: string;
  kbignore: string;
}
