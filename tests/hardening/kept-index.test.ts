// What `kb mcp` keeps between requests (the topic index, what it probed,
// each topic's search index) never outlives the files it was made of. The
// server's file watcher sees the topic's own tree; what it cannot see (a
// folder or file reached through a symbolic link, a topic folder replaced
// under it, folders past the watcher limit) is revalidated on every
// request. Each case is checked against the CLI's answer at that moment:
// `kb search --no-cache`, `kb learn`, and a server started afresh. A
// request that comes alone to a topic of many folders checks it by an
// event barrier rather than by their times (kb/index/cache.ts `ready`):
// a change made just before it is seen all the same.
import { afterAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, BINARY, run, type Runner } from '../e2e/harness.ts';
import { connect, text, type Connection } from '../e2e/mcp-client.ts';
import { cleanup, workspace, type Entry } from './helpers.ts';

afterAll(cleanup);

const LONG_AGO = new Date(Date.now() - 3600_000);

/** Every folder and file below `root` (links not followed) made an hour
 *  old: an index of them is kept from the first request (a time within two
 *  seconds of a request is never trusted). */
function age(root: string): void {
  const stack = [root];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      if (!e.isSymbolicLink()) utimesSync(p, LONG_AGO, LONG_AGO);
    }
  }
  utimesSync(root, LONG_AGO, LONG_AGO);
}

const described = (d: string, body: string) => `---\ndescription: ${d}\n---\n${body}\n`;

/** A workspace of topic `t` (`t/own/a.md` and `entries`), aged, and a
 *  server on it. */
async function served(entries: Record<string, Entry>, runner: Runner = BINARY, env: Record<string, string> = {}): Promise<{ root: string; c: Connection }> {
  const root = workspace({ 't/own/a.md': described('own a', 'alpha words'), ...entries });
  age(root);
  const c = await connect(root, runner, ['--verbose'], env);
  return { root, c };
}

/** Asks the server and the CLI the same things, and expects the same
 *  answers: a search for each of `queries` (the CLI without its cache),
 *  the listing of topic t, and the resources with their descriptions (as
 *  a server started now lists them). */
async function agree(c: Connection, root: string, queries: readonly string[], topic = 't'): Promise<void> {
  await searchesAgree(c, root, queries);
  const listing = text(await c.client.callTool({ name: 'learn', arguments: { topic } }));
  expect(listing).toBe(run(BINARY, root, ['learn', '--args', JSON.stringify({ topic })]).out);
  const resources = await c.client.listResources();
  const fresh = await connect(root);
  try {
    expect(resources).toEqual(await fresh.client.listResources());
  } finally {
    await fresh.client.close();
  }
}

/** Searches alone (a listing opens the topic's index, which a search
 *  alone does not). */
async function searchesAgree(c: Connection, root: string, queries: readonly string[]): Promise<void> {
  for (const query of queries) {
    const served = text(await c.client.callTool({ name: 'search', arguments: { query } }));
    const cli = run(BINARY, root, ['search', '--no-cache', '--args', JSON.stringify({ query })]);
    expect({ query, text: served }).toEqual({ query, text: cli.out });
  }
}

/** The server's count of search indexes reused (kept) so far. */
function reused(c: Connection): number {
  const all = [...c.stderr().matchAll(/search indexes: (\d+) reused/g)];
  return all.length === 0 ? 0 : Number(all[all.length - 1][1]);
}

/** Two seconds and a bit without a change: the server keeps what it makes
 *  only once a topic has been quiet that long (a write folded into an
 *  earlier event would go unseen). */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 2100));

const QUERIES = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

describe('a linked subfolder (t/linked -> ../elsewhere)', () => {
  test('an edit, a new file, a new and a removed .kbignore rule there show at once, as the CLI shows them', async () => {
    const { root, c } = await served({ 't/linked': { link: '../elsewhere' }, 'elsewhere/b.md': described('linked b', 'bravo words') });
    try {
      await agree(c, root, QUERIES);
      // Nothing changed: the index is kept (and its linked part checked).
      const before = reused(c);
      await agree(c, root, QUERIES);
      expect(reused(c)).toBeGreaterThan(before);
      writeFileSync(join(root, 'elsewhere/b.md'), described('linked b, edited', 'bravo charlie words'));
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 'elsewhere/c.md'), described('linked c', 'delta words'));
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 'elsewhere/.kbignore'), 'c.md\n');
      await agree(c, root, QUERIES);
      expect(text(await c.client.callTool({ name: 'search', arguments: { query: 'delta' } }))).toStartWith('No subjects match');
      writeFileSync(join(root, 'elsewhere/.kbignore'), 'b.md\n');
      await agree(c, root, QUERIES);
      unlinkSync(join(root, 'elsewhere/.kbignore'));
      await agree(c, root, QUERIES);
      expect(text(await c.client.callTool({ name: 'search', arguments: { query: 'delta' } }))).toContain('t: linked/c');
      // Kept again once quiet, and still checked.
      await quiet();
      await agree(c, root, QUERIES);
      const quietly = reused(c);
      await agree(c, root, QUERIES);
      expect(reused(c)).toBeGreaterThan(quietly);
      writeFileSync(join(root, 'elsewhere/c.md'), described('linked c, edited', 'echo words'));
      await agree(c, root, QUERIES);
    } finally {
      await c.client.close();
    }
  }, 30_000);

  test('a link inside the linked folder, and a link whose target changes (ln -sfn)', async () => {
    const { root, c } = await served({
      't/linked': { link: '../elsewhere' },
      'elsewhere/b.md': described('linked b', 'bravo words'),
      'elsewhere/inner': { link: '../deeper' },
      'deeper/d.md': described('deeper d', 'delta words'),
      'other/e.md': described('other e', 'echo words'),
    });
    try {
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 'deeper/d.md'), described('deeper d, edited', 'delta charlie words'));
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 'deeper/f.md'), 'charlie again\n');
      await agree(c, root, QUERIES);
      // ln -sfn: a new link renamed over the old one.
      symlinkSync('../other', join(root, 't/linked.new'));
      renameSync(join(root, 't/linked.new'), join(root, 't/linked'));
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 'other/e.md'), described('other e, edited', 'echo bravo'));
      await agree(c, root, QUERIES);
    } finally {
      await c.client.close();
    }
  });

  test('a linked file, and a dangling link whose target appears', async () => {
    const { root, c } = await served({
      't/file.md': { link: '../outside.md' },
      'outside.md': described('outside', 'bravo words'),
      't/later': { link: '../not-yet' },
    });
    try {
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 'outside.md'), described('outside, edited', 'charlie words'));
      await agree(c, root, QUERIES);
      mkdirSync(join(root, 'not-yet'));
      writeFileSync(join(root, 'not-yet/g.md'), described('appeared', 'delta words'));
      await agree(c, root, QUERIES);
      rmSync(join(root, 'outside.md'));
      await agree(c, root, QUERIES);
    } finally {
      await c.client.close();
    }
  });
});

describe('a topic folder replaced while the server runs', () => {
  test('mv t t.old && mkdir t: the new folder is searched and listed; then t replaced by a link', async () => {
    const { root, c } = await served({ 't/b.md': described('first b', 'bravo words'), 'elsewhere/e.md': described('elsewhere e', 'echo words') });
    try {
      await agree(c, root, QUERIES);
      renameSync(join(root, 't'), join(root, 't.old'));
      mkdirSync(join(root, 't/own'), { recursive: true });
      writeFileSync(join(root, 't/own/a.md'), described('new a', 'alpha again'));
      await agree(c, root, QUERIES);
      // Quiet for two seconds: what the server keeps now is kept past
      // them.
      await quiet();
      await agree(c, root, QUERIES);
      renameSync(join(root, 't'), join(root, 't.older'));
      mkdirSync(join(root, 't'));
      await quiet();
      await searchesAgree(c, root, QUERIES);
      writeFileSync(join(root, 't/c.md'), described('new c', 'charlie words'));
      await searchesAgree(c, root, QUERIES);
      writeFileSync(join(root, 't/own.md'), described('new own', 'alpha again'));
      await agree(c, root, QUERIES);
      // Written to the old folder (watched before): not the topic's.
      writeFileSync(join(root, 't.old/d.md'), 'delta words\n');
      await agree(c, root, QUERIES);
      await quiet();
      await agree(c, root, QUERIES);
      rmSync(join(root, 't'), { recursive: true });
      symlinkSync('elsewhere', join(root, 't'));
      await agree(c, root, QUERIES);
      await quiet();
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 'elsewhere/f.md'), 'delta in elsewhere\n');
      await agree(c, root, QUERIES);
    } finally {
      await c.client.close();
    }
  }, 40_000);

  test('a topic folder that is itself a link, retargeted (ln -sfn)', async () => {
    const root = workspace({ 'one/b.md': described('one b', 'bravo words'), 'two/c.md': described('two c', 'charlie words') });
    rmSync(join(root, 't'), { recursive: true });
    symlinkSync('one', join(root, 't'));
    age(root);
    const c = await connect(root, BINARY, ['--verbose']);
    try {
      await agree(c, root, QUERIES);
      symlinkSync('two', join(root, 't.new'));
      renameSync(join(root, 't.new'), join(root, 't'));
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 'two/d.md'), 'delta words\n');
      await agree(c, root, QUERIES);
    } finally {
      await c.client.close();
    }
  });

  test('a folder renamed inside the topic, and moved out of it', async () => {
    const { root, c } = await served({ 't/a/b.md': described('a b', 'bravo words'), 't/a/deep/c.md': described('deep c', 'charlie words') });
    try {
      await agree(c, root, QUERIES);
      renameSync(join(root, 't/a'), join(root, 't/z'));
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 't/z/deep/c.md'), described('deep c, edited', 'charlie delta'));
      await agree(c, root, QUERIES);
      renameSync(join(root, 't/z'), join(root, 'moved'));
      await agree(c, root, QUERIES);
      writeFileSync(join(root, 'moved/b.md'), 'echo words\n');
      await agree(c, root, QUERIES);
    } finally {
      await c.client.close();
    }
  });

  test("the workspace's .jp replaced: the new configuration's topic is served", async () => {
    const { root, c } = await served({ 'u/b.md': described('u b', 'bravo words') });
    try {
      await agree(c, root, QUERIES);
      renameSync(join(root, '.jp'), join(root, '.jp.old'));
      mkdirSync(join(root, '.jp'));
      writeFileSync(join(root, '.jp/config.toml'), '[kb.topic.t]\nsubjects = "u"\n');
      await agree(c, root, QUERIES);
    } finally {
      await c.client.close();
    }
  });
});

/** kb run in a user namespace of its own whose limit of inotify watches is
 *  `watches`; undefined where user namespaces cannot be made. */
function limitedWatches(watches: number): Runner | undefined {
  const script = `echo ${watches} > /proc/sys/user/max_inotify_watches && exec "$0" "$@"`;
  const probe = spawnSync('unshare', ['-U', '-r', 'sh', '-c', script, 'true']);
  if (probe.status !== 0) return undefined;
  return { name: 'dist/kb (few inotify watches)', argv: ['unshare', '-U', '-r', 'sh', '-c', script, BIN] };
}

describe('folders past the watcher limit', () => {
  const runner = process.platform === 'linux' ? limitedWatches(20) : undefined;
  test.skipIf(runner === undefined)('a topic of more folders than inotify may watch is revalidated on every request (needs unshare -U)', async () => {
    const entries: Record<string, Entry> = {};
    for (let i = 0; i < 40; i++) entries[`t/d${i}/n.md`] = described(`note ${i}`, `words${i}`);
    const { root, c } = await served(entries, runner!);
    try {
      await agree(c, root, ['words0', 'words39', 'charlie']);
      writeFileSync(join(root, 't/d39/n.md'), described('note 39, edited', 'charlie words39'));
      await agree(c, root, ['words0', 'words39', 'charlie']);
      expect(c.stderr()).toContain('is not watched (ENOSPC)');
    } finally {
      await c.client.close();
    }
  });
});

describe('a topic of many folders: a lone request checks it by an event barrier', () => {
  test('exact loads see a file made, edited, removed or newly ignored just before them, with the folders\' times set back', async () => {
    const entries: Record<string, Entry> = {};
    for (let i = 0; i < 70; i++) entries[`t/d${i}/n.md`] = described(`note ${i}`, `words${i}`);
    // The barrier waited for however busy the machine (a lone request
    // otherwise gives up on it after about the stats' cost).
    const { root, c } = await served(entries, BINARY, { KB_TEST_READY_WAIT_MS: '10000' });
    const learn = async (subjects: string[]) => {
      const args = { topic: 't', subjects };
      const served = text(await c.client.callTool({ name: 'learn', arguments: args }));
      expect({ subjects, text: served }).toEqual({ subjects, text: run(BINARY, root, ['learn', '--args', JSON.stringify(args)]).out });
      return served;
    };
    // Set back after each change, so that no folder's time tells of it:
    // only the file events do.
    const setBack = (...dirs: string[]) => {
      for (const d of dirs) utimesSync(join(root, d), LONG_AGO, LONG_AGO);
    };
    const told = () => Math.max(0, ...[...c.stderr().matchAll(/(\d+) on the file events told since/g)].map((m) => Number(m[1])));
    try {
      await learn(['d0/n', 'd69/n']);
      await quiet();
      // Quiet: checked by the barrier, not by the folders' times.
      await learn(['d1/n']);
      await learn(['d2/n']);
      expect(told()).toBe(2);
      writeFileSync(join(root, 't/d7/late.md'), described('late', 'made just now'));
      setBack('t/d7');
      expect(await learn(['d7/late'])).toContain('made just now');
      await quiet();
      writeFileSync(join(root, 't/d8/n.md'), described('note 8, edited', 'edited words'));
      setBack('t/d8');
      expect(await learn(['d8/n'])).toContain('edited words');
      await quiet();
      unlinkSync(join(root, 't/d9/n.md'));
      setBack('t/d9');
      await learn(['d9/n', 'd10/n']);
      await quiet();
      writeFileSync(join(root, 't/d11/.kbignore'), 'n.md\n');
      setBack('t/d11');
      expect(await learn(['d11/n'])).not.toContain('words11');
    } finally {
      await c.client.close();
    }
  }, 30_000);
});
