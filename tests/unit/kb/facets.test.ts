// A subject's facets (kb/content/facets.ts): tags, type and status from
// frontmatter and `#tags` in Markdown text, as the index keeps them and a
// search's filter tests them.
import { describe, expect, test } from 'bun:test';
import { decodeFacets, encodeFacets, facetsOf, facetTest, facetValue, inlineTags, MAX_FACET, MAX_TAGS } from '../../../src/kb/content/facets.ts';

const tagsIn = (text: string) => {
  const s = new Set<string>();
  inlineTags(text, s);
  return [...s];
};

describe('facetsOf', () => {
  test('frontmatter tags as a YAML list (Obsidian, Hugo), a string of words (Jekyll), or comma-separated; `tag` too; # dropped, case folded', () => {
    expect(facetsOf({ tags: ['Release', '#project/alpha', 3] }, '', undefined).tags).toEqual(['release', 'project/alpha', '3']);
    expect(facetsOf({ tags: 'howto tips' }, '', undefined).tags).toEqual(['howto', 'tips']);
    expect(facetsOf({ tags: 'a, b,c' }, '', undefined).tags).toEqual(['a', 'b', 'c']);
    expect(facetsOf({ tag: 'one' }, '', undefined).tags).toEqual(['one']);
    expect(facetsOf({ tags: { nested: 'x' } }, '', undefined).tags).toEqual([]);
  });

  test('type and status: a string or a number, trimmed, blanks one space, any case', () => {
    expect(facetsOf({ type: ' Meeting  Note ', status: 2 }, '', undefined)).toEqual({ tags: [], type: 'meeting note', status: '2' });
    expect(facetsOf({ type: '   ', status: null }, '', undefined)).toEqual({ tags: [] });
  });

  test('#tags only in Markdown text', () => {
    expect(facetsOf(undefined, 'see #later', 'md').tags).toEqual(['later']);
    expect(facetsOf(undefined, 'see #later', undefined).tags).toEqual([]);
  });

  test("an Org file's #+filetags: in its preamble, org-roam's `:a:b:` or words; none after its first heading", () => {
    const note = ':PROPERTIES:\n:ID:       aa022a52\n:END:\n#+title: Ear Training\n#+FILETAGS: :music:Practice:\n#+filetags: draft\n\n* Intervals\n#+filetags: :late:\n';
    expect(facetsOf(undefined, note, 'org').tags).toEqual(['music', 'practice', 'draft']);
    expect(facetsOf(undefined, note, 'md').tags).toEqual([]);
    expect(facetsOf(undefined, '#+filetags: :a:b:', undefined).tags).toEqual([]);
  });

  test('bounded: at most MAX_TAGS tags, each value at most MAX_FACET characters', () => {
    const many = Array.from({ length: 500 }, (_, i) => `t${i}`);
    expect(facetsOf({ tags: many }, many.map((t) => `#x${t}`).join(' '), 'md').tags).toHaveLength(MAX_TAGS);
    const long = facetsOf({ tags: ['a'.repeat(5000)], type: 'b'.repeat(5000) }, '', undefined);
    expect(long.tags[0]).toHaveLength(MAX_FACET);
    expect(long.type).toHaveLength(MAX_FACET);
  });
});

describe('inlineTags', () => {
  test('a # at a line start or after a blank, then tag characters, one of them not a digit', () => {
    expect(tagsIn('#a and #b-c/d_e, #日本 too')).toEqual(['a', 'b-c/d_e', '日本']);
    expect(tagsIn('# Heading\n## Sub\nissue #123\nurl a#b\n#1st')).toEqual(['1st']);
  });

  test('none in fenced code or in a code span', () => {
    expect(tagsIn('```\n#fenced\n```\n~~~~\n#tilde\n```\n#still\n~~~~\n`#span` #after')).toEqual(['after']);
  });

  test('a long line of one tag, of # alone, or of backticks gives what it holds (their time: tests/property)', () => {
    expect(tagsIn('#a '.repeat(300_000))).toEqual(['a']);
    expect(tagsIn('#'.repeat(1_000_000))).toEqual([]);
    expect(tagsIn('a' + '`'.repeat(500_001) + ' #x')).toEqual([]);
    expect(tagsIn('a' + '`'.repeat(500_000) + ' #x')).toEqual(['x']);
  });
});

describe('encoded facets and filters', () => {
  const enc = encodeFacets({ tags: ['release', 'project/alpha'], type: 'note', status: 'draft' });

  test('one line, read back as it was', () => {
    expect(enc).not.toContain('\n');
    expect(decodeFacets(enc)).toEqual({ tags: ['release', 'project/alpha'], type: 'note', status: 'draft' });
    expect(encodeFacets({ tags: [] })).toBe('');
    expect(decodeFacets('')).toEqual({ tags: [] });
  });

  test('every filter given must hold; a tag holds its nested tags; any case, a leading # ignored', () => {
    expect(facetTest({ tags: ['Release'] })(enc)).toBe(true);
    expect(facetTest({ tags: ['#project'] })(enc)).toBe(true);
    expect(facetTest({ tags: ['proj'] })(enc)).toBe(false);
    expect(facetTest({ tags: ['release', 'other'] })(enc)).toBe(false);
    expect(facetTest({ type: 'NOTE', status: 'draft' })(enc)).toBe(true);
    expect(facetTest({ status: 'done' })(enc)).toBe(false);
    expect(facetTest({ type: 'note' })('')).toBe(false);
  });

  test('facetValue: blanks and control characters one space, trimmed, lower case', () => {
    expect(facetValue('  A\tb\u0000c  ')).toBe('a b c');
    expect(facetValue('##x', true)).toBe('x');
  });
});
