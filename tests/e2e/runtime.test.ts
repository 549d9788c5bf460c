// The compiled binary as a program run in other people's directories.
import { describe, test, expect } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINARY, REPO, fixture, run } from './harness.ts';

describe('the binary ignores runtime configuration files in the working directory', () => {
  // A compiled Bun program reads .env and bunfig.toml from the working
  // directory unless built not to; kb is run in other people's repositories
  // (pre-commit hooks), where either could change what kb does.
  test('.env does not set kb variables, bunfig.toml does not preload code', () => {
    const root = fixture(
      {
        'kb/a.md': 'A\n',
        '.env': 'JP_CFG_KB_TOPIC_T_TITLE=FromDotEnv\n',
        'bunfig.toml': 'preload = ["./evil.js"]\n',
        'evil.js': 'require("node:fs").writeFileSync(__dirname + "/PWNED", "x");\n',
      },
      '[kb.topic.t]\ntitle = "Plain"\nsubjects = "kb"\n',
    );
    const r = run(BINARY, root, ['learn', 't']);
    expect(r.code).toBe(0);
    expect(r.out).toStartWith('# Topic: Plain\n');
    expect(existsSync(join(root, 'PWNED'))).toBe(false);
  });
});

describe('kb --version', () => {
  // The version is package.json's; the commit and the target are constants
  // the build defines (scripts/build.mjs), read here from git and the
  // machine, not from kb's build code.
  test('names the version, the commit it was built from and its target', () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const git = (args: string[]) => execFileSync('git', args, { cwd: REPO, encoding: 'utf8' }).trim();
    const head = git(['rev-parse', '--short=12', 'HEAD']);
    const commit = git(['status', '--porcelain', '--untracked-files=no']) === '' ? head : `${head}-dirty`;
    const target = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
    const r = run(BINARY, REPO, ['--version']);
    expect(r).toEqual({ out: expect.stringMatching(new RegExp(`^${version.replaceAll('.', '\\.')} \\(commit ${commit}, ${target}(-musl)?\\)\\n$`)), err: '', code: 0 });
  });
});
