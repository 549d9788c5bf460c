// What a user observes of loading on demand (src/config/toml.ts,
// src/glob/index.ts): a configuration the TOML fast path gives up on, and an
// `extends` glob, load correctly through `loadConfig` with nothing loaded
// beforehand (no test preload loads the full TOML parser or the glob
// machinery), and a simple configuration loads neither.
//
// In-process, another test file may have loaded them already (bun test runs
// the files in one process), so what is or is not imported is checked in a
// fresh `bun -e` process per case. How: bun lists every module it has loaded
// in `require.cache`, CommonJS and ES modules alike, keyed by absolute path
// (@iarna/toml and picomatch are CommonJS; src/glob/engine.ts is an ES
// module). That this is reliable is checked alongside: the listing must
// hold src/config/load.ts itself, and the cases that do need the parser or
// the glob machinery must show them loaded (so an empty or stale listing
// cannot pass the "not loaded" case).
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.ts';
import { parseSimpleToml } from '../../../src/config/toml-fast.ts';
import type { Config } from '../../../src/config/types.ts';
import { tree } from './tmp.ts';

const REPO = join(import.meta.dir, '../../..');

/** A workspace `ws` holding `files` (relative to it), and an empty home. */
function workspace(files: Record<string, string>): { ws: string; home: string } {
  const dir = tree({ 'ws/.jp/': '', 'home/': '', ...Object.fromEntries(Object.entries(files).map(([p, c]) => [`ws/${p}`, c])) });
  return { ws: join(dir, 'ws'), home: join(dir, 'home') };
}

function load(ws: string, home: string): Promise<Config> {
  return loadConfig({ cwd: ws, cfg: [], knowledge: [], env: {}, home });
}

const summary = (c: Config) => c.topics.map((t) => ({ id: t.id, title: t.title, subjects: t.subjects, learned: t.learned }));

// Configurations the fast path gives up on, each for another reason, in
// another tool's keys and in kb's own; each gives the same two topics.
const KB_TAIL = '[kb.topic.docs]\nsubjects = "docs"\ntitle = "Docs"\nlearned = ["intro", "guide/*"]\n';
const NEEDS_FULL: [string, string][] = [
  ['an inline table under another tool\'s key', `[assistant]\nmodel = { id = "anthropic/x", parameters = { temperature = 0.2 } }\n${KB_TAIL}`],
  ['a number under another tool\'s key', `[assistant]\nmax_tokens = 1024\n${KB_TAIL}`],
  ['a multi-line string with a line-ending backslash', `[assistant]\nsystem_prompt = """\\\n  You are helpful.\\\n  """\n${KB_TAIL}`],
  ['an array of tables', `[[conversation.tools]]\nname = "x"\n${KB_TAIL}`],
  ['dotted keys in kb', 'kb.topic.docs.subjects = "docs"\nkb.topic.docs.title = "Docs"\nkb.topic.docs.learned = ["intro", "guide/*"]\n'],
  ['a multi-line array in kb', '[kb.topic.docs]\nsubjects = "docs"\ntitle = "Docs"\nlearned = [\n  "intro",\n  "guide/*",\n]\n'],
];
const DOCS = [{ id: 'docs', title: 'Docs', subjects: 'docs', learned: ['intro', 'guide/*'] }];

describe('a configuration the TOML fast path gives up on', () => {
  test.each(NEEDS_FULL)('%s: loads through loadConfig', async (_, text) => {
    // The case is real: the fast path does give up on this file.
    expect(parseSimpleToml(text)).toBeUndefined();
    const { ws, home } = workspace({ '.jp/config.toml': text });
    const c = await load(ws, home);
    expect(c.diagnostics).toEqual([]);
    expect(summary(c)).toEqual(DOCS);
    expect(c.files).toEqual([join(ws, '.jp/config.toml')]);
  });

  test('a syntax error in such a file is still a diagnostic with a position', async () => {
    const text = '[assistant]\nmax_tokens = 1024\n[kb.topic.docs]\nsubjects = "docs"\ntitle = = "x"\n';
    expect(parseSimpleToml(text)).toBeUndefined();
    const { ws, home } = workspace({ '.jp/config.toml': text });
    const c = await load(ws, home);
    expect(c.diagnostics.map((d) => [d.code, d.where])).toEqual([['toml-syntax', '.jp/config.toml:5:9']]);
    expect(c.topics).toEqual([]);
  });
});

describe('an extends glob in .jp/config.toml', () => {
  test('loads the matched files in sorted (code-unit) order, before the declaring file', async () => {
    const { ws, home } = workspace({
      '.jp/config.toml': 'extends = ["conf.d/*.toml"]\n[kb.topic.t]\nsubjects = "t"\n',
      '.jp/conf.d/b.toml': '[kb.topic.t]\ntitle = "b"\n',
      '.jp/conf.d/a.toml': '[kb.topic.t]\ntitle = "a"\nlearned = ["from-a"]\n',
      '.jp/conf.d/B.toml': '[kb.topic.t]\ntitle = "B"\n',
      '.jp/conf.d/10.toml': '[kb.topic.t]\ntitle = "10"\nintroduction = "ten"\n',
      '.jp/conf.d/notes.md': 'not a match',
      '.jp/conf.d/sub/deeper.toml': '[kb.topic.t]\ntitle = "deeper"\n',
      '.jp/conf.d/.hidden.toml': '[kb.topic.t]\ntitle = "hidden"\n',
    });
    const c = await load(ws, home);
    expect(c.diagnostics).toEqual([]);
    // Hidden files match, as in JP (its `glob` crate's defaults).
    expect(c.files).toEqual(['config.toml', 'conf.d/.hidden.toml', 'conf.d/10.toml', 'conf.d/B.toml', 'conf.d/a.toml', 'conf.d/b.toml'].map((f) => join(ws, '.jp', f)));
    // The last matched file sets the title; each field comes from the file
    // that set it last.
    expect(summary(c)).toEqual([{ id: 't', title: 'b', subjects: 't', learned: ['from-a'] }]);
    expect(c.topics[0].sources).toEqual({
      subjects: join(ws, '.jp/config.toml'),
      title: join(ws, '.jp/conf.d/b.toml'),
      learned: join(ws, '.jp/conf.d/a.toml'),
      introduction: join(ws, '.jp/conf.d/10.toml'),
    });
  });

  test('a glob matching nothing is silent', async () => {
    const { ws, home } = workspace({ '.jp/config.toml': 'extends = ["conf.d/*.toml"]\n[kb.topic.t]\nsubjects = "t"\n' });
    const c = await load(ws, home);
    expect(c.diagnostics).toEqual([]);
    expect(c.files).toEqual([join(ws, '.jp/config.toml')]);
    expect(c.topics.map((t) => t.id)).toEqual(['t']);
  });
});

describe('a configuration with neither', () => {
  test('loads (a plain extends path too)', async () => {
    const text = 'extends = ["base.toml"]\n[kb.topic.docs]\ntitle = "Docs"\nlearned = ["intro", "guide/*"]\n';
    expect(parseSimpleToml(text)).toBeDefined();
    const { ws, home } = workspace({ '.jp/config.toml': text, '.jp/base.toml': '[kb.topic.docs]\nsubjects = "docs"\ntitle = "Base"\n' });
    const c = await load(ws, home);
    expect(c.diagnostics).toEqual([]);
    expect(summary(c)).toEqual(DOCS);
    expect(c.files).toEqual([join(ws, '.jp/config.toml'), join(ws, '.jp/base.toml')]);
  });
});

describe('what loading imports (a fresh bun process per case)', () => {
  /** Loads the workspace's configuration in a fresh `bun -e` process; its
   *  topics, its diagnostics, and which of the lazily loaded modules are then
   *  in bun's module registry (`require.cache`). */
  function loadFresh(files: Record<string, string>) {
    const { ws, home } = workspace(files);
    const script = `
      const { loadConfig } = await import(${JSON.stringify(join(REPO, 'src/config/load.ts'))});
      const config = await loadConfig({ cwd: ${JSON.stringify(ws)}, cfg: [], knowledge: [], env: {}, home: ${JSON.stringify(home)} });
      const keys = Object.keys(require.cache);
      const has = (part) => keys.some((k) => k.replaceAll('\\\\', '/').includes(part));
      console.log(JSON.stringify({
        registry: has('/src/config/load.ts'),
        toml: has('/node_modules/@iarna/toml/'),
        picomatch: has('/node_modules/picomatch/'),
        engine: has('/src/glob/engine.ts'),
        yaml: has('/node_modules/yaml/'),
        json5: has('/node_modules/json5/'),
        topics: config.topics.map((t) => [t.id, t.title ?? null]),
        diagnostics: config.diagnostics.map((d) => d.code),
      }));
    `;
    // cwd: the workspace, away from the repository's bunfig.toml.
    const r = spawnSync(process.execPath, ['-e', script], { cwd: ws, encoding: 'utf8', timeout: 20_000 });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    return JSON.parse(r.stdout) as Record<string, unknown>;
  }

  const SIMPLE = 'extends = ["base.toml"]\n[kb.topic.docs]\nsubjects = "docs"\ntitle = "Docs"\nlearned = ["intro", "guide/*"]\n';

  test('a simple configuration imports neither @iarna/toml nor picomatch (nor the glob engine)', () => {
    const r = loadFresh({ '.jp/config.toml': SIMPLE, '.jp/base.toml': '[kb.topic.base]\nsubjects = "b"\n', '.jp.toml': '[kb.topic.docs]\ndisabled = ["old"]\n' });
    expect(r).toEqual({ registry: true, toml: false, picomatch: false, engine: false, yaml: false, json5: false, topics: [['base', null], ['docs', 'Docs']], diagnostics: [] });
  }, 30_000);

  test('control: a file the fast path gives up on imports @iarna/toml, and only it', () => {
    const r = loadFresh({ '.jp/config.toml': `[assistant]\nmax_tokens = 1024\n${KB_TAIL}` });
    expect(r).toEqual({ registry: true, toml: true, picomatch: false, engine: false, yaml: false, json5: false, topics: [['docs', 'Docs']], diagnostics: [] });
  }, 30_000);

  test('control: an extends glob imports picomatch, and not @iarna/toml', () => {
    const r = loadFresh({ '.jp/config.toml': 'extends = ["conf.d/*.toml"]\n', '.jp/conf.d/a.toml': KB_TAIL });
    expect(r).toEqual({ registry: true, toml: false, picomatch: true, engine: true, yaml: false, json5: false, topics: [['docs', 'Docs']], diagnostics: [] });
  }, 30_000);

  test('control: a YAML file imports yaml, a JSON5 file json5, and only it', () => {
    const y = loadFresh({ '.jp/config.yaml': 'kb:\n  topic:\n    docs:\n      subjects: docs\n      title: Docs\n' });
    expect(y).toEqual({ registry: true, toml: false, picomatch: false, engine: false, yaml: true, json5: false, topics: [['docs', 'Docs']], diagnostics: [] });
    const j = loadFresh({ '.jp/config.json5': "{kb: {topic: {docs: {subjects: 'docs', title: 'Docs',},},},}" });
    expect(j).toEqual({ registry: true, toml: false, picomatch: false, engine: false, yaml: false, json5: true, topics: [['docs', 'Docs']], diagnostics: [] });
  }, 30_000);
});
