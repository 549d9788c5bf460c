import { describe, expect, test } from 'bun:test';
import { parseArgv } from '../../../src/cli/argv.ts';
import { GLOBAL_ARGS } from '../../../src/cli/globals.ts';
import { UsageError } from '../../../src/shared/errors.ts';

const DEFS = { ...GLOBAL_ARGS, format: { type: 'enum' as const, options: ['text', 'json'] }, args: { type: 'string' as const } };

describe('parseArgv', () => {
  test('repeated -k and -c keep every value, in order, in every spelling', () => {
    const p = parseArgv(['-k', 'a/x', '--knowledge', 'b/y', '--knowledge=c/z', '-kd/w', '-c', 'k=v', '--cfg=x+=y'], DEFS);
    expect(p.flags.knowledge).toEqual(['a/x', 'b/y', 'c/z', 'd/w']);
    expect(p.flags.cfg).toEqual(['k=v', 'x+=y']);
  });

  test('flags before and after positionals', () => {
    const p = parseArgv(['skills', '-w', 'dir', 'ast-grep', '--verbose', 'rules/*'], DEFS);
    expect(p.positionals).toEqual(['skills', 'ast-grep', 'rules/*']);
    expect(p.flags.workspace).toBe('dir');
    expect(p.flags.verbose).toBe(true);
  });

  test('-- ends the options; - is a positional', () => {
    expect(parseArgv(['--', '-k', '--x'], DEFS).positionals).toEqual(['-k', '--x']);
    expect(parseArgv(['-'], DEFS).positionals).toEqual(['-']);
  });

  test('a value may start with a dash when given as the next argument', () => {
    expect(parseArgv(['--args', '-'], DEFS).flags.args).toBe('-');
  });

  test.each([
    [['--nope'], 'unknown option --nope'],
    [['-x'], 'unknown option -x'],
    [['--nope', 'value'], 'unknown option --nope'],
    [['-k'], 'option --knowledge needs a value'],
    [['--verbose=yes'], 'option --verbose takes no value'],
    [['--format', 'xml'], 'invalid value "xml" for --format; expected one of: text, json'],
  ])('%p is a usage error', (argv, message) => {
    let err: unknown;
    try { parseArgv(argv as string[], DEFS); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(message);
    expect((err as UsageError).exitCode).toBe(2);
  });
});
