// Completion reads a half-typed command line with the same tokenizer as
// the parser (cli/argv.ts), leniently: what it records decides which
// workspace, flags and candidates the shell is offered.
import { describe, expect, test } from 'bun:test';
import type { ArgsDef } from 'citty';
import { candidates, joinEquals, parseLine, type Sources } from '../../../src/cli/commands/complete.ts';

const LEARN_ARGS: ArgsDef = {
  topic: { type: 'positional', required: false },
  args: { type: 'string' },
};
const CHECK_ARGS: ArgsDef = { format: { type: 'enum', options: ['text', 'json'] } };

const sources: Sources = {
  commands: [
    { name: 'learn', hidden: false },
    { name: 'check', hidden: false },
    { name: '__complete', hidden: true },
  ],
  args: async (command) => (command === 'learn' ? LEARN_ARGS : command === 'check' ? CHECK_ARGS : undefined),
  knowledge: async () => undefined,
};

describe('parseLine', () => {
  test('global flags in every spelling are recorded, wherever they stand', async () => {
    const line = await parseLine(['-w', 'ws', '--cfg=a=1', '-kproject/x', 'learn', '--knowledge', 'p/y', '-c', 'b'], sources);
    expect(line).toEqual({ command: 'learn', positionals: [], workspace: 'ws', cfg: ['a=1', 'b'], knowledge: ['project/x', 'p/y'], literal: false });
  });

  test('a value flag given last is pending: its value is being completed', async () => {
    const line = await parseLine(['learn', 'project', '-k'], sources);
    expect(line.pending?.name).toBe('knowledge');
    expect(line.positionals).toEqual(['project']);
  });

  test('the command decides which flags take a value; unknown and boolean flags are skipped', async () => {
    const line = await parseLine(['--verbose', 'check', '--nope', 'x', '--format', 'json', '--help'], sources);
    expect(line).toEqual({ command: 'check', positionals: ['x'], cfg: [], knowledge: [], literal: false });
  });

  test('after `--` every word is a positional, a second `--` and `-` included', async () => {
    const line = await parseLine(['learn', '--', '-k', '--', '-', 'x'], sources);
    expect(line).toEqual({ command: 'learn', positionals: ['-k', '--', '-', 'x'], cfg: [], knowledge: [], literal: true });
  });

  test('`-` alone is a positional', async () => {
    expect((await parseLine(['-', 'learn'], sources)).command).toBe('-');
  });
});

describe('candidates', () => {
  test('commands, without the hidden ones', async () => {
    expect(await candidates([''], sources)).toEqual(['learn', 'check']);
    expect(await candidates(['l'], sources)).toEqual(['learn']);
  });

  test("a command's flags and the global ones; short aliases after a lone dash", async () => {
    expect(await candidates(['check', '--f'], sources)).toEqual(['--format']);
    expect(await candidates(['check', '-'], sources)).toContain('-k');
    expect(await candidates(['check', '--'], sources)).not.toContain('-k');
  });

  test('enum values, also after `--flag=` (bash splits it: joined back)', async () => {
    expect(await candidates(['check', '--format', ''], sources)).toEqual(['text', 'json']);
    expect(await candidates(['check', '--format=j'], sources)).toEqual(['--format=json']);
    expect(joinEquals(['check', '--format', '=', 'j'])).toEqual(['check', '--format=j']);
  });

  test('-w asks the shell for directories, --cfg for files', async () => {
    expect(await candidates(['-w', ''], sources)).toEqual([':dirs']);
    expect(await candidates(['--cfg', ''], sources)).toEqual([':files']);
  });
});
