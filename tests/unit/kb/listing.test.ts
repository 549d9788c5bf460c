// The listing queries (kb/index/listing.ts).

import { describe, test, expect } from 'bun:test';
import { hasLearnable, hasListable, listable } from '../../../src/kb/index/listing.ts';
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
