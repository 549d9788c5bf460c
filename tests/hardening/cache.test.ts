// A hostile search cache, end to end on dist/kb: the cache lives in the
// user's cache directory, and whatever is found there is checked before it
// is used. A FIFO or device at its path is never opened for reading (no
// hang), a huge file is never read whole, and a path read from it is used
// only when it names a file of the topic, as a model's pattern would.
import { afterAll, describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
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

/** A workspace whose files are a minute old: the index built from it is
 *  trusted next time (a tree changed within two seconds of a walk is
 *  walked again, topic.ts). */
function aged(entries: Parameters<typeof workspace>[0]): string {
  const root = workspace(entries);
  const t = new Date(Date.now() - 60_000);
  const age = (p: string): void => {
    utimesSync(p, t, t);
    if (statSync(p).isDirectory()) for (const e of readdirSync(p)) age(join(p, e));
  };
  for (const e of readdirSync(root)) if (e !== '.xdg-cache') age(join(root, e));
  return root;
}

/** Rewrites a cache file: its header (JSON) and its sections, the layout
 *  kept consistent (the sizes in the header, the padding). */
function rewrite(file: string, edit: (header: any, sections: Buffer[]) => void): void {
  const bytes = readFileSync(file);
  const headLen = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.subarray(12, 12 + headLen).toString('utf8'));
  const pad8 = (n: number) => (n + 7) & ~7;
  const sections: Buffer[] = [];
  let at = pad8(12 + headLen);
  for (const len of header.sections) {
    sections.push(Buffer.from(bytes.subarray(at, at + len)));
    at += pad8(len);
  }
  edit(header, sections);
  header.sections = sections.map((s) => s.length);
  const head = Buffer.from(JSON.stringify(header));
  const prefix = Buffer.from(bytes.subarray(0, 12));
  prefix.writeUInt32LE(head.length, 8);
  const parts: Uint8Array[] = [prefix, head, Buffer.alloc(pad8(12 + head.length) - 12 - head.length)];
  for (const s of sections) parts.push(s, Buffer.alloc(pad8(s.length) - s.length));
  writeFileSync(file, Buffer.concat(parts));
}

/** The cache's document paths (section 9), rewritten by `map`. */
function rewritePaths(file: string, map: (path: string) => string): void {
  rewrite(file, (_, sections) => {
    sections[9] = Buffer.from(sections[9].toString('utf8').split('\n').map(map).join('\n'));
  });
}

describe('paths read from the cache are checked against the topic', () => {
  const cases: [string, (root: string) => string, RegExp][] = [
    ['outside the topic', () => '../secret.md', /was not used \(it names "\.\.\/secret\.md", not a subject of the topic\); rebuilt/],
    ['an absolute path', (root) => join(root, 'secret.md'), /was not used \(it names ".+\/secret\.md", not a subject of the topic\); rebuilt/],
    ['a hidden file', () => '.hidden.md', /was not used \(it names "\.hidden\.md", not a subject of the topic\); rebuilt/],
    ['an ignored file', () => 'ignored.md', /was not used \(it names "ignored\.md", which the topic ignores\); rebuilt/],
  ];
  for (const [what, forged, warning] of cases) {
    test(`${what}: the entry is not used, the topic is indexed again`, () => {
      const root = aged(FILES);
      const good = run(root, ['search', 'zeppelin']);
      expect(good.out).toContain('1. t: ok');
      expect(good.out).not.toContain('hunter2');
      const recalled = run(root, ['recall', 'zeppelin']);
      expect(recalled.out).toContain('noon');
      const file = cacheFile(root);
      rewritePaths(file, (p) => (p === 'ok.md' ? forged(root) : p));
      const r = run(root, ['search', 'zeppelin']);
      expect(r.out).toBe(good.out);
      expect(r.err).toMatch(warning);
      rewritePaths(file, (p) => (p === 'ok.md' ? forged(root) : p));
      const m = run(root, ['recall', 'zeppelin']);
      expect(m.out).toBe(recalled.out);
      expect(m.out).not.toMatch(/hunter2|hidden zeppelin|ignored zeppelin/);
      expect(m.err).toMatch(warning);
      // Rebuilt: silent again.
      expect(run(root, ['search', 'zeppelin'])).toEqual(good);
    });
  }

  test('an ignored file with its own size and time: left out of the results, the cache removed', () => {
    const root = aged(FILES);
    const good = run(root, ['search', 'zeppelin']);
    const file = cacheFile(root);
    const st = statSync(join(root, 't/ignored.md'));
    rewrite(file, (_, sections) => {
      const paths = sections[9].toString('utf8').split('\n');
      const d = paths.indexOf('ok.md');
      paths[d] = 'ignored.md';
      sections[9] = Buffer.from(paths.join('\n'));
      sections[0].writeDoubleLE(st.size, 8 * d);
      sections[1].writeDoubleLE(st.mtimeMs, 8 * d);
    });
    const r = run(root, ['search', 'zeppelin']);
    expect(r.out).not.toContain('ignored');
    expect(r.err).toBe(
      `warning: topic "t": the search cache ${file} was not used for one result (it names "ignored.md", which the topic ignores); it is left out, and the cache removed\n`,
    );
    expect(run(root, ['search', 'zeppelin'])).toEqual(good);
  });

  test('an ignore file left out of the cache is found, and its rules applied', () => {
    const root = aged(FILES);
    const good = run(root, ['search', 'zeppelin']);
    const file = cacheFile(root);
    rewrite(file, (header, sections) => {
      header.trace.controls = [];
      sections[9] = Buffer.from(sections[9].toString('utf8').replace('ok.md', 'ignored.md'));
    });
    const r = run(root, ['search', 'zeppelin']);
    expect(r.out).toBe(good.out);
    expect(r.err).toMatch(/was not used \(it does not list the ignore file "\.gitignore"\); rebuilt/);
  });

  test('a directory outside the topic in the cache', () => {
    const root = aged({ ...FILES, 'other/secret.md': 'The zeppelin vault code is 1234.\n' });
    const good = run(root, ['search', 'zeppelin']);
    const file = cacheFile(root);
    rewrite(file, (header, sections) => {
      header.trace.dirs.push([`${root}/t/../other`, statSync(join(root, 'other')).mtimeMs]);
      sections[9] = Buffer.from(sections[9].toString('utf8').replace('ok.md', '../other/secret.md'));
    });
    const r = run(root, ['search', 'zeppelin']);
    expect(r.out).toBe(good.out);
    expect(r.err).toMatch(/was not used \(it lists the directory ".+\/t\/\.\.\/other", outside the topic\); rebuilt/);
  });
});

describe('the facets section (tags, type, status)', () => {
  test('another number of lines, or more bytes than its bound: the cache is rebuilt, the filter answers from the files', () => {
    const root = workspace({ ...FILES, 't/tagged.md': '---\ntags: [air]\n---\nA zeppelin note.\n' });
    const good = run(root, ['search', '--tag', 'air', 'zeppelin']);
    expect(good.out).toContain('tagged');
    const file = cacheFile(root);
    rewrite(file, (_, sections) => {
      sections[13] = Buffer.from(`${sections[13].toString('utf8')}\n\n`);
    });
    const lines = run(root, ['search', '--tag', 'air', 'zeppelin']);
    expect(lines.out).toBe(good.out);
    expect(lines.err).toBe(`warning: topic "t": the search cache ${file} could not be read (bad facets); rebuilt\n`);
    rewrite(file, (_, sections) => {
      sections[13] = Buffer.alloc(10 * 1024 * 1024, 0x61);
    });
    const big = run(root, ['search', '--tag', 'air', 'zeppelin']);
    expect(big.out).toBe(good.out);
    expect(big.err).toBe(`warning: topic "t": the search cache ${file} could not be read (bad section 13); rebuilt\n`);
  });
});
