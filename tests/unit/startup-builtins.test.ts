// Start-up: `kb schema` and `kb prompt`, and what an assistant runs on
// every prompt (a listing, a load, a warm search, a recall), call none of
// the Array methods the engine compiles from source on their first use (a
// first `map` alone costs about 0.2 ms, the seven a search used about 0.6
// ms): their path uses the loops of src/shared/arrays.ts. Run on the source
// under bun with a preload that records those calls
// (tests/support/builtin-spy.ts), on a workspace of the start-up
// benchmark's shape (one topic, one subject), on one whose topic pre-loads
// a subject, and on one with a skill and a long document that answers a
// search in several places, with an ignore file.
import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
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

describe('the start-up and per-prompt paths call no Array method compiled on first use', () => {
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

  const long = Array.from({ length: 12 }, (_, i) => `## Part ${i}\n\nHow this works in part ${i}: the well-known TypeVar rules, and more text to read.\n\n${'Filler words go here. '.repeat(20)}\n`).join('\n');
  const rich = tempWorkspace(
    'kb-builtins-',
    {
      'docs/readme.md': '# Readme\n\nHow this works.\n',
      'docs/guide.md': '---\ndescription: The guide.\ntags: [how]\n---\n# Guide\n\nHow it works, step by step.\n',
      'docs/long.md': `# Long\n\n${long}`,
      'docs/skills/review/SKILL.md': '---\nname: review\ndescription: How to review a change.\n---\n# Review\n\nHow this works for reviews.\n',
      'docs/skills/review/checklist.md': '# Checklist\n\nWhat to look for.\n',
      'docs/.gitignore': 'draft.md\n',
      'docs/draft.md': '# Draft\n\nHow this works, not yet.\n',
    },
    '[kb.topic.docs]\ntitle = "Docs"\nsubjects = "docs"\n',
  );
  // Files and folders an hour old: one written within the last seconds is
  // read again by every search and listing (its time could hide a second
  // write).
  const backdate = (dir: string): void => {
    const then = new Date(Date.now() - 3_600_000);
    for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) utimesSync(join(e.parentPath, e.name), then, then);
    utimesSync(dir, then, then);
  };
  backdate(bench);
  backdate(rich);
  for (const [name, root] of [['the start-up benchmark\'s workspace', bench], ['a topic with a skill, a long document and an ignore file', rich]] as const) {
    for (const args of [['learn', 'docs'], ['learn', 'docs', 'readme'], ['search', 'how this works'], ['recall', 'how this works']]) {
      test(`kb ${args.join(' ')}, ${name}, the second time (the listing's heads and the search's index kept)`, () => {
        const first = calls(root, args);
        expect(first.code).toBe(0);
        const r = calls(root, args);
        expect(r.code).toBe(0);
        expect(r.out).toContain(args[0] === 'learn' && args.length === 3 ? 'How this works' : 'readme');
        // kb's own code (the YAML parser reads a listing's frontmatter with
        // the methods it likes).
        expect(r.calls.filter((c) => !c.includes('/node_modules/'))).toEqual([]);
      });
    }
  }

  test('kb learn docs readme where readme is pre-loaded (nothing loaded again), the second time', () => {
    calls(preloading, ['learn', 'docs', 'readme']);
    const r = calls(preloading, ['learn', 'docs', 'readme']);
    // Nothing loaded: exit 1, and the model is told why.
    expect(r.code).toBe(1);
    expect(r.out).toContain('"readme" is already in your system prompt');
    expect(r.calls).toEqual([]);
  });

  test('the spy sees such a call (a command that makes one)', () => {
    // `kb check` maps and filters freely: not a start-up path.
    const r = calls(bench, ['check']);
    expect(r.calls.length).toBeGreaterThan(0);
  });
});

describe('errors are written without the runtime\'s stderr stream', () => {
  // An error is written to stderr as a warning is, with writeSync: the
  // runtime's stderr stream would add tens of milliseconds to every
  // usage error (a model's mistyped flag, a hook's bad --cfg).
  for (const args of [['frobnicate'], ['learn', 'docs', '--frob'], ['-c', 'kb.topic.x=1', 'schema'], []]) {
    test(`kb ${args.join(' ') || '(no command)'}: the error, without the runtime's stderr stream`, () => {
      const r = calls(bench, args);
      expect(r.code).toBe(2);
      expect(r.calls.filter((c) => c.startsWith('process.'))).toEqual([]);
    });
  }

  test('the spy sees a use of a stream (kb mcp serves on stdin and stdout)', () => {
    const r = calls(bench, ['mcp']);
    expect(r.code).toBe(0);
    expect(r.calls.filter((c) => c.startsWith('process.stdout '))).not.toEqual([]);
  });
});
