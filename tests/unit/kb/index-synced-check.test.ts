// A request that arrived before an event barrier passed (kb/index/cache.ts
// `sync`) has had every event of a change made before it told: its check of
// a watched topic stats only what the watcher cannot see (a folder reached
// through a link, an ignore file above the topic), yet sees every change.
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

/** Waits until the topic has had no event for two seconds and a bit (the
 *  cache does not take the events' word within two seconds of one). */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 2100));

describe('IndexCache: a check after an event barrier', () => {
  test('stats nothing the watcher sees, and still sees a file made just before the request', async () => {
    const dir = tree({ 'a.md': 'a', 'd/b.md': 'b' });
    age([dir, join(dir, 'd')]);
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
