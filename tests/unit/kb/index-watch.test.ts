// The index cache of a long-lived front end (kb/index/cache.ts): while a
// topic's directory is watched, what was probed is kept between requests,
// an edited file is probed again on the next one, and the watchers stay
// one set per topic however many requests come, and close at shutdown.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexCache } from '../../../src/kb/index/cache.ts';
import { descriptions } from '../../../src/kb/index/describe.ts';
import { listable } from '../../../src/kb/index/listing.ts';
import { openTopic, topic, tree } from './view-fixture.ts';

const front = (d: string) => `---\ndescription: ${d}\n---\nbody\n`;

/** Waits (at most 5 s) until the cache has the event of a change to `rel`
 *  made at or after `since`: how soon an event arrives depends on the
 *  machine's load (docs/reference/mcp.md, "Long sessions": a write
 *  whose event comes later than the listing's wait shows one listing late),
 *  so the tests of what an event does wait for the event itself. */
async function eventSeen(cache: IndexCache, dir: string, rel: string, since: number): Promise<void> {
  for (const end = Date.now() + 5000; cache.eventAt(dir, rel) < since && Date.now() < end; ) await new Promise((r) => setTimeout(r, 2));
  expect(cache.eventAt(dir, rel)).toBeGreaterThanOrEqual(since);
}

/** Waits until the last event of `rel` is 20 ms old, at most 5 s. The
 *  runtime folds a file's events that come within about a millisecond of
 *  each other into one (a write's trailing event, late under load, then the
 *  next write's: the second is never told), so a test that waits for each
 *  write's own event writes again only once the file has gone quiet. The
 *  cache does not count on every event: a file with an event in the last
 *  two seconds is probed again on each request (RACY_MS). */
async function quiet(cache: IndexCache, dir: string, rel: string): Promise<void> {
  for (const end = Date.now() + 5000; Date.now() - cache.eventAt(dir, rel) < 20 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 2));
}

async function listed(cache: IndexCache, dir: string): Promise<string[]> {
  await cache.settle();
  const view = openTopic(topic(dir), { cache, probeAll: true });
  const subjects = listable(view);
  const about = await descriptions(view, subjects);
  return subjects.map((s, i) => `${s.slug}: ${about[i]}`);
}

describe('IndexCache watching a topic', () => {
  test('keeps probes between requests, and an edit in place shows in the next listing', async () => {
    const dir = tree({ 'a.md': front('one'), 'd/b.md': front('two'), 'd/e/c.md': front('three') });
    const cache = new IndexCache();
    try {
      expect(await listed(cache, dir)).toEqual(['a: one', 'd/b: two', 'd/e/c: three']);
      expect(cache.watched(dir)).toBe(true);
      const v1 = openTopic(topic(dir), { cache });
      const v2 = openTopic(topic(dir), { cache });
      expect(v2.probed).toBe(v1.probed); // shared, not probed again
      expect(v2.probed.size).toBe(3);
      for (let k = 0; k < 5; k++) {
        await quiet(cache, dir, 'd/e/c.md');
        const since = Date.now();
        writeFileSync(join(dir, 'd/e/c.md'), front(`edit ${k}`));
        await eventSeen(cache, dir, 'd/e/c.md', since);
        expect(await listed(cache, dir)).toEqual(['a: one', 'd/b: two', `d/e/c: edit ${k}`]);
      }
      // Saved through a rename, and a new file.
      await quiet(cache, dir, 'd/b.md');
      const since = Date.now();
      writeFileSync(join(dir, 'd/b.tmp'), front('renamed'));
      renameSync(join(dir, 'd/b.tmp'), join(dir, 'd/b.md'));
      writeFileSync(join(dir, 'new.md'), front('new'));
      await eventSeen(cache, dir, 'd/b.md', since);
      await eventSeen(cache, dir, 'new.md', since);
      expect(await listed(cache, dir)).toEqual(['a: one', 'd/b: renamed', `d/e/c: edit 4`, 'new: new']);
    } finally {
      cache.close();
    }
    expect(cache.openWatchers).toBe(0);
    expect(cache.watched(dir)).toBe(false);
  });

  test('one watcher set per topic across thousands of requests, closed at shutdown', async () => {
    const a = tree({ 'x.md': front('x') });
    const b = tree({ 'y.md': front('y') });
    const cache = new IndexCache();
    for (let i = 0; i < 2000; i++) {
      openTopic(topic(a), { cache });
      openTopic(topic(b), { cache });
      if (i % 500 === 0) writeFileSync(join(a, `n${i}.md`), 'new'); // a re-walk
      if (i % 500 === 0) await cache.settle();
    }
    expect(cache.openWatchers).toBe(2);
    cache.close();
    expect(cache.openWatchers).toBe(0);
    // Closed: revalidated by directory times, nothing watched.
    openTopic(topic(a), { cache });
    expect(cache.openWatchers).toBe(0);
  });

  test('a watcher that fails falls back to revalidation, and says so', async () => {
    const dir = tree({ 'x.md': front('x') });
    const lines: string[] = [];
    const cache = new IndexCache((l) => lines.push(l));
    try {
      openTopic(topic(dir), { cache });
      expect(cache.watched(dir)).toBe(true);
      // What an inotify limit (ENOSPC) or too many open files do.
      const w = (cache as unknown as { watches: Map<string, { watchers: { emit(e: string, err: unknown): void }[] }> }).watches.get(dir)!;
      w.watchers[0].emit('error', Object.assign(new Error('no space'), { code: 'ENOSPC' }));
      expect(cache.watched(dir)).toBe(false);
      expect(cache.openWatchers).toBe(0);
      expect(lines.join('\n')).toContain('is not watched (ENOSPC)');
      writeFileSync(join(dir, 'x.md'), front('edited'));
      expect(await listed(cache, dir)).toEqual(['x: edited']);
    } finally {
      cache.close();
    }
  });
});

describe('IndexCache: what a watcher cannot see', () => {
  test('what a link leads to is stat\'ed on every request, and probed again when it changed', async () => {
    const root = tree({ 't/own.md': front('own'), 'out/b.md': front('linked'), 'c.md': front('file') });
    const dir = join(root, 't');
    symlinkSync('../out', join(dir, 'linked'));
    symlinkSync('../c.md', join(dir, 'c.md'));
    const old = new Date(Date.now() - 60_000);
    for (const d of ['t', 'out']) utimesSync(join(root, d), old, old);
    const cache = new IndexCache();
    try {
      expect(await listed(cache, dir)).toEqual(['c: file', 'linked/b: linked', 'own: own']);
      // No event comes of these writes: the watcher does not see them.
      writeFileSync(join(root, 'out/b.md'), front('linked, edited'));
      writeFileSync(join(root, 'c.md'), front('file, edited'));
      expect(await listed(cache, dir)).toEqual(['c: file, edited', 'linked/b: linked, edited', 'own: own']);
      // Written just now: a stat cannot tell a second write in the same
      // tick, so they are probed again on every request.
      expect(openTopic(topic(dir), { cache }).probed.has('linked/b')).toBe(false);
      // Older: kept while their stat stays the same.
      for (const f of ['out/b.md', 'c.md']) utimesSync(join(root, f), old, old);
      expect(await listed(cache, dir)).toEqual(['c: file, edited', 'linked/b: linked, edited', 'own: own']);
      const v = openTopic(topic(dir), { cache });
      expect(v.probed.has('own')).toBe(true);
      expect(v.probed.has('linked/b')).toBe(true);
      expect(v.probed.has('c')).toBe(true);
      // Edited again, its time set back as it was: the size tells.
      writeFileSync(join(root, 'out/b.md'), front('linked, edited twice'));
      utimesSync(join(root, 'out/b.md'), old, old);
      expect(await listed(cache, dir)).toEqual(['c: file, edited', 'linked/b: linked, edited twice', 'own: own']);
    } finally {
      cache.close();
    }
  });

  test('a topic folder replaced under its watcher is watched again: what is written in the new one shows', async () => {
    const root = tree({ 't/a.md': front('one') });
    const dir = join(root, 't');
    const lines: string[] = [];
    const cache = new IndexCache((l) => lines.push(l));
    try {
      expect(await listed(cache, dir)).toEqual(['a: one']);
      renameSync(dir, join(root, 't.old'));
      mkdirSync(dir);
      writeFileSync(join(dir, 'a.md'), front('new one'));
      expect(await listed(cache, dir)).toEqual(['a: new one']);
      expect(lines.join('\n')).toContain(`topic directory ${dir} is another directory than the one watched`);
      expect(cache.watched(dir)).toBe(true);
      // The new folder's own events come in: an edit in place shows.
      await new Promise((r) => setTimeout(r, 20));
      const since = Date.now();
      writeFileSync(join(dir, 'a.md'), front('edited'));
      await eventSeen(cache, dir, 'a.md', since);
      expect(await listed(cache, dir)).toEqual(['a: edited']);
    } finally {
      cache.close();
    }
  });

  test('a kept value with a check of its own is given back only while the check passes', async () => {
    const dir = tree({ 'a.md': 'one' });
    const cache = new IndexCache();
    try {
      await cache.settle();
      const at = cache.changes(dir)!;
      let fresh = true;
      cache.keep(dir, 'k', at, 'made', () => fresh);
      expect(cache.kept(dir, 'k')).toBe('made');
      fresh = false;
      expect(cache.kept(dir, 'k')).toBeUndefined();
      // Forgotten: the check passing again does not bring it back.
      fresh = true;
      expect(cache.kept(dir, 'k')).toBeUndefined();
    } finally {
      cache.close();
    }
  });
});

describe('IndexCache keeping what a request made of a topic', () => {
  test('gives a kept value back until an event comes, and counts the events', async () => {
    const dir = tree({ 'a.md': 'one', 'd/b.md': 'two' });
    const cache = new IndexCache();
    try {
      await cache.settle();
      const at = cache.changes(dir);
      expect(at).toBe(0);
      expect(cache.watched(dir)).toBe(true);
      cache.keep(dir, 'k', at!, 'made');
      expect(cache.kept(dir, 'k')).toBe('made');
      expect(cache.kept(dir, 'other')).toBeUndefined();
      expect(cache.kept(tree({ 'x.md': 'x' }), 'k')).toBeUndefined();
      // An edit in place, in a subdirectory: no directory's time changes.
      const since = Date.now();
      writeFileSync(join(dir, 'd/b.md'), 'edited');
      await eventSeen(cache, dir, 'd/b.md', since);
      await cache.settle();
      expect(cache.kept(dir, 'k')).toBeUndefined();
      expect(cache.changes(dir)).toBeGreaterThan(at!);
    } finally {
      cache.close();
    }
    expect(cache.changes(dir)).toBeUndefined();
  });

  test('keeps nothing made before the last event, nor within two seconds of one', async () => {
    const dir = tree({ 'a.md': 'one' });
    const cache = new IndexCache();
    try {
      const at = cache.changes(dir)!;
      const since = Date.now();
      writeFileSync(join(dir, 'a.md'), 'edited');
      await eventSeen(cache, dir, 'a.md', since);
      // Made before the event: not kept.
      cache.keep(dir, 'k', at, 'stale');
      expect(cache.kept(dir, 'k')).toBeUndefined();
      // Made after it, but within two seconds of it: a write folded into
      // that event would go unseen, so not kept either.
      const now = cache.changes(dir)!;
      cache.keep(dir, 'k', now, 'fresh');
      expect(cache.kept(dir, 'k')).toBeUndefined();
      await new Promise((r) => setTimeout(r, 2100));
      cache.keep(dir, 'k', now, 'fresh');
      expect(cache.kept(dir, 'k')).toBe('fresh');
      cache.forget(dir, 'k');
      expect(cache.kept(dir, 'k')).toBeUndefined();
    } finally {
      cache.close();
    }
  });

  test('keeps nothing once watching failed', () => {
    const dir = tree({ 'x.md': 'x' });
    const cache = new IndexCache(() => {});
    try {
      const at = cache.changes(dir)!;
      cache.keep(dir, 'k', at, 'made');
      const w = (cache as unknown as { watches: Map<string, { watchers: { emit(e: string, err: unknown): void }[] }> }).watches.get(dir)!;
      w.watchers[0].emit('error', Object.assign(new Error('no space'), { code: 'ENOSPC' }));
      expect(cache.kept(dir, 'k')).toBeUndefined();
      expect(cache.changes(dir)).toBeUndefined();
    } finally {
      cache.close();
    }
  });

  test('asking for the count does not tell a listing its index is fresh', async () => {
    const dir = tree({ 'a.md': front('one') });
    const cache = new IndexCache();
    try {
      expect(await listed(cache, dir)).toEqual(['a: one']);
      // A new file (the topic must be walked again), then a search's count.
      const since = Date.now();
      writeFileSync(join(dir, 'b.md'), front('two'));
      await eventSeen(cache, dir, 'b.md', since);
      cache.changes(dir);
      expect(await listed(cache, dir)).toEqual(['a: one', 'b: two']);
    } finally {
      cache.close();
    }
  });
});

describe('IndexCache keeping, over many topics', () => {
  test('a search over more topics than are watched keeps the first ones watched, and revalidates the rest', () => {
    const cache = new IndexCache();
    try {
      const dirs = Array.from({ length: 65 }, (_, i) => tree({ [`n${i}.md`]: 'x' }));
      for (const d of dirs.slice(0, 64)) expect(cache.changes(d)).toBe(0);
      expect(cache.openWatchers).toBe(64);
      // One more: not watched, and the others are not closed for it.
      expect(cache.changes(dirs[64])).toBeUndefined();
      expect(cache.openWatchers).toBe(64);
      cache.keep(dirs[0], 'k', 0, 'made');
      expect(cache.kept(dirs[0], 'k')).toBe('made');
    } finally {
      cache.close();
    }
  });
});
