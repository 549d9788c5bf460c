// The listing's fit (app/listing.ts) weighs lines from counts kept apart
// (TokenTally): it must choose exactly what estimating each rendered line
// would, so the reference below is the fit as it was written before, with
// `estimateTokens` of every line and of the rendered whole.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { depthsOf, fitListing as fitOf, fitListingOf as fitOfAsked, folderRuns, type FittedListing, type ListingDescriptions } from '../../../src/app/listing.ts';
import { BYTES_PER_TOKEN_ESTIMATE } from '../../../src/app/budget.ts';
import { estimateTokens } from '../../../src/kb/content/tokens.ts';
import type { Subject } from '../../../src/kb/index/types.ts';
import { LISTING_COSTS, listedLine, renderListing } from '../../../src/render/listing.ts';
import type { Listed, ListingFit, ListingTopic, TopicNote } from '../../../src/answer/learn.ts';

const SHORTER = [160, 80, 0];

/** The fit of `subjects` (in slug order) with render's costs. */
function fitListing(
  topic: ListingTopic,
  subjects: readonly Subject[],
  about: readonly (string | undefined)[],
  learned: readonly string[],
  budget: number,
  folder?: string,
  topicNotes: readonly TopicNote[] = [],
): FittedListing {
  return fitOf({ topic, subjects, learned, ...(folder !== undefined ? { folder } : {}), topicNotes }, about, budget, LISTING_COSTS);
}

/** The same, asking for the descriptions only when some could be shown. */
function fitListingOf(topic: ListingTopic, subjects: readonly Subject[], about: ListingDescriptions, learned: readonly string[], budget: number): Promise<FittedListing> {
  return fitOfAsked({ topic, subjects, learned, topicNotes: [] }, about, budget, LISTING_COSTS);
}

function referenceFit(
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
  const b = budget;
  const frame = (fit: ListingFit) => estimateTokens(render([], fit));
  // A line's estimate is made once per description length, however many
  // ways of fitting weigh it (a subject's line stays the same object when
  // deeper folders collapse around it), and only as far as a way of fitting
  // is weighed: the sum stops at the first line over the budget. A listing
  // of 10,000 subjects over the budget estimated every line once per
  // folder level before.
  const known = new Map<number | undefined, Map<Listed, number>>();
  const cost = (s: Listed, chars: number | undefined): number => {
    let costs = known.get(chars);
    if (costs === undefined) known.set(chars, (costs = new Map()));
    let c = costs.get(s);
    if (c === undefined) costs.set(s, (c = estimateTokens(`- ${listedLine(s, chars)}\n`)));
    return c;
  };
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
  const done = (items: readonly Listed[], fit?: ListingFit): FittedListing => checked(items, fit);
  /** Rendered once (to be measured: the listing is within the budget,
   *  so rendering it again at the edge is cheap); should the estimate of
   *  the whole exceed the sum of its parts, the most lines whose whole
   *  fits, one fewer at a time. */
  const checked = (items: readonly Listed[], fit?: ListingFit): FittedListing => {
    const cut = (n: number): ListingFit | undefined => (n === items.length ? fit : { ...(fit ?? { budget: b }), omitted: (fit?.omitted ?? 0) + (items.length - n) });
    let n = items.length;
    while (n > 0 && estimateTokens(render(items.slice(0, n), cut(n))) > budget) n--;
    const shown = items.slice(0, n);
    const fitted = cut(n);
    return fitted === undefined ? { items: shown } : { items: shown, fit: fitted };
  };
  if (fits(listed, {})) return done(listed);
  // 1. Shorter descriptions.
  let fit: ListingFit = { budget: b };
  if (about.some((d) => d !== undefined)) {
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
  const depths = subjects.map(depthOfRef);
  let deepest = 0;
  for (const d of depths) if (d > deepest) deepest = d;
  let items = listed;
  for (let depth = deepest; depth >= base + 1; depth--) {
    if (depth > base + 1 && shallowOver(depths, depth, fit)) continue;
    items = collapseRef(subjects, listed, depth);
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
function depthOfRef(s: Subject): number {
  let d = 0;
  for (let i = s.slug.indexOf('/'); i >= 0; i = s.slug.indexOf('/', i + 1)) d++;
  return d;
}

/** The listing with every subject `depth` or more folders deep summed up
 *  in its folder at that depth. Subjects of one folder are next to each
 *  other in slug order. */
function collapseRef(subjects: readonly Subject[], listed: readonly Listed[], depth: number): Listed[] {
  const out: Listed[] = [];
  let current: { folder: string; subjects: number; bytes: number } | undefined;
  const flush = () => {
    if (current) out.push({ folder: current.folder, subjects: current.subjects, tokens: Math.ceil(current.bytes / BYTES_PER_TOKEN_ESTIMATE) });
    current = undefined;
  };
  for (let i = 0; i < subjects.length; i++) {
    const slug = subjects[i].slug;
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


const topic: ListingTopic = { id: 't', title: 'T', description: 'A topic, 42 of them: é.' } as ListingTopic;

const segment = fc.constantFrom('a', 'b-1', 'c2', 'dé', 'e_e', '日本', 'x😀', 'v2.3', 'long-folder-name-7');
const word = fc.constantFrom('alpha', '42', 'é', '日本', 'x1', 'v2.3', '😀', '-', '(a)', 'foo_bar', '  ', '\t', 'über', 'a\nb');

describe('fitListing', () => {
  test('chooses what estimating every rendered line chooses', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(segment, { maxLength: 3 }), fc.option(fc.array(word, { maxLength: 40 }).map((w) => w.join(' '))), fc.nat(40_000)), { minLength: 1, maxLength: 300 }),
        fc.oneof(fc.integer({ min: 20, max: 1500 }), fc.integer({ min: 20, max: 8000 })),
        fc.option(fc.constantFrom('a', 'b-1')),
        (rows, budget, folder) => {
          const seen = new Set<string>();
          const subjects: Subject[] = [];
          const about: (string | undefined)[] = [];
          rows.forEach(([dirs, description, size], i) => {
            const slug = [...(folder === null ? [] : [folder]), ...dirs, `n${i}`].join('/');
            if (seen.has(slug)) return;
            seen.add(slug);
            subjects.push({ slug, path: slug, abs: slug, hidden: false, ext: 'md', size } as Subject);
            about.push(description ?? undefined);
          });
          const order = subjects.map((_, i) => i).sort((x, y) => (subjects[x].slug < subjects[y].slug ? -1 : 1));
          const s = order.map((i) => subjects[i]);
          const a = order.map((i) => about[i]);
          const f = folder ?? undefined;
          const got: FittedListing = fitListing(topic, s, a, ['pre/loaded'], budget, f, []);
          const want: FittedListing = referenceFit(topic, s, a, ['pre/loaded'], budget, f, []);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('without descriptions, chooses what estimating every line chooses, where the sums of the lines\' weights settle it and where they do not', () => {
    // Names only: the fit adds up the weights of whole folders' names, each
    // line within half a token of its estimate. Budgets around the names'
    // total (many just under it) put it on both sides of that margin.
    const name = fc.constantFrom('ab', 'n1', 'x', 'note-12.md', 'v2.3', 'é', 'a b', '日本', '(a)', 'long_name_here', '7');
    const settled = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(segment, { maxLength: 3 }), name), { minLength: 1, maxLength: 300 }),
        fc.oneof(fc.double({ min: 0.2, max: 1.3, noNaN: true }), fc.double({ min: 0.95, max: 1.02, noNaN: true })),
        (rows, share) => {
          const bySlug = new Map<string, Subject>();
          rows.forEach(([dirs, n], i) => {
            const slug = [...dirs, `${n}${i}`].join('/');
            bySlug.set(slug, { slug, path: slug, abs: slug, hidden: false, ext: 'md', size: 100 * i } as Subject);
          });
          const s = [...bySlug.keys()].sort().map((k) => bySlug.get(k)!);
          const a = s.map(() => undefined);
          const lines = s.reduce((sum, x) => sum + estimateTokens(`- ${x.slug}\n`), 0);
          const budget = Math.max(20, Math.round(estimateTokens(renderListing(topic, [], [], undefined, undefined, [])) + lines * share));
          const got = fitListing(topic, s, a, [], budget, undefined, []);
          expect(got).toEqual(referenceFit(topic, s, a, [], budget, undefined, []));
          settled.add(got.fit === undefined ? 'fits' : got.fit.omitted ? 'omitted' : 'collapsed');
        },
      ),
      { numRuns: 400 },
    );
    expect([...settled].sort()).toEqual(['collapsed', 'fits', 'omitted']);
  });

  test('lines that each round up are not taken to fit by the sum of their weights', () => {
    // `- abcdefghijkl` weighs about 2.53 tokens and is estimated at 3: 300
    // such lines cost about 141 tokens more than their weights' sum.
    const subjects: Subject[] = [];
    for (let i = 0; i < 300; i++) {
      let slug = '';
      for (let k = 0, x = i; k < 12; k++, x = Math.floor(x / 26)) slug = String.fromCharCode(0x61 + (x % 26)) + slug;
      subjects.push({ slug, path: slug, abs: slug, hidden: false, ext: 'md', size: 10 } as Subject);
    }
    subjects.sort((x, y) => (x.slug < y.slug ? -1 : 1));
    const about = subjects.map(() => undefined);
    const frame = estimateTokens(renderListing(topic, [], [], undefined, undefined, []));
    for (const extra of [760, 800, 850, 880, 899, 900, 950]) {
      const got = fitListing(topic, subjects, about, [], frame + extra, undefined, []);
      expect(got).toEqual(referenceFit(topic, subjects, about, [], frame + extra, undefined, []));
      expect(got.fit === undefined).toBe(extra >= 900);
    }
  });

  test('a listing whose lines each round down is measured as a whole, and shortened when the whole is over', () => {
    // `- ab` weighs about 1.5 tokens and is estimated at 1: the sum of 676
    // such lines is far under the estimate of all of them together.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const subjects: Subject[] = [];
    for (const x of letters) for (const y of letters) subjects.push({ slug: x + y, path: x + y, abs: x + y, hidden: false, ext: 'md', size: 10 } as Subject);
    const about = subjects.map(() => undefined);
    const frame = estimateTokens(renderListing(topic, [], [], undefined, undefined, []));
    for (const budget of [frame + 676, frame + 800, frame + 1000, frame + 1100, frame + 2000]) {
      const got = fitListing(topic, subjects, about, [], budget, undefined, []);
      expect(got).toEqual(referenceFit(topic, subjects, about, [], budget, undefined, []));
      expect(estimateTokens(renderListing(topic, got.items, [], got.fit, undefined, []))).toBeLessThanOrEqual(budget);
    }
    expect(fitListing(topic, subjects, about, [], frame + 700, undefined, []).fit?.omitted).toBeGreaterThan(0);
  });

  test('asked for descriptions only when some could be shown, lists what it lists with them', async () => {
    const ways = new Set<boolean>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.array(segment, { maxLength: 3 }), fc.option(fc.array(word, { maxLength: 20 }).map((w) => w.join(' '))), fc.nat(40_000)), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 20, max: 3000 }),
        async (rows, budget) => {
          const bySlug = new Map<string, [Subject, string | undefined]>();
          rows.forEach(([dirs, description, size], i) => {
            const slug = [...dirs, `n${i}`].join('/');
            bySlug.set(slug, [{ slug, path: slug, abs: slug, hidden: false, ext: 'md', size } as Subject, description ?? undefined]);
          });
          const sorted = [...bySlug.keys()].sort().map((k) => bySlug.get(k)!);
          const s = sorted.map(([x]) => x);
          const a = sorted.map(([, d]) => d);
          let asked = false;
          const got = await fitListingOf(topic, s, { all: async () => ((asked = true), a), any: async () => a.some((d) => d !== undefined) }, [], budget);
          const want = fitListing(topic, s, a, [], budget);
          expect(renderListing(topic, got.items, [], got.fit)).toBe(renderListing(topic, want.items, [], want.fit));
          expect(got.fit).toEqual(want.fit);
          // Not asked: the listing shows no description.
          if (!asked) {
            expect(want.fit).toBeDefined();
            expect(want.fit?.descriptionChars ?? 0).toBe(0);
          }
          ways.add(asked);
        },
      ),
      { numRuns: 300 },
    );
    expect([...ways].sort()).toEqual([false, true]);
  });

  test('folderRuns groups the subjects next to each other in one folder, a folder again after its subfolders', () => {
    const slugs = ['a', 'b', 'd/a', 'd/b', 'd/c/x', 'd/c/y', 'd/d', 'e'];
    const runs = folderRuns(slugs.map((slug) => ({ slug }) as Subject));
    expect(runs.count).toBe(5);
    expect([...runs.starts]).toEqual([0, 2, 4, 6, 7, 8]);
    expect([...runs.levels]).toEqual([0, 1, 2, 1, 0]);
  });

  test('folderRuns takes a subject\'s folder as its index gives it, or works it out from the slug', () => {
    const slugs = ['a', 'b', 'd/a', 'd/b', 'd/c/x', 'd/c/y', 'd/d', 'e'];
    const folderOf = (slug: string) => slug.slice(0, slug.lastIndexOf('/') + 1);
    const given = folderRuns(slugs.map((slug) => ({ slug, folder: folderOf(slug) }) as Subject));
    const worked = folderRuns(slugs.map((slug) => ({ slug }) as Subject));
    expect([...given.starts]).toEqual([...worked.starts]);
    expect([...given.levels]).toEqual([...worked.levels]);
  });

  test('depthsOf counts the folders of each slug', () => {
    const slugs = ['a', 'a-b/c', 'a-b/c/d', 'a-b/c/e', 'a-b/cc/e', 'b/c', 'b/c/d/e', 'c'];
    expect([...depthsOf(slugs.map((slug) => ({ slug }) as Subject))]).toEqual(slugs.map((x) => x.split('/').length - 1));
  });
});
