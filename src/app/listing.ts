// A topic's listing, fitted to the token budget: when the whole listing
// is over it, descriptions shorten first (160, then 80 characters, then
// none), then the deepest folders collapse into one line each
// (`- folder/ (N subjects, ~T tokens)`), level by level, and a flat topic
// too large even so lists as many subjects as fit and says how many more
// there are. `learn` with the pattern `folder/` lists inside a folder, by
// the same rules.
import type { Topic } from '../config/types.ts';
import { estimateTokens, TokenTally } from '../kb/content/tokens.ts';
import { describedAny, descriptions, resultDescribes } from '../kb/index/describe.ts';
import { listable, listableUnder } from '../kb/index/listing.ts';
import type { Subject } from '../kb/index/types.ts';
import { kindOf, type TitleWatch, type TopicView } from '../kb/index/view.ts';
import { listedLine, oneLine, renderListing } from '../render/learn.ts';
import type { Listed, ListingFit, ListingTopic, TopicNote } from '../answer/learn.ts';
import { BYTES_PER_TOKEN_ESTIMATE, tokensText } from './budget.ts';
import { directoryNotes } from './topics.ts';

/** The lines of the listing, and how it was fitted (undefined: it fits
 *  as it is). render/learn.ts `renderListing` writes it. */
export interface FittedListing {
  items: readonly Listed[];
  fit?: ListingFit;
}

const SHORTER = [160, 80, 0];

/** What a sum of weights may be off by, as floating point adds them up:
 *  a bound is trusted only beyond it. */
const SLACK = 1e-6;

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
  // A folder's listing looks at the folder's subjects only: its cost grows
  // with the folder, not with the topic.
  const available = folder === undefined ? listable(view) : listableUnder(view, folder);
  if (folder !== undefined && available.length === 0) return undefined;
  const topicNotes = directoryNotes(view, walkLimit);
  const about: ListingDescriptions = { all: () => descriptions(view, available), any: () => describedAny(view, available) };
  const fitted = await fitListingOf(topic, available, about, learned, budget, folder, topicNotes);
  return { ...fitted, topic, learned, topicNotes, subjects: available.length, ...(folder !== undefined ? { folder } : {}) };
}

/** What the probe of a whole topic's listing within `budget` tokens
 *  watches (kb/index/view.ts): once the names of the subjects found are
 *  over the budget on their own (each line costs at least its name) and
 *  some subject is described, the listing will show no title, only say
 *  that descriptions were left out, so the probe searches no further
 *  head for one. Should the listing fit after all (some of those
 *  subjects were binary), the titles it needs are probed for again
 *  (kb/index/describe.ts). */
export function titleWatch(budget: number, disabled: ReadonlySet<string>): TitleWatch {
  let used = 0;
  let over = false;
  let described = false;
  // What the names cost at least: a line in a folder, its `- ` and its
  // folder (an estimate only grows with the text), the same for all the
  // subjects found one after the other in one folder; a line at the top,
  // its name counted as `fitListing` counts it. Until some subject is
  // described the answer is no whatever the names cost: the names at the
  // top (counted one by one, the dearest part) wait until then, and most
  // topics, whose subjects describe nothing, never count them.
  let prefix: string | undefined;
  let prefixCost = 0;
  const waiting: string[] = [];
  const top = (slug: string) => {
    used += BULLET.tokensWith(slug);
  };
  return {
    found(slug, folder = slug.slice(0, slug.lastIndexOf('/') + 1)) {
      if (over || (disabled.size > 0 && disabled.has(slug))) return over && described;
      if (folder === '') {
        if (!described) {
          waiting.push(slug);
          return false;
        }
        top(slug);
      } else {
        if (folder !== prefix) {
          prefix = folder;
          prefixCost = BULLET.tokensWith(folder);
        }
        used += prefixCost;
      }
      over = used > budget;
      return over && described;
    },
    probed(slug, result) {
      if (described || disabled.has(slug)) return over && described;
      described = resultDescribes(result, slug);
      if (described && !over) {
        for (let i = 0; i < waiting.length && used <= budget; i++) top(waiting[i]);
        waiting.length = 0;
        over = used > budget;
      }
      return over && described;
    },
  };
}

/** How a listing was fitted, in a few words, for the user's warning. */
export function fitWords(fit: ListingFit): string {
  const words: string[] = [];
  if (fit.descriptionChars !== undefined) words.push(fit.descriptionChars === 0 ? 'descriptions left out' : `descriptions cut to ${fit.descriptionChars} characters`);
  if (fit.collapsed) words.push('folders summed up');
  if (fit.omitted) words.push(`${fit.omitted} subjects not listed`);
  return words.join(', ');
}

/** Where a listing's descriptions come from: every subject's, or only
 *  whether any subject has one, which is all a listing whose names alone
 *  are over its budget needs (it shows none, and says it left them out). */
export interface ListingDescriptions {
  all(): Promise<readonly (string | undefined)[]>;
  any(): Promise<boolean>;
}

/** Lists `subjects` within `budget` tokens, as `fitListing`, asking for
 *  their descriptions only when some could be shown: when the names alone
 *  are over the budget, only whether there is any description. */
export async function fitListingOf(
  topic: ListingTopic,
  subjects: readonly Subject[],
  about: ListingDescriptions,
  learned: readonly string[],
  budget: number,
  folder?: string,
  topicNotes: readonly TopicNote[] = [],
): Promise<FittedListing> {
  const f = fitter(topic, subjects, learned, budget, folder, topicNotes);
  if (f.namesOver()) return f.fit(undefined, await about.any());
  const all = await about.all();
  return f.fit(all, all.some((d) => d !== undefined));
}

/** Lists `subjects` (with their descriptions, `about`, in order) within
 *  `budget` tokens. */
export function fitListing(
  topic: ListingTopic,
  subjects: readonly Subject[],
  about: readonly (string | undefined)[],
  learned: readonly string[],
  budget: number,
  folder?: string,
  topicNotes: readonly TopicNote[] = [],
): FittedListing {
  return fitter(topic, subjects, learned, budget, folder, topicNotes).fit(about, about.some((d) => d !== undefined));
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

/** A way of listing: its lines in order, each a subject's own (its index
 *  in `subjects`) or a folder summed up; null: every subject's own line. */
type Rows = readonly (number | Listed)[] | null;

/** The fitting of one listing. The listing's cost is the frame's plus
 *  each line's (one estimate per line, summed), so each way of fitting is
 *  weighed without rendering the whole listing again; the one chosen is
 *  measured as a whole once and checked. `namesOver` needs no description:
 *  when the names alone are over the budget, `fit` takes none, only
 *  whether there are some. */
function fitter(topic: ListingTopic, subjects: readonly Subject[], learned: readonly string[], budget: number, folder: string | undefined, topicNotes: readonly TopicNote[]) {
  const n = subjects.length;
  const render = (items: readonly Listed[], fit?: ListingFit) => renderListing(topic, items, learned, fit, folder, topicNotes);
  const b = Number.isFinite(budget) ? tokensText(budget) : '';
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
  // each other in slug order). A subject's line is estimated once per
  // description length (kept by its index), however many ways of fitting
  // weigh it, and only as far as a way of fitting is weighed: the sum
  // stops at the first line over the budget.
  let about: readonly (string | undefined)[] | undefined;
  const listed: (Listed | undefined)[] = new Array(n);
  /** Subject `i`'s line, as the listing holds it. */
  const item = (i: number): Listed => {
    let l = listed[i];
    if (l === undefined) {
      const d = about?.[i];
      listed[i] = l = d === undefined ? { slug: subjects[i].slug } : { slug: subjects[i].slug, description: d };
    }
    return l;
  };
  const nameCosts = new Float64Array(n).fill(-1);
  // Folders' counts with the line's `- ` before them, by folder (with its
  // `/`): a listing in slug order goes down into folders and back up to
  // the ones it left.
  const folderTallies = new Map<string, TokenTally>();
  let prefix = '';
  let prefixTally = new TokenTally().plus(BULLET);
  /** The counts of `- folder/`. */
  const folderTally = (folder: string): TokenTally => {
    let f = folderTallies.get(folder);
    if (f === undefined) folderTallies.set(folder, (f = new TokenTally().plus(BULLET).add(folder)));
    return f;
  };
  const folderOf = (s: Subject): string => s.folder ?? s.slug.slice(0, s.slug.lastIndexOf('/') + 1);
  /** The counts of `- folder/` for subject `i` (the one before's, most
   *  often). */
  const lineStart = (i: number): TokenTally => {
    const folder = folderOf(subjects[i]);
    if (folder !== prefix) {
      prefix = folder;
      prefixTally = folderTally(folder);
    }
    return prefixTally;
  };
  /** Adds the counts of `- slug` (subject `i`'s line without its
   *  description) to `sum`. A line's counts are not kept: the estimate
   *  of a whole listing adds them to its sum, and weighing a line takes
   *  its estimate alone (`nameCost`), no tally made for either. */
  const nameInto = (sum: TokenTally, i: number): TokenTally => sum.plus(lineStart(i)).add(subjects[i].slug, prefix.length);
  const nameCost = (i: number): number => {
    const c = nameCosts[i];
    if (c >= 0) return c;
    return (nameCosts[i] = lineStart(i).tokensWith(subjects[i].slug, prefix.length));
  };
  /** Lines with a description, by its length. */
  const described = new Map<number | undefined, Map<number, Line>>();
  const describedLine = (i: number, description: string, chars: number | undefined): Line => {
    let lines = described.get(chars);
    if (lines === undefined) described.set(chars, (lines = new Map()));
    let l = lines.get(i);
    if (l === undefined) {
      const tally = nameInto(new TokenTally(), i).plus(COLON).add(oneLine(description, chars));
      lines.set(i, (l = { tally, tokens: tally.tokens() }));
    }
    return l;
  };
  const folders = new Map<Listed, Line>();
  const folderLine = (s: Listed): Line => {
    let l = folders.get(s);
    if (l === undefined) {
      const tally = new TokenTally().plus(BULLET).add(listedLine(s, undefined));
      folders.set(s, (l = { tally, tokens: tally.tokens() }));
    }
    return l;
  };
  const subjectCost = (i: number, chars: number | undefined): number => {
    const d = about?.[i];
    return d !== undefined && chars !== 0 ? describedLine(i, d, chars).tokens : nameCost(i);
  };
  /** Adds subject `i`'s line's counts to `sum`. */
  const subjectInto = (sum: TokenTally, i: number, chars: number | undefined): TokenTally => {
    const d = about?.[i];
    return d !== undefined && chars !== 0 ? sum.plus(describedLine(i, d, chars).tally) : nameInto(sum, i);
  };
  const length = (rows: Rows): number => (rows === null ? n : rows.length);
  /** How many of `rows`, from the first, fit in `room` tokens. */
  const fitting = (rows: Rows, chars: number | undefined, room: number): number => {
    const m = length(rows);
    let k = 0;
    for (let used = 0; k < m; k++) {
      const r = rows === null ? k : rows[k];
      used += typeof r === 'number' ? subjectCost(r, chars) : folderLine(r).tokens;
      if (used > room) break;
    }
    return k;
  };
  /** `depth`: `rows` are every subject's own line (null) or the listing
   *  with the subjects `depth` or more folders deep summed up (`collapse`). */
  const fits = (rows: Rows, fit: ListingFit, depth = Infinity) => {
    const room = budget - frame(fit);
    if (room < 0) return false;
    if (namesOnly(fit.descriptionChars)) {
      // The folders' lines, then the subjects' by the sum of their weights.
      let folders = 0;
      if (rows !== null) for (const r of rows) if (typeof r !== 'number') folders += folderLine(r).tokens;
      const over = runsOver(room - folders, depth);
      if (over !== undefined) return !over;
    }
    return fitting(rows, fit.descriptionChars, room) === length(rows);
  };
  /** The estimate of the whole listing (`estimateTokens` of what
   *  `renderListing` writes), from its frame's counts and its lines'. */
  const whole = (rows: Rows, fit: ListingFit): number => {
    const m = length(rows);
    if (m === 0) return frame(fit);
    const sum = new TokenTally().plus(frameOf(fit).tally);
    for (let k = 0; k < m; k++) {
      const r = rows === null ? k : rows[k];
      if (typeof r === 'number') subjectInto(sum, r, fit.descriptionChars);
      else sum.plus(folderLine(r).tally);
    }
    return sum.tokens();
  };
  /** Whether the estimate of the whole listing (`whole`) is over the
   *  budget. A line's estimate is its weighted counts rounded, so at most
   *  half a token under them, and so is the frame's: where the lines'
   *  estimates (known already: the way of fitting was weighed) and the
   *  frame's, each plus a half, are within the budget, so is the whole,
   *  and no count is added up. */
  const wholeOver = (rows: Rows, fit: ListingFit, depth?: number): boolean => {
    const m = length(rows);
    if (depth !== undefined && m > 0 && namesOnly(fit.descriptionChars)) {
      // Whole runs of names: their counts summed run by run, exactly.
      const sum = new TokenTally().plus(frameOf(fit).tally);
      const runs = runsOf();
      for (let r = 0; r < runs.count; r++) {
        if (runs.levels[r] >= depth) continue;
        sum.plus(folderTally(folderOf(subjects[runs.starts[r]])), runs.starts[r + 1] - runs.starts[r]).plus(runNames(r));
      }
      if (rows !== null) for (const r of rows) if (typeof r !== 'number') sum.plus(folderLine(r).tally);
      return sum.tokens() > budget;
    }
    let most = frame(fit) + 0.5 * (m + 1);
    for (let k = 0; k < m && most <= budget; k++) {
      const r = rows === null ? k : rows[k];
      most += typeof r === 'number' ? subjectCost(r, fit.descriptionChars) : folderLine(r).tokens;
    }
    return most > budget && whole(rows, fit) > budget;
  };
  const slice = (rows: Rows, m: number): Rows => (rows === null ? (m === n ? null : Array.from({ length: m }, (_, k) => k)) : rows.slice(0, m));
  const items = (rows: Rows): Listed[] => {
    const m = length(rows);
    const out: Listed[] = new Array(m);
    for (let k = 0; k < m; k++) {
      const r = rows === null ? k : rows[k];
      out[k] = typeof r === 'number' ? item(r) : r;
    }
    return out;
  };
  /** Measured as a whole (one estimate of the listing, from the counts of
   *  its lines); should the estimate of the whole exceed the sum of its
   *  parts, fewer lines until it fits. */
  const done = (rows: Rows, fit?: ListingFit, depth?: number): FittedListing => {
    let shown = rows;
    const all = length(rows);
    let m = all;
    while (m > 0 && wholeOver(shown, fit ?? {}, m === all ? depth : undefined)) {
      m = Math.floor(m * 0.95);
      fit = { ...(fit ?? { budget: b }), omitted: (fit?.omitted ?? 0) + (all - m) };
      shown = slice(rows, m);
    }
    return fit === undefined ? { items: items(shown) } : { items: items(shown), fit };
  };
  let over: boolean | undefined;
  /** A bound: a line costs at least its name alone (an estimate only
   *  grows with the text), and no way of fitting that keeps every line has
   *  a smaller frame than the smallest of theirs. When the names alone are
   *  over the room that frame leaves, no length of description fits. */
  const namesOver = (): boolean => {
    if (over === undefined) {
      const room = budget - Math.min(frame({}), ...SHORTER.map((chars) => frame({ budget: b, descriptionChars: chars })));
      over = Number.isFinite(budget) && n > 0 && (boundOver(room) || (runsOver(room, Infinity) ?? fitting(null, 0, room) < n));
    }
    return over;
  };
  // A lower bound that needs no subject's name: a line costs at least its
  // `- ` and its folder (an estimate only grows with the text), so the
  // lines of a run of subjects of one folder cost at least that many times
  // that much. Where the bound is over the room, so are the lines, and no
  // name is counted to tell.
  let runs: FolderRuns | undefined;
  const runsOf = (): FolderRuns => (runs ??= folderRuns(subjects));
  let runCosts: Float64Array | undefined;
  /** Whether the lines of the runs less than `below` folders deep (all
   *  runs: Infinity) are, by the bound, over `room`. */
  const boundOver = (room: number, below = Infinity): boolean => {
    const runs = runsOf();
    const costs = (runCosts ??= new Float64Array(runs.count).fill(-1));
    let sum = 0;
    for (let r = 0; r < runs.count; r++) {
      if (runs.levels[r] >= below) continue;
      let c = costs[r];
      if (c < 0) costs[r] = c = folderTally(folderOf(subjects[runs.starts[r]])).tokens();
      sum += (runs.starts[r + 1] - runs.starts[r]) * c;
      if (sum > room) return true;
    }
    return false;
  };

  // The names of a run's subjects counted together (each after its
  // folder): a line's estimate is its weight rounded, at least a half (its
  // `- ` alone weighs more), so the lines of many subjects cost the sum of
  // their weights give or take a half each. Where that settles whether
  // they are over a room, no line is weighed on its own.
  let names: (TokenTally | undefined)[] | undefined;
  const runNames = (r: number): TokenTally => {
    const runs = runsOf();
    const all = (names ??= new Array<TokenTally | undefined>(runs.count));
    let t = all[r];
    if (t === undefined) {
      t = new TokenTally();
      const from = runs.starts[r];
      const cut = folderOf(subjects[from]).length;
      for (let i = from; i < runs.starts[r + 1]; i++) t.add(subjects[i].slug, cut);
      all[r] = t;
    }
    return t;
  };
  /** Whether the name lines of the runs less than `below` folders deep
   *  are over `room`, as far as their weights tell (undefined: they do
   *  not, each line must be weighed). */
  const runsOver = (room: number, below: number): boolean | undefined => {
    const runs = runsOf();
    let sum = 0;
    let lines = 0;
    for (let r = 0; r < runs.count; r++) {
      if (runs.levels[r] >= below) continue;
      const m = runs.starts[r + 1] - runs.starts[r];
      sum += m * folderTally(folderOf(subjects[runs.starts[r]])).weight() + runNames(r).weight();
      lines += m;
      if (sum - 0.5 * lines > room + SLACK) return true;
    }
    return sum + 0.5 * lines <= room - SLACK ? false : undefined;
  };
  let anyShown = true;
  /** Whether every subject's line is its name alone with descriptions cut
   *  to `chars` (0: left out; none shown when no subject has one). */
  const namesOnly = (chars: number | undefined): boolean => chars === 0 || about === undefined || !anyShown;

  /** The listing fitted, `descriptions` the subjects' (undefined: not
   *  asked for, as the names alone are over the budget) and `anyDescribed`
   *  whether any has one. */
  const fit = (descriptions: readonly (string | undefined)[] | undefined, anyDescribed: boolean): FittedListing => {
    about = descriptions;
    anyShown = anyDescribed;
    if (!Number.isFinite(budget)) return { items: items(null) };
    // When there are descriptions, none is weighed when the names alone
    // are over the budget (`namesOver`).
    const hopeless = anyDescribed && namesOver();
    // Names found over a room at least this one's (`namesOver`) are over
    // it with their descriptions too: not weighed again.
    if (!hopeless && over !== true && fits(null, {})) return done(null, undefined, Infinity);
    // 1. Shorter descriptions.
    let fit: ListingFit = { budget: b };
    if (hopeless) fit = { budget: b, descriptionChars: 0 };
    else if (anyDescribed) {
      for (const chars of SHORTER) {
        fit = { budget: b, descriptionChars: chars };
        if (fits(null, fit)) return done(null, fit, Infinity);
      }
    }
    // 2. The deepest folders, level by level. The subjects shallower than a
    // level keep their own lines, in order, whatever collapses around them:
    // when those lines alone are over the budget, that level cannot fit and
    // is not built (building one is a pass over every subject; the listing
    // of 10,000 subjects of the bench tried nine). The last level is always
    // built: step 3 lists from it.
    const base = folder === undefined ? 0 : folder.split('/').length;
    const runs = runsOf();
    let deepest = 0;
    for (let r = 0; r < runs.count; r++) if (runs.levels[r] > deepest) deepest = runs.levels[r];
    let rows: Rows = null;
    for (let depth = deepest; depth >= base + 1; depth--) {
      if (depth > base + 1 && shallowOver(runs, depth, fit)) continue;
      rows = collapse(subjects, runs, depth);
      fit = { ...fit, collapsed: true };
      if (fits(rows, fit, depth)) return done(rows, fit, depth);
    }
    // 3. As many lines as fit.
    const m = fitting(rows, fit.descriptionChars, budget - frame({ ...fit, omitted: length(rows) }));
    return done(slice(rows, m), { ...fit, omitted: length(rows) - m });
  };
  /** The lines of the subjects less than `depth` folders deep alone are
   *  over the room the listing has with `fit`'s frame. */
  const shallowOver = (runs: FolderRuns, depth: number, fit: ListingFit): boolean => {
    const room = budget - frame({ ...fit, collapsed: true });
    if (boundOver(room, depth)) return true;
    if (namesOnly(fit.descriptionChars)) {
      const over = runsOver(room, depth);
      if (over !== undefined) return over;
    }
    let used = 0;
    for (let r = 0; r < runs.count; r++) {
      if (runs.levels[r] >= depth) continue;
      for (let i = runs.starts[r]; i < runs.starts[r + 1]; i++) {
        used += subjectCost(i, fit.descriptionChars);
        if (used > room) return true;
      }
    }
    return false;
  };
  return { namesOver, fit };
}

/** Subjects in slug order as runs of subjects of one folder (a folder's
 *  subjects are next to each other, but for those of its subfolders in
 *  between): run `r` holds the subjects from `starts[r]` to
 *  `starts[r + 1]`, `levels[r]` folders deep. The folder-by-folder work
 *  of a listing (its depths, summing folders up) is done once a run. */
export interface FolderRuns {
  count: number;
  starts: Int32Array;
  levels: Int32Array;
  /** Each run's bytes (the sum of its subjects' sizes), when asked for. */
  bytes?: Float64Array;
}

export function folderRuns(subjects: readonly Subject[]): FolderRuns {
  const n = subjects.length;
  const starts: number[] = [];
  const levels: number[] = [];
  let folder: string | undefined; // the folder of the subject before, with its `/`
  for (let i = 0; i < n; i++) {
    const s = subjects[i];
    // One string per folder where the walk made the subjects
    // (Subject.folder): most subjects are in the folder of the one
    // before, the same string.
    const next = s.folder ?? s.slug.slice(0, s.slug.lastIndexOf('/') + 1);
    if (next === folder) continue;
    folder = next;
    let depth = 0;
    for (let at = folder.indexOf('/'); at >= 0; at = folder.indexOf('/', at + 1)) depth++;
    starts.push(i);
    levels.push(depth);
  }
  starts.push(n);
  return { count: levels.length, starts: new Int32Array(starts), levels: new Int32Array(levels) };
}

/** Each subject's folder levels (`a/b/c` has 2). */
export function depthsOf(subjects: readonly Subject[]): Int32Array {
  const runs = folderRuns(subjects);
  const depths = new Int32Array(subjects.length);
  for (let r = 0; r < runs.count; r++) depths.fill(runs.levels[r], runs.starts[r], runs.starts[r + 1]);
  return depths;
}

/** The bytes of run `r`'s subjects (sizes below 0, not known, count 0). */
function runBytes(subjects: readonly Subject[], runs: FolderRuns, r: number): number {
  const bytes = (runs.bytes ??= new Float64Array(runs.count).fill(-1));
  if (bytes[r] < 0) {
    let sum = 0;
    for (let i = runs.starts[r]; i < runs.starts[r + 1]; i++) sum += Math.max(0, subjects[i].size);
    bytes[r] = sum;
  }
  return bytes[r];
}

/** The listing with every subject `depth` or more folders deep summed up
 *  in its folder at that depth. Subjects of one folder are next to each
 *  other in slug order (`runs`, `folderRuns`), and so are the folders
 *  below one. */
function collapse(subjects: readonly Subject[], runs: FolderRuns, depth: number): (number | Listed)[] {
  const out: (number | Listed)[] = [];
  let current: { folder: string; subjects: number; bytes: number } | undefined;
  const flush = () => {
    if (current) out.push({ folder: current.folder, subjects: current.subjects, tokens: tokensText(Math.ceil(current.bytes / BYTES_PER_TOKEN_ESTIMATE)) });
    current = undefined;
  };
  for (let r = 0; r < runs.count; r++) {
    const from = runs.starts[r];
    const to = runs.starts[r + 1];
    if (runs.levels[r] < depth) {
      flush();
      for (let i = from; i < to; i++) out.push(i);
      continue;
    }
    const slug = subjects[from].slug;
    // Most runs are in the folder of the one before.
    if (current === undefined || slug.charCodeAt(current.folder.length) !== 0x2f || !slug.startsWith(current.folder)) {
      let cut = -1;
      for (let d = 0, at = slug.indexOf('/'); at >= 0; at = slug.indexOf('/', at + 1)) {
        if (++d === depth) {
          cut = at;
          break;
        }
      }
      const folder = slug.slice(0, cut);
      if (current?.folder !== folder) {
        flush();
        current = { folder, subjects: 0, bytes: 0 };
      }
    }
    current!.subjects += to - from;
    current!.bytes += runBytes(subjects, runs, r);
  }
  flush();
  return out;
}
