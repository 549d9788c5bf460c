// Start-up: a command imports only what it runs. From the entry point
// (src/cli.ts) and a command's module, the static imports (value imports:
// types cost nothing at run time) must not reach the modules that command
// defers; those are loaded by an explicit `import()` where they are needed.
// The graph is the one scripts/check-layers.mjs scans.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyse } from '../../scripts/check-layers.mjs';

const REPO = join(import.meta.dir, '../..');
const { files, imports } = analyse(REPO) as {
  files: string[];
  imports: { from: string; to: string | null; specifier: string; kind: string; typeOnly: boolean }[];
};

/** `source` without its comments (a rough cut: enough for the checks below). */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Edges by importer: static value imports, and every import (dynamic too). */
const staticEdges = new Map<string, string[]>();
const allEdges = new Map<string, string[]>();
for (const i of imports) {
  const to = i.to ?? `pkg:${i.specifier}`;
  if (i.typeOnly) continue;
  if (!allEdges.has(i.from)) allEdges.set(i.from, []);
  allEdges.get(i.from)!.push(to);
  if (i.kind === 'dynamic' || i.kind === 'url' || i.kind === 'lazy-require') continue;
  if (!staticEdges.has(i.from)) staticEdges.set(i.from, []);
  staticEdges.get(i.from)!.push(to);
}

/** What `starts` reach over `edges`, each with the chain that reaches it. */
function reach(starts: string[], edges: Map<string, string[]>): Map<string, string[]> {
  const chain = new Map<string, string[]>(starts.map((s) => [s, [s]]));
  const todo = [...starts];
  while (todo.length > 0) {
    const f = todo.shift()!;
    for (const to of edges.get(f) ?? []) {
      if (chain.has(to)) continue;
      chain.set(to, [...chain.get(f)!, to]);
      todo.push(to);
    }
  }
  return chain;
}

/** The modules of `reached` that are `m`: a file, or a package with any
 *  of its subpaths (`pkg:@iarna/toml` for `@iarna/toml/parse-string.js`). */
function named(reached: Map<string, string[]>, m: string): string[][] {
  return [...reached].filter(([k]) => k === m || (m.startsWith('pkg:') && k.startsWith(`${m}/`))).map(([, chain]) => chain);
}

/** What a command loads at start-up: the entry point and its own module. */
const loadedBy = (command: string) => reach(['src/cli.ts', `src/cli/commands/${command}.ts`], staticEdges);

/** Loaded only by the commands (or calls) that run them. */
const LEARN_TEXT = ['src/render/learn.ts', 'src/app/learn.ts', 'src/kb/index/near.ts', 'src/kb/content/window.ts'];
const SEARCH = ['src/app/search.ts', 'src/kb/search/engine.ts', 'src/kb/search/cache.ts', 'src/render/search.ts'];
const WRITE = ['src/app/memory.ts', 'src/kb/write/place.ts', 'src/kb/write/lock.ts', 'pkg:proper-lockfile'];
const FORMATS = ['pkg:@iarna/toml', 'pkg:json5', 'pkg:yaml', 'pkg:consola', 'pkg:picomatch'];
/** The gitignore matcher: evaluated when a topic first has an ignore file
 *  (kb/fs/ignore.ts `newIgnore`), about 0.5 ms of a start otherwise. */
const IGNORE = ['pkg:ignore'];
/** Reading and weighing subjects: only where a topic pre-loads
 *  (app/preload-cut.ts, loaded by KnowledgeBase.open then). */
const READING = ['src/app/preload-cut.ts', 'src/kb/index/load.ts', 'src/kb/fs/read.ts', 'src/kb/fs/decode.ts', 'src/kb/content/format.ts', 'src/kb/content/body.ts', 'src/kb/content/tokens.ts'];

/** Reading subjects' files: `kb prompt` imports it only when a topic
 *  pre-loads (app/prompt.ts). */
const LOADING = ['src/kb/index/load.ts', 'src/kb/fs/read.ts', 'src/kb/fs/decode.ts'];

/** Runtime modules whose first import costs start-up time in the binary
 *  (measured: node:buffer about 0.3 ms, node:os about 0.25 ms); kb reads
 *  HOME instead of os.homedir() where it can (cli/home.ts). */
const RUNTIME = ['pkg:node:buffer', 'pkg:node:os'];

/** The title rules: only what shows or searches a subject's title loads
 *  them (kb/fs/probe-titles.ts); a front end that shows none opens its
 *  knowledge base without them (OpenOptions.titles). */
const TITLES = ['src/kb/fs/probe-titles.ts', 'src/kb/content/title.ts', 'src/kb/content/html-head.ts', 'src/kb/content/entities.ts', 'src/kb/content/roff.ts'];

/** The registry and the tools but learn: `kb schema` prints the learn
 *  tool, and imports the registry (app/tools.ts) for any other. */
const OTHER_TOOLS = ['src/app/tools.ts', 'src/app/tools/search.ts', 'src/app/tools/remember.ts', 'src/app/tools/revise.ts', 'src/app/tools/forget.ts', 'src/kb/content/facets.ts'];

/** The walk, the index and the views: `kb schema` nearly always tells
 *  which topics have a subject to learn from the top of their folders
 *  (kb/index/quick-learnable.ts), and loads these only where it cannot
 *  (app/knowledge-base.ts `settleLearnable`); the ignore rules' matcher
 *  only for a folder with an ignore file; the glob machinery only for a
 *  topic with `learned` patterns or a configuration that extends another. */
const WALK = ['src/kb/fs/walk.ts', 'src/kb/index/subjects.ts', 'src/kb/index/view.ts', 'src/kb/index/listing.ts', 'src/kb/fs/ignore.ts', 'src/glob/index.ts'];

/** What a long-lived front end keeps between requests (its file
 *  watchers): `kb mcp` only (app/resident.ts). */
const RESIDENT = ['src/kb/index/cache.ts'];

const DEFERRED: Record<string, string[]> = {
  schema: [...LEARN_TEXT, ...SEARCH, ...WRITE, ...FORMATS, ...IGNORE, ...READING, ...RUNTIME, ...RESIDENT, ...TITLES, ...OTHER_TOOLS, ...WALK, 'src/app/prompt.ts', 'src/render/subject.ts'],
  prompt: [...LEARN_TEXT, ...SEARCH, ...WRITE, ...FORMATS, ...IGNORE, ...LOADING, ...RUNTIME, ...RESIDENT, ...TITLES, 'src/app/prompt-list.ts', 'src/app/tools.ts'],
  search: [...LEARN_TEXT, ...WRITE, ...IGNORE, ...RESIDENT],
};

describe('start-up imports', () => {
  for (const [command, deferred] of Object.entries(DEFERRED)) {
    test(`kb ${command} does not load what it defers`, () => {
      const loaded = loadedBy(command);
      const found = deferred.flatMap((m) => named(loaded, m).map((chain) => chain.join(' -> ')));
      expect(found).toEqual([]);
    });

    test(`kb ${command}: every deferred module exists and is still reachable by an import()`, () => {
      // A renamed module would make the check above pass for nothing.
      const all = reach(['src/cli.ts'], allEdges);
      const missing = deferred.filter((m) => (!m.startsWith('pkg:') && !files.includes(m)) || named(all, m).length === 0);
      expect(missing).toEqual([]);
    });
  }

  for (const command of Object.keys(DEFERRED)) {
    test(`kb ${command}: no module it loads uses the global Buffer (its first use costs start-up time)`, () => {
      const users = [...loadedBy(command).keys()].filter((m) => m.startsWith('src/') && /(?<![\w.])Buffer\s*\./.test(stripComments(readFileSync(join(REPO, m), 'utf8'))));
      expect(users).toEqual([]);
    });
  }

  test("a search's rendering, loaded when a search runs, does not load learn's (render/learn.ts and what it brings)", () => {
    const loaded = reach(['src/render/search.ts'], staticEdges);
    const found = ['src/render/learn.ts', 'src/render/listing.ts', 'src/kb/index/sentences.ts'].flatMap((m) => named(loaded, m).map((chain) => chain.join(' -> ')));
    expect(found).toEqual([]);
  });

  test('the graph is seen: kb schema loads the configuration, the quick question and the learn tool; kb prompt the walk', () => {
    const loaded = loadedBy('schema');
    for (const m of ['src/cli/main.ts', 'src/app/knowledge-base.ts', 'src/config/load.ts', 'src/kb/index/quick-learnable.ts', 'src/app/tools/learn.ts', 'src/app/tools/names.ts']) expect(loaded.has(m)).toBe(true);
    expect(loadedBy('prompt').has('src/kb/fs/walk.ts')).toBe(true);
  });
});
