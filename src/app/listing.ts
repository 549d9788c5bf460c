// A topic's listing, fitted to the token budget: when the whole listing
// is over it, descriptions shorten first (160, then 80 characters, then
// none), then the deepest folders collapse into one line each
// (`- folder/ (N subjects, ~T tokens)`), level by level, and a flat topic
// too large even so lists as many subjects as fit and says how many more
// there are. `learn` with the pattern `folder/` lists inside a folder, by
// the same rules.
import type { Topic } from '../config/types.ts';
import { estimateTokens, TokenTally } from '../kb/content/tokens.ts';
import { descriptions } from '../kb/index/describe.ts';
import { listable } from '../kb/index/listing.ts';
import type { Subject } from '../kb/index/types.ts';
import { kindOf, type TopicView } from '../kb/index/view.ts';
import { listedLine, oneLine, renderListing, type Listed, type ListingFit, type ListingTopic, type TopicNote } from '../render/learn.ts';
import { BYTES_PER_TOKEN_ESTIMATE, tokensText } from './budget.ts';
import { directoryNotes } from './topics.ts';

/** The lines of the listing, and how it was fitted (undefined: it fits
 *  as it is). render/learn.ts `renderListing` writes it. */
export interface FittedListing {
  items: readonly Listed[];
  fit?: ListingFit;
}

const SHORTER = [160, 80, 0];

/** A topic's listing, as `learn` with only the topic (or a folder) gives
 *  it: what render/learn.ts `renderListing` takes. */
export interface TopicListing extends FittedListing {
  topic: Topic;
  learned: string[];
  folder?: string;
  topicNotes: TopicNote[];
  /** The subjects listable (before fitting). */
  subjects: number;
}

/** The listing of `topic` (or of its folder `folder`) within `budget`
 *  tokens; undefined when the folder holds no listable subject. The learn
 *  tool and the prompt's listings (`kb prompt --list`) both use it. */
export async function topicListing(topic: Topic, view: TopicView, walkLimit: number, budget: number, folder?: string): Promise<TopicListing | undefined> {
  // Binaries matched by a learned glob were never pre-loaded: not named.
  const learned = folder === undefined ? view.learned.filter((m) => kindOf(view, m.subject) !== 'binary').map((m) => m.subject.slug) : [];
  let available = listable(view);
  if (folder !== undefined) available = available.filter((s) => s.slug.startsWith(`${folder}/`));
  if (folder !== undefined && available.length === 0) return undefined;
  const about = await descriptions(view, available);
  const topicNotes = directoryNotes(view, walkLimit);
  const fitted = fitListing(topic, available, about, learned, budget, folder, topicNotes);
  return { ...fitted, topic, learned, topicNotes, subjects: available.length, ...(folder !== undefined ? { folder } : {}) };
}

/** How a listing was fitted, in a few words, for the user's warning. */
export function fitWords(fit: ListingFit): string {
  const words: string[] = [];
  if (fit.descriptionChars !== undefined) words.push(fit.descriptionChars === 0 ? 'descriptions left out' : `descriptions cut to ${fit.descriptionChars} characters`);
  if (fit.collapsed) words.push('folders summed up');
  if (fit.omitted) words.push(`${fit.omitted} subjects not listed`);
  return words.join(', ');
}

/** A line's counts and its estimate. */
interface Line {
  tally: TokenTally;
  tokens: number;
}

/** What a listing without lines has in their place (render/learn.ts). */
const NONE = new TokenTally().add('(none)');
/** A line's start, and what is between a slug and its description. */
const BULLET = new TokenTally().add('- ');
const COLON = new TokenTally().add(': ');

/** Lists `subjects` (with their descriptions) within `budget` tokens.
 *  The listing's cost is the frame's plus each line's (one estimate per
 *  line, summed), so each way of fitting is weighed without rendering the
 *  whole listing again; the one chosen is rendered once and checked. */
export function fitListing(
  topic: ListingTopic,
  subjects: readonly Subject[],
  about: readonly (string | undefined)[],
  learned: readonly string[],
  budget: number,
  folder?: string,
  topicNotes: readonly TopicNote[] = [],
): FittedListing {
  const listed: Listed[] = subjects.map((s, i) => (about[i] === undefined ? { slug: s.slug } : { slug: s.slug, description: about[i] }));
  const render = (items: readonly Listed[], fit?: ListingFit) => renderListing(topic, items, learned, fit, folder, topicNotes);
  if (!Number.isFinite(budget)) return { items: listed };
  const b = tokensText(budget);
  // The frame: the listing without its lines ("(none)" in their place).
  // Weighing a way of fitting takes its estimate; the estimate of a whole
  // listing, its counts without "(none)".
  const frames = new Map<string, { tally: TokenTally; tokens: number }>();
  const frameOf = (fit: ListingFit) => {
    const key = `${fit.budget}|${fit.descriptionChars}|${fit.collapsed}|${fit.omitted}`;
    let f = frames.get(key);
    if (f === undefined) {
      const tally = new TokenTally().add(render([], fit));
      frames.set(key, (f = { tokens: tally.tokens(), tally: tally.plus(NONE, -1) }));
    }
    return f;
  };
  const frame = (fit: ListingFit) => frameOf(fit).tokens;
  // Each line is estimated as `estimateTokens` would estimate it, from
  // counts (kb/content/tokens.ts TokenTally): a subject's line is `- `, its
  // folder, its name and its description, each counted apart, and a
  // folder is counted once for all the subjects in it (they are next to
  // each other in slug order). A line's estimate is made once per
  // description length, however many ways of fitting weigh it (a
  // subject's line stays the same object when deeper folders collapse
  // around it), and only as far as a way of fitting is weighed: the sum
  // stops at the first line over the budget.
  const known = new Map<number | undefined, Map<Listed, Line>>();
  const names = new Map<Listed, TokenTally>();
  let prefix = '';
  let prefixTally = new TokenTally();
  /** The counts of `- slug`, without the description. */
  const nameTally = (s: Listed): TokenTally => {
    let t = names.get(s);
    if (t !== undefined) return t;
    const slug = (s as { slug: string }).slug;
    const cut = slug.lastIndexOf('/') + 1;
    if (cut !== prefix.length || !slug.startsWith(prefix)) {
      prefix = slug.slice(0, cut);
      prefixTally = new TokenTally().add(prefix);
    }
    t = new TokenTally().plus(BULLET).plus(prefixTally).add(cut === 0 ? slug : slug.slice(cut));
    names.set(s, t);
    return t;
  };
  const line = (s: Listed, chars: number | undefined): Line => {
    let lines = known.get(chars);
    if (lines === undefined) known.set(chars, (lines = new Map()));
    let l = lines.get(s);
    if (l === undefined) {
      let tally: TokenTally;
      if (s.folder !== undefined) tally = new TokenTally().plus(BULLET).add(listedLine(s, chars));
      else if (s.description === undefined || chars === 0) tally = nameTally(s);
      else tally = new TokenTally().plus(nameTally(s)).plus(COLON).add(oneLine(s.description, chars));
      lines.set(s, (l = { tally, tokens: tally.tokens() }));
    }
    return l;
  };
  const cost = (s: Listed, chars: number | undefined): number => line(s, chars).tokens;
  /** How many of `items`, from the first, fit in `room` tokens. */
  const fitting = (items: readonly Listed[], chars: number | undefined, room: number): number => {
    let n = 0;
    for (let used = 0; n < items.length; n++) {
      used += cost(items[n], chars);
      if (used > room) break;
    }
    return n;
  };
  const fits = (items: readonly Listed[], fit: ListingFit) => {
    const room = budget - frame(fit);
    return room >= 0 && fitting(items, fit.descriptionChars, room) === items.length;
  };
  /** The estimate of the whole listing (`estimateTokens` of what
   *  `renderListing` writes), from its frame's counts and its lines'. */
  const whole = (items: readonly Listed[], fit: ListingFit): number => {
    if (items.length === 0) return frame(fit);
    const sum = new TokenTally().plus(frameOf(fit).tally);
    for (const s of items) sum.plus(line(s, fit.descriptionChars).tally);
    return sum.tokens();
  };
  const done = (items: readonly Listed[], fit?: ListingFit): FittedListing => checked(items, fit);
  /** Measured as a whole (one estimate of the listing, from the counts of
   *  its lines); should the estimate of the whole exceed the sum of its
   *  parts, fewer lines until it fits. */
  const checked = (items: readonly Listed[], fit?: ListingFit): FittedListing => {
    let shown = items;
    let n = items.length;
    while (whole(shown, fit ?? {}) > budget && n > 0) {
      n = Math.floor(n * 0.95);
      fit = { ...(fit ?? { budget: b }), omitted: (fit?.omitted ?? 0) + (items.length - n) };
      shown = items.slice(0, n);
    }
    return fit === undefined ? { items: shown } : { items: shown, fit };
  };
  const described = about.some((d) => d !== undefined);
  // A bound first, when there are descriptions: a line costs at least its
  // name alone (an estimate only grows with the text), and no way of
  // fitting that keeps every line has a smaller frame than the smallest
  // of theirs. When the names alone are over the room that frame leaves,
  // no length of description fits, and none is weighed.
  const hopeless = described && fitting(listed, 0, budget - Math.min(frame({}), ...SHORTER.map((chars) => frame({ budget: b, descriptionChars: chars })))) < listed.length;
  if (!hopeless && fits(listed, {})) return done(listed);
  // 1. Shorter descriptions.
  let fit: ListingFit = { budget: b };
  if (hopeless) fit = { budget: b, descriptionChars: 0 };
  else if (described) {
    for (const chars of SHORTER) {
      fit = { budget: b, descriptionChars: chars };
      if (fits(listed, fit)) return done(listed, fit);
    }
  }
  // 2. The deepest folders, level by level. The subjects shallower than a
  // level keep their own lines, in order, whatever collapses around them:
  // when those lines alone are over the budget, that level cannot fit and
  // is not built (building one is a pass over every subject; the listing
  // of 10,000 subjects of the bench tried nine). The last level is always
  // built: step 3 lists from it.
  const base = folder === undefined ? 0 : folder.split('/').length;
  const depths = subjects.map(depthOf);
  let deepest = 0;
  for (const d of depths) if (d > deepest) deepest = d;
  let items = listed;
  for (let depth = deepest; depth >= base + 1; depth--) {
    if (depth > base + 1 && shallowOver(depths, depth, fit)) continue;
    items = collapse(subjects, listed, depth);
    fit = { ...fit, collapsed: true };
    if (fits(items, fit)) return done(items, fit);
  }
  /** The lines of the subjects less than `depth` folders deep alone are
   *  over the room the listing has with `fit`'s frame. */
  function shallowOver(depths: readonly number[], depth: number, fit: ListingFit): boolean {
    const room = budget - frame({ ...fit, collapsed: true });
    let used = 0;
    for (let i = 0; i < depths.length; i++) {
      if (depths[i] >= depth) continue;
      used += cost(listed[i], fit.descriptionChars);
      if (used > room) return true;
    }
    return false;
  }
  // 3. As many lines as fit.
  const n = fitting(items, fit.descriptionChars, budget - frame({ ...fit, omitted: items.length }));
  return done(items.slice(0, n), { ...fit, omitted: items.length - n });
}

/** A subject's folder levels (`a/b/c` has 2). */
function depthOf(s: Subject): number {
  let d = 0;
  for (let i = s.slug.indexOf('/'); i >= 0; i = s.slug.indexOf('/', i + 1)) d++;
  return d;
}

/** The listing with every subject `depth` or more folders deep summed up
 *  in its folder at that depth. Subjects of one folder are next to each
 *  other in slug order. */
function collapse(subjects: readonly Subject[], listed: readonly Listed[], depth: number): Listed[] {
  const out: Listed[] = [];
  let current: { folder: string; subjects: number; bytes: number } | undefined;
  const flush = () => {
    if (current) out.push({ folder: current.folder, subjects: current.subjects, tokens: tokensText(Math.ceil(current.bytes / BYTES_PER_TOKEN_ESTIMATE)) });
    current = undefined;
  };
  for (let i = 0; i < subjects.length; i++) {
    const slug = subjects[i].slug;
    // Most subjects are in the folder of the one before.
    if (current !== undefined && slug.charCodeAt(current.folder.length) === 0x2f && slug.startsWith(current.folder)) {
      current.subjects++;
      current.bytes += Math.max(0, subjects[i].size);
      continue;
    }
    let cut = -1;
    for (let d = 0, at = slug.indexOf('/'); at >= 0; at = slug.indexOf('/', at + 1)) {
      if (++d === depth) {
        cut = at;
        break;
      }
    }
    if (cut < 0) {
      flush();
      out.push(listed[i]);
      continue;
    }
    const folder = slug.slice(0, cut);
    if (current?.folder !== folder) {
      flush();
      current = { folder, subjects: 0, bytes: 0 };
    }
    current.subjects++;
    current.bytes += Math.max(0, subjects[i].size);
  }
  flush();
  return out;
}
