// A learn call as data: the events app/learn.ts produces, in order, and
// what they hold (a listing's lines, a note, a subject's content).
// render/learn.ts `learnText` is the one place they become the model's text.
import type { Body } from '../kb/content/body.ts';
import type { Formatted } from '../kb/content/format.ts';
import type { Fallback } from '../kb/index/near.ts';
import type { MissHint } from '../kb/index/types.ts';
import type { Problem } from '../shared/problem.ts';
import type { TopicLabel } from './topic.ts';

export type ListingTopic = TopicLabel;

/** What the model must know about a topic's directory as a whole: it
 *  could not be walked (`why`: does not exist, cannot be read...), or the
 *  walk stopped at its limit. */
export type TopicNote = { kind: 'no-directory'; why: string } | { kind: 'walk-limit'; limit: number };

/** A listed subject: its slug, and its description when it has one; or a
 *  folder collapsed to fit the budget. */
export type Listed = { slug: string; description?: string; folder?: undefined } | { folder: string; subjects: number; tokens: number };

/** How a listing was made to fit its budget. */
export interface ListingFit {
  /** Descriptions were cut to this many characters (0: left out). */
  descriptionChars?: number;
  /** Some folders are shown as one line each. */
  collapsed?: boolean;
  /** Subjects not listed at all (a flat topic too large even so). */
  omitted?: number;
  /** The budget (tokens), for the note. */
  budget?: number;
}

/** A topic's (or a folder's) listing, fitted: what render/learn.ts
 *  `renderListing` writes. */
export interface Listing {
  topic: ListingTopic;
  items: readonly Listed[];
  learned: readonly string[];
  fit?: ListingFit;
  folder?: string;
  topicNotes: readonly TopicNote[];
}

/** Why something asked for was not returned (or was read otherwise). */
export type Note =
  | { kind: 'already-learned'; slug: string }
  | { kind: 'binary'; slug: string }
  | { kind: 'no-match'; pattern: string; hint?: MissHint }
  | { kind: 'invalid-pattern'; pattern: string; reason: string }
  | { kind: 'unreadable'; slug: string; message: string }
  | { kind: 'from-missing'; slug: string }
  | Fallback;

/** Text, or text's UTF-8 bytes (a subject's body, written as read). */
export type Chunk = string | Uint8Array;

/** The arguments of a learn call, as the model is told to send them. */
export interface LearnCall {
  topic: string;
  subjects: string[];
}

/** A skill's bundled file: its slug and its path in the skill directory. */
export interface BundledFile {
  slug: string;
  path: string;
}

/** A skill's directory (workspace-relative) and its bundled files. */
export interface SkillFiles {
  dir: string;
  files: readonly BundledFile[];
}

/** What a learn call produced, in the order it happened. A subject's or a
 *  window's body may be a view into a buffer that the next read reuses:
 *  it is written (or copied) when the event comes. */
export type LearnEvent =
  /** The call named no enabled topic. */
  | { kind: 'unknown-topic'; topic: string; valid: readonly TopicLabel[] }
  /** A topic (or a folder of it) listed, fitted to the budget. */
  | ({ kind: 'listing' } & Listing)
  /** A subject returned whole: in a `<subject>` block, or `raw` (the
   *  content alone: one exact subject, found). */
  | { kind: 'subject'; slug: string; content: Formatted; skill?: SkillFiles; raw: boolean }
  /** A window of a subject larger than the budget: bytes `from`-`to` of
   *  `total` (lines `lines`), and the call for the next window, if any. */
  | { kind: 'window'; slug: string; fenceTag: string | undefined; body: Body; from: number; to: number; total: number; lines: [number, number]; budget: number; next?: LearnCall }
  /** Why something asked for was not returned (or was read otherwise). */
  | { kind: 'note'; topic: string; note: Note }
  /** Subjects left out to stay within the budget, from the first of them
   *  on, and the call that continues. */
  | { kind: 'left-out'; count: number; tokens: number; budget: number; call: LearnCall }
  /** Subjects that come after the last window of `slug`. */
  | { kind: 'left-after'; count: number; tokens: number; slug: string }
  /** The end of a load: what the model must know about the topic's
   *  directory, and whether the result was raw. */
  | { kind: 'end'; topic: string; topicNotes: readonly TopicNote[]; raw: boolean }
  /** Something the user should know (stderr), never the model. */
  | { kind: 'problem'; problem: Problem };
