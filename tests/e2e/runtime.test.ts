// The compiled binary as a program run in other people's directories.
import { describe, test, expect } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BINARY, fixture, run } from './harness.ts';

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
