// The long-function check (scripts/long-functions.mjs): no function in src/
// is over LIMIT lines unless a `long:` comment says why (or PENDING lists it
// while it is being split), and the check measures and names functions as a
// reader would.

import { describe, expect, test } from 'bun:test';
import { functionsOf, LIMIT, longFunctions, PENDING, problemsOf, type LongFunction } from '../../scripts/long-functions.mjs';

/** `n` lines of statements, for a body. */
const body = (n: number) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');

describe('functions in src/', () => {
  test(`none is over ${LIMIT} lines without a comment saying why`, () => {
    expect(problemsOf(longFunctions())).toEqual([]);
  });
});

describe('the check', () => {
  test('measures each function from its first line to its last, and names it', () => {
    const code = [
      'export function f(a: number): number {', // 1
      '  let x = a;',
      '  const g = (y: number) => {', // 3
      '    return y;',
      '  };',
      '  return x + g(1);',
      '}', // 7
      'class C {',
      '  private m<T>(v: T): T {', // 9
      '    return v;',
      '  }',
      '  get n() { return 1; }', // 12
      '}',
      'const o = { k: function () { return 1; }, p() { return 2; } };', // 14
      'setTimeout(() => 1);',
    ].join('\n');
    expect(functionsOf(code).map((f) => [f.name, f.line, f.lines])).toEqual([
      ['f', 1, 7],
      ['g', 3, 3],
      ['C.m', 9, 3],
      ['get C.n', 12, 1],
      ['k', 14, 1],
      ['p', 14, 1],
      ['<anonymous>', 15, 1],
    ]);
  });

  test('a long function needs a `long:` comment above it or at the top of its body', () => {
    const long = `function f() {\n  let x = 0;\n${body(LIMIT)}\n}\n`;
    const [bare] = functionsOf(long);
    expect(bare.lines).toBe(LIMIT + 3);
    expect(bare.why).toBeUndefined();
    const problems = problemsOf([{ file: 'src/x.ts', ...bare }], []);
    expect(problems).toEqual([`src/x.ts:1: f: ${LIMIT + 3} lines (over ${LIMIT}): split it, or say why in a \`// long:\` comment above it`]);
    // Above it, within its comment block.
    expect(functionsOf(`// long: one loop, measured.\n// More words.\n${long}`)[0].why).toBe('one loop, measured.');
    expect(functionsOf(`/**\n * What f does.\n * long: one loop.\n */\n${long}`)[0].why).toBe('one loop.');
    // At the top of its body.
    expect(functionsOf(long.replace('{\n', '{\n  // long: one loop.\n'))[0].why).toBe('one loop.');
    // Not when code stands between, nor further down the body.
    expect(functionsOf(`// long: one loop.\nconst y = 1;\n${long}`)[0].why).toBeUndefined();
    expect(functionsOf(long.replace('  let x = 0;\n', '  let x = 0;\n  // long: one loop.\n'))[0].why).toBeUndefined();
    // Up to LIMIT lines, none is needed.
    const short = functionsOf(`function f() {\n${body(LIMIT - 2)}\n}\n`)[0];
    expect(short.lines).toBe(LIMIT);
    expect(problemsOf([], [])).toEqual([]);
  });

  test('a PENDING entry holds only while its function is long and has no comment', () => {
    const f: LongFunction = { file: 'src/x.ts', name: 'f', line: 1, lines: LIMIT + 1 };
    const pending = [{ file: 'src/x.ts', name: 'f' }];
    expect(problemsOf([f], pending)).toEqual([]);
    expect(problemsOf([], pending)).toEqual([`src/x.ts: f: listed in PENDING, but no longer over ${LIMIT} lines: remove it from the list`]);
    expect(problemsOf([{ ...f, why: 'one loop' }], pending)).toEqual(['src/x.ts: f: listed in PENDING, but has a `long:` comment: remove it from the list']);
  });

  test('PENDING names each function once', () => {
    expect(new Set(PENDING.map((p) => `${p.file} ${p.name}`)).size).toBe(PENDING.length);
  });
});
