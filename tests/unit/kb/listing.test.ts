// The listing queries (kb/index/listing.ts).

import { describe, test, expect } from 'bun:test';
import { hasLearnable, hasListable, listable, listableFrom } from '../../../src/kb/index/listing.ts';
import { loadLearned } from '../../../src/kb/index/load.ts';
import { openTopic, loadPatterns, tree, topic, project, show, slugs, BIN } from './view-fixture.ts';

describe('listable / hasListable / hasLearnable', () => {
  test('listing excludes hidden, disabled, learned and binary subjects', () => {
    const dir = tree({ 'a.md': 'a', 'b.md': 'b', 'c.md': 'c', '.h.md': 'h', 'img.png': BIN, 'd/e.json': '{}' });
    const view = openTopic(topic(dir, ['a'], ['b']));
    expect(slugs(view)).toEqual(['c', 'd/e']);
    expect(hasListable(view)).toBe(true);
  });

  test('RFD example rule 1: `project` keeps code-quality after maintainers/* is pre-loaded', () => {
    const view = openTopic(topic(project(), ['maintainers/*']));
    expect(slugs(view)).toEqual(['code-quality']);
    expect(hasListable(view)).toBe(true);
    expect(hasLearnable(view)).toBe(true);
  });

  test('NOTES 14: every visible subject pre-loaded, a hidden one left: nothing listable, still learnable', () => {
    const view = openTopic(topic(project(), ['**']));
    expect(slugs(view)).toEqual([]);
    expect(hasListable(view)).toBe(false);
    expect(hasLearnable(view)).toBe(true);
  });

  test('hidden one pre-loaded by exact slug too: nothing learnable', () => {
    const view = openTopic(topic(project(), ['**', 'internal-notes']));
    expect(hasLearnable(view)).toBe(false);
  });

  test('hidden one disabled: nothing learnable', () => {
    const view = openTopic(topic(project(), ['**'], ['internal-notes']));
    expect(hasLearnable(view)).toBe(false);
  });

  test('only binaries left: not listable, not learnable', () => {
    const view = openTopic(topic(tree({ 'a.md': 'a', 'b.bin': BIN, '.c.bin': BIN }), ['a']));
    expect(hasListable(view)).toBe(false);
    expect(hasLearnable(view)).toBe(false);
  });

  test('a binary matched by a learned glob does not count as pre-loaded', () => {
    const view = openTopic(topic(tree({ 'a.md': 'a', 'b.bin': BIN }), ['*']));
    expect(show(loadLearned(view))).toEqual(['subject a: "a"']);
    expect(show(loadPatterns(view, ['b']))).toEqual(['binary b']);
  });
});

describe('listableFrom (shell completion)', () => {
  test('by prefix, in slug order, at most the limit: listed subjects, or with `preloaded` every visible text subject', () => {
    const dir = tree({ 'a.md': 'a', 'ab.md': 'ab', 'b.md': 'b', 'c/d.md': 'd', 'c/e.png': BIN, 'c/f.md': 'f', '.h.md': 'h', 'x.md': 'x' });
    const view = openTopic(topic(dir, ['ab'], ['x']));
    const from = (prefix: string, limit: number, preloaded = false) => listableFrom(view, prefix, limit, preloaded).map((s) => s.slug);
    expect(from('', 10)).toEqual(slugs(view));
    expect(from('', 10)).toEqual(['a', 'b', 'c/d', 'c/f']);
    expect(from('', 10, true)).toEqual(['a', 'ab', 'b', 'c/d', 'c/f']);
    expect(from('a', 10, true)).toEqual(['a', 'ab']);
    expect(from('c/', 10)).toEqual(['c/d', 'c/f']);
    expect(from('', 2)).toEqual(['a', 'b']);
    // The binary between them does not cost a place.
    expect(from('c/', 2)).toEqual(['c/d', 'c/f']);
    expect(from('.h', 10)).toEqual([]);
    expect(from('zz', 10)).toEqual([]);
  });

  test('probes only the subjects it looks at', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`s${String(i).padStart(3, '0')}.md`] = `${i}`;
    const view = openTopic(topic(tree(files)));
    const before = view.probed.size;
    expect(before).toBe(0);
    expect(listableFrom(view, 's1', 5).map((s) => s.slug)).toEqual(['s100', 's101', 's102', 's103', 's104']);
    expect(view.probed.size - before).toBeLessThanOrEqual(5);
  });
});
