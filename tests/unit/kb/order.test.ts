import { describe, expect, test } from 'bun:test';
import type { ProbeResult } from '../../../src/kb/fs/probe.ts';
import { frontPlaces, indexRank, placeIn, siteOrder } from '../../../src/kb/index/order.ts';
import type { Subject } from '../../../src/kb/index/types.ts';
import { readerThread } from '../../../src/kb/fs/probe-thread.ts';
import { listable } from '../../../src/kb/index/listing.ts';
import { inSiteOrder } from '../../../src/kb/index/site-order.ts';
import { openTopic, READER_THREAD_URL, topic, tree } from './view-fixture.ts';

const subject = (slug: string): Subject => ({ path: `${slug}.md`, abs: `/t/${slug}.md`, slug, hidden: false, ext: 'md', size: 1 });

/** Subjects in slug order, each with the front matter given (none: ''). */
function ordered(fronts: Record<string, string>): string[] {
  const subjects = Object.keys(fronts).sort().map(subject);
  const results = new Map<string, ProbeResult>(subjects.map((s) => [s.slug, fronts[s.slug] === '' ? { kind: 'text' } : { kind: 'text', front: fronts[s.slug] }]));
  return siteOrder(subjects, frontPlaces((s) => results.get(s.slug))).map((s) => s.slug);
}

describe('placeIn: the place a front matter gives its page', () => {
  test.each([
    ['weight: 20', 20],
    ['title: A\nweight: 10 # first\n', 10],
    ["sidebar_position: '3'", 3],
    ['nav_order: 2.5', 2.5],
    ['nav_order: 4\nweight: 9', 9],
    ['weight: -1', -1],
  ] as const)('%j is %p', (front, place) => expect(placeIn(front)).toBe(place));
  test.each(['weight: 0', 'weight: heavy', '  weight: 3', 'params:\n  weight: 3', 'weights: 3', 'title: weight: 3', '', 'weight: 1e400'])('%j has none', (front) => expect(placeIn(front)).toBeUndefined());
  test('linear: 1 MiB of front matter of order-like lines in well under a second', () => {
    const t = performance.now();
    expect(placeIn('weight:'.repeat(1 << 17))).toBeUndefined();
    expect(placeIn('weight: x\n'.repeat(1 << 17))).toBeUndefined();
    expect(performance.now() - t).toBeLessThan(1000);
  });
});

describe('siteOrder: subjects in their site order, within their folder', () => {
  test('a Hugo site: weights order pages and sections (by their _index), the index page first, the unweighted after in slug order', () => {
    expect(
      ordered({
        _index: 'title: Docs',
        introduction: 'weight: 10',
        zeta: '',
        'about/_index': 'weight: 20',
        'about/features': 'weight: 20',
        'about/benefits': 'weight: 10',
        'about/license': '',
        'content/_index': 'weight: 15',
        'content/b': '',
        'content/a': '',
      }),
    ).toEqual(['_index', 'introduction', 'content/_index', 'content/a', 'content/b', 'about/_index', 'about/benefits', 'about/features', 'about/license', 'zeta']);
  });

  test('Docusaurus and Jekyll: sidebar_position and nav_order; a README or index page places its folder', () => {
    expect(ordered({ 'guides/README': 'sidebar_position: 1', 'guides/z': 'sidebar_position: 1', 'guides/a': 'sidebar_position: 2', intro: 'sidebar_position: 2', 'api/index': 'nav_order: 3', 'api/x': '' })).toEqual([
      'guides/README',
      'guides/z',
      'guides/a',
      'intro',
      'api/index',
      'api/x',
    ]);
  });

  test('no place anywhere: the very array, in slug order', () => {
    const subjects = ['b', 'a/x', '_index'].sort().map(subject);
    expect(siteOrder(subjects, frontPlaces(() => ({ kind: 'text', front: 'title: x' })))).toBe(subjects);
  });

  test("a folder's subjects stay next to each other, a file and a folder of one name apart", () => {
    const out = ordered({ a: 'weight: 2', 'a/x': 'weight: 1', 'a-b': '', 'a/y': '', b: 'weight: 1' });
    expect(out).toEqual(['b', 'a', 'a-b', 'a/x', 'a/y']);
  });

  test('the entries without a place, and ties, in natural order: numbers by value', () => {
    const out = ordered({ 'm/_index': 'weight: 5', 'm/zz': 'weight: 1', 'm/v3.4.1': '', 'm/v3.4.10': '', 'm/v3.4.11': '', 'm/v3.4.2': '', 'm/v2': 'weight: 3', 'm/v10': 'weight: 3' });
    expect(out).toEqual(['m/_index', 'm/zz', 'm/v2', 'm/v10', 'm/v3.4.1', 'm/v3.4.2', 'm/v3.4.10', 'm/v3.4.11']);
  });

  test('a nav (`first`): folders where their first page is, index pages where the nav puts them, the rest after in slug order', () => {
    const subjects = ['about/index', 'about/license', 'guide/a', 'guide/b', 'index', 'zeta'].map(subject);
    const nav: Record<string, number> = { index: 1, 'guide/b': 2, 'guide/a': 3, 'about/license': 4, 'about/index': 5 };
    expect(siteOrder(subjects, (s) => nav[s.slug], 'first').map((s) => s.slug)).toEqual(['index', 'guide/b', 'guide/a', 'about/license', 'about/index', 'zeta']);
  });

  test('index page names, in order of precedence', () => {
    expect(['_index', 'index', 'README', 'readme', 'Index', 'intro'].map(indexRank)).toEqual([0, 1, 2, 2, 1, -1]);
  });
});

describe('inSiteOrder on a view whose walk probed every subject', () => {
  /** The listable slugs of a tree in the order a listing shows them. */
  function shown(spec: Record<string, string>): string[] {
    const t = topic(tree(spec));
    const thread = readerThread(READER_THREAD_URL);
    try {
      const view = openTopic(t, { probe: thread, probeAll: true });
      return inSiteOrder(view, listable(view), true).map((s) => s.slug);
    } finally {
      thread.close();
    }
  }
  test('a page that gives itself a place, among many that say nothing: the site order', () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 300; i++) spec[`p${String(i).padStart(3, '0')}.md`] = `# Page ${i}\n`;
    spec['z.md'] = '---\nweight: 1\n---\n# Zed\n';
    expect(shown(spec).slice(0, 2)).toEqual(['z', 'p000']);
  });
  test('pages with front matter that gives no place: slug order', () => {
    const spec: Record<string, string> = { 'b.md': '---\ntitle: B\n---\n', 'a.md': '---\ntitle: A\n---\n', 'c.md': '# C\n' };
    expect(shown(spec)).toEqual(['a', 'b', 'c']);
  });
});
