// The ReDoS check (scripts/check-regexps.mjs): every regular expression in
// src/ passes eslint-plugin-regexp's no-super-linear-backtracking and
// no-super-linear-move, and the check finds what it must (literals,
// `RegExp(...)` built from constants, `RegExp(...)` built from anything else).

import { describe, expect, test } from 'bun:test';
import { check, checkTexts, DYNAMIC, type BoundedEntry, type DynamicEntry } from '../../scripts/check-regexps.mjs';

describe('regular expressions in src/', () => {
  test('none takes time super-linear in its input', async () => {
    const { problems, checked } = await check();
    expect(problems).toEqual([]);
    // Every literal and every RegExp(...) of src/ (134 when this was written).
    expect(checked).toBeGreaterThan(100);
  }, 60_000);
});

/** The problems of one file `x.ts` holding `code`. */
async function problemsOf(code: string, dynamic: DynamicEntry[] = [], bounded: BoundedEntry[] = []): Promise<string[]> {
  return (await checkTexts([{ file: 'src/x.ts', code }], dynamic, bounded)).problems;
}

describe('the check', () => {
  // The expressions that made kb slow (before they were rewritten), and the
  // shapes of the others it flags.
  test.each([
    ['tags', "s.replace(/<[^>]*>/g, '')"],
    ['Markdown links', "s.replace(/!?\\[([^\\]]*)\\]\\([^)]*\\)/g, '$1')"],
    ['AsciiDoc anchors', "s.replace(/\\[\\[[^\\]]*\\]\\]/g, ' ')"],
    ['ATX headings', 'HEADING.exec(t); const HEADING = /^ {0,3}#{1,6}[ \\t]+(.+?)[ \\t#]*$/gm;'],
    ['HTML headings (a back-reference)', 're.exec(t); const re = /<h([1-6])\\b[^>]*>([\\s\\S]*?)<\\/h\\1\\s*>/gi;'],
    ['Org tags', "s.replace(/[ \\t]+:[\\w@#%:]+:\\s*$/, '')"],
    ['trailing slashes', "s.replace(/\\/+$/, '')"],
    ['frontmatter lines', 'const LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \\t]+(.*?))?[ \\t]*$/; LINE.exec(s);'],
    ['a RegExp of a string', "new RegExp('\\\\s+$').test(s);"],
    ['a RegExp of a constant', "const P = '[a-z]+x'; new RegExp(P, 'g').exec(s);"],
    ['a RegExp of a template of constants', 'const A = "a"; const re = new RegExp(`(?:${A}|${A}${A})+b`); re.test(s);'],
    ['TypeScript around it', "class C { constructor(private readonly x: string) {} f<T>(v: T): string { return (v as unknown as string).replace(/\\s*\\n\\s*/g, ' '); } }"],
  ])('flags %s', async (_name, code) => {
    const problems = await problemsOf(code);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(/no-super-linear-(backtracking|move)|back-reference/);
  });

  test('passes what runs in linear time', async () => {
    expect(await problemsOf("s.replace(/\\s+/g, ' '); /^[a-z]+$/.test(s); s.split(/\\r?\\n/); const C = '[a-z]'; new RegExp(C, 'g');")).toEqual([]);
  });

  test('a RegExp made from what it cannot read is a problem until it is listed', async () => {
    const code = 'export function f(x: string) {\n  return new RegExp(x);\n}\n';
    expect(await problemsOf(code)).toEqual(['src/x.ts:2: new RegExp(x): a RegExp made from what is not a constant of this module; list it in DYNAMIC (scripts/check-regexps.mjs)']);
    // Listed as bounded: the source must say why, in a comment.
    const listed = [{ file: 'src/x.ts', call: 'new RegExp(x)', bounded: 'x is one character' }];
    expect((await problemsOf(code, listed))[0]).toContain('listed as bounded, but no `bounded:` comment above it says why');
    expect(await problemsOf(code.replace('  return', '  // bounded: x is one character.\n  return'), listed)).toEqual([]);
    // Listed with the patterns it makes: those are checked.
    const made = [{ file: 'src/x.ts', call: 'new RegExp(x)', sources: async () => [/<[^>]*>/g] }];
    expect((await problemsOf(code, made)).join('\n')).toContain('no-super-linear-move');
    // A listed call that is gone is a problem too.
    expect(await problemsOf('export const y = 1;\n', listed)).toEqual(['src/x.ts: new RegExp(x): listed in DYNAMIC, but not found']);
  });

  test('a flagged pattern is kept only when listed and a comment says why', async () => {
    const code = "export const f = (s: string) =>\n  s.replace(/\\/+$/, '');\n";
    const listed = [{ file: 'src/x.ts', text: '/\\/+$/', why: 'a short name' }];
    expect((await problemsOf(code, [], listed))[0]).toContain('listed in BOUNDED, but no `bounded:` comment above it says why');
    expect(await problemsOf(code.replace('  s.replace', '  // bounded: a name, at most 255 characters.\n  s.replace'), [], listed)).toEqual([]);
    expect(await problemsOf('export const y = 1;\n', [], listed)).toEqual(['src/x.ts: /\\/+$/: listed in BOUNDED, but no such flagged pattern']);
  });

  test('every listed RegExp says how it is bounded or what it makes', () => {
    for (const d of DYNAMIC) expect(typeof d.bounded === 'string' || typeof d.sources === 'function').toBe(true);
  });
});
