// What the kb layer knows about a topic directory.

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

/** Something the walk or an index build wants the user to know about. */
export interface Notice {
  kind: 'dangling-link' | 'symlink-loop' | 'unreadable' | 'vanished' | 'slug-collision' | 'not-a-directory' | 'missing-directory'
    /** A FIFO, socket or device (never opened). */
    | 'special-file'
    /** A file name holding a control character (newline...): left out. */
    | 'control-character';
  /** Path relative to the subjects directory (or the directory itself). */
  path: string;
  message: string;
}

/** A topic directory walked and indexed: unique slugs, sorted by code units. */
export interface SubjectIndex {
  dir: string;
  /** One per slug (collisions resolved: non-hidden wins, then the
   *  lexicographically first path), sorted by slug in code-unit order. */
  subjects: Subject[];
  /** Collisions, dangling links, loops, unreadable entries... */
  notices: Notice[];
}

/** The result of reading one subject. Skipped files are results, not errors. */
export type ReadResult =
  | { kind: 'text'; text: string; /** invalid UTF-8 was replaced */ replaced: boolean; encoding: 'utf-8' | 'utf-16le' | 'utf-16be' }
  | { kind: 'binary' }
  | { kind: 'error'; message: string };

/** How a pattern is understood. */
export type PatternKind = 'exact' | 'glob' | 'invalid';

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

/** The outcome of sniffing a file's first 8192 bytes. */
export type SniffResult = 'text' | 'binary' | 'error';

/** One item produced while loading subjects (see `loadPatterns`). The
 *  content is text unless a `ContentReader` gave another form (bytes.ts). */
export type LoadItem<C = string> =
  | { kind: 'subject'; slug: string; subject: Subject; /** formatContent applied */ content: C; /** invalid UTF-8 was replaced */ replaced: boolean }
  /** Only for exactly named binaries (glob-matched binaries are dropped silently). */
  | { kind: 'binary'; slug: string }
  /** Matched but pre-loaded through `learned`: not returned again. */
  | { kind: 'already-learned'; slug: string }
  /** The pattern selected nothing that could be returned or noted. */
  | { kind: 'no-match'; pattern: string }
  | { kind: 'invalid-pattern'; pattern: string; reason: string }
  | { kind: 'unreadable'; slug: string; message: string };
