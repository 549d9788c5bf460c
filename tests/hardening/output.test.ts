// Where kb's output goes, end to end on dist/kb: a full disk is an error
// that says where (`(stdout)`), with exit 1 and no stack trace; a pattern
// `.//x` is `./x`, never an absolute path.
import { afterAll, describe, expect, test } from 'bun:test';
import { closeSync, existsSync, openSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cleanup, BIN, expectNoCrash, kb, workspace } from './helpers.ts';
import { isolatedEnv } from '../e2e/harness.ts';

afterAll(cleanup);

describe.skipIf(!existsSync('/dev/full'))('writing to a full disk (/dev/full)', () => {
  const root = workspace({ 't/ok.md': 'OK\n', 't/big.md': 'x'.repeat(300_000) });

  for (const args of [['learn', 't', 'ok'], ['learn', 't', '**'], ['learn', 't'], ['prompt', '-k', 't/ok'], ['list'], ['check'], ['schema']]) {
    test(`kb ${args.join(' ')}: error: cannot write the output: no space left on device (stdout), exit 1`, () => {
      const fd = openSync('/dev/full', 'w');
      try {
        const r = spawnSync(BIN, args, { cwd: root, env: isolatedEnv(root), stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
        expect({ err: r.stderr, code: r.status }).toEqual({ err: 'error: cannot write the output: no space left on device (stdout)\n', code: 1 });
      } finally {
        closeSync(fd);
      }
    });
  }
});

describe('patterns that start with `./`', () => {
  const root = workspace({ 't/x.md': 'X\n' });

  test('`.//x` is `./x`, that is `x`: loaded, not called absolute', () => {
    const r = kb(root, ['learn', 't', './/x']);
    expectNoCrash(r);
    expect(r).toEqual({ out: 'X\n', err: '', code: 0 });
    expect(kb(root, ['learn', 't', './//x', '././/x']).out).toBe('<subject "x">\nX\n</subject>\n');
    expect(kb(root, ['learn', 't', './/']).out).toBe('Invalid pattern ".//": the pattern is empty.\n');
    // A real absolute path still is one.
    expect(kb(root, ['learn', 't', '/x']).out).toBe('Invalid pattern "/x": absolute paths are not allowed; patterns are relative to the topic directory.\n');
  });
});
