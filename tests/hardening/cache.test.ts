// A hostile search cache, end to end on dist/kb: the cache lives in the
// user's cache directory, and whatever is found there is checked before it
// is used. A FIFO or device at its path is never opened for reading (no
// hang), a huge file is never read whole, and a path read from it is used
// only when it names a file of the topic, as a model's pattern would.
import { afterAll, describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, expectNoCrash, kb, kbMeasured, workspace, type KbOptions, type Result } from './helpers.ts';

afterAll(cleanup);

function run(root: string, args: string[], opts: KbOptions = {}): Result {
  const r = kb(root, args, { timeoutMs: 20_000, ...opts });
  expectNoCrash(r);
  return r;
}

/** The topic's one cache file, after a search built it. */
function cacheFile(root: string): string {
  const dir = join(root, '.xdg-cache/kb/search');
  const files = readdirSync(dir).filter((f) => f.endsWith('.idx'));
  expect(files).toHaveLength(1);
  return join(dir, files[0]);
}

const FILES = {
  't/ok.md': 'The zeppelin lands at noon.\n',
  'secret.md': 'The zeppelin password is hunter2.\n',
  't/.hidden.md': 'A hidden zeppelin note.\n',
  't/ignored.md': 'An ignored zeppelin note.\n',
  't/.gitignore': 'ignored.md\n',
};

describe('a FIFO at the cache path', () => {
  test.skipIf(process.platform === 'win32')('search and remember answer at once, and the cache is rebuilt', () => {
    const root = workspace(FILES);
    const good = run(root, ['search', 'zeppelin']);
    expect(good.code).toBe(0);
    const file = cacheFile(root);
    rmSync(file);
    execFileSync('mkfifo', [file]);
    const r = kbMeasured(root, ['search', 'zeppelin'], { timeoutMs: 10_000 });
    expectNoCrash(r);
    expect(r.out).toBe(good.out);
    expect(r.err).toBe(`warning: topic "t": the search cache ${file} could not be read (not a regular file); rebuilt\n`);
    expect(r.ms).toBeLessThan(10_000);
    // Written back over the FIFO: the next search is a hit, silent.
    expect(run(root, ['search', 'zeppelin'])).toEqual(good);

    rmSync(file);
    execFileSync('mkfifo', [file]);
    const m = run(root, ['remember', 't', '--slug', 'airship', 'The airship docks at dawn.']);
    expect(m.code).toBe(0);
    expect(m.err).toContain('could not be read (not a regular file); rebuilt');
  }, 60_000);
});
