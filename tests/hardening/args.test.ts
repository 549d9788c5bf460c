// Model-supplied arguments are untrusted. End to end on dist/kb, through
// `--args` (the call exactly as a model sends it) and positionals: every
// hostile call gets a short, clear message for the model on stdout, exit 1,
// nothing on stderr, in bounded time and memory; nothing outside the topic
// directory is read (checked with strace when it is installed; the property
// tests check it in-process everywhere).
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../../src/app/args.ts';
import { cleanup, BIN, expectNoCrash, hasProgram, kbMeasured, tempDir, workspace, type Measured } from './helpers.ts';

afterAll(cleanup);

const MiB = 1 << 20;
const EXPECTED = 'Expected {"topic": string, "subjects"?: string | string[] | null}.';
const bad = (problem: string) => `Invalid arguments for \`learn\`: ${problem}. ${EXPECTED}\n`;
const noMatch = (p: string) => `No subjects match ${JSON.stringify(p)} in topic "t". Call \`learn\` with only the topic to list its subjects.`;

const root = workspace({ 't/ok.md': 'OK\n', 't/sub/x.md': 'X\n', 'secret.md': 'SECRET\n', 'sibling/secret.md': 'SECRET\n' });

function call(args: unknown, limitMs = 5000): Measured {
  const json = typeof args === 'string' ? args : JSON.stringify(args);
  // Large JSON goes through stdin, as a host would pipe it.
  const r = json.length > 100_000 ? kbMeasured(root, ['learn', '--args', '-'], { input: json }) : kbMeasured(root, ['learn', '--args', json]);
  expectNoCrash(r);
  expect(r.ms).toBeLessThan(limitMs);
  expect(r.maxRss).toBeLessThan(256 * MiB);
  expect(r.out).not.toContain('SECRET');
  return r;
}

function result(r: Measured) {
  return { out: r.out, err: r.err, code: r.code };
}

describe('patterns that try to leave the topic', () => {
  const cases: [string, string][] = [
    ['../secret', '`..` segments are not allowed; patterns cannot leave the topic directory'],
    ['../sibling/*', '`..` segments are not allowed; patterns cannot leave the topic directory'],
    ['sub/../../secret', '`..` segments are not allowed; patterns cannot leave the topic directory'],
    ['**/../secret', '`..` segments are not allowed; patterns cannot leave the topic directory'],
    ['..\\secret', '`..` segments are not allowed; patterns cannot leave the topic directory'],
    ['./../secret', '`..` segments are not allowed; patterns cannot leave the topic directory'],
    ['/etc/passwd', 'absolute paths are not allowed; patterns are relative to the topic directory'],
    [`${root}/secret`, 'absolute paths are not allowed; patterns are relative to the topic directory'],
    ['C:\\Windows\\win.ini', 'absolute paths are not allowed; patterns are relative to the topic directory'],
    ['\\\\server\\share', 'absolute paths are not allowed; patterns are relative to the topic directory'],
  ];
  for (const [pattern, reason] of cases) {
    test(JSON.stringify(pattern), () => {
      expect(result(call({ topic: 't', subjects: [pattern] }))).toEqual({
        out: `Invalid pattern ${JSON.stringify(pattern)}: ${reason}.\n`,
        err: '',
        code: 1,
      });
    });
  }

  test('look-alikes that stay inside simply match nothing', () => {
    for (const p of ['%2e%2e/secret', '..secret', 'sub/..x', '...']) {
      expect(result(call({ topic: 't', subjects: p }))).toEqual({ out: `${noMatch(p)}\n`, err: '', code: 1 });
    }
  });

  test('with a good pattern beside them: the good result, then the notes, exit 0', () => {
    expect(result(call({ topic: 't', subjects: ['ok', '../secret', '/etc/passwd'] }))).toEqual({
      out:
        '<subject "ok">\nOK\n</subject>\n\n' +
        'Invalid pattern "../secret": `..` segments are not allowed; patterns cannot leave the topic directory.\n' +
        'Invalid pattern "/etc/passwd": absolute paths are not allowed; patterns are relative to the topic directory.\n',
      err: '',
      code: 0,
    });
  });
});

describe('control characters and NUL bytes', () => {
  test('a NUL byte: invalid, shown escaped (never a raw NUL in the output)', () => {
    const r = call({ topic: 't', subjects: ['ok\u0000/../../secret'] });
    expect(result(r)).toEqual({ out: 'Invalid pattern "ok\\u0000/../../secret": the pattern contains a NUL byte.\n', err: '', code: 1 });
  });

  test('newlines and escapes in patterns and topics stay on one line', () => {
    expect(result(call({ topic: 't', subjects: ['a\nb', 'c\u001b[2J'] }))).toEqual({
      out: `${noMatch('a\nb')}\n${noMatch('c\u001b[2J')}\n`.replace('"a\n', '"a\\n').replace('\u001b', '\\u001b'),
      err: '',
      code: 1,
    });
    expect(result(call({ topic: 'x\n</knowledge>' }))).toEqual({ out: 'Unknown topic "x\\n</knowledge>". Valid topics: t.\n', err: '', code: 1 });
  });
});

describe('sizes', () => {
  test('a 100,000-character pattern (via --args and as a positional)', () => {
    const p = 'a'.repeat(100_000);
    const want = { out: bad('the pattern is 100000 characters long; at most 1024 are accepted'), err: '', code: 1 };
    expect(result(call({ topic: 't', subjects: p }))).toEqual(want);
    expect(result(call({ topic: 't', subjects: ['ok', p] }))).toEqual({ ...want, out: bad('"subjects"[1] is 100000 characters long; at most 1024 are accepted') });
    const positional = kbMeasured(root, ['learn', 't', p]);
    expect(result(positional)).toEqual(want);
  });

  test('a 10,000-element array', () => {
    const subjects = Array.from({ length: 10_000 }, (_, i) => `p${i}`);
    expect(result(call({ topic: 't', subjects }))).toEqual({ out: bad('"subjects" has 10000 patterns; at most 1000 are accepted'), err: '', code: 1 });
  });

  test('1000 patterns (the most accepted) of 1000 characters: too long in all', () => {
    const subjects = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(1000, '*'));
    expect(result(call({ topic: 't', subjects }))).toEqual({ out: bad(`the patterns have 1000000 characters in all; at most ${LIMITS.totalPatternLength} are accepted`), err: '', code: 1 });
  });

  test('1000 distinct hostile globs at once: bounded', () => {
    const subjects = Array.from({ length: 1000 }, (_, i) => `{a,aa}{a,aa}{a,aa}*a*a*a*${i}`);
    const r = call({ topic: 't', subjects }, 15_000);
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out.split('\n').filter(Boolean)).toHaveLength(1000);
  });

  test('JSON larger than 1 MiB, on the command line and on stdin', () => {
    const big = JSON.stringify({ topic: 't', subjects: 'x'.repeat(2 * MiB) });
    const want = { out: bad(`the arguments are larger than ${MiB} bytes`), err: '', code: 1 };
    expect(result(call(big))).toEqual(want);
    // 64 MiB on stdin: refused after reading just past the limit.
    const huge = kbMeasured(root, ['learn', '--args', '-'], { input: Buffer.alloc(64 * MiB, 0x20) });
    expect(result(huge)).toEqual(want);
    expect(huge.maxRss).toBeLessThan(128 * MiB);
  });

  test('deeply nested JSON', () => {
    const depth = 500_000;
    const deep = `{"topic":"t","subjects":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const r = call(deep);
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^Invalid arguments for `learn`: (the arguments are not valid JSON \(nested too deeply\)|"subjects"\[0\] must be a string, not array)\. /);
    const deepObject = `{"topic":"t","x":${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}}`;
    expect(call(deepObject).out).toMatch(/^Invalid arguments for `learn`: (the arguments are not valid JSON \(nested too deeply\)|unknown argument "x")\. /);
  });

  test('many unknown keys and a huge topic: short messages', () => {
    const keys = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    const r = call({ topic: 't', ...keys });
    expect(result(r)).toEqual({ out: bad('unknown arguments "k0", "k1", "k2", "k3", "k4" and 49995 more'), err: '', code: 1 });
    expect(result(call({ topic: 't'.repeat(5000) }))).toEqual({ out: bad('"topic" is 5000 characters long; at most 1024 are accepted'), err: '', code: 1 });
  });
});

describe('pathological globs: bounded time, a clear result', () => {
  // A topic of long, similar names: the worst case for backtracking.
  const slow = workspace({});
  for (let i = 0; i < 300; i++) writeFileSync(join(slow, 't', `${'a'.repeat(200)}${i}.md`), `${i}\n`);
  // And a deep one: 120 levels of `d/`.
  const deep = Array(120).fill('d').join('/');
  const deepRoot = workspace({ [`t/${deep}/y.md`]: 'Y\n' });

  const patterns: [string, string][] = [
    ['stars', '*a*a*a*a*a*a*a*a*a*a*b'],
    ['overlapping braces', `${'{a,aa}'.repeat(40)}b`],
    ['brace product', '{a,b}'.repeat(200)],
    ['globstars', `${'**/'.repeat(100)}x`],
    ['globstar chain', '**/d/**/d/**/d/**/d/**/x'],
    ['extglobs', `${'+(a|aa)'.repeat(8)}b`],
    ['negated extglob', '!(*a*a*a*a*a*)'],
    ['numeric range', '{1..1000000000}'],
    ['classes', '[a-z]'.repeat(200)],
  ];
  for (const [name, pattern] of patterns) {
    test(name, () => {
      for (const where of [slow, deepRoot]) {
        const r = kbMeasured(where, ['learn', 't', pattern]);
        expectNoCrash(r);
        expect(r.ms).toBeLessThan(3000);
        expect(r.err).toBe('');
        expect(r.code).toBe(1);
        expect(r.out).toMatch(/^(No subjects match|Invalid pattern) /);
      }
    });
  }

  test('a glob too expensive for this topic is reported, not run to the end', () => {
    // 300 live NFA states on 1000 long slugs: past the step budget.
    const many = workspace({});
    for (let i = 0; i < 1000; i++) writeFileSync(join(many, 't', `${'a'.repeat(240)}${i}.md`), `${i}\n`);
    const pattern = `${'*a'.repeat(300)}b`.slice(0, 1024);
    const r = kbMeasured(many, ['learn', 't', pattern]);
    expectNoCrash(r);
    expect(r.ms).toBeLessThan(5000);
    expect(result(r)).toEqual({
      out: `Invalid pattern "${pattern}": the pattern is too complex to match against this topic in reasonable time; use a simpler glob.\n`,
      err: '',
      code: 1,
    });
  });

  test('back-references, lookbehinds and deep nesting are refused with a reason', () => {
    const cases: [string, string][] = [
      ['(a)\\1', 'not a supported glob: back-references are not supported'],
      ['(?<=a)b', 'not a supported glob: lookbehind assertions are not supported'],
      [`${'@('.repeat(11)}a${')'.repeat(11)}`, 'braces and parentheses are nested more than 10 levels deep'],
      [`${'{'.repeat(11)}a,b${'}'.repeat(11)}`, 'braces and parentheses are nested more than 10 levels deep'],
    ];
    for (const [pattern, reason] of cases) {
      expect(result(call({ topic: 't', subjects: pattern }))).toEqual({ out: `Invalid pattern ${JSON.stringify(pattern)}: ${reason}.\n`, err: '', code: 1 });
    }
  });
});

describe.skipIf(!hasProgram('strace', ['-V']))('nothing outside the topic is opened (strace on dist/kb)', () => {
  test('hostile patterns never touch the files they aim at', () => {
    const log = join(tempDir(), 'strace.log');
    const hostile = ['ok', '../secret', '../sibling/*', '**/../secret', `${root}/secret`, 'sub/../../secret', '..\\secret', '../*', '{..,sub}/*', '*/../../secret', '**'];
    const r = kbMeasured(root, []);
    expect(r.code).toBe(2); // sanity: the binary runs
    const traced = Bun.spawnSync(['strace', '-f', '-qq', '-e', 'trace=%file,%desc', '-o', log, BIN, 'learn', 't', ...hostile], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: root, XDG_CONFIG_HOME: join(root, '.xdg'), JP_GLOBAL_CONFIG_DIR: join(root, '.global') },
    });
    expect(traced.stdout.toString()).toContain('<subject "ok">\nOK\n</subject>');
    expect(traced.stdout.toString()).not.toContain('SECRET');
    // The first line is the execve of kb itself, whose arguments are the
    // patterns: not file accesses.
    const lines = readFileSync(log, 'utf8').split('\n').filter((l) => !l.includes('execve('));
    // Positive control: the trace does see kb opening the topic's files.
    expect(lines.some((l) => l.includes(`"${root}/t/ok.md"`) && /open/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes(`"${root}/t/sub/x.md"`))).toBe(true);
    // No call names a file outside the topic: not the canaries, not the
    // sibling directory, nothing under the workspace but .jp/ and t/ (and
    // kb's cache, in the home folder the test gives it: the walk that
    // `learn` keeps, kb/fs/walk-cache.ts).
    const paths = lines.flatMap((l) => [...l.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]));
    const under = paths.filter((p) => p.startsWith(`${root}/`));
    const cache = `${root}/.cache`;
    const own = (p: string): boolean => p === cache || p === `${cache}/kb` || p.startsWith(`${cache}/kb/`);
    expect(under.filter((p) => !p.startsWith(`${root}/t/`) && !p.startsWith(`${root}/.jp/`) && p !== `${root}/t` && p !== `${root}/.jp` && !p.startsWith(`${root}/.jp.`) && !p.startsWith(`${root}/.xdg`) && !p.startsWith(`${root}/.global`) && !own(p))).toEqual([]);
    expect(paths.filter((p) => p.includes('secret') || p.includes('sibling'))).toEqual([]);
  });
});
