// What a topic disables (kb/index/disabled.ts): its `disabled` slugs and
// every bundled file of a disabled skill, told the same from a topic's
// subjects (a view) and from a search index's slugs and paths.
import { describe, expect, test } from 'bun:test';
import { disabledSlugs, disabledTest } from '../../../src/kb/index/disabled.ts';
import { indexSubjects } from '../../../src/kb/index/subjects.ts';
import { tree } from './view-fixture.ts';

const FILES = {
  'dsk/SKILL.md': 's',
  'dsk/ref.md': 'r',
  'dsk/sub/deep.md': 'd',
  'dsk/sub/SKILL.md': 'an inner SKILL.md is a bundled file',
  '.hid/SKILL.md': 's',
  '.hid/x.md': 'x',
  'ena/SKILL.md': 's',
  'ena/ref.md': 'r',
  'notes.md': 'n',
  'notes/x.md': 'x',
};

describe('disabled subjects', () => {
  const index = indexSubjects(tree(FILES));
  const bySlug = new Map(index.subjects.map((s) => [s.slug, s.path]));
  /** Every subject the search test disables, by slug and path. */
  const searched = (configured: string[]) => {
    const off = disabledTest(new Set(configured), (slug) => bySlug.get(slug));
    return index.subjects.filter((s) => off(s.slug, s.path)).map((s) => s.slug).sort();
  };

  test('a disabled skill disables its bundled files, nested ones and an inner SKILL.md too; a plain subject disables no folder', () => {
    const set = [...disabledSlugs(['dsk', 'hid', 'notes'], index.subjects)].sort();
    expect(set).toEqual(['dsk', 'dsk/ref', 'dsk/sub/SKILL', 'dsk/sub/deep', 'hid', 'hid/x', 'notes']);
  });

  test('the search tells the same from slugs and paths, whatever is disabled', () => {
    for (const configured of [['dsk'], ['hid'], ['notes'], ['dsk/ref'], ['ena', 'notes'], ['dsk/sub/SKILL'], ['nothing'], []]) {
      expect({ configured, off: searched(configured) }).toEqual({ configured, off: [...disabledSlugs(configured, index.subjects)].filter((s) => bySlug.has(s)).sort() });
    }
  });
});
