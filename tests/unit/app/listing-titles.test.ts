// A whole topic's listing within a budget lets its probe stop searching
// heads for titles once the names alone are over the budget and some
// subject is described (app/listing.ts `titleWatch`): the listing must be
// the one it would be with every title read, also when the names were
// over the budget only because of files that turn out to be binary.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { titleWatch, topicListing } from '../../../src/app/listing.ts';
import { estimateTokens } from '../../../src/kb/content/tokens.ts';
import { PROBED } from '../../../src/kb/fs/probe.ts';
import { readerThread } from '../../../src/kb/fs/probe-thread.ts';
import { LISTING_COSTS, renderListing } from '../../../src/render/listing.ts';
import { openTopic, READER_THREAD_URL, topic, tree } from '../kb/view-fixture.ts';

const BINARY = '\0\x01binary';

async function listings(spec: Record<string, string>, budget: number, learned: string[] = [], disabled: string[] = []): Promise<{ watched: string; plain: string; skipped: boolean }> {
  const t = topic(tree(spec), learned, disabled);
  const render = (l: Awaited<ReturnType<typeof topicListing>>) => (l === undefined ? '' : renderListing(t, l.items, l.learned, l.fit, l.folder, l.topicNotes));
  const thread = readerThread(READER_THREAD_URL);
  try {
    const watch = titleWatch(budget, new Set(disabled), LISTING_COSTS);
    const view = openTopic(t, { probe: thread, probeAll: true, titles: watch });
    const skipped = [...view.probed.values()].some((r) => r.titlesSkipped);
    // As `kb learn` lists a topic: the watch told whether the walk found a
    // subject described.
    const watched = render(await topicListing(t, view, 100_000, budget, LISTING_COSTS, undefined, watch));
    const plain = render(await topicListing(t, openTopic(t, { probeAll: true }), 100_000, budget, LISTING_COSTS));
    return { watched, plain, skipped };
  } finally {
    thread.close();
  }
}

describe('a listing whose probe skipped titles', () => {
  test('over the budget: the same listing, descriptions left out', async () => {
    const spec: Record<string, string> = { 'a.md': '# Apples and pears\n' };
    for (let i = 0; i < 1500; i++) spec[`d${String(i).padStart(4, '0')}/n${i}.md`] = `# Title number ${i}\n`;
    const { watched, plain, skipped } = await listings(spec, 2000);
    expect(skipped).toBe(true);
    expect(watched).toBe(plain);
    expect(plain).toContain('descriptions are left out');
  });

  test('within the budget once the binaries are left out: the titles are read again and shown', async () => {
    const spec: Record<string, string> = { 'a.md': '# Apples and pears\n' };
    for (let i = 0; i < 1500; i++) spec[`bin-${String(i).padStart(4, '0')}.md`] = BINARY;
    for (let i = 0; i < 5; i++) spec[`z-${i}.md`] = `# Zebra crossing ${i}\n`;
    const { watched, plain, skipped } = await listings(spec, 2000);
    expect(skipped).toBe(true);
    expect(watched).toBe(plain);
    expect(plain).toContain('z-4: Zebra crossing 4');
  });
});

describe('a listing over its budget where the walk found a described file that is not listed', () => {
  // The names alone are over the budget: the listing says it left the
  // descriptions out only when a subject it lists has one.
  const plainNames = (): Record<string, string> => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 300; i++) spec[`d${String(i).padStart(4, '0')}/n${i}.md`] = 'no title here\n';
    return spec;
  };
  const cases: [string, Record<string, string>, string[], string[]][] = [
    ['none is described', {}, [], []],
    ['a learned subject', { 'a.md': '# Apples and pears\n' }, ['a'], []],
    ['a disabled subject', { 'a.md': '# Apples and pears\n' }, [], ['a']],
    ['a disabled skill', { 'sk/SKILL.md': '# Apples and pears\n' }, [], ['sk']],
    ['a skill\'s bundled file, found before its SKILL.md', { 'sk/README.md': '# Apples and pears\n', 'sk/SKILL.md': 'no title here\n' }, [], []],
    ['a binary file', { 'a.md': '# Apples and pears\n\0\x01' }, [], []],
  ];
  for (const [name, extra, learned, disabled] of cases) {
    test(name, async () => {
      const { watched, plain } = await listings({ ...plainNames(), ...extra }, 400, learned, disabled);
      expect(watched).toBe(plain);
      expect(plain).not.toContain('descriptions are left out');
    });
  }
  test('a slug two files share: as the file it loads says', async () => {
    for (const [md, txt] of [['no title here\n', '# Apples and pears\n'], ['# Apples and pears\n', 'no title here\n']]) {
      const { watched, plain } = await listings({ ...plainNames(), 'a.md': md, 'a.txt': txt }, 400);
      expect(watched).toBe(plain);
    }
  });
  test('a listed subject described: descriptions left out', async () => {
    const { watched, plain } = await listings({ ...plainNames(), 'z.md': '# Apples and pears\n' }, 400);
    expect(watched).toBe(plain);
    expect(plain).toContain('descriptions are left out');
  });
});

describe('the walk and the title watch', () => {
  /** The slugs the watch is told of, in order, and whether the walk's
   *  probe skipped titles. */
  function told(spec: Record<string, string>, budget: number): { slugs: string[]; skipped: boolean } {
    const t = topic(tree(spec));
    const thread = readerThread(READER_THREAD_URL);
    try {
      const watch = titleWatch(budget, new Set(), LISTING_COSTS);
      const slugs: string[] = [];
      const spy = { found: (slug: string, folder?: string) => (slugs.push(slug), watch.found(slug, folder)), probed: watch.probed };
      const view = openTopic(t, { probe: thread, probeAll: true, titles: spy });
      return { slugs, skipped: [...view.probed.values()].some((r) => r.titlesSkipped) };
    } finally {
      thread.close();
    }
  }

  test('tells the watch of no file while no result can describe a subject', () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 300; i++) spec[`d${i % 7}/n${i}.md`] = `plain text ${i}\n`;
    expect(told(spec, 50).slugs).toEqual([]);
  });

  test('once one can, tells it of every file found so far and then of each next one, each once', () => {
    const spec: Record<string, string> = { 'a.md': '# Apples and pears\n' };
    for (let i = 0; i < 1500; i++) spec[`d${String(i).padStart(4, '0')}/n${i}.md`] = `plain text ${i}\n`;
    const all = told(spec, 1_000_000);
    expect([...all.slugs].sort()).toEqual(Object.keys(spec).map((k) => k.replace(/\.md$/, '')).sort());
    expect(all.skipped).toBe(false);
    // Over the budget: titles are skipped from then on, each file told once at most.
    const over = told(spec, 2000);
    expect(over.skipped).toBe(true);
    expect(new Set(over.slugs).size).toBe(over.slugs.length);
  });
});

describe('titleWatch', () => {
  const segment = fc.constantFrom('a', 'b-1', 'c2', 'dé', 'e e', '日本', 'long-folder-name-7', 'x.y');
  test('says titles are no longer needed only once the names found are over the budget, and a subject is described', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(segment, { maxLength: 3 }), segment), { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 600 }), fc.nat(10), (rows, budget, describedAt) => {
        const watch = titleWatch(budget, new Set(), LISTING_COSTS);
        let names = 0;
        let described = false;
        for (let i = 0; i < rows.length; i++) {
          const [dirs, name] = rows[i];
          const slug = [...dirs, `${name}${i}`].join('/');
          names += estimateTokens(`- ${slug}`);
          const folder = dirs.length === 0 ? '' : `${dirs.join('/')}/`;
          const enough = watch.found(slug, i % 2 === 0 ? folder : undefined);
          if (enough) {
            expect(described).toBe(true);
            expect(names).toBeGreaterThan(budget);
            return;
          }
          if (i === describedAt) {
            described = true;
            const r = { kind: 'text', title: `About ${i}` } as const;
            if (watch.probed(slug, r) && names <= budget) throw new Error('enough before the names were over the budget');
          } else expect(watch.probed(slug, PROBED.text)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('says so as soon as a subject is described and the names at the top are over the budget, whichever comes first', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 600 }), fc.nat(220), (names, budget, describedAt) => {
        const watch = titleWatch(budget, new Set(), LISTING_COSTS);
        let used = 0;
        let described = false;
        for (let i = 0; i < names.length; i++) {
          const slug = `${names[i]}${i}`;
          used += estimateTokens(`- ${slug}`);
          expect(watch.found(slug, '')).toBe(described && used > budget);
          if (i === describedAt) described = true;
          const r = i === describedAt ? ({ kind: 'text', title: `About ${i}` } as const) : PROBED.text;
          const enough = watch.probed(slug, r);
          expect(enough).toBe(described && used > budget);
          if (enough) return;
        }
      }),
      { numRuns: 500 },
    );
  });
});

