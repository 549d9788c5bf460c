import { describe, test, expect } from 'bun:test';
import fc from 'fast-check';
import { charWidth, compareCodeUnits, aboutTokens, compareNatural, countText, naturalKey, naturalKeys, naturallySorted, fitColumns, splitOutsideBraces, typeName } from '../../../src/shared/text.ts';

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

// countText writes numbers out itself (no locale data to set up): it must
// read exactly as toLocaleString('en-US') does.
const en = (n: number) => Math.round(n).toLocaleString('en-US');

describe('countText', () => {
  test('thousands separators, as en-US', () => {
    for (const n of [0, 1, 12, 123, 999, 1000, 1001, 20_000, 123_456, 1_234_567, 25_930_069, -1, -999, -1000, -1_234_567, 0.4, 0.5, 999.5, -0.4, -1000.5, 1e15, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
      expect(countText(n)).toBe(en(n));
    }
    expect(countText(20_000)).toBe('20,000');
    expect(countText(1234567.4)).toBe('1,234,567');
  });

  test('beyond safe integers and odd values, as en-US', () => {
    for (const n of [2 ** 53, 1e21, 1e300, -1e21, NaN, Infinity, -Infinity, -0]) expect(countText(n)).toBe(en(n));
  });

  test('any integer or fraction, as en-US', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1e12, max: 1e12 }), fc.double({ min: -1e16, max: 1e16, noNaN: true }), fc.maxSafeInteger()), (n) => {
        expect(countText(n)).toBe(en(n));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('aboutTokens', () => {
  test('one token, or many, as the estimate rounds', () => {
    expect([0, 0.6, 1, 1.4, 1.6, 2, 1234].map(aboutTokens)).toEqual(['~0 tokens', '~1 token', '~1 token', '~1 token', '~2 tokens', '~2 tokens', '~1,234 tokens']);
  });
});

describe('fitting a line to a terminal', () => {
  const width = (s: string) => [...s].reduce((n, c) => n + charWidth(c), 0);

  test('character widths: ASCII 1, East Asian wide and emoji 2, combining marks 0', () => {
    expect(['a', '~', 'é', '工', 'ア', '한', '😀', '\u0301', '\u200d', 'Ａ'].map(charWidth)).toEqual([1, 1, 1, 2, 2, 2, 2, 0, 0, 2]);
  });

  test('whole when it fits in columns - 1; else cut, ending in …, in fewer than columns', () => {
    expect(fitColumns('abc', 10)).toBe('abc');
    expect(fitColumns('abcdefghi', 10)).toBe('abcdefghi');
    expect(fitColumns('abcdefghij', 10)).toBe('abcdefgh…');
    expect(fitColumns('工程手册知识库', 10)).toBe('工程手册…');
    expect(fitColumns('a工程手册知识库', 10)).toBe('a工程手…');
    expect(fitColumns('e\u0301e\u0301e\u0301', 4)).toBe('e\u0301e\u0301e\u0301');
  });

  test('any text, any width from 3: the result is a prefix (plus …) narrower than the terminal', () => {
    const pieces = ['a', 'bc', '工', '😀', '\u0301', ' ', 'é'];
    for (let seed = 0; seed < 2000; seed++) {
      let s = '';
      for (let i = 0, n = seed % 37; i < n; i++) s += pieces[(seed * 7 + i * 13) % pieces.length];
      const columns = 3 + (seed % 50);
      const fit = fitColumns(s, columns);
      expect(width(fit)).toBeLessThan(columns);
      expect(fit === s || (fit.endsWith('…') && s.startsWith(fit.slice(0, -1)))).toBe(true);
    }
  });
});

describe('compareNatural', () => {
  const sorted = (xs: string[]) => [...xs].sort(compareNatural);
  test('numbers by value: 4.2.1, 4.2.2, 4.2.10', () => {
    expect(sorted(['4.2.10', '4.2.2', '4.2.1'])).toEqual(['4.2.1', '4.2.2', '4.2.10']);
    expect(sorted(['ch10', 'ch9', 'ch1', 'ch01', 'ch'])).toEqual(['ch', 'ch1', 'ch01', 'ch9', 'ch10']);
    expect(sorted(['v2/a', 'v10/a', 'v1/b', 'v1/a', 'v1x'])).toEqual(['v1/a', 'v1/b', 'v1x', 'v2/a', 'v10/a']);
  });
  test('without digits, code-unit order', () => {
    expect(sorted(['a_c', 'a/b', 'a-b', 'a', 'B'])).toEqual(['B', 'a', 'a-b', 'a/b', 'a_c']);
  });
  test('a number longer than any integer compares by its digits', () => {
    const big = '9'.repeat(400);
    expect(compareNatural(`x${big}`, `x1${big}`)).toBe(-1);
    expect(compareNatural(`x${big}0`, `x${big}`)).toBe(1);
  });
  test('a total order: antisymmetric, transitive, 0 only for equal strings; folders stay together', () => {
    const s = fc.stringMatching(/^[0-9a/._-]{0,8}$/);
    fc.assert(
      fc.property(s, s, s, (a, b, c) => {
        expect(Math.sign(compareNatural(a, b)) + Math.sign(compareNatural(b, a))).toBe(0);
        expect(compareNatural(a, b) === 0).toBe(a === b);
        if (compareNatural(a, b) <= 0 && compareNatural(b, c) <= 0) expect(compareNatural(a, c)).toBeLessThanOrEqual(0);
      }),
    );
    fc.assert(
      fc.property(fc.array(s, { maxLength: 30 }), fc.stringMatching(/^[0-9a._-]{0,3}\/$/), (xs, folder) => {
        const order = sorted(xs.map((x, i) => (i % 2 === 0 ? folder + x : x)));
        const at = order.flatMap((x, i) => (x.startsWith(folder) ? [i] : []));
        if (at.length > 0) expect(at[at.length - 1] - at[0]).toBe(at.length - 1);
      }),
    );
  });
  test('agrees with code-unit order where no two digits meet', () => {
    expect(compareNatural('a1', 'a-')).toBe(compareCodeUnits('a1', 'a-'));
  });
});

describe('naturallySorted', () => {
  test('the order of compareNatural, by keys; the same array when already in it', () => {
    const s = fc.stringMatching(/^[0-9a/._-]{0,8}$/);
    const digits = fc.stringMatching(/^[019a/]{0,6}$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(s, digits), { maxLength: 40 }), (xs) => {
        const codeUnits = [...xs].sort();
        const items = codeUnits.map((x) => ({ x }));
        const got = naturallySorted(items, (i) => i.x).map((i) => i.x);
        expect(got).toEqual([...xs].sort(compareNatural));
      }),
      { numRuns: 2000 },
    );
    const items = ['a1', 'a2', 'b'].map((x) => ({ x }));
    expect(naturallySorted(items, (i) => i.x)).toBe(items);
  });
});

describe('naturalKey', () => {
  test('orders as compareNatural does, in code-unit order', () => {
    const s = fc.stringMatching(/^[0-9a/._-]{0,10}$/);
    const zeros = fc.stringMatching(/^[0a/]{0,6}$/);
    const long = fc.tuple(fc.stringMatching(/^[a-]{0,2}$/), fc.integer({ min: 0, max: 30 }), fc.stringMatching(/^[1-9]{0,3}$/)).map(([p, z, d]) => `${p}${'0'.repeat(z)}${d}`);
    fc.assert(
      fc.property(fc.oneof(s, zeros, long), fc.oneof(s, zeros, long), (a, b) => {
        const ka = naturalKey(a);
        const kb = naturalKey(b);
        expect(Math.sign(compareCodeUnits(ka, kb))).toBe(Math.sign(compareNatural(a, b)));
        // (Keys are sorted with a NUL after each: they hold none.)
        expect(ka.includes('\0')).toBe(false);
      }),
      { numRuns: 5000 },
    );
    // Runs of nine digits and more, of one length and not.
    expect(compareCodeUnits(naturalKey('a123456789'), naturalKey('a1234567890'))).toBe(-1);
    expect(compareCodeUnits(naturalKey('a999999999b'), naturalKey('a1000000000'))).toBe(-1);
    expect(compareCodeUnits(naturalKey('a99'), naturalKey('a100'))).toBe(-1);
  });
});

describe('naturalKeys', () => {
  test('each key as naturalKey makes it, whether the runs allow the passes over all or not', () => {
    const s = fc.stringMatching(/^[0-9a/._-]{0,12}$/);
    const runs = fc.array(fc.tuple(fc.stringMatching(/^[a-z/-]{0,2}$/), fc.integer({ min: 1, max: 99_999_999 })), { maxLength: 4 }).map((parts) => parts.map(([t, d]) => `${t}${d}`).join(''));
    fc.assert(
      fc.property(fc.array(fc.oneof(s, runs), { maxLength: 30 }), (keys) => {
        expect(naturalKeys(keys)).toEqual(keys.map(naturalKey));
      }),
      { numRuns: 3000 },
    );
    // Every run length the passes take, a zero alone, and next to text.
    const keys = ['0', 'a0b', '1', '12', '123', '1234', '12345', '123456', '1234567', '12345678', 'x9y10z', ''];
    expect(naturalKeys(keys)).toEqual(keys.map(naturalKey));
  });
});
