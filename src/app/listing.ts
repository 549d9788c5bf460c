// A topic's listing, fitted to the token budget: when the whole listing
// is over it, descriptions shorten first (160, then 80 characters, then
// none), then the deepest folders collapse into one line each
// (`- folder/ (N subjects, ~T tokens)`), level by level, and a flat topic
// too large even so lists as many subjects as fit and says how many more
// there are. `learn` with the pattern `folder/` lists inside a folder, by
// the same rules. Each way of listing is fitted by app/fit.ts, with what
// render says a listing's frame and lines cost (answer/cost.ts
// `ListingCosts`).
import type { ListingCosts } from '../answer/cost.ts';
import type { Listed, ListingFit, ListingTopic, TopicNote } from '../answer/learn.ts';
import type { Topic } from '../config/types.ts';
import { TokenTally } from '../kb/content/tokens.ts';
import { describedAny, descriptions, resultDescribes } from '../kb/index/describe.ts';
import { isListableCheap, listable, listableUnder } from '../kb/index/listing.ts';
import { inSiteOrder } from '../kb/index/site-order.ts';
import { indexRank } from '../kb/index/order.ts';
import type { Subject } from '../kb/index/types.ts';
import { findBySlug } from '../kb/index/resolve.ts';
import { kindOf, type TitleWatch, type TopicView } from '../kb/index/view.ts';
import { BYTES_PER_TOKEN_ESTIMATE } from './budget.ts';
import { fit as fitRows, fitAll, type FitCosts } from './fit.ts';
import { directoryNotes } from './topics.ts';
import { filter, map, some } from '../shared/arrays.ts';
import { naturallySorted } from '../shared/text.ts';

/** The lines of the listing, and how it was fitted (undefined: it fits
 *  as it is). render/listing.ts `renderListing` writes it. */
export interface FittedListing {
  items: readonly Listed[];
  fit?: ListingFit;
}

const SHORTER = [160, 80, 0];

/** What a sum of weights may be off by, as floating point adds them up:
 *  a bound is trusted only beyond it. */
const SLACK = 1e-6;

/** A topic's listing, as `learn` with only the topic (or a folder) gives
 *  it: what render/listing.ts `renderListing` takes. */
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
export async function topicListing(topic: Topic, view: TopicView, walkLimit: number, budget: number, costs: ListingCosts, folder?: string, watch?: TitleWatch): Promise<TopicListing | undefined> {
  // Binaries matched by a learned glob were never pre-loaded: not named.
  const learned = folder === undefined ? map(filter(view.learned, (m) => kindOf(view, m.subject) !== 'binary'), (m) => m.subject.slug) : [];
  // A folder's listing looks at the folder's subjects only: its cost grows
  // with the folder, not with the topic.
  const inSlugOrder = folder === undefined ? listable(view) : listableUnder(view, folder);
  const available = inSiteOrder(view, inSlugOrder, true);
  // A site's own order wins over natural order (docs/guide/knowledge-base.md, "Docs sites").
  const sited = available !== inSlugOrder;
  if (folder !== undefined && available.length === 0) return undefined;
  const topicNotes = directoryNotes(view, walkLimit);
  const about: ListingDescriptions = {
    all: () => descriptions(view, available),
    any: () => (walkDescribed(view, watch) ? Promise.resolve(true) : describedAny(view, available)),
    some: (at) => descriptions(view, map(at, (i) => available[i])),
  };
  const fitted = await fitListingOf({ topic, subjects: available, learned, ...(folder !== undefined ? { folder } : {}), topicNotes }, about, budget, costs);
  // The lines shown in natural order (`4.2.2` before `4.2.10`); fitted in
  // slug order, where a folder's subjects are together as they are in
  // natural order. Only the lines shown are sorted: a listing of 10,000
  // subjects shows a few hundred, and sorting them all took 30-50 ms of
  // CPU in a one-shot command.
  const items = sited ? (fitted.items as Listed[]) : naturallySorted(fitted.items as Listed[], lineName);
  return { ...fitted, items, topic, learned, topicNotes, subjects: available.length, ...(folder !== undefined ? { folder } : {}) };
}

/** Whether the walk of `view`, watched by `watch` (the whole topic's
 *  listing), found a subject the listing lists that says something about
 *  itself: then no verdict is looked up per subject to learn that some
 *  does. (Not where a slug is shared: its verdict may be another file's.) */
function walkDescribed(view: TopicView, watch: TitleWatch | undefined): boolean {
  const slug = watch?.firstDescribed?.();
  if (slug === undefined || view.index.shared?.has(slug) === true) return false;
  // (A file found before its folder was known to be a skill's is one of
  // its bundled files: hidden.)
  const s = findBySlug(view.index.subjects, slug);
  return s !== undefined && isListableCheap(view, s);
}

/** A listing line's name, as it sorts: a subject's slug, a folder's
 *  name with its `/` (where its subjects would be). */
function lineName(l: Listed): string {
  return l.folder === undefined ? l.slug : `${l.folder}/`;
}

/** What the probe of a whole topic's listing within `budget` tokens
 *  watches (kb/index/view.ts): once the names of the subjects found are
 *  over the budget on their own (each line costs at least its name) and
 *  some subject is described, the listing will show no title, only say
 *  that descriptions were left out, so the probe searches no further
 *  head for one. Should the listing fit after all (some of those
 *  subjects were binary), the titles it needs are probed for again
 *  (kb/index/describe.ts). */
export function titleWatch(budget: number, disabled: ReadonlySet<string>, costs: ListingCosts): TitleWatch {
  const bullet = costs.bullet;
  let used = 0;
  let over = false;
  let described = false;
  let first: string | undefined;
  // What the names cost at least: a line in a folder, its bullet and its
  // folder (an estimate only grows with the text), the same for all the
  // subjects found one after the other in one folder; a line at the top,
  // its name counted as the fit counts it. Until some subject is
  // described the answer is no whatever the names cost: the names at the
  // top (counted one by one, the dearest part) wait until then, and most
  // topics, whose subjects describe nothing, never count them.
  let prefix: string | undefined;
  let prefixCost = 0;
  const waiting: string[] = [];
  const top = (slug: string) => {
    used += bullet.tokensWith(slug);
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
          prefixCost = bullet.tokensWith(folder);
        }
        used += prefixCost;
      }
      over = used > budget;
      return over && described;
    },
    probed(slug, result) {
      if (described || disabled.has(slug)) return over && described;
      described = resultDescribes(result, slug);
      if (described) first = slug;
      if (described && !over) {
        for (let i = 0; i < waiting.length && used <= budget; i++) top(waiting[i]);
        waiting.length = 0;
        over = used > budget;
      }
      return over && described;
    },
    firstDescribed: () => first,
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
  /** Those of the subjects at `at` only (folders' index pages). */
  some?(at: readonly number[]): Promise<readonly (string | undefined)[]>;
}

/** What a listing lists: the topic (or its folder `folder`), its
 *  subjects in slug order, those already learned, and the notes about the
 *  topic's directory. */
export interface ListingOf {
  topic: ListingTopic;
  subjects: readonly Subject[];
  learned: readonly string[];
  folder?: string;
  topicNotes?: readonly TopicNote[];
}

/** Lists `of` within `budget` tokens, as `fitListing`, asking for the
 *  subjects' descriptions only when some could be shown: when the names
 *  alone are over the budget, only whether there is any description. */
export async function fitListingOf(of: ListingOf, about: ListingDescriptions, budget: number, costs: ListingCosts): Promise<FittedListing> {
  const f = new ListingFitter(of, budget, costs);
  if (f.namesOver()) {
    const any = await about.any();
    // No subject's description is shown, but a folder summed up shows its
    // index page's: those few are asked for.
    const pages = any && about.some !== undefined ? indexPages(of.subjects) : [];
    if (pages.length > 0) f.folderAbout = spread(of.subjects.length, pages, await about.some!(pages));
    return f.fit(undefined, any);
  }
  const all = await about.all();
  return f.fit(all, some(all, (d) => d !== undefined));
}

/** The indexes of the subjects that are a folder's index page (order.ts
 *  `indexRank`), at the top apart. */
function indexPages(subjects: readonly Subject[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[i];
    const slug = s.slug;
    // Index pages' names are 5 or 6 characters long: most subjects are
    // passed over by the lengths of their slug and folder, their text
    // unread (a slug the walk made of its folder and name is read here
    // first, at a cost, when at all).
    if (s.folder !== undefined) {
      const name = slug.length - s.folder.length;
      if ((name === 5 || name === 6) && s.folder.length > 0 && indexRank(slug.slice(s.folder.length)) >= 0) out.push(i);
      continue;
    }
    const slash = slug.lastIndexOf('/');
    if (slash > 0 && indexRank(slug.slice(slash + 1)) >= 0) out.push(i);
  }
  return out;
}

/** An array of `n`, `values` at the indexes `at`. */
function spread<T>(n: number, at: readonly number[], values: readonly T[]): (T | undefined)[] {
  const out = new Array<T | undefined>(n);
  for (let k = 0; k < at.length; k++) out[at[k]] = values[k];
  return out;
}

/** Lists `of` (with its subjects' descriptions, `about`, in order) within
 *  `budget` tokens. */
export function fitListing(of: ListingOf, about: readonly (string | undefined)[], budget: number, costs: ListingCosts): FittedListing {
  return new ListingFitter(of, budget, costs).fit(about, about.some((d) => d !== undefined));
}

/** A line's counts and its estimate. */
interface Line {
  tally: TokenTally;
  tokens: number;
}

/** A line of a way of listing: a subject's own (its index in `subjects`)
 *  or a folder summed up. */
type Row = number | Listed;

/**
 * A listing's lines and what each costs. Each line is estimated as
 * `estimateTokens` would estimate it, from counts (kb/content/tokens.ts
 * TokenTally): a subject's line is the bullet, its folder, its name and
 * its description, each counted apart, and a folder is counted once for
 * all the subjects in it (they are next to each other in slug order). A
 * subject's line is estimated once per description length (kept by its
 * index), however many ways of fitting weigh it, and only as far as a way
 * of fitting is weighed (app/fit.ts stops at the first line over the
 * budget).
 */
class ListingLines {
  /** The subjects' descriptions, in order (undefined: not asked for). */
  about: readonly (string | undefined)[] | undefined;
  private readonly listed: (Listed | undefined)[];
  private readonly nameCosts: Float64Array;
  /** Folders' counts with the bullet before them, by folder (with its
   *  `/`): a listing in slug order goes down into folders and back up to
   *  the ones it left. */
  private readonly folderTallies = new Map<string, TokenTally>();
  private prefix = '';
  private prefixTally: TokenTally;
  /** Lines with a description, by its length. */
  private readonly described = new Map<number | undefined, Map<number, Line>>();
  private readonly folders = new Map<Listed, Line>();

  constructor(
    readonly subjects: readonly Subject[],
    private readonly costs: ListingCosts,
  ) {
    this.listed = new Array(subjects.length);
    this.nameCosts = new Float64Array(subjects.length).fill(-1);
    this.prefixTally = new TokenTally().plus(costs.bullet);
  }

  /** Subject `i`'s line, as the listing holds it. */
  item(i: number): Listed {
    let l = this.listed[i];
    if (l === undefined) {
      const d = this.about?.[i];
      this.listed[i] = l = d === undefined ? { slug: this.subjects[i].slug } : { slug: this.subjects[i].slug, description: d };
    }
    return l;
  }

  /** The listing's items for `rows`. */
  items(rows: readonly Row[]): Listed[] {
    const out: Listed[] = new Array(rows.length);
    for (let k = 0; k < rows.length; k++) {
      const r = rows[k];
      out[k] = typeof r === 'number' ? this.item(r) : r;
    }
    return out;
  }

  /** The counts of the bullet and `folder`. */
  folderTally(folder: string): TokenTally {
    let f = this.folderTallies.get(folder);
    if (f === undefined) this.folderTallies.set(folder, (f = new TokenTally().plus(this.costs.bullet).add(folder)));
    return f;
  }

  folderOf(s: Subject): string {
    return s.folder ?? s.slug.slice(0, s.slug.lastIndexOf('/') + 1);
  }

  /** The counts of the bullet and the folder of subject `i` (the one
   *  before's, most often). */
  private lineStart(i: number): TokenTally {
    const folder = this.folderOf(this.subjects[i]);
    if (folder !== this.prefix) {
      this.prefix = folder;
      this.prefixTally = this.folderTally(folder);
    }
    return this.prefixTally;
  }

  /** Adds the counts of subject `i`'s line without its description to
   *  `sum`. A line's counts are not kept: the estimate of a whole listing
   *  adds them to its sum, and weighing a line takes its estimate alone
   *  (`nameCost`), no tally made for either. */
  private nameInto(sum: TokenTally, i: number): TokenTally {
    return sum.plus(this.lineStart(i)).add(this.subjects[i].slug, this.prefix.length);
  }

  private nameCost(i: number): number {
    const c = this.nameCosts[i];
    if (c >= 0) return c;
    return (this.nameCosts[i] = this.lineStart(i).tokensWith(this.subjects[i].slug, this.prefix.length));
  }

  private describedLine(i: number, description: string, chars: number | undefined): Line {
    let lines = this.described.get(chars);
    if (lines === undefined) this.described.set(chars, (lines = new Map()));
    let l = lines.get(i);
    if (l === undefined) {
      const tally = this.nameInto(new TokenTally(), i).plus(this.costs.separator).add(this.costs.description(description, chars));
      lines.set(i, (l = { tally, tokens: tally.tokens() }));
    }
    return l;
  }

  folderLine(s: Extract<Listed, { folder: string }>): Line {
    let l = this.folders.get(s);
    if (l === undefined) {
      const tally = new TokenTally().plus(this.costs.bullet).add(this.costs.folder(s));
      this.folders.set(s, (l = { tally, tokens: tally.tokens() }));
    }
    return l;
  }

  /** Subject `i`'s line's estimate, its description cut to `chars`. */
  subjectCost(i: number, chars: number | undefined): number {
    const d = this.about?.[i];
    return d !== undefined && chars !== 0 ? this.describedLine(i, d, chars).tokens : this.nameCost(i);
  }

  /** A row's estimate. */
  cost(r: Row, chars: number | undefined): number {
    return typeof r === 'number' ? this.subjectCost(r, chars) : this.folderLine(r as Extract<Listed, { folder: string }>).tokens;
  }

  /** Adds a row's counts to `sum`. */
  into(sum: TokenTally, r: Row, chars: number | undefined): TokenTally {
    if (typeof r !== 'number') return sum.plus(this.folderLine(r as Extract<Listed, { folder: string }>).tally);
    const d = this.about?.[r];
    return d !== undefined && chars !== 0 ? sum.plus(this.describedLine(r, d, chars).tally) : this.nameInto(sum, r);
  }
}

/**
 * Bounds on the name lines of runs of subjects of one folder, that settle
 * whether they are over a room without weighing each line. A line costs at
 * least its bullet and its folder (an estimate only grows with the text),
 * so the lines of a run cost at least that many times that much; and a
 * line's estimate is its weight rounded, at least a half (its bullet alone
 * weighs more), so the lines of many subjects cost the sum of their
 * weights give or take a half each.
 */
class RunBounds {
  readonly runs: FolderRuns;
  private costs: Float64Array | undefined;
  private names: (TokenTally | undefined)[] | undefined;

  constructor(private readonly lines: ListingLines) {
    this.runs = folderRuns(lines.subjects);
  }

  /** The counts of run `r`'s folder, with the bullet. */
  folderTally(r: number): TokenTally {
    return this.lines.folderTally(this.lines.folderOf(this.lines.subjects[this.runs.starts[r]]));
  }

  /** Whether the lines of the runs less than `below` folders deep (all
   *  runs: Infinity) are, by the first bound, over `room`. */
  boundOver(room: number, below = Infinity): boolean {
    const runs = this.runs;
    const costs = (this.costs ??= new Float64Array(runs.count).fill(-1));
    let sum = 0;
    for (let r = 0; r < runs.count; r++) {
      if (runs.levels[r] >= below) continue;
      let c = costs[r];
      if (c < 0) costs[r] = c = this.folderTally(r).tokens();
      sum += (runs.starts[r + 1] - runs.starts[r]) * c;
      if (sum > room) return true;
    }
    return false;
  }

  /** The names of run `r`'s subjects counted together (each after its
   *  folder). */
  runNames(r: number): TokenTally {
    const runs = this.runs;
    const all = (this.names ??= new Array<TokenTally | undefined>(runs.count));
    let t = all[r];
    if (t === undefined) {
      t = new TokenTally();
      const subjects = this.lines.subjects;
      const from = runs.starts[r];
      const cut = this.lines.folderOf(subjects[from]).length;
      for (let i = from; i < runs.starts[r + 1]; i++) t.add(subjects[i].slug, cut);
      all[r] = t;
    }
    return t;
  }

  /** Whether the name lines of the runs less than `below` folders deep
   *  are over `room`, as far as their weights tell (undefined: they do
   *  not, each line must be weighed). */
  runsOver(room: number, below: number): boolean | undefined {
    const runs = this.runs;
    let sum = 0;
    let lines = 0;
    for (let r = 0; r < runs.count; r++) {
      if (runs.levels[r] >= below) continue;
      const m = runs.starts[r + 1] - runs.starts[r];
      sum += m * this.folderTally(r).weight() + this.runNames(r).weight();
      lines += m;
      if (sum - 0.5 * lines > room + SLACK) return true;
    }
    return sum + 0.5 * lines <= room - SLACK ? false : undefined;
  }

  /** The exact counts of the name lines of the runs less than `depth`
   *  folders deep, added to `sum`, run by run. */
  namesInto(sum: TokenTally, depth: number): TokenTally {
    const runs = this.runs;
    for (let r = 0; r < runs.count; r++) {
      if (runs.levels[r] >= depth) continue;
      sum.plus(this.folderTally(r), runs.starts[r + 1] - runs.starts[r]).plus(this.runNames(r));
    }
    return sum;
  }
}

/**
 * The fitting of one listing. The listing's cost is the frame's plus each
 * line's (one estimate per line, summed), so each way of listing is
 * weighed without rendering the whole listing again; the one chosen is
 * measured as a whole where the estimates leave doubt (app/fit.ts).
 * `namesOver` needs no description: when the names alone are over the
 * budget, `fit` takes none, only whether there are some.
 */
class ListingFitter {
  private readonly lines: ListingLines;
  private readonly bounds: RunBounds;
  /** Every subject's own line, in order. */
  private readonly all: number[];
  /** The budget, as the notes give it. */
  private readonly b: number;
  private readonly frames = new Map<string, { tally: TokenTally; tokens: number }>();
  private over: boolean | undefined;
  private anyShown = true;
  /** The descriptions of folders' index pages (by subject index), for the
   *  folders summed up, when the subjects' are not asked for. */
  folderAbout: readonly (string | undefined)[] | undefined;

  constructor(
    private readonly of: ListingOf,
    private readonly budget: number,
    private readonly costs: ListingCosts,
  ) {
    this.lines = new ListingLines(of.subjects, costs);
    this.bounds = new RunBounds(this.lines);
    // (A loop: a callback per subject costs more in code run once.)
    const all = new Array<number>(of.subjects.length);
    for (let i = 0; i < all.length; i++) all[i] = i;
    this.all = all;
    this.b = budget;
  }

  /** The frame: the listing without its lines. Weighing a way of listing
   *  takes its estimate (with the `none` the frame has in their place);
   *  the estimate of a whole listing, its counts without it. */
  private frameOf(fit: ListingFit): { tally: TokenTally; tokens: number } {
    const key = `${fit.budget}|${fit.descriptionChars}|${fit.collapsed}|${fit.omitted}`;
    let f = this.frames.get(key);
    if (f === undefined) {
      const { topic, learned, folder, topicNotes = [] } = this.of;
      const tally = this.costs.frame({ topic, learned, ...(folder !== undefined ? { folder } : {}), topicNotes }, fit);
      this.frames.set(key, (f = { tokens: tally.tokens(), tally: tally.plus(this.costs.none, -1) }));
    }
    return f;
  }

  private frame(fit: ListingFit): number {
    return this.frameOf(fit).tokens;
  }

  /** Whether every subject's line is its name alone with descriptions cut
   *  to `chars` (0: left out; none shown when no subject has one). */
  private namesOnly(chars: number | undefined): boolean {
    return chars === 0 || this.lines.about === undefined || !this.anyShown;
  }

  /** `fit` with `left` lines left out (said in the note). */
  private withOmitted(fit: ListingFit, left: number): ListingFit {
    return left === 0 ? fit : { ...fit, budget: this.b, omitted: (fit.omitted ?? 0) + left };
  }

  /** The estimate of the whole listing of `rows` (`estimateTokens` of
   *  what `renderListing` writes), from its frame's counts and its lines';
   *  `depth`: `rows` are every subject less than `depth` folders deep and
   *  the folders summed up there, by names alone, and their counts are
   *  summed run by run. */
  private whole(rows: readonly Row[], fit: ListingFit, depth: number | undefined): number {
    if (rows.length === 0) return this.frame(fit);
    const sum = new TokenTally().plus(this.frameOf(fit).tally);
    if (depth !== undefined && this.namesOnly(fit.descriptionChars)) {
      this.bounds.namesInto(sum, depth);
      for (const r of rows) if (typeof r !== 'number') this.lines.into(sum, r, undefined);
      return sum.tokens();
    }
    for (const r of rows) this.lines.into(sum, r, fit.descriptionChars);
    return sum.tokens();
  }

  /** What a way of listing costs (app/fit.ts): `rows`, with `fit`'s
   *  frame (`frame`: the frame weighed, when another), its lines'
   *  estimates, the bound of the name lines where they are names alone,
   *  and the whole measured from counts. `depth`: `rows` are the
   *  subjects less than `depth` folders deep, each on its own line, and
   *  the folders summed up at that depth (Infinity: every subject). */
  private costsOf(rows: readonly Row[], fit: ListingFit, depth: number, frame = this.frame(fit)): FitCosts<Row> {
    const chars = fit.descriptionChars;
    const namesOnly = this.namesOnly(chars);
    return {
      frame,
      row: (r) => this.lines.cost(r, chars),
      bound: (room) => {
        if (room < 0) return true;
        if (!namesOnly) return undefined;
        // The folders' lines, then the subjects' by the sum of their weights.
        let folders = 0;
        if (rows !== this.all) for (const r of rows) if (typeof r !== 'number') folders += this.lines.cost(r, chars);
        return this.bounds.runsOver(room - folders, depth);
      },
      whole: (kept, left) => this.whole(kept, this.withOmitted(fit, left.length), kept.length === rows.length ? depth : undefined),
      slack: 0.5,
    };
  }

  /** The listing of `rows` with `fit`, if every row fits by its estimate
   *  (undefined if not); measured as a whole, fewer lines should the whole
   *  be over (said in the note). */
  private tryWay(rows: readonly Row[], fit: ListingFit, depth: number): FittedListing | undefined {
    const fitted = fitAll(rows, this.budget, this.costsOf(rows, fit, depth));
    return fitted === undefined ? undefined : this.listing(fitted.kept, this.withOmitted(fit, fitted.left.length));
  }

  private listing(rows: readonly Row[], fit: ListingFit): FittedListing {
    return Object.keys(fit).length === 0 ? { items: this.lines.items(rows) } : { items: this.lines.items(rows), fit };
  }

  /** A bound: a line costs at least its name alone (an estimate only
   *  grows with the text), and no way of fitting that keeps every line has
   *  a smaller frame than the smallest of theirs. When the names alone are
   *  over the room that frame leaves, no length of description fits. */
  namesOver(): boolean {
    if (this.over === undefined) {
      const n = this.of.subjects.length;
      const room = this.budget - Math.min(this.frame({}), ...map(SHORTER, (chars) => this.frame({ budget: this.b, descriptionChars: chars })));
      this.over = Number.isFinite(this.budget) && n > 0 && (this.bounds.boundOver(room) || (this.bounds.runsOver(room, Infinity) ?? this.linesOver(0, room, Infinity)));
    }
    return this.over;
  }

  /** Whether the lines of the subjects less than `depth` folders deep,
   *  descriptions cut to `chars`, are over `room`, weighed one by one. */
  private linesOver(chars: number | undefined, room: number, depth: number): boolean {
    const runs = this.bounds.runs;
    let used = 0;
    for (let r = 0; r < runs.count; r++) {
      if (runs.levels[r] >= depth) continue;
      for (let i = runs.starts[r]; i < runs.starts[r + 1]; i++) {
        used += this.lines.subjectCost(i, chars);
        if (used > room) return true;
      }
    }
    return false;
  }

  /** The listing fitted, `descriptions` the subjects' (undefined: not
   *  asked for, as the names alone are over the budget) and `anyDescribed`
   *  whether any has one: as it is, else with shorter descriptions, else
   *  with folders summed up, else as many lines as fit. */
  fit(descriptions: readonly (string | undefined)[] | undefined, anyDescribed: boolean): FittedListing {
    this.lines.about = descriptions;
    this.anyShown = anyDescribed;
    if (!Number.isFinite(this.budget)) return { items: this.lines.items(this.all) };
    // When there are descriptions, none is weighed when the names alone
    // are over the budget (`namesOver`).
    const hopeless = anyDescribed && this.namesOver();
    // Names found over a room at least this one's (`namesOver`) are over
    // it with their descriptions too: not weighed again.
    const asItIs = !hopeless && this.over !== true ? this.tryWay(this.all, {}, Infinity) : undefined;
    if (asItIs !== undefined) return asItIs;
    const shorter = this.shorter(hopeless, anyDescribed);
    if ('items' in shorter) return shorter;
    return this.collapsed(shorter);
  }

  /** 1. Shorter descriptions: the listing with the first length that fits,
   *  else the way of fitting the next steps start from. */
  private shorter(hopeless: boolean, anyDescribed: boolean): FittedListing | ListingFit {
    if (hopeless) return { budget: this.b, descriptionChars: 0 };
    let fit: ListingFit = { budget: this.b };
    if (!anyDescribed) return fit;
    for (const chars of SHORTER) {
      fit = { budget: this.b, descriptionChars: chars };
      const fitted = this.tryWay(this.all, fit, Infinity);
      if (fitted !== undefined) return fitted;
    }
    return fit;
  }

  /** 2. The deepest folders, level by level. The subjects shallower than a
   *  level keep their own lines, in order, whatever collapses around them:
   *  when those lines alone are over the budget, that level cannot fit and
   *  is not built (building one is a pass over every subject; the listing
   *  of 10,000 subjects of the bench tried nine). The last level is always
   *  built: 3., as many lines as fit, lists from it. */
  private collapsed(start: ListingFit): FittedListing {
    const folder = this.of.folder;
    const base = folder === undefined ? 0 : folder.split('/').length;
    const runs = this.bounds.runs;
    let deepest = 0;
    for (let r = 0; r < runs.count; r++) if (runs.levels[r] > deepest) deepest = runs.levels[r];
    let fit = start;
    let rows: readonly Row[] = this.all;
    let rowsDepth = Infinity;
    for (let depth = deepest; depth >= base + 1; depth--) {
      if (depth > base + 1 && this.shallowOver(depth, fit)) continue;
      rows = collapse(this.of.subjects, runs, depth, this.lines.about ?? this.folderAbout);
      rowsDepth = depth;
      fit = { ...fit, collapsed: true };
      const fitted = this.tryWay(rows, fit, depth);
      if (fitted !== undefined) return fitted;
    }
    // 3. As many lines as fit, weighed with the frame that says all but
    // none were left out.
    const fitted = fitRows(rows, this.budget, this.costsOf(rows, fit, rowsDepth, this.frame({ ...fit, omitted: rows.length })));
    return this.listing(fitted.kept, this.withOmitted(fit, fitted.left.length));
  }

  /** The lines of the subjects less than `depth` folders deep alone are
   *  over the room the listing has with `fit`'s frame. */
  private shallowOver(depth: number, fit: ListingFit): boolean {
    const room = this.budget - this.frame({ ...fit, collapsed: true });
    if (this.bounds.boundOver(room, depth)) return true;
    if (this.namesOnly(fit.descriptionChars)) {
      const over = this.bounds.runsOver(room, depth);
      if (over !== undefined) return over;
    }
    return this.linesOver(fit.descriptionChars, room, depth);
  }
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
function collapse(subjects: readonly Subject[], runs: FolderRuns, depth: number, about?: readonly (string | undefined)[]): (number | Listed)[] {
  const out: (number | Listed)[] = [];
  let current: { folder: string; subjects: number; bytes: number; index?: { rank: number; description: string } } | undefined;
  const flush = () => {
    if (current) {
      const line: Listed = { folder: current.folder, subjects: current.subjects, tokens: Math.ceil(current.bytes / BYTES_PER_TOKEN_ESTIMATE) };
      out.push(current.index === undefined ? line : { ...line, description: current.index.description });
    }
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
    if (about !== undefined && runs.levels[r] === depth) indexPageOf(current!, subjects, about, from, to);
  }
  flush();
  return out;
}

/** Gives the folder summed up in `current` the line of its index page
 *  (order.ts `indexRank`: `_index`, else `index`, else `README`), if one
 *  of the subjects from `from` to `to` (a run of the folder's own) is a
 *  described one. Only described subjects' names are looked at. */
function indexPageOf(current: { folder: string; index?: { rank: number; description: string } }, subjects: readonly Subject[], about: readonly (string | undefined)[], from: number, to: number): void {
  const cut = current.folder.length + 1;
  for (let i = from; i < to; i++) {
    const d = about[i];
    if (d === undefined) continue;
    const rank = indexRank(subjects[i].slug.slice(cut));
    if (rank >= 0 && (current.index === undefined || rank < current.index.rank)) current.index = { rank, description: d };
  }
}
