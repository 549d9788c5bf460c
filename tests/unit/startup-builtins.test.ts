// Start-up: `kb schema` and `kb prompt` call none of the Array methods the
// engine compiles from source on their first use (a first `map` alone
// costs about 0.2 ms of a start of about 9.5): their path uses the loops of
// src/shared/arrays.ts. Run on the source under bun with a preload that
// records those calls (tests/support/builtin-spy.ts), on a workspace of the
// start-up benchmark's shape (one topic, one subject) and on one whose
// topic pre-loads a subject.
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { makeTempDir, tempWorkspace } from '../support/temp.ts';

const REPO = join(import.meta.dir, '../..');
const home = makeTempDir('kb-builtins-home-');
afterAll(() => rmSync(home, { recursive: true, force: true }));

function calls(root: string, args: string[]): { calls: string[]; out: string; code: number | null } {
  const log = join(home, `calls-${args.join('-')}.log`);
  const r = spawnSync(process.execPath, ['--preload', join(REPO, 'tests/support/builtin-spy.ts'), join(REPO, 'src/cli.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), KB_TEST_BUILTIN_LOG: log, NO_COLOR: '1' },
  });
  const text = readFileSync(log, 'utf8');
  return { calls: text === '' ? [] : text.split('\n'), out: r.stdout, code: r.status };
}

const bench = tempWorkspace('kb-builtins-', { 'docs/readme.md': '# Readme\n\nHow this works.\n' }, '[kb.topic.docs]\ntitle = "Docs"\nsubjects = "docs"\n');
const preloading = tempWorkspace(
  'kb-builtins-',
  { 'docs/readme.md': '# Readme\n\nHow this works.\n', 'docs/guide.md': '---\ndescription: The guide.\n---\n# Guide\n' },
  '[kb.topic.docs]\ntitle = "Docs"\nsubjects = "docs"\nlearned = ["readme"]\n',
);

describe('the start-up path calls no Array method compiled on first use', () => {
  for (const [name, root] of [['the start-up benchmark\'s workspace', bench], ['a topic that pre-loads a subject', preloading]] as const) {
    for (const args of [['schema'], ['prompt']]) {
      test(`kb ${args.join(' ')}, ${name}`, () => {
        const r = calls(root, args);
        expect(r.code).toBe(0);
        expect(r.out).toContain('docs');
        expect(r.calls).toEqual([]);
      });
    }
  }

  test('the spy sees such a call (a command that makes one)', () => {
    // `kb check` maps and filters freely: not a start-up path.
    const r = calls(bench, ['check']);
    expect(r.calls.length).toBeGreaterThan(0);
  });
});
