import { describe, expect, test } from 'bun:test';
import { renderHelp, wrap } from '../../../src/render/help.ts';

describe('wrap', () => {
  test('fills lines up to the width, the first led by `first`, the rest by `rest`', () => {
    expect(wrap('aa bb cc dd', 8, '> ', '  ')).toEqual(['> aa bb', '  cc dd']);
  });

  test('a word longer than a line stands alone; no line ends in a space', () => {
    expect(wrap('a verylongword b', 6, '', '')).toEqual(['a', 'verylongword', 'b']);
    expect(wrap('', 10, 'label   ')).toEqual(['label']);
  });
});

describe('renderHelp', () => {
  const page = {
    title: 'Do a thing (kb thing)',
    usage: ['kb thing [OPTIONS] NAME [MORE...]'],
    sections: [
      { heading: 'OPTIONS', rows: [{ label: '-a, --all', description: 'Every one of them, wrapped when the line gets long' }] },
      { heading: 'EMPTY', rows: [] },
      { heading: 'GLOBAL OPTIONS', rows: [{ label: '--a-label-far-too-long-to-share-its-line <x>', description: 'Below it' }] },
    ],
    examples: [{ label: 'kb thing x', description: 'Do it to x' }],
  };

  test('sections share one column; a long label puts its description below; empty sections are left out', () => {
    expect(renderHelp(page, 40)).toBe(`Do a thing (kb thing)

USAGE
  kb thing [OPTIONS] NAME [MORE...]

OPTIONS
  -a, --all   Every one of them, wrapped
              when the line gets long

GLOBAL OPTIONS
  --a-label-far-too-long-to-share-its-line <x>
              Below it

EXAMPLES
  kb thing x   Do it to x
`);
  });
});
