// The learn tool's near-miss texts (render/learn.ts): one note per fallback,
// details appended to a no-match line, every name quoted on its line.
import { describe, expect, test } from 'bun:test';
import { renderNote } from '../../../src/render/learn.ts';

const TAIL = 'Call `learn` with only the topic to list its subjects.';

describe('near-miss notes', () => {
  test('read as another slug: every reason, in order', () => {
    expect(renderNote({ kind: 'read-as', pattern: 'site/Guide/.Intro.md', slug: 'guide/intro', reasons: ['prefix', 'extension', 'dot', 'case'], prefix: 'site/' }, 't')).toBe(
      'Note: "site/Guide/.Intro.md" matched no subject; used "guide/intro" instead (slugs are relative to the topic\'s directory: no leading "site/"; ' +
        'slugs have no file extension; slugs drop the leading "." of hidden names; slugs are case-sensitive).',
    );
  });

  test('a list read as its parts (one part: singular)', () => {
    expect(renderNote({ kind: 'split', pattern: 'a,', parts: ['a'] }, 't')).toBe(
      'Note: "a," matched no subject; read it as 1 pattern: "a" (give several subjects as an array of strings).',
    );
  });

  test('a folder: its listing, the rest counted, the glob to load it all', () => {
    expect(renderNote({ kind: 'folder', pattern: 'Guide', folder: 'guide', slugs: ['guide/a', 'guide/b/c'], more: 3, nested: true }, 't')).toBe(
      'No subject is named "Guide"; "guide" is a folder. Its subjects:\n- guide/a\n- guide/b/c\n- … and 3 more\n' +
        'Load one by its slug, or all of them with "guide/**" ("guide/*" for this level only).',
    );
  });

  test('no match: suggestions, hidden subjects skipped (plural), names escaped', () => {
    expect(renderNote({ kind: 'no-match', pattern: 'x*', hint: { hidden: 3 } }, 't')).toBe(
      `No subjects match "x*" in topic "t". The glob skipped 3 hidden subjects: hidden subjects load only by their exact slug. ${TAIL}`,
    );
    expect(renderNote({ kind: 'no-match', pattern: 'a\nb', hint: { suggestions: ['a"b', 'ab'] } }, 't')).toBe(
      `No subjects match "a\\nb" in topic "t". Closest subjects: "a\\"b", "ab". ${TAIL}`,
    );
  });
});
