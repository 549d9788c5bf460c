// A listing's walk kept between runs (kb/fs/walk-cache.ts): a listing that
// takes it is the listing that walks, after any change to the folders; a
// walk that met an ignore file, a link, a default-ignored entry, an odd
// name or its limit is not kept; a directory modified within two seconds
// of the walk keeps nothing; a kept walk that does not add up is none, and
// decoding any text takes time linear in it and never throws.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { titleWatch, topicListing } from '../../../src/app/listing.ts';
import { decodeKeptWalk, encodeKeptWalk, MAX_WALK_BYTES, readKeptWalk, unitsOf, walkFile, walkKeeper, WALK_VERSION, type KeptWalk, type WalkKeeper, type WalkShape } from '../../../src/kb/fs/walk-cache.ts';
import { MAX_WALK_ENTRIES } from '../../../src/kb/fs/limits.ts';
import { probeHere } from '../../../src/kb/fs/probe-titles.ts';
import { LISTING_COSTS, renderListing } from '../../../src/render/listing.ts';
import { openTopic, topic, tree } from './view-fixture.ts';
import { makeTempDir } from '../../support/temp.ts';

const scratchDir = (prefix = 'kb-walks-'): string => makeTempDir(prefix);

const BUILD = 'test-build';
/** An hour ago: older than any walk's two seconds. */
const OLD = Date.now() / 1000 - 3600;

/** Every folder below `root` (itself too) modified an hour ago. */
function ageFolders(root: string): void {
  for (const e of readdirSync(root, { withFileTypes: true, recursive: true })) if (e.isDirectory()) utimesSync(join(e.parentPath, e.name), OLD, OLD);
  utimesSync(root, OLD, OLD);
}

/** A keeper whose clock is `ahead` ms past the real one (a folder made
 *  now is not modified within two seconds of its walks). */
function keeper(dir: string, ahead = 60_000): WalkKeeper {
  return walkKeeper({ dir, build: BUILD, now: () => Date.now() + ahead });
}

/** What a listing shows of `root`, and what its index holds, with walks
 *  kept by `walks` (none: a walk each time). */
async function listed(root: string, walks?: WalkKeeper, maxEntries?: number): Promise<string> {
  const t = topic(root);
  const watch = titleWatch(100_000, new Set(), LISTING_COSTS);
  const view = openTopic(t, { probe: probeHere, probeAll: true, titles: watch, ...(walks !== undefined ? { walks } : {}), ...(maxEntries !== undefined ? { maxEntries } : {}) });
  const l = await topicListing(t, view, 100_000, 100_000, LISTING_COSTS, undefined, watch);
  const { index } = view;
  const subjects = index.subjects.map((s) => `${s.slug} ${s.path} ${s.hidden ? 'hidden' : ''} ${s.ext}`);
  const ignored = index.ignored.map((x) => `ignored ${x.path} ${x.source} ${x.rule} ${x.line}`);
  return [l === undefined ? '' : renderListing(t, l.items, l.learned, l.fit, l.folder, l.topicNotes), ...subjects, ...index.notices.map((n) => `${n.code} ${n.where} ${n.message}`), ...ignored, ...[...index.aliases.keys()], String(index.plainNames)].join('\n');
}

const spec = (): Record<string, string | Uint8Array> => ({
  'a.md': '# Apples\n',
  'b.txt': 'plain\n',
  '.hidden.md': '# Hidden\n',
  'sub/c.md': '---\ndescription: Cherries\n---\n',
  'sub/deeper/d.md': '# D\n',
  'skill/SKILL.md': '---\nname: skill\ndescription: A skill\n---\n',
  'skill/ref.md': '# Ref\n',
  'x.md': '# X one\n',
  'x.txt': 'X two\n',
  'ünï/çødé 🍎.md': '# Unicode\n',
});

describe('a kept walk', () => {
  test('the second listing reads no folder, and lists what a walk lists', async () => {
    const root = tree(spec());
    mkdirSync(join(root, 'empty'));
    const dir = scratchDir();
    const walked = await listed(root);
    const first = keeper(dir);
    expect(await listed(root, first)).toBe(walked);
    expect(first.stats()).toEqual({ kept: 0, walked: 1, wrote: 1 });
    const second = keeper(dir);
    expect(await listed(root, second)).toBe(walked);
    expect(second.stats()).toEqual({ kept: 1, walked: 0, wrote: 0 });
    expect(second.problems()).toEqual([]);
    expect(walked).toContain('x.md');
    expect(walked).toContain('a: Apples');
  });

  test('a file or folder made, removed or renamed, anywhere, is a walk again; so is a folder put in another\'s place', async () => {
    const changes: ((root: string) => void)[] = [
      (r) => writeFileSync(join(r, 'new.md'), '# New\n'),
      (r) => writeFileSync(join(r, 'sub/deeper/new.md'), '# New\n'),
      (r) => unlinkSync(join(r, 'sub/c.md')),
      (r) => renameSync(join(r, 'a.md'), join(r, 'z.md')),
      (r) => mkdirSync(join(r, 'sub/more')),
      (r) => rmSync(join(r, 'sub/deeper'), { recursive: true }),
      (r) => writeFileSync(join(r, 'empty/e.md'), '# E\n'),
      (r) => writeFileSync(join(r, 'sub/.gitignore'), 'c.md\n'),
      (r) => mkdirSync(join(r, 'node_modules/pkg'), { recursive: true }),
      (r) => symlinkSync(join(r, 'a.md'), join(r, 'link.md')),
      (r) => {
        // The same name, another folder.
        renameSync(join(r, 'sub'), join(r, 'old-sub'));
        mkdirSync(join(r, 'sub'));
        writeFileSync(join(r, 'sub/other.md'), '# Other\n');
        rmSync(join(r, 'old-sub'), { recursive: true });
      },
    ];
    for (const change of changes) {
      const root = tree(spec());
      mkdirSync(join(root, 'empty'));
      const dir = scratchDir();
      await listed(root, keeper(dir));
      change(root);
      const k = keeper(dir);
      const got = await listed(root, k);
      expect(got).toBe(await listed(root));
      expect(k.stats().kept).toBe(0);
    }
  });

  test('a folder whose modification time was set back after a change is walked again: its change time tells', async () => {
    const root = tree(spec());
    ageFolders(root);
    const dir = scratchDir();
    await listed(root, keeper(dir));
    const before = statSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub/new.md'), '# New\n');
    utimesSync(join(root, 'sub'), before.atime, before.mtime);
    expect(statSync(join(root, 'sub')).mtimeMs).toBe(before.mtimeMs);
    const k = keeper(dir);
    const got = await listed(root, k);
    expect(got).toContain('sub/new');
    expect(got).toBe(await listed(root));
    expect(k.stats().kept).toBe(0);
  });

  test('a file edited in place keeps the walk (the heads see the edit)', async () => {
    const root = tree(spec());
    const dir = scratchDir();
    await listed(root, keeper(dir));
    writeFileSync(join(root, 'a.md'), '# Avocados\n');
    const k = keeper(dir);
    const got = await listed(root, k);
    expect(k.stats().kept).toBe(1);
    expect(got).toContain('a: Avocados');
    expect(got).toBe(await listed(root));
  });

  test('a folder modified within two seconds of the walk keeps nothing; the next walk is kept', async () => {
    const root = tree(spec());
    const dir = scratchDir();
    const now = walkKeeper({ dir, build: BUILD });
    await listed(root, now);
    expect(now.stats()).toEqual({ kept: 0, walked: 1, wrote: 0 });
    expect(readKeptWalk(walkFile(dir, root), root, BUILD)).toBeUndefined();
    ageFolders(root);
    const later = walkKeeper({ dir, build: BUILD });
    await listed(root, later);
    expect(later.stats()).toEqual({ kept: 0, walked: 1, wrote: 1 });
  });

  test('a walk that met ignore files, lockfiles and node_modules is kept with what they left out; an ignore file edited in place is a walk again', async () => {
    const cases: Record<string, string | Uint8Array>[] = [
      { 'a.md': '# A\n', '.gitignore': 'b.md\n', 'b.md': '# B\n' },
      { 'a.md': '# A\n', 'sub/.kbignore': '\n', 'sub/c.md': '# C\n' },
      { 'a.md': '# A\n', 'package-lock.json': '{}', 'node_modules/x.md': '# X\n' },
      { 'a.md': '# A\n', '.gitignore': '*.txt\n/drafts/\n', 'sub/.kbignore': '!keep.txt\n', 'sub/keep.txt': 'kept', 'sub/drop.txt': 'dropped', 'drafts/d.md': '# D\n', 'package-lock.json': '{}', '.kbignore': '!package-lock.json\n' },
    ];
    for (const files of cases) {
      const root = tree(files);
      const dir = scratchDir();
      const walked = await listed(root);
      await listed(root, keeper(dir));
      const k = keeper(dir);
      expect(await listed(root, k)).toBe(walked);
      expect(k.stats()).toEqual({ kept: 1, walked: 0, wrote: 0 });
    }
    const root = tree({ 'a.md': '# A\n', 'b.md': '# B\n', '.gitignore': 'b.md\n' });
    const dir = scratchDir();
    const before = await listed(root, keeper(dir));
    expect(before).toContain('ignored b.md .gitignore b.md 1');
    // In place: the folder does not change.
    const folder = statSync(root);
    writeFileSync(join(root, '.gitignore'), 'a.md\n');
    expect(statSync(root).ctimeMs).toBe(folder.ctimeMs);
    const k = keeper(dir);
    const after = await listed(root, k);
    expect(k.stats().kept).toBe(0);
    expect(after).toBe(await listed(root));
    expect(after).toContain('ignored a.md .gitignore a.md 1');
  });

  test('a walk that followed a link, read an odd name, met a rule it could not apply or reached its limit is not kept', async () => {
    const cases: Record<string, string | Uint8Array>[] = [
      { 'a.md': '# A\n', 'odd\u0001name.md': '# Odd\n' },
      { 'a.md': '# A\n', '.gitignore': 'a/**/b/**/c\n' },
    ];
    for (const files of cases) {
      const root = tree(files);
      const k = keeper(scratchDir());
      expect(await listed(root, k)).toBe(await listed(root));
      expect(k.stats()).toEqual({ kept: 0, walked: 1, wrote: 0 });
    }
    const linked = tree({ 'a.md': '# A\n' });
    symlinkSync(join(linked, 'a.md'), join(linked, 'b.md'));
    const k = keeper(scratchDir());
    await listed(linked, k);
    expect(k.stats().wrote).toBe(0);
    // Its limit: three entries read of four.
    const limited = tree({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n', 'd.md': '# D\n' });
    const l = keeper(scratchDir());
    expect(await listed(limited, l, 3)).toContain('walk-limit');
    expect(l.stats().wrote).toBe(0);
  });

  test('a walk kept under a higher limit is not replayed under a lower one: the walk stops, and says so', async () => {
    const root = tree({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n', 'sub/d.md': '# D\n' });
    const dir = scratchDir();
    await listed(root, keeper(dir));
    const k = keeper(dir);
    const got = await listed(root, k, 4);
    expect(k.stats().kept).toBe(0);
    expect(got).toBe(await listed(root, undefined, 4));
    expect(got).toContain('walk-limit');
    // Exactly as many as it read: replayed.
    const exact = keeper(dir);
    expect(await listed(root, exact, 5)).toBe(await listed(root, undefined, 5));
    expect(exact.stats().kept).toBe(1);
  });

  test('a walk that read more entries than a kept walk holds (a limit raised past the default) is not kept', () => {
    const root = tree({ 'a.md': '# A\n' });
    const dir = scratchDir();
    const shapeOf = (k: WalkKeeper) => k.begin(root, 10 ** 9) as { shape(s: WalkShape): void };
    const over = keeper(dir);
    shapeOf(over).shape({ dirs: [{ rel: '', names: ['a.md'] }], controls: [], ignored: [], entries: MAX_WALK_ENTRIES + 1 });
    expect(over.stats()).toEqual({ kept: 0, walked: 1, wrote: 0 });
    const within = keeper(dir);
    shapeOf(within).shape({ dirs: [{ rel: '', names: ['a.md'] }], controls: [], ignored: [], entries: MAX_WALK_ENTRIES });
    expect(within.stats()).toEqual({ kept: 0, walked: 1, wrote: 1 });
  });

  test('a walk whose file would be larger than may be read is not kept, and that is said; its size is known before anything is joined', () => {
    const root = tree({ 'a.md': '# A\n' });
    const k = keeper(scratchDir());
    const long = 'n'.repeat(4096);
    const names = Array.from({ length: MAX_WALK_BYTES / 4096 + 1 }, (_, i) => `${long}${i}`);
    (k.begin(root, 10 ** 9) as { shape(s: WalkShape): void }).shape({ dirs: [{ rel: '', names }], controls: [], ignored: [], entries: 100 });
    expect(k.stats().wrote).toBe(0);
    expect(k.problems()).toEqual([`the walk could not be kept (it would take more than 64 MiB); the next call reads every folder again`]);
  });

  test('a garbled kept walk is said, and the folders are read; a cache folder that cannot be written is said too', async () => {
    const root = tree(spec());
    const dir = scratchDir();
    await listed(root, keeper(dir));
    const file = walkFile(dir, root);
    writeFileSync(file, readFileSync(file, 'utf8').replace('\0sub\0', '\0su/b\0'));
    const k = keeper(dir);
    expect(await listed(root, k)).toBe(await listed(root));
    expect(k.problems()).toEqual([`the kept walk ${file} could not be read (its counts, numbers or names do not add up); the folders were read again`]);
    expect(k.stats()).toEqual({ kept: 0, walked: 1, wrote: 1 });
    const again = keeper(dir);
    await listed(root, again);
    expect(again.stats().kept).toBe(1);
    // A file where the cache folder would be.
    const blocked = join(scratchDir(), 'file');
    writeFileSync(blocked, '');
    const w = keeper(join(blocked, 'heads'));
    expect(await listed(root, w)).toBe(await listed(root));
    expect(w.problems()).toHaveLength(1);
    expect(w.problems()[0]).toStartWith("the walk could not be kept (");
  });

  test('property: after any files, folders and ignore files are made and removed, a listing that takes the kept walk is the listing that walks', async () => {
    const paths = ['a.md', 'b.txt', '.h.md', 'c/d.md', 'c/.e.md', 'c/f/g.md', 'c/f/SKILL.md', 'h/i.md', 'h/i.txt', 'j/k/l/m.md', 'j/k.md', '.gitignore', 'c/.kbignore', 'package-lock.json', 'node_modules/n.md'];
    // An ignore file's rules; any other file a title.
    const text = (f: string): string => (f.endsWith('.gitignore') ? 'b.txt\nh/\n' : f.endsWith('.kbignore') ? '!g.md\n*.md\n' : `# ${f}\n`);
    const step = fc.record({ files: fc.subarray(paths, { minLength: 1 }), folders: fc.subarray(['c', 'n', 'j/o', 'c/f/p'], {}) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 4 }), async (steps) => {
        const root = scratchDir('kb-walks-prop-');
        const dir = scratchDir();
        for (const { files, folders } of steps) {
          // What the step holds is made; what it does not, removed; the
          // rest stays as it was (so that a kept walk can be taken).
          const want = new Set(files);
          const wantDirs = new Set<string>(folders);
          for (const f of [...files, ...folders]) for (let d = dirname(f); d !== '.'; d = dirname(d)) wantDirs.add(d);
          const present = readdirSync(root, { withFileTypes: true, recursive: true }).map((e) => ({ rel: relative(root, join(e.parentPath, e.name)), dir: e.isDirectory() }));
          for (const e of present) if (!e.dir && !want.has(e.rel)) rmSync(join(root, e.rel), { force: true });
          for (const e of present.filter((x) => x.dir).sort((x, y) => y.rel.length - x.rel.length)) if (!wantDirs.has(e.rel)) rmSync(join(root, e.rel), { recursive: true, force: true });
          for (const d of wantDirs) mkdirSync(join(root, d), { recursive: true });
          for (const f of files) if (!existsSync(join(root, f))) writeFileSync(join(root, f), text(f));
          const walked = await listed(root);
          expect(await listed(root, keeper(dir))).toBe(walked);
          const again = keeper(dir);
          expect(await listed(root, again)).toBe(walked);
          expect(again.stats().kept).toBe(1);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('the kept walk\'s file', () => {
  const walk: KeptWalk = {
    entries: 9,
    controls: [
      { rel: '.gitignore', size: 10, mtime: 900.5, ctime: 901 },
      { rel: 'sub/.kbignore', size: 0, mtime: 1900, ctime: 1900 },
    ],
    ignored: [
      { path: 'x.txt', source: '.gitignore', rule: '*.txt', line: 1 },
      { path: 'node_modules/', source: 'built-in', rule: 'node_modules/' },
    ],
    dirs: [
      { rel: '', names: ['a.md', 'b.md'], mtime: 1000.25, ctime: 1001.5, ino: 12 },
      { rel: 'sub', names: [], mtime: 2000, ctime: 2000, ino: 13 },
      { rel: 'sub/ünï', names: ['çødé 🍎.md'], mtime: 3000, ctime: 3000.125, ino: 2 ** 40 + 1 },
      { rel: 'x', names: ['y.md'], mtime: 4000, ctime: 4000, ino: 0 },
    ],
  };

  test('reads back what was written', () => {
    expect(decodeKeptWalk(encodeKeptWalk(walk, '/topic', BUILD), '/topic', BUILD)).toEqual(walk);
  });

  test('its size, told before it is written, is never more than it takes', () => {
    const text = encodeKeptWalk(walk, '/topic', BUILD);
    expect(unitsOf(walk)).toBeLessThanOrEqual(text.length);
    expect(unitsOf(walk)).toBeGreaterThan(text.length / 3);
  });

  test('another build or version is no kept walk, and no word; another folder is one', () => {
    const text = encodeKeptWalk(walk, '/topic', BUILD);
    expect(decodeKeptWalk(text, '/topic', 'other-build')).toBeUndefined();
    expect(decodeKeptWalk(text.replace(`KBW1\0${WALK_VERSION}\0`, `KBW1\0${WALK_VERSION + 1}\0`), '/topic', BUILD)).toBeUndefined();
    expect(decodeKeptWalk(text, '/elsewhere', BUILD)).toBe('not a kept walk of this folder');
    expect(decodeKeptWalk('garbage', '/topic', BUILD)).toBe('not a kept walk');
  });

  test('what does not add up is no kept walk: a count, a number, a name, kb\'s own file, a folder before its parent, an ignore file out of place', () => {
    const text = encodeKeptWalk(walk, '/topic', BUILD);
    const names = 'a.md/b.md/çødé 🍎.md/y.md';
    expect(text).toContain(`\0${names}\0`);
    const broken = [
      text.replace('\0.gitignore\0', '\0.notignore\0'),
      text.replace('\0sub/.kbignore\0', '\0nowhere/.kbignore\0'),
      text.replace('\0' + '900.5\0', '\0big\0'),
      text.replace('\0*.txt\0' + '1\0', '\0*.txt\0' + 'one\0'),
      text.replace('\0x.txt\0', '\0\0'),
      text.replace(names, 'a/md/b.md/çødé 🍎.md/y.md'),
      text.replace(names, '../b.md/çødé 🍎.md/y.md'),
      text.replace(names, './b.md/çødé 🍎.md/y.md'),
      text.replace(names, '/b.md/çødé 🍎.md/y.md'),
      text.replace(names, 'a.md//çødé 🍎.md/y.md'),
      text.replace(names, 'a.md/b.md/çødé 🍎.md/'),
      text.replace(names, 'a.md/b\u0001.md/çødé 🍎.md/y.md'),
      text.replace(names, 'a.md/b\ufffd.md/çødé 🍎.md/y.md'),
      text.replace(names, 'a.md/b.md/çødé 🍎.md'),
      // What a walk never visits: kb's own.
      text.replace(names, '.gitignore/b.md/çødé 🍎.md/y.md'),
      text.replace(names, 'a.md/.kb-lock/çødé 🍎.md/y.md'),
      text.replace('\0x\0', '\0.kb-lock\0'),
      text.replace(names, `${names}/z.md`),
      text.replace('\0sub\0', '\0nowhere/sub\0'),
      text.replace('\0sub/ünï\0', '\0sub/..\0'),
      text.replace('\0sub/ünï\0', '\0sub/\0'),
      text.replace('\0x\0', '\0sub\0'),
      text.replace('\0' + '1000.25\0', '\0one\0'),
      text.replace(`\0${BUILD}\0/topic\0` + '9\0', `\0${BUILD}\0/topic\0` + '6\0'),
      text.replace(`\0${BUILD}\0/topic\0` + '9\0', `\0${BUILD}\0/topic\0` + '99999999\0'),
      text.replace(`\0${BUILD}\0/topic\0` + '9\0' + '4\0', `\0${BUILD}\0/topic\0` + '9\0' + '3\0'),
      text.replace(`\0${BUILD}\0/topic\0` + '9\0' + '4\0' + '2\0', `\0${BUILD}\0/topic\0` + '9\0' + '4\0' + '1\0'),
      text.replace(`\0${BUILD}\0/topic\0` + '9\0' + '4\0' + '2\0' + '2\0', `\0${BUILD}\0/topic\0` + '9\0' + '4\0' + '2\0' + '3\0'),
      text.slice(0, -1),
      `${text}extra\0`,
    ];
    for (const b of broken) expect(b).not.toBe(text);
    for (const b of broken) expect(decodeKeptWalk(b, '/topic', BUILD)).toBe('its counts, numbers or names do not add up');
  });

  test('every cut and random text never throw, and cut short is never a walk', () => {
    const text = encodeKeptWalk(walk, '/topic', BUILD);
    for (let cut = 0; cut < text.length; cut++) {
      const got = decodeKeptWalk(text.slice(0, cut), '/topic', BUILD);
      expect(typeof got === 'string' || got === undefined).toBe(true);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.nat(text.length), (junk, at) => {
        const got = decodeKeptWalk(text.slice(0, at) + junk + text.slice(at), '/topic', BUILD);
        expect(got === undefined || typeof got === 'string' || typeof got === 'object').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test('time linear in the text: separators, names and odd names, 4 MiB of them', () => {
    const header = `KBW1\0${WALK_VERSION}\0${BUILD}\0/topic\0`;
    const time = (text: string): number => {
      const t = performance.now();
      decodeKeptWalk(text, '/topic', BUILD);
      return performance.now() - t;
    };
    const n = MAX_WALK_BYTES / 16;
    // Entries, one folder, no ignore file, nothing left out; the folder
    // (the subjects directory, its times, its inode, one file); the names.
    const oneFolder = (names: string): string => `${header}1\0${1}\0${0}\0${0}\0\0${1}\0${1}\0${1}\0${1}\0${names}\0`;
    expect(decodeKeptWalk(oneFolder('a.md'), '/topic', BUILD)).toEqual({ dirs: [{ rel: '', names: ['a.md'], mtime: 1, ctime: 1, ino: 1 }], controls: [], ignored: [], entries: 1 });
    const texts = [
      (k: number) => `${header}1\0${'\0'.repeat(k)}`,
      (k: number) => oneFolder('a/'.repeat(k / 2)),
      (k: number) => oneFolder('./'.repeat(k / 2)),
      (k: number) => oneFolder('/'.repeat(k)),
      (k: number) => oneFolder('x'.repeat(k)),
      (k: number) => oneFolder('\u0001'.repeat(k)),
    ];
    for (const make of texts) {
      const small = time(make(n / 16));
      const large = time(make(n));
      // Sixteen times the text: well under 64 times the time (quadratic is
      // 256), with a floor for a machine's noise.
      expect(large).toBeLessThan(Math.max(64 * small, 300));
    }
  });
});
