// Requests that waited their turn together share one check of a kept
// index (kb/index/cache.ts `get`, `since`): a check begun after a request
// arrived is taken for it, one begun before it is not, so a change made
// before a request arrived is always seen.
import { describe, expect, test } from 'bun:test';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexCache } from '../../../src/kb/index/cache.ts';
import { openTopic, topic, tree } from './view-fixture.ts';

/** Sets `dirs`' times `ago` seconds back (an index of directories changed
 *  within two seconds is not kept). */
function age(dirs: string[], ago: number): void {
  const t = Date.now() / 1000 - ago;
  for (const d of dirs) utimesSync(d, t, t);
}

const slugs = (cache: IndexCache, dir: string, since?: number) => openTopic(topic(dir), { cache, ...(since !== undefined ? { since } : {}) }).index.subjects.map((s) => s.slug);

describe('IndexCache: one check shared by the requests that waited for it', () => {
  test('a check begun after a request arrived answers it; one begun before does not', () => {
    const dir = tree({ 'a.md': 'a', 'd/b.md': 'b' });
    age([dir, join(dir, 'd')], 60);
    // Closed: nothing watched, so the directories' times alone tell.
    const cache = new IndexCache();
    cache.close();
    expect(slugs(cache, dir)).toEqual(['a', 'd/b']); // walked
    const arrived = performance.now();
    expect(slugs(cache, dir, arrived)).toEqual(['a', 'd/b']); // checked
    expect(cache.sharedChecks).toBe(0);
    expect(slugs(cache, dir, arrived)).toEqual(['a', 'd/b']); // shared
    expect(slugs(cache, dir, arrived)).toEqual(['a', 'd/b']);
    expect(cache.sharedChecks).toBe(2);
    // A file added: a request that arrives after it sees it.
    writeFileSync(join(dir, 'd/new.md'), 'n');
    age([join(dir, 'd')], 30);
    expect(slugs(cache, dir, performance.now())).toEqual(['a', 'd/b', 'd/new']);
    expect(cache.sharedChecks).toBe(2);
    // Without an arrival time (the CLI, a job), every call checks.
    writeFileSync(join(dir, 'c.md'), 'c');
    age([dir], 20);
    expect(slugs(cache, dir)).toEqual(['a', 'c', 'd/b', 'd/new']);
    expect(cache.sharedChecks).toBe(2);
  });
});
