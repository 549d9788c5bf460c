// The home directory a command uses is its environment's HOME (the
// RunContext's env, cli/home.ts), never the process's: `kb init`'s
// user-level configuration and completion's `-w ~/...` read the same home
// as every other command (cli/workspace.ts), so that a caller that passes
// an environment (tests, an embedding program) is the one that decides.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunContext } from '../../../src/cli/command.ts';
import { liveSources } from '../../../src/cli/commands/complete.ts';
import initCommand from '../../../src/cli/commands/init.ts';
import { setQuiet } from '../../../src/shared/log.ts';
import { makeTempDir } from '../../support/temp.ts';

function context(cwd: string, home: string, more: Partial<RunContext> = {}): RunContext {
  return {
    flags: {},
    positionals: [],
    globals: { cfg: [], knowledge: [], verbose: false, quiet: true },
    cwd,
    env: { HOME: home },
    commands: {},
    readerThreadUrl: '',
    ...more,
  };
}

describe("a command's home is its environment's HOME", () => {
  test('completion opens `-w ~/ws` in that home', async () => {
    const home = makeTempDir('kb-home-');
    mkdirSync(join(home, 'ws/.jp'), { recursive: true });
    mkdirSync(join(home, 'ws/notes'));
    writeFileSync(join(home, 'ws/.jp/config.toml'), '[kb.topic.notes]\nsubjects = "notes"\n');
    writeFileSync(join(home, 'ws/notes/a.md'), 'A\n');
    const elsewhere = makeTempDir('kb-home-cwd-');
    const kb = await liveSources(context(elsewhere, home)).knowledge({ workspace: '~/ws', positionals: [], cfg: [], knowledge: [], literal: false });
    expect(kb?.topics.map((t) => t.id)).toEqual(['notes']);
  });

  test("kb init sees the topics of that home's user-level configuration", async () => {
    const home = makeTempDir('kb-home-');
    mkdirSync(join(home, '.config/jp'), { recursive: true });
    writeFileSync(join(home, '.config/jp/config.toml'), '[kb.topic.docs]\nsubjects = "elsewhere"\n');
    const ws = makeTempDir('kb-home-ws-');
    mkdirSync(join(ws, '.jp'));
    writeFileSync(join(ws, '.jp/config.toml'), '');
    mkdirSync(join(ws, 'docs'));
    setQuiet(true); // kb init's notes on stderr; it prints the text added on stdout
    try {
      expect(await initCommand.run(context(ws, home, { positionals: ['docs'] }))).toBe(0);
    } finally {
      setQuiet(false);
    }
    // The home's configuration has a topic docs: the new one gets another ID.
    const written = readFileSync(join(ws, '.jp/config.toml'), 'utf8');
    expect(written).toContain('subjects = "docs"');
    expect(written).not.toContain('[kb.topic.docs]');
  });
});
