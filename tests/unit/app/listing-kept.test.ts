// A whole topic's listing kept by a long-lived front end (app/learn.ts
// `listingOf`): made once while the topic's watcher tells of no change and
// its configuration is the same; an added file, or a changed configuration,
// shows in the next listing, byte for byte as a fresh one.
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KnowledgeBase } from '../../../src/app/knowledge-base.ts';
import { IndexCache } from '../../../src/app/resident.ts';
import { learn } from '../../../src/app/learn.ts';
import { learnText } from '../../../src/render/learn.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';
import { COSTS } from '../../../src/render/costs.ts';

const HOME = makeTempDir('kb-listing-kept-home-');
const CONFIG = '[kb.topic.t]\nsubjects = "t"\n';

async function listing(root: string, cache?: IndexCache): Promise<string> {
  const kb = await KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: {}, home: HOME }, { costs: COSTS, ...(cache !== undefined ? { cache } : {}) });
  const parts: string[] = [];
  const text = learnText((c) => parts.push(c as string));
  await learn(kb, { topic: 't', subjects: null }, { as: 'text', event: text });
  return parts.join('');
}

/** Waits until the cache has counted an event of `dir` after `before`. */
async function counted(cache: IndexCache, dir: string, before: number): Promise<void> {
  for (const end = Date.now() + 5000; (cache.changes(dir) ?? 0) <= before && Date.now() < end; ) await new Promise((r) => setTimeout(r, 2));
}

describe('a listing kept between requests', () => {
  test('kept while nothing changes; a new file and a new configuration show in the next listing', async () => {
    const root = tempWorkspace('kb-listing-kept-', { 't/a.md': '---\ndescription: About a\n---\nA\n', 't/b/c.md': '# C\n' }, CONFIG);
    const cache = new IndexCache();
    try {
      const first = await listing(root, cache);
      expect(first).toBe(await listing(root));
      const hits = cache.keptHits;
      expect(await listing(root, cache)).toBe(first);
      expect(cache.keptHits).toBe(hits + 1);

      // The configuration changed (no event in the topic): made again.
      writeFileSync(join(root, '.jp/config.toml'), `${CONFIG}disabled = ["a"]\n`);
      const disabled = await listing(root, cache);
      expect(disabled).not.toContain('About a');
      expect(disabled).toBe(await listing(root));

      // A file added: an event, so the next listing is made again.
      const before = cache.changes(join(root, 't'))!;
      writeFileSync(join(root, 't/d.md'), '---\ndescription: About d\n---\nD\n');
      await counted(cache, join(root, 't'), before);
      const added = await listing(root, cache);
      expect(added).toContain('About d');
      expect(added).toBe(await listing(root));
    } finally {
      cache.close();
    }
  });
});
