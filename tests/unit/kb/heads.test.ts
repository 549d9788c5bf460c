// What a listing keeps of its files' heads between runs (kb/fs/heads.ts,
// kb/fs/head-cache.ts): a listing with it is the listing without it, after
// any change to the files; a file whose size or time changed is read
// again; a file modified within two seconds of a listing is not kept; a
// cache file that does not add up is no cache.
import { afterAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { titleWatch, topicListing } from '../../../src/app/listing.ts';
import { decodeHeads, encodeHeads as encodeColumns, headsFile, keepable, MAX_HEADS_BYTES, readHeads, type Heads } from '../../../src/kb/fs/head-cache.ts';
import { keptHeads } from '../../../src/kb/fs/heads.ts';
import { PROBED, TITLES_SKIPPED, type Probe, type ProbeResult } from '../../../src/kb/fs/probe.ts';
import { probeFile, probeHere } from '../../../src/kb/fs/probe-titles.ts';
import { readerThread, unpack } from '../../../src/kb/fs/probe-thread.ts';
import { LISTING_COSTS, renderListing } from '../../../src/render/listing.ts';
import { openTopic, READER_THREAD_URL, topic, tree } from './view-fixture.ts';

const scratch: string[] = [];
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));
function cacheDirectory(): string {
  const d = mkdtempSync(join(tmpdir(), 'kb-heads-'));
  scratch.push(d);
  return d;
}

/** Every entry's path, as a stat job on this thread makes them. */
function pathsOf(heads: Heads): string[] {
  const list = heads.paths();
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) out.push(list.path(i));
  return out;
}

/** Every entry's path, as the reader thread makes them from the packed
 *  bytes it is sent. */
function unpackedOf(heads: Heads): string[] {
  const { bytes, lens, gap } = heads.paths().packed();
  const pathOf = unpack(new Uint8Array(bytes), new Uint32Array(lens), gap);
  const out: string[] = [];
  for (let i = 0; i < heads.count; i++) out.push(pathOf(i));
  return out;
}

/** An hour ago: older than any listing's two seconds. */
const OLD = Date.now() / 1000 - 3600;

/** Every file below `root` an hour old (`at` seconds more or less). */
function age(root: string, at = 0): void {
  for (const e of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) utimesSync(join(e.parentPath, e.name), OLD + at, OLD + at);
  }
}

/** A probe on this thread whose feed is probeHere's, one file at a time
 *  (as a front end without the reader thread would feed), counting
 *  the files it reads. */
function countingProbe(): Probe & { read: number } {
  const p = {
    read: 0,
    probe(paths: readonly string[]) {
      p.read += paths.length;
      return probeHere.probe(paths);
    },
    feed(take?: (i: number, r: ReturnType<typeof probeFile>, size: number) => void) {
      const results: ReturnType<typeof probeFile>[] = [];
      return {
        add(path: string) {
          p.read++;
          const r = probeFile(path);
          results.push(r);
          take?.(results.length - 1, r, -1);
        },
        finish: () => results,
      };
    },
  };
  return p;
}

async function listing(root: string, budget: number, probe: Probe): Promise<string> {
  const t = topic(root);
  const watch = titleWatch(budget, new Set(), LISTING_COSTS);
  const view = openTopic(t, { probe, probeAll: true, titles: watch });
  const l = await topicListing(t, view, 100_000, budget, LISTING_COSTS, undefined, watch);
  return l === undefined ? '' : renderListing(t, l.items, l.learned, l.fit, l.folder, l.topicNotes);
}

const BUILD = 'test-build';

/** One file's entry, as the tests write them. */
interface HeadsEntry {
  rel: string;
  size: number;
  time: number;
  result: ProbeResult;
}

/** encodeHeads of entries, every one kept. */
function encodeHeads(entries: readonly HeadsEntry[], root: string, build: string): Uint8Array | undefined {
  const values = new Float64Array(2 * entries.length);
  entries.forEach((e, i) => {
    values[2 * i] = e.size;
    values[2 * i + 1] = e.time;
  });
  return encodeColumns({ rels: entries.map((e) => e.rel), results: entries.map((e) => e.result), values, keep: entries.map((_, i) => i) }, root, build);
}

describe('the cache file', () => {
  const entries: HeadsEntry[] = [
    { rel: 'a.md', size: 10, time: 1000.5, result: { kind: 'text', title: 'Apples' } },
    { rel: 'bin/b.png', size: 99, time: 2000, result: PROBED.binary },
    { rel: 'c.md', size: 5, time: 3000, result: { kind: 'text', front: 'description: Cheese', title: 'Cheese', summary: 'all about it' } },
    { rel: 'd.md', size: 7, time: 4000, result: { kind: 'text', front: null } },
    { rel: 'e.md', size: 3, time: 5000, result: TITLES_SKIPPED },
    { rel: 'f.md', size: 3, time: 5000, result: { kind: 'text', front: 'x: y', titlesSkipped: true } },
    { rel: 'ünï/çødé 🍎.md', size: 1, time: 6000, result: PROBED.text },
  ];

  test('reads back what was written, entry by entry', () => {
    const bytes = encodeHeads(entries, '/topic', BUILD)!;
    const heads = decodeHeads(bytes, `1\0${BUILD}\0/topic`)!;
    expect(heads.count).toBe(entries.length);
    expect(pathsOf(heads)).toEqual(entries.map((e) => e.rel));
    // The reader thread's, from the bytes it is sent: the same.
    expect(unpackedOf(heads)).toEqual(entries.map((e) => e.rel));
    entries.forEach((e, i) => {
      expect(heads.sizes[i]).toBe(e.size);
      expect(heads.times[i]).toBe(e.time);
      expect(heads.result(i)).toEqual(e.result);
      expect(heads.is(i, '', e.rel)).toBe(true);
      expect(heads.is(i, '', `${e.rel}x`)).toBe(false);
      // In two parts, cut anywhere: the same answer.
      for (let cut = 0; cut <= e.rel.length; cut++) expect(heads.is(i, e.rel.slice(0, cut), e.rel.slice(cut))).toBe(true);
      expect(heads.is(i, e.rel.slice(0, 1), `${e.rel.slice(1)}x`)).toBe(false);
      expect(heads.is(i, `x${e.rel.slice(0, 1)}`, e.rel.slice(2))).toBe(false);
      expect(heads.find(e.rel)).toBe(i);
    });
    expect(heads.find('nothing.md')).toBe(-1);
  });

  test('another folder, build or version is no cache', () => {
    const bytes = encodeHeads(entries, '/topic', BUILD)!;
    expect(decodeHeads(bytes, `1\0${BUILD}\0/other`)).toBeUndefined();
    expect(decodeHeads(bytes, `1\0other-build\0/topic`)).toBeUndefined();
    expect(decodeHeads(bytes, `2\0${BUILD}\0/topic`)).toBeUndefined();
  });

  test('every cut and every flipped byte of the header is no cache, or a cache that holds what was written', () => {
    const bytes = encodeHeads(entries, '/topic', BUILD)!;
    const key = `1\0${BUILD}\0/topic`;
    for (let n = 0; n < bytes.length; n++) expect(decodeHeads(bytes.slice(0, n), key)).toBeUndefined();
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    expect(decodeHeads(longer, key)).toBeUndefined();
    for (let i = 0; i < 32; i++) {
      const bad = bytes.slice();
      bad[i] ^= 0x40;
      expect(decodeHeads(bad, key)).toBeUndefined();
    }
  });

  test('random bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), (junk, real) => {
        const bytes = real ? encodeHeads(entries, '/t', BUILD)! : new Uint8Array(0);
        const mixed = new Uint8Array(bytes.length + junk.length);
        mixed.set(bytes.subarray(0, Math.min(bytes.length, 32)));
        mixed.set(junk, Math.min(bytes.length, 32));
        const h = decodeHeads(mixed, `1\0${BUILD}\0/t`);
        if (h !== undefined) for (let i = 0; i < h.count; i++) h.result(i);
      }),
      { numRuns: 300 },
    );
  });

  test('a file whose path or text UTF-8 cannot hold is left out; the others are written', () => {
    const odd: HeadsEntry[] = [...entries, { rel: 'lone.md', size: 1, time: 1, result: { kind: 'text', title: 'half \ud83c' } }, { rel: '\udc00.md', size: 1, time: 1, result: PROBED.text }, { rel: 'z.md', size: 1, time: 1, result: PROBED.text }];
    const heads = decodeHeads(encodeHeads(odd, '/topic', BUILD)!, `1\0${BUILD}\0/topic`)!;
    expect(pathsOf(heads)).toEqual([...entries.map((e) => e.rel), 'z.md']);
    expect(unpackedOf(heads)).toEqual([...entries.map((e) => e.rel), 'z.md']);
  });

  test('a result that UTF-8 cannot hold, or an error, is not kept', () => {
    expect(keepable('a.md', { kind: 'text', title: 'lone \ud800 surrogate' })).toBe(false);
    expect(keepable('\udc00.md', PROBED.text)).toBe(false);
    expect(keepable('a.md', { kind: 'text', title: 'a pair 🍎' })).toBe(true);
    expect(keepable('a.md', PROBED.error)).toBe(false);
  });

  test('a file larger than the limit is neither written nor read', () => {
    const big = 'x'.repeat(8192);
    const many: HeadsEntry[] = [];
    for (let i = 0; MAX_HEADS_BYTES / 8192 >= i; i++) many.push({ rel: `${i}.md`, size: 1, time: 1, result: { kind: 'text', front: big } });
    expect(encodeHeads(many, '/t', BUILD)).toBeUndefined();
    const dir = cacheDirectory();
    const file = join(dir, 'big.heads');
    writeFileSync(file, new Uint8Array(MAX_HEADS_BYTES + 1));
    // None there: no cache; there but unusable: why.
    expect(readHeads(file, '/t', BUILD)).toBe(`larger than ${MAX_HEADS_BYTES} bytes`);
    expect(readHeads(join(dir, 'none.heads'), '/t', BUILD)).toBeUndefined();
    expect(readHeads(dir, '/t', BUILD)).toBe('not a regular file');
  });
});

describe('a listing that keeps its heads', () => {
  const spec = (): Record<string, string | Uint8Array> => ({
    'a.md': '# Apples\n\nText.\n',
    'b.md': '---\ndescription: Bananas are yellow\n---\nText.\n',
    'c.txt': 'plain text\n',
    'pics/d.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
    'sub/e.md': '# Elderberries\n',
  });

  test('the second listing reads no head, and lists the same', async () => {
    const root = tree(spec());
    age(root);
    const dir = cacheDirectory();
    const plain = await listing(root, 100_000, probeHere);
    const first = countingProbe();
    expect(await listing(root, 100_000, keptHeads(first, { dir, build: BUILD }))).toBe(plain);
    expect(first.read).toBe(5);
    const second = countingProbe();
    const kept = keptHeads(second, { dir, build: BUILD });
    expect(await listing(root, 100_000, kept)).toBe(plain);
    expect(second.read).toBe(0);
    expect(kept.stats()).toEqual({ kept: 5, probed: 0, wrote: false });
    expect(plain).toContain('a: Apples');
    expect(plain).toContain('b: Bananas are yellow');
  });

  test('a feed given whole paths (no folder and name: not a walk) finds the heads a listing kept; one path outside the folder, and it reads them all', () => {
    const root = tree(spec());
    age(root);
    const dir = cacheDirectory();
    const rels = ['a.md', 'b.md', 'c.txt', 'pics/d.png', 'sub/e.md'];
    const abs = rels.map((r) => join(root, r));
    const feedOf = (probe: Probe, paths: readonly string[]) => {
      const kept = keptHeads(probe, { dir, build: BUILD });
      const feed = kept.feed!(undefined, { root });
      for (const p of paths) feed.add(p);
      return { results: feed.finish(), kept };
    };
    const first = feedOf(countingProbe(), abs);
    expect(first.kept.stats()).toEqual({ kept: 0, probed: 5, wrote: true });
    const probe = countingProbe();
    const second = feedOf(probe, abs);
    expect(probe.read).toBe(0);
    expect(second.kept.stats()).toEqual({ kept: 5, probed: 0, wrote: false });
    expect(second.results).toEqual(first.results);
    expect(second.results[0]).toMatchObject({ kind: 'text', title: 'Apples' });
    const outside = countingProbe();
    feedOf(outside, [...abs, join(tmpdir(), 'elsewhere.md')]);
    expect(outside.read).toBe(6);
  });

  test('a file changed (size, or time alone), added or removed is read again; the others are not', async () => {
    const root = tree(spec());
    age(root);
    const dir = cacheDirectory();
    await listing(root, 100_000, keptHeads(countingProbe(), { dir, build: BUILD }));
    // The same size, another title: only its time tells.
    writeFileSync(join(root, 'a.md'), '# Quince\n\nText.\n');
    utimesSync(join(root, 'a.md'), OLD + 60, OLD + 60);
    writeFileSync(join(root, 'b.md'), '---\ndescription: Blueberries are blue, not yellow\n---\n');
    utimesSync(join(root, 'b.md'), OLD + 60, OLD + 60);
    writeFileSync(join(root, 'new.md'), '# Nectarines\n');
    utimesSync(join(root, 'new.md'), OLD, OLD);
    unlinkSync(join(root, 'sub/e.md'));
    const probe = countingProbe();
    const kept = keptHeads(probe, { dir, build: BUILD });
    const got = await listing(root, 100_000, kept);
    expect(got).toBe(await listing(root, 100_000, probeHere));
    expect(got).toContain('a: Quince');
    expect(got).toContain('b: Blueberries are blue, not yellow');
    expect(got).toContain('new: Nectarines');
    expect(got).not.toContain('Elderberries');
    // a, b and new read again; c.txt and the picture kept.
    expect(kept.stats()).toEqual({ kept: 2, probed: 3, wrote: true });
    // And the file written holds them: nothing is read the next time.
    const again = keptHeads(countingProbe(), { dir, build: BUILD });
    expect(await listing(root, 100_000, again)).toBe(got);
    expect(again.stats()).toEqual({ kept: 5, probed: 0, wrote: false });
  });

  test('a file modified within two seconds of the listing is not kept: a write in the same tick would keep its time', async () => {
    const root = tree(spec());
    age(root);
    utimesSync(join(root, 'a.md'), new Date(), new Date());
    const dir = cacheDirectory();
    await listing(root, 100_000, keptHeads(countingProbe(), { dir, build: BUILD }));
    const kept = keptHeads(countingProbe(), { dir, build: BUILD });
    await listing(root, 100_000, kept);
    // (Nothing new to keep: the file is not written again.)
    expect(kept.stats()).toEqual({ kept: 4, probed: 1, wrote: false });
  });

  test('a file that cannot be read (a name that is not UTF-8), or one modified within two seconds, is read each time, and the cache file is not written again for it', async () => {
    const root = tree(spec());
    age(root);
    const bad = Buffer.from(`${root}/bad-\xff.md`, 'latin1');
    writeFileSync(bad, '# Latin-1\n');
    utimesSync(bad, OLD, OLD);
    utimesSync(join(root, 'a.md'), new Date(), new Date());
    const dir = cacheDirectory();
    await listing(root, 100_000, keptHeads(countingProbe(), { dir, build: BUILD }));
    for (let round = 0; round < 2; round++) {
      const kept = keptHeads(countingProbe(), { dir, build: BUILD });
      expect(await listing(root, 100_000, kept)).toBe(await listing(root, 100_000, probeHere));
      expect(kept.stats()).toEqual({ kept: 4, probed: 2, wrote: false });
    }
  });

  test('many changed files go to the reader thread; the listing is the same', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 7}/n${i}.md`] = `# Note ${i}\n`;
    const root = tree(files);
    age(root);
    const dir = cacheDirectory();
    const thread = readerThread(READER_THREAD_URL, 1);
    try {
      await listing(root, 100_000, keptHeads(thread, { dir, build: BUILD }));
      for (let i = 0; i < 300; i += 2) {
        const f = join(root, `d${i % 7}/n${i}.md`);
        writeFileSync(f, `# Changed ${i}\n`);
        utimesSync(f, OLD + 5, OLD + 5);
      }
      const kept = keptHeads(thread, { dir, build: BUILD });
      const got = await listing(root, 100_000, kept);
      expect(got).toBe(await listing(root, 100_000, probeHere));
      expect(got).toContain('n298: Changed 298');
      expect(kept.stats()).toEqual({ kept: 150, probed: 150, wrote: true });
    } finally {
      thread.close();
    }
  });

  test('heads kept without their titles (a listing over its budget) are read again by a listing that shows titles', async () => {
    const files: Record<string, string> = { 'a.md': '# Apples and pears\n' };
    for (let i = 0; i < 1500; i++) files[`d${String(i).padStart(4, '0')}/n${i}.md`] = `# Title number ${i}\n`;
    const root = tree(files);
    age(root);
    const dir = cacheDirectory();
    const thread = readerThread(READER_THREAD_URL, 1);
    try {
      const tight = await listing(root, 2000, keptHeads(thread, { dir, build: BUILD }));
      expect(tight).toBe(await listing(root, 2000, probeHere));
      const kept = keptHeads(thread, { dir, build: BUILD });
      const all = await listing(root, 1_000_000, kept);
      expect(all).toBe(await listing(root, 1_000_000, probeHere));
      expect(all).toContain('d1499/n1499: Title number 1499');
      // (How many were kept without titles depends on how far the reader
      // thread had got when the tight listing stopped searching for them.)
      expect(kept.stats().probed).toBeGreaterThan(0);
      // Now with their titles: the tight listing reads none again.
      const last = keptHeads(thread, { dir, build: BUILD });
      expect(await listing(root, 2000, last)).toBe(tight);
      expect(last.stats().probed).toBe(0);
    } finally {
      thread.close();
    }
  });

  // (root writes anywhere: the next test puts a file in the way instead)
  test.skipIf(process.getuid?.() === 0)('a cache that cannot be written: the reason, and the same listing', async () => {
    const root = tree(spec());
    age(root);
    const dir = cacheDirectory();
    chmodSync(dir, 0o500);
    try {
      const kept = keptHeads(countingProbe(), { dir: join(dir, 'heads'), build: BUILD });
      expect(await listing(root, 100_000, kept)).toBe(await listing(root, 100_000, probeHere));
      expect(kept.problems()).toEqual([expect.stringMatching(/^the listing's cache could not be written \(.*(EACCES|permission).*\); the next listing reads every file's head again$/i)]);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  test('a file in the way of the cache file: the reason, and the same listing', async () => {
    const root = tree(spec());
    age(root);
    const dir = cacheDirectory();
    writeFileSync(join(dir, 'heads'), 'a file, not a folder');
    const kept = keptHeads(countingProbe(), { dir: join(dir, 'heads'), build: BUILD });
    expect(await listing(root, 100_000, kept)).toBe(await listing(root, 100_000, probeHere));
    expect(kept.problems()).toEqual([expect.stringMatching(/^the listing's cache could not be written \(.+\); the next listing reads every file's head again$/)]);
  });

  test('another build\'s file of the folder is no cache and no warning: it is written over, one file a folder', async () => {
    const root = tree(spec());
    age(root);
    const dir = cacheDirectory();
    await listing(root, 100_000, keptHeads(countingProbe(), { dir, build: 'kb 1' }));
    const kept = keptHeads(countingProbe(), { dir, build: 'kb 2' });
    expect(await listing(root, 100_000, kept)).toBe(await listing(root, 100_000, probeHere));
    expect(kept.stats()).toEqual({ kept: 0, probed: 5, wrote: true });
    expect(kept.problems()).toEqual([]);
    expect(readdirSync(dir)).toEqual([basename(headsFile(dir, root))]);
    const again = keptHeads(countingProbe(), { dir, build: 'kb 2' });
    await listing(root, 100_000, again);
    expect(again.stats()).toEqual({ kept: 5, probed: 0, wrote: false });
  });

  test('a garbled cache file is no cache: the heads are read, and it is written again', async () => {
    const root = tree(spec());
    age(root);
    const dir = cacheDirectory();
    await listing(root, 100_000, keptHeads(countingProbe(), { dir, build: BUILD }));
    const file = headsFile(dir, root);
    // One byte short: its sections no longer add up.
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 1));
    const kept = keptHeads(countingProbe(), { dir, build: BUILD });
    expect(await listing(root, 100_000, kept)).toBe(await listing(root, 100_000, probeHere));
    expect(kept.stats()).toEqual({ kept: 0, probed: 5, wrote: true });
    expect(kept.problems()).toEqual([`the listing's cache ${file} could not be read (not a listing cache of this folder, or its lengths do not add up); every head was read again, and the file is written anew`]);
    // Written anew: the next listing keeps every head, and says nothing.
    const again = keptHeads(countingProbe(), { dir, build: BUILD });
    await listing(root, 100_000, again);
    expect(again.stats()).toEqual({ kept: 5, probed: 0, wrote: false });
    expect(again.problems()).toEqual([]);
  });

  test('property: after any edits, additions and removals, a listing with kept heads is the listing without', async () => {
    const names = ['a.md', 'b.md', 'c/d.md', 'c/e.txt', 'f.adoc', 'g.bin', 'h/i/j.md'];
    const content = fc.oneof(
      fc.constant('# Title one\n'),
      fc.constant('# Title two\n'),
      fc.constant('---\ndescription: One\n---\n'),
      fc.constant('---\ndescription: Two\n---\n'),
      fc.constant('= AsciiDoc title\n'),
      fc.constant('\0binary'),
      fc.constant('plain\n'),
    );
    const state = fc.dictionary(fc.constantFrom(...names), content, { minKeys: 1 });
    await fc.assert(
      fc.asyncProperty(fc.array(state, { minLength: 2, maxLength: 4 }), async (steps) => {
        const root = mkdtempSync(join(tmpdir(), 'kb-heads-prop-'));
        scratch.push(root);
        const dir = cacheDirectory();
        // An edit changes a file's time (as any write does); a file left
        // alone keeps its own, even when it is written again (rsync, a
        // checkout that restores times).
        const was = new Map<string, { text: string; time: number }>();
        let tick = 0;
        for (const files of steps) {
          rmSync(root, { recursive: true, force: true });
          mkdirSync(root);
          tick++;
          for (const [rel, text] of Object.entries(files)) {
            const abs = join(root, rel);
            mkdirSync(dirname(abs), { recursive: true });
            writeFileSync(abs, text);
            const before = was.get(rel);
            const time = before !== undefined && before.text === text ? before.time : OLD + tick;
            utimesSync(abs, time, time);
            was.set(rel, { text, time });
          }
          expect(await listing(root, 100_000, keptHeads(countingProbe(), { dir, build: BUILD }))).toBe(await listing(root, 100_000, probeHere));
        }
      }),
      { numRuns: 40 },
    );
  });
});

test('the heads of a file stat the same as it: sizes and times are the stat\'s', () => {
  const root = tree({ 'a.md': '# A\n' });
  age(root);
  const st = statSync(join(root, 'a.md'));
  const bytes = encodeHeads([{ rel: 'a.md', size: st.size, time: st.mtimeMs, result: PROBED.text }], root, BUILD)!;
  const h = decodeHeads(bytes, `1\0${BUILD}\0${root}`)!;
  expect(h.times[0]).toBe(st.mtimeMs);
});

describe('the paths a stat job is sent', () => {
  test('the reader thread unpacks from the file the paths this thread reads, for any paths', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), { maxLength: 40 }), (names) => {
        const entries: HeadsEntry[] = names.map((rel, i) => ({ rel, size: i, time: 1000 + i, result: PROBED.text }));
        const heads = decodeHeads(encodeHeads(entries, '/topic', BUILD)!, `1\0${BUILD}\0/topic`)!;
        expect(unpackedOf(heads)).toEqual(pathsOf(heads));
        expect(pathsOf(heads)).toEqual(names);
      }),
      { numRuns: 300 },
    );
  });
});
