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

describe('a huge cache file', () => {
  test('is never read whole: the header and the size are checked first', () => {
    const root = workspace(FILES);
    const good = run(root, ['search', 'zeppelin']);
    const file = cacheFile(root);
    // The real cache, grown to 1000 MiB (sparse: no disk used).
    truncateSync(file, 1000 * 1024 * 1024);
    const grown = kbMeasured(root, ['search', 'zeppelin'], { timeoutMs: 20_000 });
    expectNoCrash(grown);
    expect(grown.out).toBe(good.out);
    expect(grown.err).toMatch(/^warning: topic "t": the search cache .+\.idx could not be read \(1048576000 bytes where its header describes \d+\); rebuilt\n$/);
    expect(grown.maxRss).toBeLessThan(300 * 1024 * 1024);
    expect(run(root, ['search', 'zeppelin'])).toEqual(good);

    // A sparse file of zeros: not an index, said after 12 bytes.
    rmSync(file);
    writeFileSync(file, '');
    truncateSync(file, 1000 * 1024 * 1024);
    const zeros = kbMeasured(root, ['search', 'zeppelin'], { timeoutMs: 20_000 });
    expect(zeros.out).toBe(good.out);
    expect(zeros.err).toBe(`warning: topic "t": the search cache ${file} could not be read (not a kb search index); rebuilt\n`);
    expect(zeros.maxRss).toBeLessThan(300 * 1024 * 1024);
  }, 60_000);

  test('a header claiming sections larger than its counts allow is refused before the file is read', () => {
    const root = workspace(FILES);
    const good = run(root, ['search', 'zeppelin']);
    const file = cacheFile(root);
    const bytes = readFileSync(file);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headLen = view.getUint32(8, true);
    const header = JSON.parse(bytes.subarray(12, 12 + headLen).toString('utf8'));
    // Postings of 900 MiB for a handful of terms, the file grown to match.
    const pad8 = (n: number) => (n + 7) & ~7;
    header.sections[8] = 900 * 1024 * 1024;
    const head = Buffer.from(JSON.stringify(header));
    let total = pad8(12 + head.length);
    for (const s of header.sections) total += pad8(s);
    const prefix = Buffer.alloc(12);
    prefix.set(bytes.subarray(0, 8));
    prefix.writeUInt32LE(head.length, 8);
    writeFileSync(file, Buffer.concat([prefix, head]));
    truncateSync(file, total);
    const r = kbMeasured(root, ['search', 'zeppelin'], { timeoutMs: 20_000 });
    expectNoCrash(r);
    expect(r.out).toBe(good.out);
    expect(r.err).toMatch(/could not be read \(bad section 8 \(943718400 bytes for \d+ postings\)\); rebuilt\n$/);
    expect(r.maxRss).toBeLessThan(300 * 1024 * 1024);
  }, 60_000);
});
