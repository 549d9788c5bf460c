// A request that arrived before an event barrier passed (kb/index/cache.ts
// `sync`) has had every event of a change made before it told: its check of
// a watched topic stats only what the watcher cannot see (a folder reached
// through a link, an ignore file above the topic), yet sees every change.
// A request that comes alone passes one first where the stats would cost
// more (`ready`).
import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexCache } from '../../../src/kb/index/cache.ts';
import { openTopic, topic, tree } from './view-fixture.ts';

/** Sets `paths`' times a minute back (an index of directories changed
 *  within two seconds is not kept). */
function age(paths: string[]): void {
  const t = Date.now() / 1000 - 60;
  for (const p of paths) utimesSync(p, t, t);
}

const slugs = (cache: IndexCache, dir: string, since: number) => openTopic(topic(dir), { cache, since }).index.subjects.map((s) => s.slug);

/** A topic of two folders (the top and `d`) of a file each, a minute
 *  old: a check of it stats less than a barrier costs. */
function twoFolders(): string {
  const dir = tree({ 'a.md': 'a', 'd/b.md': 'b' });
  age([dir, join(dir, 'd')]);
  return dir;
}

/** A topic of 70 folders of a file each, a minute old: a check of it stats
 *  more than a barrier costs (kb/index/cache.ts `ready`). */
function manyFolders(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < 70; i++) files[`f${i}/n.md`] = 'n';
  const dir = tree(files);
  age([dir, ...Array.from({ length: 70 }, (_, i) => join(dir, `f${i}`))]);
  return dir;
}

/** Waits until the topic has had no event for two seconds and a bit (the
 *  cache does not take the events' word within two seconds of one). */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 2100));

describe('IndexCache: a check after an event barrier', () => {
  test('stats nothing the watcher sees, and still sees a file made just before the request', async () => {
    const dir = twoFolders();
    const cache = new IndexCache();
    try {
      await cache.settle();
      expect(slugs(cache, dir, performance.now())).toEqual(['a', 'd/b']); // walked, watched from now
      await quiet();
      let arrived = performance.now();
      await cache.sync();
      expect(slugs(cache, dir, arrived)).toEqual(['a', 'd/b']);
      expect(cache.watchedChecks).toBe(1);
      // A request that arrived after the last barrier began checks it all.
      expect(slugs(cache, dir, performance.now())).toEqual(['a', 'd/b']);
      expect(cache.watchedChecks).toBe(1);
      // Made just before the request, its time set back (no stat could
      // tell): the barrier passes only once its event is told.
      writeFileSync(join(dir, 'd/new.md'), 'n');
      age([join(dir, 'd')]);
      arrived = performance.now();
      await cache.sync();
      expect(slugs(cache, dir, arrived)).toEqual(['a', 'd/b', 'd/new']);
      // Within two seconds of that event the directories are stat'ed again.
      expect(slugs(cache, dir, arrived)).toEqual(['a', 'd/b', 'd/new']);
      expect(cache.watchedChecks).toBe(1);
    } finally {
      cache.close();
    }
  });

  test('a folder reached through a link is still stat\'ed: a file made there shows', async () => {
    const root = tree({ 't/own.md': 'own', 'out/b.md': 'b' });
    const dir = join(root, 't');
    symlinkSync('../out', join(dir, 'linked'));
    age([dir, join(root, 'out')]);
    const cache = new IndexCache();
    try {
      await cache.settle();
      expect(slugs(cache, dir, performance.now())).toEqual(['linked/b', 'own']);
      await quiet();
      let arrived = performance.now();
      await cache.sync();
      expect(slugs(cache, dir, arrived)).toEqual(['linked/b', 'own']);
      expect(cache.watchedChecks).toBe(1);
      // No event comes of this: the watcher does not see it.
      mkdirSync(join(root, 'out/sub'));
      writeFileSync(join(root, 'out/sub/c.md'), 'c');
      arrived = performance.now();
      await cache.sync();
      expect(slugs(cache, dir, arrived)).toEqual(['linked/b', 'linked/sub/c', 'own']);
    } finally {
      cache.close();
    }
  });

  test('a barrier passes only once the events of every change made before it were told', async () => {
    const dir = tree({ 'a.md': 'a', 'd/b.md': 'b' });
    const cache = new IndexCache();
    try {
      openTopic(topic(dir), { cache, since: performance.now() });
      let untold = 0;
      for (let i = 0; i < 300; i++) {
        const before = Date.now();
        writeFileSync(join(dir, `d/new${i}.md`), 'n');
        await cache.sync();
        if (cache.eventAt(dir, `d/new${i}.md`) < before) untold++;
      }
      expect(untold).toBe(0);
    } finally {
      cache.close();
    }
  });

  test('a request that comes alone to a topic of many folders passes a barrier first (`ready`), and sees a change made just before it', async () => {
    const dir = manyFolders();
    const cache = new IndexCache();
    // However slow this machine runs the watcher's thread, the barrier is
    // waited for (the next test lets it come late).
    cache.readyWait = 10_000;
    try {
      await cache.settle();
      expect(slugs(cache, dir, performance.now())).toHaveLength(70);
      await quiet();
      let arrived = performance.now();
      const before = cache.barriers;
      await cache.ready(arrived);
      expect(cache.barriers).toBe(before + 1);
      expect(slugs(cache, dir, arrived)).toHaveLength(70);
      expect(cache.watchedChecks).toBe(1);
      // The listing's own settle takes the barrier that request passed.
      await cache.settle(arrived);
      expect(cache.barriers).toBe(before + 1);
      // A request that arrived while that barrier was under way needs none.
      await cache.ready(arrived);
      expect(cache.barriers).toBe(before + 1);
      // Made just before the request, its folder's time set back (no stat
      // could tell): the barrier tells.
      writeFileSync(join(dir, 'f7/late.md'), 'l');
      age([join(dir, 'f7')]);
      arrived = performance.now();
      await cache.ready(arrived);
      expect(slugs(cache, dir, arrived)).toContain('f7/late');
      // An event came in the last two seconds: the next check stats its
      // folders whatever a barrier says, so none is begun.
      const begun = cache.barriers;
      await cache.ready(performance.now());
      expect(cache.barriers).toBe(begun);
    } finally {
      cache.close();
    }
  });

  test('a barrier that comes later than the stats would take: the request checks by its stats, and sees a change', async () => {
    const dir = manyFolders();
    // Every event handed on 200 ms late, in order, as from a starved
    // watcher thread (read as each watcher is made: the topic's, the
    // barrier's).
    process.env.KB_TEST_EVENT_DELAY_MS = '200';
    const cache = new IndexCache();
    try {
      await cache.settle();
      expect(slugs(cache, dir, performance.now())).toHaveLength(70);
      await quiet();
      writeFileSync(join(dir, 'f3/late.md'), 'l');
      const arrived = performance.now();
      await cache.ready(arrived);
      // It did not wait for the barrier: the write's event, told before
      // the barrier's, has not come yet.
      expect(cache.eventAt(dir, 'f3/late.md')).toBe(-1);
      expect(slugs(cache, dir, arrived)).toContain('f3/late');
      expect(cache.watchedChecks).toBe(0);
    } finally {
      delete process.env.KB_TEST_EVENT_DELAY_MS;
      cache.close();
    }
  });

  test('a request to a topic of a few folders checks by its stats: no barrier', async () => {
    const dir = twoFolders();
    const cache = new IndexCache();
    try {
      await cache.settle();
      expect(slugs(cache, dir, performance.now())).toEqual(['a', 'd/b']);
      await quiet();
      const before = cache.barriers;
      const arrived = performance.now();
      await cache.ready(arrived);
      expect(cache.barriers).toBe(before);
      writeFileSync(join(dir, 'd/new.md'), 'n');
      expect(slugs(cache, dir, performance.now())).toEqual(['a', 'd/b', 'd/new']);
      expect(cache.watchedChecks).toBe(0);
    } finally {
      cache.close();
    }
  });

  test('without a watched topic, sync does nothing and every check stats', async () => {
    const dir = tree({ 'a.md': 'a' });
    age([dir]);
    const cache = new IndexCache();
    cache.close(); // nothing is watched
    expect(slugs(cache, dir, performance.now())).toEqual(['a']);
    const arrived = performance.now();
    await cache.sync();
    writeFileSync(join(dir, 'b.md'), 'b');
    expect(slugs(cache, dir, arrived)).toEqual(['a', 'b']);
    expect(cache.watchedChecks).toBe(0);
  });
});
