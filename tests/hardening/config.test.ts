// Configuration fuzzing: random and truncated TOML (and JSON), wrong types
// at every key, absurd nesting. Whatever the file holds, loading it either
// works or yields diagnostics that name the file and a position; nothing
// throws but kb's own errors; the CLI prints `error: ... (file:line[:col])`
// and never a stack trace.
import { afterAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.ts';
import type { Config } from '../../src/config/types.ts';
import { KbError } from '../../src/shared/errors.ts';
import { cleanup, expectNoCrash, kb, workspace } from './helpers.ts';

afterAll(cleanup);

const RUNS = Number(process.env.KB_PROPERTY_RUNS ?? 3000);

const root = mkdtempSync(join(tmpdir(), 'kb-cfgfuzz-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, '.jp'));
mkdirSync(join(root, 't'));
writeFileSync(join(root, 't', 'a.md'), 'A\n');

const VALID = `# A workspace configuration, every field set.
[kb.topic.project]
enable = true
title = "General \\"Project\\" Knowledge"
introduction = 'foo bar baz...'
description = """
Longer description,
over lines."""
subjects = "t"
learned = ["a", "b/*"]
disabled = [
  "c",
]

[kb.topic.skills]
subjects = "t"
extends = []
`;

const KEYS = ['enable', 'title', 'introduction', 'description', 'subjects', 'learned', 'disabled', 'unknown', 'titel'];
const VALUES = ['5', '-1.5', 'inf', '"s"', "'s'", 'true', '[]', '[1]', '["x", 2]', '[[]]', '{}', '{ a = 1 }', '1979-05-27T07:32:00Z', '07:32:00', '[{ a = 1 }]', '"""m\nl"""'];

/** Loads `text` as the workspace config (`.toml` or `.json`). */
async function load(text: string, file = 'config.toml'): Promise<Config | KbError> {
  const path = join(root, '.jp', file);
  writeFileSync(path, text);
  try {
    // Awaited here: a rejection is caught below, and the file removed only
    // once loading is done.
    return await loadConfig({ cwd: root, cfg: [], knowledge: [], env: {}, home: root });
  } catch (err) {
    // kb's own errors are fine (they carry a message and a place); anything
    // else is a crash.
    if (err instanceof KbError) return err;
    throw new Error(`loadConfig threw ${(err as Error)?.constructor?.name}: ${String(err)} for ${JSON.stringify(text.slice(0, 300))}`);
  } finally {
    rmSync(path, { force: true });
  }
}

/** Every diagnostic names the file and a position in it. */
function expectPositions(c: Config | KbError, file = 'config.toml'): void {
  if (c instanceof KbError) return;
  for (const d of c.diagnostics) {
    expect([d.code, d.message, d.where]).toEqual([d.code, d.message, expect.stringMatching(new RegExp(`^\\.jp/${file.replace('.', '\\.')}:\\d+(:\\d+)?$`))]);
  }
}

describe('configuration fuzzing (in-process)', () => {
  test('every truncation of a valid file', async () => {
    for (let i = 0; i <= VALID.length; i++) expectPositions(await load(VALID.slice(0, i)));
  }, 60_000);

  test('wrong types at every key, at every level', async () => {
    for (const v of VALUES) {
      for (const k of KEYS) expectPositions(await load(`[kb.topic.t]\nsubjects = "t"\n${k} = ${v}\n`));
      for (const top of ['kb', 'kb.topic', 'kb.topic.t', 'kb.x', 'extends', 'inherit', 'config_load_paths']) {
        expectPositions(await load(`${top} = ${v}\n`));
      }
      expectPositions(await load(`[kb]\ntopic = ${v}\n`));
      expectPositions(await load(`[kb.topic]\nt = ${v}\n`));
      expectPositions(await load(`kb = { topic = { t = { subjects = ${v} } } }\n`));
    }
  }, 60_000);

  test('random TOML-like text', async () => {
    const UNIT = fc.constantFrom(...'[]{}=."\'\n #,abkt_-0123456789eflsrupcjo:TZ\\'.split(''), 'kb', 'topic', 'subjects', 'learned', '"""', "'''", '\n[kb.topic.t]\n');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: UNIT, maxLength: 120 }), async (s) => expectPositions(await load(s))),
      { numRuns: RUNS },
    );
  }, 60_000);

  test('a valid file with random damage: characters inserted, deleted, replaced', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(VALID.length), fc.nat(8), fc.string({ maxLength: 6 }), async (at, cut, insert) => {
        expectPositions(await load(VALID.slice(0, at) + insert + VALID.slice(at + cut)));
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  test('arbitrary JSON values in a JSON configuration file', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom('kb', 'topic', 'subjects', 'learned'), async (value, key) => {
        for (const doc of [value, { kb: value }, { kb: { topic: { t: value } } }, { kb: { topic: { t: { subjects: 't', [key]: value } } } }]) {
          expectPositions(await load(JSON.stringify(doc, null, 1), 'config.json'), 'config.json');
        }
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  }, 60_000);

  test('absurd nesting is refused with a position, quickly (no stack overflow, no hang)', async () => {
    const cases: [string, string][] = [
      [`kb.${'a.'.repeat(50_000)}b = 1\n`, 'config.toml'],
      [`kb = ${'{a='.repeat(50_000)}1${'}'.repeat(50_000)}\n`, 'config.toml'],
      [`[kb.topic.t]\nsubjects = "t"\nlearned = ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`, 'config.toml'],
      [`{"kb": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 'config.json'],
      [`{"kb": ${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`, 'config.json'],
    ];
    for (const [text, file] of cases) {
      const t0 = performance.now();
      const c = await load(text, file);
      expect(performance.now() - t0).toBeLessThan(3000);
      expect(c).not.toBeInstanceOf(KbError);
      const d = (c as Config).diagnostics;
      expect(d.map((x) => x.message)).toContain(`invalid ${file.endsWith('.json') ? 'JSON' : 'TOML'}: values are nested more than 64 levels deep`);
      expectPositions(c, file);
    }
    // Ordinary depth is untouched.
    expect(((await load('[kb.topic.t]\nsubjects = "t"\nlearned = [["x"]]\n')) as Config).diagnostics.map((d) => d.code)).toEqual(['wrong-type']);
  }, 60_000);
});

describe('configuration fuzzing (dist/kb)', () => {
  /** What a user sees for a broken configuration: the product or an
   *  `error: ... (file:position)` line, and never a stack trace. */
  function expectClear(ws: string, args: string[]): void {
    const r = kb(ws, args);
    expectNoCrash(r);
    expect(r.err).not.toContain('    at ');
    expect(r.err).not.toContain('--verbose');
    // Errors, and warnings about the configuration itself, name the file
    // and the position (warnings about a topic's subjects name the topic).
    for (const line of r.err.split('\n').filter((l) => l.startsWith('error: ') || (l.startsWith('warning: ') && !l.startsWith('warning: topic ')))) {
      expect(line).toMatch(/^(error|warning): .+ \((\.jp\/config\.(toml|json):\d+(:\d+)?|--cfg .*)\)$/s);
    }
    if (r.code !== 0) expect(r.err).toMatch(/^error: /m);
  }

  test('truncations and damage: prompt and check explain with file and position', () => {
    const samples = new Set<string>();
    for (let i = 0; i <= VALID.length; i += 7) samples.add(VALID.slice(0, i));
    fc.assert(
      fc.property(fc.nat(VALID.length), fc.string({ unit: fc.constantFrom('[', ']', '"', '=', '{', '\n', 'x', '.'), maxLength: 3 }), (at, s) => {
        samples.add(VALID.slice(0, at) + s + VALID.slice(at + 1));
      }),
      { numRuns: 20 },
    );
    for (const text of samples) {
      const ws = workspace({ 't/a.md': 'A\n' }, text);
      expectClear(ws, ['prompt']);
      const check = kb(ws, ['check']);
      expectNoCrash(check);
      expect(check.err).toBe('');
      for (const line of check.out.split('\n').filter((l) => /^(error|warning):/.test(l))) {
        expect(line).toMatch(/\((\.jp\/config\.toml:\d+(:\d+)?|t(\/.*)?)\)$/);
      }
    }
  }, 60_000);

  test('absurd nesting in a file and in --cfg JSON', () => {
    const ws = workspace({ 't/a.md': 'A\n' }, `kb.${'a.'.repeat(20_000)}b = 1\n`);
    const r = kb(ws, ['prompt']);
    expect(r).toEqual({ out: '', err: 'error: invalid TOML: values are nested more than 64 levels deep (.jp/config.toml:1:131)\n', code: 1 });
    const cfg = `kb.topic.t.learned:=${'['.repeat(5000)}${']'.repeat(5000)}`;
    const c = kb(workspace({ 't/a.md': 'A\n' }), ['prompt', '--cfg', cfg]);
    expect(c.out).toBe('');
    expect(c.code).toBe(2);
    expect(c.err).toStartWith('error: invalid JSON: values are nested more than 64 levels deep (--cfg kb.topic.t.learned:=[[[');
    expectNoCrash(c);
  }, 60_000);
});

describe('extends globs over hostile directories (dist/kb)', () => {
  test('symbolic links looping back into the globbed directory end the walk: each file is read once', () => {
    const config = `extends = ["conf.d/**/*.toml"]\n`;
    const ws = workspace(
      {
        '.jp/conf.d/a.toml': '[kb.topic.t]\nsubjects = "t"\n',
        '.jp/conf.d/x/loop1': { link: '..' },
        '.jp/conf.d/x/loop2': { link: '..' },
        '.jp/conf.d/y': { link: '.' },
        't/s.md': 'S',
      },
      config,
    );
    const r = kb(ws, ['--verbose', 'list'], { timeoutMs: 10_000 });
    expectNoCrash(r);
    expect(r.code).toBe(0);
    expect(r.out).toContain('t: t');
    // Read once: the loops are not followed back into conf.d.
    expect(r.err.split('\n').filter((l) => l.endsWith('a.toml'))).toHaveLength(1);
  });
});
