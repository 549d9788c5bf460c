import { describe, test, expect } from 'bun:test';
import { splitOutsideBraces, typeName } from '../../../src/shared/text.ts';

describe('splitOutsideBraces', () => {
  test('cuts at separators outside braces; parts untrimmed, n separators give n + 1 parts', () => {
    expect(splitOutsideBraces('a, b', ',')).toEqual(['a', ' b']);
    expect(splitOutsideBraces('a,', ',')).toEqual(['a', '']);
    expect(splitOutsideBraces('', ',')).toEqual(['']);
    expect(splitOutsideBraces('abc', ',')).toEqual(['abc']);
  });

  test('a comma inside braces is a glob\'s, nested too', () => {
    expect(splitOutsideBraces('{a,b}/c', ',')).toEqual(['{a,b}/c']);
    expect(splitOutsideBraces('{a,{b,c}},d', ',')).toEqual(['{a,{b,c}}', 'd']);
  });

  test('an unmatched `}` is text; an unclosed `{` holds the rest', () => {
    expect(splitOutsideBraces('a},b', ',')).toEqual(['a}', 'b']);
    expect(splitOutsideBraces('{a,b', ',')).toEqual(['{a,b']);
  });

  test('a backslash escapes a separator or a brace', () => {
    expect(splitOutsideBraces('a\\,b,c', ',')).toEqual(['a\\,b', 'c']);
    expect(splitOutsideBraces('\\{a,b', ',')).toEqual(['\\{a', 'b']);
  });

  test('several separators', () => {
    expect(splitOutsideBraces('a,b\nc\r\nd', ',\n\r')).toEqual(['a', 'b', 'c', '', 'd']);
  });
});

describe('typeName', () => {
  test('the JSON name of a value\'s type', () => {
    expect([null, [], {}, 'x', 1, 1.5, true].map(typeName)).toEqual(['null', 'array', 'object', 'string', 'number', 'number', 'boolean']);
  });
});
