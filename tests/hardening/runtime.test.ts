// The runtime under kb: a deleted working directory. The binary starts
// anyway (it is built with runtime arguments of its own, scripts/build.mjs;
// without them the runtime refused before any of kb's code ran: "The
// current working directory was deleted"), and kb works from an absolute
// -w, or says why it cannot.
import { afterAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { isolatedEnv } from '../e2e/harness.ts';
import { BIN, cleanup, expectNoCrash, tempDir, workspace, type Result } from './helpers.ts';

afterAll(cleanup);

/** Runs dist/kb from a directory deleted just before. */
function fromDeleted(root: string, args: string[]): Result {
  const base = tempDir();
  const quoted = [BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const r = spawnSync('sh', ['-c', `mkdir gone && cd gone && rmdir ../gone && exec ${quoted}`], {
    cwd: base,
    env: isolatedEnv(root),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { out: r.stdout ?? '', err: r.stderr ?? '', code: r.status };
}

describe.skipIf(process.platform === 'win32')('a deleted working directory', () => {
  const root = workspace({ 't/ok.md': 'OK\n' });

  test('kb --version', () => {
    expect(fromDeleted(root, ['--version'])).toEqual({ out: expect.stringMatching(/^\d+\.\d+\.\d+/), err: '', code: 0 });
  });

  test('an absolute -w stands in for it: learn, search, remember', () => {
    const learn = fromDeleted(root, ['-w', root, 'learn', 't', 'ok']);
    expect(learn).toEqual({ out: 'OK\n', err: '', code: 0 });
    const remember = fromDeleted(root, ['-w', root, 'remember', 't', '--slug', 'zeppelin', 'The zeppelin lands at noon.']);
    expectNoCrash(remember);
    expect(remember.code).toBe(0);
    const search = fromDeleted(root, ['-w', root, 'search', 'zeppelin']);
    expect(search.code).toBe(0);
    expect(search.out).toContain('1. t: zeppelin');
  });

  test('without an absolute -w: kb says why it cannot go on', () => {
    const error = 'error: the working directory no longer exists (it was deleted); change to a directory that exists, or give the workspace as an absolute path with -w\n';
    expect(fromDeleted(root, ['learn', 't'])).toEqual({ out: '', err: error, code: 1 });
    expect(fromDeleted(root, ['-w', 'relative', 'learn', 't'])).toEqual({ out: '', err: error, code: 1 });
    expect(fromDeleted(join(root, 'nope'), ['-w', join(root, 'nope'), 'learn', 't']).code).toBe(1);
  });
});
