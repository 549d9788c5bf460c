import { describe, expect, test } from 'bun:test';
import { chmodSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type ReadContext, readConfigFile } from '../../../src/config/files.ts';
import { merge, toPlain } from '../../../src/config/merge.ts';
import { tree } from './tmp.ts';

/** Reads one file; returns what was merged from it, the files read and the
 *  diagnostics. */
async function read(root: string, file: string) {
  const ctx: ReadContext = { root, files: [], diagnostics: [] };
  const layers = await readConfigFile(join(root, file), ctx);
  return {
    layers,
    kb: (toPlain(merge(layers)) as { kb?: unknown }).kb,
    files: ctx.files.map((f) => f.slice(root.length + 1)),
    diagnostics: ctx.diagnostics,
  };
}

describe('reading a file', () => {
  test('only kb and the directives are read; other keys are ignored', async () => {
    const root = tree({ 'c.toml': 'config_load_paths = ["p"]\n[assistant]\nname = "x"\n[kb.topic.a]\nsubjects = "a"\n' });
    const r = await read(root, 'c.toml');
    expect(r.kb).toEqual({ topic: { a: { subjects: 'a' } } });
    expect(r.layers.map((l) => l.loadPaths)).toEqual([['p']]);
    expect(r.layers[0].origin).toMatchObject({ source: join(root, 'c.toml'), label: 'c.toml', format: 'toml' });
    expect(r.diagnostics).toEqual([]);
  });

  test('a missing file yields nothing and is not listed', async () => {
    expect(await read(tree({}), 'none.toml')).toEqual({ layers: [], kb: undefined, files: [], diagnostics: [] });
  });

  test('a syntax error contributes nothing', async () => {
    const r = await read(tree({ 'c.toml': '[kb.topic.a]\nsubjects = \n' }), 'c.toml');
    expect(r.layers).toEqual([]);
    expect(r.files).toEqual(['c.toml']);
    expect(r.diagnostics.map((d) => [d.code, d.where])).toEqual([['toml-syntax', 'c.toml:2:12']]);
  });

  test('JSON files by extension', async () => {
    const r = await read(tree({ 'c.json': '{"kb": {"topic": {"a": {"subjects": "a"}}}, "inherit": false}' }), 'c.json');
    expect(r.kb).toEqual({ topic: { a: { subjects: 'a' } } });
    expect(r.layers[0].inherit).toBe(false);
    expect(r.layers[0].origin.format).toBe('json');
  });

  test('a directory where a file is expected: read-error', async () => {
    const r = await read(tree({ 'c.toml/': '' }), 'c.toml');
    expect(r.layers).toEqual([]);
    expect(r.diagnostics.map((d) => [d.severity, d.code, d.where])).toEqual([['error', 'read-error', 'c.toml']]);
  });

  test.each([
    ['extends = "x.toml"', '`extends` must be an array of paths, got string'],
    ['extends = [1]', '`extends.0` must be a path or a table { path, strategy }, got integer'],
    ['inherit = "no"', '`inherit` must be a boolean, got string'],
    ['config_load_paths = ".jp/x"', '`config_load_paths` must be an array of strings, got string'],
  ])('directive of the wrong type: %s', async (line, message) => {
    const r = await read(tree({ 'c.toml': `# header\n${line}\n` }), 'c.toml');
    expect(r.diagnostics).toEqual([{ severity: 'error', code: 'wrong-type', message, where: 'c.toml:2' }]);
    expect(r.layers).toHaveLength(1);
    expect(r.layers[0].loadPaths).toBeUndefined();
    expect(r.layers[0].inherit).toBeUndefined();
  });
});

describe('NOTES 20: extends', () => {
  test('extended files load before the declaring file, which wins; paths are relative to it', async () => {
    const root = tree({
      'conf/main.toml': 'extends = ["base.toml", "../shared/more.toml"]\n[kb.topic.a]\ntitle = "main"\n',
      'conf/base.toml': '[kb.topic.a]\ntitle = "base"\nsubjects = "s"\n',
      'shared/more.toml': '[kb.topic.a]\nintroduction = "more"\ntitle = "more"\n',
    });
    const r = await read(root, 'conf/main.toml');
    expect(r.kb).toEqual({ topic: { a: { title: 'main', subjects: 's', introduction: 'more' } } });
    expect(r.layers.map((l) => l.origin.label)).toEqual(['conf/base.toml', 'shared/more.toml', 'conf/main.toml']);
    expect(r.files).toEqual(['conf/main.toml', 'conf/base.toml', 'shared/more.toml']);
  });

  test('recursively', async () => {
    const root = tree({
      'a.toml': 'extends = ["b.toml"]\n[kb.topic.x]\nlearned = ["a"]\n',
      'b.toml': 'extends = ["c.toml"]\n[kb.topic.x]\ntitle = "b"\n',
      'c.toml': '[kb.topic.x]\ntitle = "c"\nsubjects = "c"\n',
    });
    const r = await read(root, 'a.toml');
    expect(r.layers.map((l) => l.origin.label)).toEqual(['c.toml', 'b.toml', 'a.toml']);
    expect(r.kb).toEqual({ topic: { x: { title: 'b', subjects: 'c', learned: ['a'] } } });
  });

  // jp_config util.rs `load_optional_paths`: the `glob` crate's defaults
  // (`require_literal_leading_dot` off) let `*` match hidden files.
  test('globs expand in code-unit order; hidden files match too', async () => {
    const root = tree({
      'main.toml': 'extends = ["config.d/**/*.toml"]\n',
      'config.d/b.toml': '[kb.topic.t]\nlearned = ["b"]\n',
      'config.d/B.toml': '[kb.topic.t]\nlearned = ["B"]\n',
      'config.d/a/z.toml': '[kb.topic.t]\nlearned = ["a/z"]\n',
      'config.d/a-b.toml': '[kb.topic.t]\nlearned = ["a-b"]\n',
      'config.d/.hidden.toml': '[kb.topic.t]\nlearned = ["hidden"]\n',
      'config.d/notes.md': 'not toml',
    });
    const r = await read(root, 'main.toml');
    expect(r.layers.map((l) => l.origin.label)).toEqual([
      'config.d/.hidden.toml',
      'config.d/B.toml',
      'config.d/a-b.toml',
      'config.d/a/z.toml',
      'config.d/b.toml',
      'main.toml',
    ]);
    expect(r.kb).toEqual({ topic: { t: { learned: ['b'] } } });
    expect(r.diagnostics).toEqual([]);
  });

  // jp_config util.rs `ExtendsStack::try_push`: a glob matching the
  // declaring file re-enters it, a cycle.
  test('a glob matching the declaring file is a cycle; the other matches load', async () => {
    const root = tree({ 'main.toml': 'extends = ["*.toml"]\n', 'other.toml': '' });
    const r = await read(root, 'main.toml');
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([['extends-cycle', 'extends cycle: main.toml -> main.toml']]);
    expect(r.files).toEqual(['main.toml', 'other.toml']);
  });

  test('a single-level glob does not descend', async () => {
    const root = tree({ 'main.toml': 'extends = ["d/*.toml"]\n', 'd/x.toml': '', 'd/sub/y.toml': '' });
    expect((await read(root, 'main.toml')).files).toEqual(['main.toml', 'd/x.toml']);
  });

  test('a glob matching nothing is silent; a missing plain path warns', async () => {
    const root = tree({ 'main.toml': 'extends = [\n  "none/*.toml",\n  "gone.toml",\n]\n[kb.topic.a]\nsubjects = "a"\n' });
    const r = await read(root, 'main.toml');
    expect(r.kb).toEqual({ topic: { a: { subjects: 'a' } } });
    expect(r.diagnostics).toEqual([
      { severity: 'warning', code: 'extends-not-found', message: 'extended file not found: gone.toml (resolved to gone.toml)', where: 'main.toml:1' },
    ]);
  });

  test('a cycle is an extends-cycle error naming the chain; the rest still loads', async () => {
    const root = tree({
      'a.toml': 'extends = ["b.toml"]\n[kb.topic.t]\ntitle = "a"\n',
      'b.toml': '# loops back\nextends = ["c.toml"]\n[kb.topic.t]\nsubjects = "b"\n',
      'c.toml': 'extends = ["a.toml"]\n[kb.topic.t]\nintroduction = "c"\n',
    });
    const r = await read(root, 'a.toml');
    expect(r.diagnostics).toEqual([{ severity: 'error', code: 'extends-cycle', message: 'extends cycle: a.toml -> b.toml -> c.toml -> a.toml', where: 'c.toml:1' }]);
    expect(r.kb).toEqual({ topic: { t: { title: 'a', subjects: 'b', introduction: 'c' } } });
  });

  test('a file extending itself, also through a symlink', async () => {
    const root = tree({ 'a.toml': 'extends = ["a.toml", "link.toml"]\n' });
    symlinkSync(join(root, 'a.toml'), join(root, 'link.toml'));
    expect((await read(root, 'a.toml')).diagnostics.map((d) => d.message)).toEqual(['extends cycle: a.toml -> a.toml', 'extends cycle: a.toml -> link.toml']);
  });

  test('a diamond is not a cycle', async () => {
    const root = tree({
      'a.toml': 'extends = ["b.toml", "c.toml"]\n',
      'b.toml': 'extends = ["d.toml"]\n',
      'c.toml': 'extends = ["d.toml"]\n',
      'd.toml': '[kb.topic.d]\nsubjects = "d"\n',
    });
    const r = await read(root, 'a.toml');
    expect(r.diagnostics).toEqual([]);
    expect(r.layers.map((l) => l.origin.label)).toEqual(['d.toml', 'b.toml', 'd.toml', 'c.toml', 'a.toml']);
  });

  test('inherit is recorded on the layer of the file that sets it', async () => {
    const root = tree({ 'a.toml': 'inherit = false\nextends = ["b.toml"]\n', 'b.toml': 'inherit = true\n' });
    expect((await read(root, 'a.toml')).layers.map((l) => [l.origin.label, l.inherit])).toEqual([
      ['b.toml', true],
      ['a.toml', false],
    ]);
  });

  // jp_config types/extending_path.rs `ExtendingRelativePath`, util_tests.rs
  // "complex extends": `before` entries, the file, then `after` entries.
  test('extends tables: strategy "before" (the default) and "after"', async () => {
    const root = tree({
      'config.toml': 'extends = ["one.toml", { path = "two.toml", strategy = "before" }, { path = "three.toml", strategy = "after" }]\n',
      'one.toml': 'extends = [{ path = "four.toml", strategy = "before" }]\n',
      'two.toml': '',
      'three.toml': '',
      'four.toml': '',
    });
    const r = await read(root, 'config.toml');
    expect(r.diagnostics).toEqual([]);
    expect(r.layers.map((l) => l.origin.label)).toEqual(['four.toml', 'one.toml', 'two.toml', 'config.toml', 'three.toml']);
  });

  test.each([
    ['extends = [{ strategy = "after" }]', '`extends.0` must be a table with a `path`, got table'],
    ['extends = [{ path = "x.toml", strategy = "later" }]', '`extends.0.strategy` must be "before" or "after", got string'],
    ['extends = [{ path = "x.toml", mode = 1 }]', '`extends.0.mode` must be a table with only `path` and `strategy`, got integer'],
  ])('a bad extends table: %s', async (line, message) => {
    const r = await read(tree({ 'c.toml': line, 'x.toml': '' }), 'c.toml');
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([['wrong-type', message]]);
    expect(r.files).toEqual(['c.toml']);
  });

  test('an unreadable extended file is reported', async () => {
    const root = tree({ 'a.toml': 'extends = ["b.toml"]\n', 'b.toml': '[kb]\n' });
    chmodSync(join(root, 'b.toml'), 0o000);
    const r = await read(root, 'a.toml');
    chmodSync(join(root, 'b.toml'), 0o644);
    // root can read anything; everyone else gets a read-error
    if (process.getuid?.() !== 0) expect(r.diagnostics.map((d) => d.code)).toEqual(['read-error']);
    else expect(r.diagnostics).toEqual([]);
  });
});
