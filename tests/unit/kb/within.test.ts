// Stats below a folder go by paths relative to it (fs/within.ts): the
// working directory moves there for the run and comes back, whatever the
// run does, and the stats see what stats by absolute path see.
import { describe, test, expect } from 'bun:test';
import { mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withinDir, withinPrefix } from '../../../src/kb/fs/within.ts';
import { statFiles } from '../../../src/kb/fs/probe-thread.ts';
import { makeTempDir } from '../../support/temp.ts';

describe('withinPrefix', () => {
  test('moves only for an absolute folder with its separator; a prefix of names or none is used as it is', () => {
    const dir = realpathSync(makeTempDir('kb-within-'));
    const before = process.cwd();
    expect(withinPrefix(`${dir}/`, (base) => [base, process.cwd()])).toEqual(['', dir]);
    expect(withinPrefix('', (base) => [base, process.cwd()])).toEqual(['', before]);
    expect(withinPrefix(`${dir}/a-`, (base) => [base, process.cwd()])).toEqual([`${dir}/a-`, before]);
    expect(withinPrefix('rel/', (base) => [base, process.cwd()])).toEqual(['rel/', before]);
    expect(process.cwd()).toBe(before);
  });
});

describe('withinDir', () => {
  test('runs in the folder, with no base, and comes back', () => {
    const dir = realpathSync(makeTempDir('kb-within-'));
    writeFileSync(join(dir, 'a.md'), 'abc');
    const before = process.cwd();
    const got = withinDir(dir, (base) => [base, process.cwd(), statSync(`${base}a.md`).size]);
    expect(got).toEqual(['', dir, 3]);
    expect(process.cwd()).toBe(before);
  });

  test('comes back when the run throws', () => {
    const dir = realpathSync(makeTempDir('kb-within-'));
    const before = process.cwd();
    expect(() =>
      withinDir(dir, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(process.cwd()).toBe(before);
  });

  test('a folder it cannot enter: the run goes by absolute paths', () => {
    const dir = join(realpathSync(makeTempDir('kb-within-')), 'missing');
    const before = process.cwd();
    expect(withinDir(dir, (base) => base)).toBe(`${dir}/`);
    expect(process.cwd()).toBe(before);
  });

  test('a relative folder is not entered', () => {
    expect(withinDir('some/where', (base) => base)).toBe('some/where/');
  });
});

describe('statFiles below a folder', () => {
  test('the same sizes and times as by absolute path, a file gone included', () => {
    const dir = realpathSync(makeTempDir('kb-within-'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'a.md'), 'abc');
    writeFileSync(join(dir, 'sub', 'b.md'), 'hello');
    const rel = ['a.md', 'sub/b.md', 'gone.md'];
    const before = process.cwd();
    const got = Array.from(statFiles(rel, `${dir}/`));
    expect(process.cwd()).toBe(before);
    const a = statSync(join(dir, 'a.md'));
    const b = statSync(join(dir, 'sub', 'b.md'));
    expect(got).toEqual([3, a.mtimeMs, 5, b.mtimeMs, -1, 0]);
    // An edit in place is seen.
    writeFileSync(join(dir, 'sub', 'b.md'), 'hello, world');
    expect(statFiles(rel, `${dir}/`)[2]).toBe(12);
  });
});
