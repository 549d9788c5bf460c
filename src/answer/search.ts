// What a search found and what a recall packed, as data (app/search.ts,
// app/recall.ts); render/search.ts writes them.
import type { Formatted } from '../kb/content/format.ts';
import type { IndexStatus } from '../kb/search/topic.ts';
import type { LearnCall } from './learn.ts';
import type { TopicLabel } from './topic.ts';

/** One result, as found (app/search.ts). */
export interface SearchResult {
  topic: string;
  slug: string;
  /** Its title, where it says more than the slug (content/title.ts
   *  `informativeTitle`, as listings show it). */
  title?: string;
  description?: string;
  snippet: string;
  tokens: number;
  score: number;
  /** From its frontmatter (content/frontmatter.ts `timesIn`). */
  created?: string;
  updated?: string;
}

/** What a search found, as data (app/search.ts `SearchOutcome`). */
export interface SearchFound {
  query: string;
  /** The one topic searched, if the call named one. */
  where?: string;
  /** How many subjects matched in all. */
  total: number;
  results: readonly SearchResult[];
  /** Results left out by the budget, and the budget. */
  cut: number;
  budget: number;
  unknown: string[];
  corrected: [string, string[]][];
  /** The call named an unknown topic: the error, nothing else. */
  unknownTopic?: { topic: string; valid: readonly TopicLabel[] };
}

/** How one topic's index was had (for --verbose and the bench). */
export interface IndexReport {
  topic: string;
  status: IndexStatus;
  subjects: number;
  read: number;
  ms: number;
  /** Of `ms`: reading the cache, revalidating, building. */
  times: { load: number; check: number; build: number };
}

/** The note after a subject that came as some of its sections. */
export interface PartialNote {
  /** The sections' headings (JSON-quoted) or `line N`. */
  names: readonly string[];
  tokens: number;
  call: LearnCall;
}

/** A recalled subject: whole, or some of its sections. */
export interface RecalledSubject {
  slug: string;
  content: Formatted;
  /** Only some sections: which, the whole subject's tokens, and the call
   *  that loads it whole (the note at the end of the block). */
  partial?: PartialNote;
}

/** Relevant subjects left out of a recall by the budget. */
export interface RecallLeftOut {
  topic: string;
  slug: string;
  /** Its title, where it says more than the slug. */
  title?: string;
  tokens: number;
}

export interface RecalledTopic extends TopicLabel {
  subjects: RecalledSubject[];
}
