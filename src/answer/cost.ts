// What render/'s text costs, in estimated tokens, for the operations that
// fit an answer to a token budget (app/fit.ts): an answer is a frame and
// rows, and render says what each costs, since it alone writes them. The
// front end opens the knowledge base with the costs (render/costs.ts
// `COSTS`: one loader per answer, so that an operation loads only its own
// renderer); app/ never imports render/.
import type { TokenTally } from '../kb/content/tokens.ts';
import type { Listed, Listing, ListingFit, SkillFiles } from './learn.ts';
import type { Prompt } from './prompt.ts';
import type { PartialNote, RecallLeftOut, RecalledTopic, SearchFound, SearchResult, SearchScope } from './search.ts';
import type { TopicLabel } from './topic.ts';

/** A listing's costs, in the parts the listing's fit weighs (app/listing.ts),
 *  as counts (kb/content/tokens.ts `TokenTally`), so that the parts of a
 *  listing add up to what the whole would count: its frame, and each line
 *  `- ` + slug, with `: ` + description when it shows one, or a folder
 *  summed up. */
export interface ListingCosts {
  /** The counts of the listing with no line (`none` in their place). */
  frame(l: Omit<Listing, 'items' | 'fit'>, fit: ListingFit): TokenTally;
  /** What a listing with no line has in their place. */
  readonly none: TokenTally;
  /** What starts each line. */
  readonly bullet: TokenTally;
  /** What is between a slug and its description. */
  readonly separator: TokenTally;
  /** A description as a line shows it, cut to `chars` characters
   *  (undefined: as long as listings show them). */
  description(text: string, chars: number | undefined): string;
  /** A folder summed up, as its line shows it after the bullet. */
  folder(f: Extract<Listed, { folder: string }>): string;
}

/** A search's costs (render/search.ts). */
export interface SearchCosts {
  /** The frame: the line above the results, and room for the notes below. */
  frame(query: string, scope: SearchScope, total: number, shown: number): number;
  /** Result `n` (from 1), and what separates it from the next. */
  row(r: SearchResult, n: number): number;
  /** The whole text. */
  whole(f: SearchFound): number;
  /** Whether `f` (every result, none cut) surely fits `budget` whole and
   *  by its frame and rows' costs (`frame` the frame's cost), by a bound
   *  on the estimates taken from its text's length alone: then it is not
   *  weighed. */
  surelyWithin(f: SearchFound, frame: number, budget: number): boolean;
}

/** A recall's costs (render/search.ts). */
export interface RecallCosts {
  /** The frame: the line above the subjects, and room for the closing note. */
  readonly frame: number;
  /** A topic's block around its subjects. */
  readonly topic: number;
  /** The note after a subject that came as some of its sections. */
  partialNote(p: PartialNote): number;
  /** The whole `<knowledge>` block. */
  whole(topics: readonly RecalledTopic[], leftOut: readonly RecallLeftOut[], budget: number): number;
}

/** The prompt section's costs (render/prompt.ts). */
export interface PromptCosts {
  /** The whole section. */
  whole(p: Prompt): number;
  /** What a topic adds to the section besides its expanded subjects:
   *  its lines, and the note naming those not expanded (without the
   *  names), about. */
  topic(t: TopicLabel): number;
  /** A pre-loaded subject's block without its content: its tags, and a
   *  skill's files after the content. */
  subject(slug: string, skill: SkillFiles | undefined): number;
  /** What the listings add besides their blocks (their introduction). */
  readonly listings: number;
  /** A listing's block: the listing, and the tags around it (without a
   *  listing: the tags alone). */
  listing(topicId: string, l: Listing | undefined): number;
}

/** Every cost a front end gives the knowledge base, each loaded when an
 *  operation first needs it. */
export interface Costs {
  listing(): Promise<ListingCosts>;
  search(): Promise<SearchCosts>;
  recall(): Promise<RecallCosts>;
  prompt(): Promise<PromptCosts>;
}
