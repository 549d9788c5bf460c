// kb reads a workspace set up for JP as JP does. Each case builds a
// workspace, runs dist/kb and checks what a user observes; the comment on
// each names the rule in JP's source (github.com/dcdpr/jp) it follows.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BINARY, fixture, run, type RunOptions, tempDir } from './harness.ts';

const SUBJECTS = { 't/a.md': 'A', 't/b.md': 'B', 't/c.md': 'C', 't/x.md': 'X', 't/z.md': 'Z' };

/** A workspace: `files` (paths relative to the root) plus subjects a, b, c,
 *  x and z in `t/`. */
function workspace(files: Record<string, string>): string {
  const root = fixture(SUBJECTS);
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), c);
  }
  return root;
}

const kb = (root: string, args: string[], opts: RunOptions = {}) => run(BINARY, root, args, opts);

interface Listed {
  id: string;
  title?: string;
  learned: string[];
}

/** `kb list`'s topics: ID, title, and the subjects marked learned. */
function listing(out: string): Listed[] {
  const topics: Listed[] = [];
  for (const line of out.split('\n')) {
    const head = /^(\S+?)(?: \((.*)\))?: /.exec(line);
    if (head) topics.push({ id: head[1], ...(head[2] !== undefined ? { title: head[2] } : {}), learned: [] });
    else if (/^ {2}\S+ .* learned$/.test(line)) topics[topics.length - 1].learned.push(line.trim().split(/\s+/)[0]);
  }
  return topics;
}

/** `kb list` in `root` (or `opts.cwd`), which must succeed. */
function list(root: string, args: string[] = [], opts: RunOptions = {}): Listed[] {
  const r = kb(root, [...args, 'list'], opts);
  expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
  return listing(r.out);
}

const TOPIC = '[kb.topic.t]\nsubjects = "t"\n';

describe('1. list values in KEY=VALUE', () => {
  // jp_config assignment.rs `try_vec` / `try_parse_vec`: a string given to a
  // list is split on commas, trimmed, empty items dropped; for `=`, for `+=`
  // (all items appended) and for a JSON string with `:=`.
  test('=, += and :="..." split on commas and drop empty items', () => {
    const root = workspace({ '.jp/config.toml': `${TOPIC}learned = ["c"]\n` });
    expect(list(root, ['--cfg', 'kb.topic.t.learned= a, ,b,'])).toEqual([{ id: 't', learned: ['a', 'b'] }]);
    expect(list(root, ['--cfg', 'kb.topic.t.learned+=a,b'])).toEqual([{ id: 't', learned: ['a', 'b', 'c'] }]);
    expect(list(root, ['--cfg', 'kb.topic.t.learned:="x, z"'])).toEqual([{ id: 't', learned: ['x', 'z'] }]);
    expect(list(root, ['--cfg', 'kb.topic.t.learned:+="x,"'])).toEqual([{ id: 't', learned: ['c', 'x'] }]);
  });

  // jp_config assignment.rs `try_vec` (`trim_index`, `vec_missing_index_error`);
  // assignment_tests.rs `test_kv_assignment_try_vec_of_strings`: KEY.N sets
  // item N, an error when it does not exist.
  test('KEY.N=VALUE sets item N; a missing item is an error', () => {
    const root = workspace({ '.jp/config.toml': `${TOPIC}learned = ["a", "b"]\n` });
    expect(list(root, ['--cfg', 'kb.topic.t.learned.1=z'])).toEqual([{ id: 't', learned: ['a', 'z'] }]);
    const r = kb(root, ['--cfg', 'kb.topic.t.learned.2=z', 'list']);
    expect(r.code).toBe(2);
    expect(r.err).toStartWith('error: unknown index 2: `kb.topic.t.learned` has 2 items (--cfg kb.topic.t.learned.2=z)\n');
    expect(r.out).toBe('');
  });
});

describe('2. more --cfg forms', () => {
  // jp_cli lib.rs `KeyValueOrPath::from_str` + jp_config assignment.rs
  // `KvAssignment::root_json`: `{...}` is a whole configuration, merged.
  test("--cfg '{...}' merges a configuration object", () => {
    const root = workspace({ '.jp/config.toml': `${TOPIC}learned = ["a"]\n` });
    expect(list(root, ['--cfg', '{"kb": {"topic": {"t": {"title": "From JSON"}, "u": {"subjects": "t", "learned": "b, c"}}}, "assistant": {"name": "x"}}'])).toEqual([
      { id: 't', title: 'From JSON', learned: ['a'] },
      { id: 'u', learned: ['b', 'c'] },
    ]);
    const bad = kb(root, ['--cfg', '{"kb": ', 'list']);
    expect(bad.code).toBe(2);
    expect(bad.err).toStartWith('error: invalid JSON');
  });

  // jp_config assignment.rs `try_from_cli`: the `:` and `+` before `=` in
  // either order.
  test('+:= and :+= are the same operator', () => {
    const root = workspace({ '.jp/config.toml': `${TOPIC}learned = ["a"]\n` });
    expect(list(root, ['--cfg', 'kb.topic.t.learned+:=["b"]', '--cfg', 'kb.topic.t.learned:+=["c"]'])).toEqual([{ id: 't', learned: ['a', 'b', 'c'] }]);
  });
});

describe('3. extends', () => {
  // jp_config types/extending_path.rs `ExtendingRelativePath`; util.rs
  // `load_config_file_with_extends`; util_tests.rs "complex extends".
  test('entries may be tables { path, strategy = "before" | "after" }', () => {
    const root = workspace({
      '.jp/config.toml': `extends = [{ path = "after.toml", strategy = "after" }, "before.toml", { path = "before2.toml" }]\n${TOPIC}title = "config"\nintroduction = "config"\n`,
      '.jp/after.toml': '[kb.topic.t]\ntitle = "after"\n',
      '.jp/before.toml': '[kb.topic.t]\nintroduction = "before"\ndescription = "before"\n',
      '.jp/before2.toml': '[kb.topic.t]\ndescription = "before2"\n',
    });
    const r = kb(root, ['--verbose', 'list']);
    expect(r.code).toBe(0);
    expect(listing(r.out)).toEqual([{ id: 't', title: 'after', learned: [] }]);
    expect(r.err).toContain('kb.topic.t.introduction set by .jp/config.toml:');
    expect(r.err).toContain('kb.topic.t.description set by .jp/before2.toml:');
  });

  // jp_config util.rs `load_optional_paths` (`glob` with its defaults:
  // `require_literal_leading_dot` off) and `ExtendsStack::try_push`.
  test('globs match hidden files; a glob matching the declaring file is a cycle', () => {
    const root = workspace({
      '.jp/config.toml': `extends = ["config.d/*.toml"]\n${TOPIC}`,
      '.jp/config.d/.private.toml': '[kb.topic.t]\ntitle = "hidden"\n',
    });
    expect(list(root)).toEqual([{ id: 't', title: 'hidden', learned: [] }]);
    const self = workspace({ '.jp/config.toml': `extends = ["*.toml"]\n${TOPIC}`, '.jp/other.toml': '' });
    const r = kb(self, ['list']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: extends cycle: .jp/config.toml -> .jp/config.toml (.jp/config.toml:1)\n');
  });
});

/** The per-user workspace directory JP would use for `root` (ID `abcde`,
 *  HOME being the workspace root under the harness). */
function userWorkspace(root: string): string {
  writeFileSync(join(root, '.jp/.id'), 'DO NOT EDIT THIS FILE! IT IS AUTO-GENERATED BY JP.\nabcde\n');
  return join(root, '.local/share/jp/workspace', `${basename(root)}-abcde`);
}

describe('4. --cfg NAME', () => {
  // jp_cli config_pipeline.rs `resolve_cfg_args`; RFD 035: three roots (the
  // user-global config/, the workspace root, the per-user config/), the first
  // load path matching within each, all matches merged, later roots winning;
  // jp_config util.rs `find_file_in_load_path`: toml, json, json5, yaml, yml.
  test('looks in the user-global config/, the root and the per-user config/; every match merges', () => {
    const root = workspace({ '.jp/config.toml': TOPIC });
    const user = userWorkspace(root);
    const put = (p: string, c: string) => {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, c);
    };
    // The harness sets JP_GLOBAL_CONFIG_DIR to <root>/.global.
    put(join(root, '.global/config/.jp/config.d/dev.yaml'), 'kb:\n  topic:\n    t:\n      title: global\n      learned: [a]\n');
    put(join(root, '.jp/config.d/dev.toml'), '[kb.topic.t]\ntitle = "workspace"\n');
    put(join(user, 'config/.jp/config.d/dev.json5'), "{kb: {topic: {t: {title: 'user'}}}}");
    const r = kb(root, ['--verbose', '--cfg', 'dev', 'list']);
    expect(r.code).toBe(0);
    expect(listing(r.out)).toEqual([{ id: 't', title: 'user', learned: ['a'] }]);
    const read = r.err.split('\n').filter((l) => l.startsWith('debug: read ')).map((l) => l.slice(`debug: read ${root}/`.length));
    expect(read).toEqual(['.jp/config.toml', '.global/config/.jp/config.d/dev.yaml', '.jp/config.d/dev.toml', `${user.slice(root.length + 1)}/config/.jp/config.d/dev.json5`]);
  });

  // RFD 079 "Multi-root search" (`append_vec` + `vec_dedup`): the lists of
  // every file layer and JP_CFG_CONFIG_LOAD_PATHS add up; "config_load_paths
  // is read once from the base partial": a --cfg file changes no lookup.
  test('config_load_paths accumulate over files and environment; a --cfg file does not change them', () => {
    const root = workspace({
      '.jp/config.toml': `config_load_paths = ["one"]\n${TOPIC}`,
      '.jp.toml': 'config_load_paths = ["two"]\n',
      'one/a.toml': 'config_load_paths = ["three"]\n[kb.topic.t]\ntitle = "a"\n',
      'two/b.toml': '[kb.topic.t]\ntitle = "b"\n',
      'three/c.toml': '[kb.topic.t]\ntitle = "c"\n',
    });
    expect(list(root, ['--cfg', 'a', '--cfg', 'b'])[0].title).toBe('b');
    expect(list(root, ['--cfg', 'c'], { env: { JP_CFG_CONFIG_LOAD_PATHS: 'three' } })[0].title).toBe('c');
    const r = kb(root, ['--cfg', 'a', '--cfg', 'c', 'list']);
    expect(r.code).toBe(1);
    expect(r.err).toStartWith('error: configuration file not found: c (looked in the working directory, then for c with no extension or toml, json, json5, yaml, yml in ');
    // In each root: .global/config/ (JP_GLOBAL_CONFIG_DIR's config/), the root.
    expect(r.err).toEndWith(' in .global/config/one, .global/config/two, one, two) (--cfg c)\n');
  });

  // kb's own default (RFD D01's example relies on it): with no
  // config_load_paths anywhere, `.jp/config.d`.
  test('with no config_load_paths set, .jp/config.d', () => {
    const root = workspace({ '.jp/config.toml': TOPIC, '.jp/config.d/kb/maint.toml': '[kb.topic.t]\nlearned = ["x"]\n' });
    expect(list(root, ['--cfg', 'kb/maint'])).toEqual([{ id: 't', learned: ['x'] }]);
  });
});

describe('5. the user-workspace layer', () => {
  // jp_cli lib.rs `load_partial_configs_from_files`; docs/reference/configuration.md
  // "Configuration Files" 4; jp_storage lib.rs `resolve_user_dir` (the
  // directory found by its ID suffix); jp_workspace lib.rs `user_data_dir`.
  test('<user data dir>/workspace/<name>-<id>/config.* is read after the .jp.* files', () => {
    const root = workspace({ '.jp/config.toml': `${TOPIC}title = "workspace"\nintroduction = "workspace"\n`, '.jp.toml': '[kb.topic.t]\ntitle = "dir"\n' });
    const user = userWorkspace(root);
    mkdirSync(user, { recursive: true });
    writeFileSync(join(user, 'config.yml'), 'kb:\n  topic:\n    t:\n      title: mine\n');
    expect(list(root)).toEqual([{ id: 't', title: 'mine', learned: [] }]);
    // JP_USER_DATA_DIR and XDG_DATA_HOME move the data directory.
    const elsewhere = tempDir();
    mkdirSync(join(elsewhere, 'jp/workspace/old-abcde'), { recursive: true });
    writeFileSync(join(elsewhere, 'jp/workspace/old-abcde/config.toml'), '[kb.topic.t]\ntitle = "xdg"\n');
    expect(list(root, [], { env: { XDG_DATA_HOME: elsewhere } })[0].title).toBe('xdg');
    expect(list(root, [], { env: { JP_USER_DATA_DIR: join(elsewhere, 'jp') } })[0].title).toBe('xdg');
  });
});

describe('6. file formats', () => {
  // jp_config util.rs `load_config_file_at_path` / `VALID_CONFIG_FILE_EXTS`:
  // toml, json, json5, yaml, yml tried in turn, only the first read.
  test('the first of config.{toml,json,json5,yaml,yml} only', () => {
    const root = workspace({ '.jp/config.json': '{"kb": {"topic": {"t": {"subjects": "t", "title": "json"}}}}', '.jp/config.yaml': 'kb:\n  topic:\n    y:\n      subjects: t\n' });
    const r = kb(root, ['--verbose', 'list']);
    expect(listing(r.out)).toEqual([{ id: 't', title: 'json', learned: [] }]);
    expect(r.err.split('\n').filter((l) => l.startsWith('debug: read'))).toEqual([`debug: read ${join(root, '.jp/config.json')}`]);
    const yaml = workspace({ '.jp/config.yaml': 'kb:\n  topic:\n    t: &t\n      subjects: t\n    u:\n      <<: *t\n      title: merged\n' });
    expect(list(yaml)).toEqual([
      { id: 't', learned: [] },
      { id: 'u', title: 'merged', learned: [] },
    ]);
  });

  // schematic formats/json.rs `JsonFormat::parse`: an empty file is `{}`,
  // comments and trailing commas are stripped (`json_strip_comments`).
  test('JSON may hold comments and trailing commas; an empty JSON file is {}', () => {
    const root = workspace({
      '.jp/config.json': '{\n  // topics\n  "kb": {"topic": {"t": {"subjects": "t", /* here */ "learned": ["a", "b",],},},},\n  # shell style\n}\n',
      '.jp.json': '',
    });
    expect(list(root)).toEqual([{ id: 't', learned: ['a', 'b'] }]);
  });

  // kb's choice (docs/reference/configuration.md, "Where kb differs from JP"): an empty YAML file is an
  // empty configuration, as an empty TOML or JSON file is.
  test('an empty YAML file is an empty configuration', () => {
    const root = workspace({ '.jp/config.yaml': '', '.jp.toml': TOPIC });
    expect(list(root)).toEqual([{ id: 't', learned: [] }]);
  });

  test('every syntax error stops the command', () => {
    for (const [file, text, message] of [
      ['.jp/config.json', '{"kb": {"topic": }', 'error: invalid JSON'],
      ['.jp/config.yaml', 'kb: [\n', 'error: invalid YAML'],
      ['.jp/config.json5', '{kb: ', 'error: invalid JSON5'],
    ]) {
      const r = kb(workspace({ [file]: text }), ['list']);
      expect(r.code).toBe(1);
      expect(r.err).toStartWith(message);
      expect(r.err).toContain(`(${file}`);
      expect(r.out).toBe('');
    }
  });
});

describe('7. -w PATH', () => {
  // jp_cli lib.rs `load_workspace` -> jp_workspace lib.rs `Workspace::open`
  // / `find_root`: PATH is where the walk up to the nearest `.jp/` starts;
  // none is an error ("Could not locate workspace").
  test('walks up from PATH to the nearest .jp/, and fails when there is none', () => {
    const root = workspace({ '.jp/config.toml': TOPIC, 'deep/er/.keep': '' });
    const elsewhere = tempDir();
    expect(list(root, ['-w', join(root, 'deep/er')], { cwd: elsewhere })).toEqual([{ id: 't', learned: [] }]);
    const r = kb(root, ['-w', elsewhere, 'list'], { cwd: elsewhere });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`error: no workspace found: no .jp directory in ${elsewhere} or any parent (-w)\n`);
  });

  // jp_cli lib.rs `WorkspaceIdOrPath`: a value that is no path is a
  // workspace ID, found through the per-user directory's `storage` link.
  test('-w ID: the workspace with that ID', () => {
    const root = workspace({ '.jp/config.toml': TOPIC });
    const user = userWorkspace(root);
    mkdirSync(user, { recursive: true });
    symlinkSync(join(root, '.jp'), join(user, 'storage'));
    const elsewhere = tempDir();
    // HOME (the data directory's parent) stays the workspace root.
    expect(list(elsewhere, ['-w', 'abcde'], { env: { HOME: root, JP_USER_DATA_DIR: join(root, '.local/share/jp') } })).toEqual([{ id: 't', learned: [] }]);
  });
});

describe('8. environment values', () => {
  // jp_config assignment.rs `try_from_env` and
  // `test_kv_assignment_try_from_cli_env_escaped_chars`: `+` and `:` in
  // either order; `\+` and `\:` escape a literal first character; lists
  // split on commas as in 1.
  test('+ and : in either order, \\+ and \\: escapes, lists split on commas', () => {
    const root = workspace({ '.jp/config.toml': `${TOPIC}learned = ["a"]\n` });
    expect(list(root, [], { env: { JP_CFG_KB_TOPIC_T_LEARNED: ':+["b"]' } })[0].learned).toEqual(['a', 'b']);
    expect(list(root, [], { env: { JP_CFG_KB_TOPIC_T_LEARNED: '+:["b"]' } })[0].learned).toEqual(['a', 'b']);
    expect(list(root, [], { env: { JP_CFG_KB_TOPIC_T_LEARNED: '+b, c,' } })[0].learned).toEqual(['a', 'b', 'c']);
    expect(list(root, [], { env: { JP_CFG_KB_TOPIC_T_LEARNED: 'x,z' } })[0].learned).toEqual(['x', 'z']);
    expect(list(root, [], { env: { JP_CFG_KB_TOPIC_T_TITLE: '\\+plus' } })[0].title).toBe('+plus');
    expect(list(root, [], { env: { JP_CFG_KB_TOPIC_T_TITLE: '\\:colon' } })[0].title).toBe(':colon');
    expect(list(root, [], { env: { JP_CFG_KB_TOPIC_T_TITLE: ':"json"' } })[0].title).toBe('json');
  });
});

describe('9. inherit = false', () => {
  // jp_config util.rs `load_partials_with_inheritance` and RFD 079 "`inherit`
  // directive": read from the accumulated (merged) value, checked before
  // each next source; the `.jp.*` files are one source
  // (`load_partial_at_path_recursive` merges them whatever they say).
  test('between .jp.toml files it changes nothing; it keeps the sources after theirs out', () => {
    const root = workspace({
      '.jp/config.toml': TOPIC,
      '.jp.toml': 'inherit = false\n[kb.topic.t]\ntitle = "root"\n',
      'sub/.jp.toml': '[kb.topic.t]\ntitle = "sub"\n',
    });
    const user = userWorkspace(root);
    mkdirSync(user, { recursive: true });
    writeFileSync(join(user, 'config.toml'), '[kb.topic.t]\nintroduction = "user"\n');
    const r = kb(root, ['--verbose', 'list'], { cwd: join(root, 'sub') });
    expect(listing(r.out)).toEqual([{ id: 't', title: 'sub', learned: [] }]);
    expect(r.err).toContain('debug: inherit = false in .jp.toml: the user-workspace configuration and those after it are not read\n');
    expect(r.err).not.toContain('introduction');
  });

  test('set by an extended file, it keeps the .jp.toml files out; environment and --cfg still apply', () => {
    const root = workspace({
      '.jp/config.toml': `extends = ["base.toml"]\n${TOPIC}`,
      '.jp/base.toml': 'inherit = false\n',
      '.jp.toml': '[kb.topic.t]\ntitle = "dir"\n',
    });
    expect(list(root)).toEqual([{ id: 't', learned: [] }]);
    expect(list(root, ['--cfg', 'kb.topic.t.learned=a'], { env: { JP_CFG_KB_TOPIC_T_TITLE: 'env' } })).toEqual([{ id: 't', title: 'env', learned: ['a'] }]);
  });
});

describe('10. topic order', () => {
  // jp_config util.rs `merge_nested_indexmap` (maps keep insertion order):
  // an ID that looks like a number stays where it was written.
  test('topics keep configuration order even when an ID looks like a number', () => {
    const toml = workspace({ '.jp/config.toml': '[kb.topic.zeta]\nsubjects = "t"\n[kb.topic.10]\nsubjects = "t"\n[kb.topic.2]\nsubjects = "t"\n[kb.topic.alpha]\nsubjects = "t"\n' });
    expect(list(toml).map((t) => t.id)).toEqual(['zeta', '10', '2', 'alpha']);
    const json = workspace({ '.jp/config.json': '{"kb":{"topic":{"zeta":{"subjects":"t"},"10":{"subjects":"t"},"2":{"subjects":"t"}}}}' });
    expect(list(json).map((t) => t.id)).toEqual(['zeta', '10', '2']);
    const yaml = workspace({ '.jp/config.yaml': 'kb:\n  topic:\n    zeta: {subjects: t}\n    10: {subjects: t}\n' });
    expect(list(yaml).map((t) => t.id)).toEqual(['zeta', '10']);
    const cfg = workspace({ '.jp/config.toml': TOPIC });
    expect(list(cfg, ['--cfg', '{"kb":{"topic":{"zeta":{"subjects":"t"},"10":{"subjects":"t"}}}}']).map((t) => t.id)).toEqual(['t', 'zeta', '10']);
  });
});

// jp's own tests (jp commit 4c1c39f), run against kb: each names the test it
// ports by file and name.
describe("11. jp's configuration tests", () => {
  // jp_config util_tests.rs `test_load_partial_at_path_depth_cap`; util.rs
  // `MAX_EXTENDS_DEPTH` (`u8::MAX`) and `ExtendsStack::try_push`: a chain of
  // 255 files loads, one more is `ExtendsDepthExceeded`.
  test('an extends chain of 255 files loads; 256 is an error naming the chain', () => {
    const chain = (n: number) => {
      const files: Record<string, string> = { '.jp/config.toml': `extends = ["e1.toml"]\n${TOPIC}` };
      for (let i = 1; i < n; i++) files[`.jp/e${i}.toml`] = i < n - 1 ? `extends = ["e${i + 1}.toml"]\n` : '[kb.topic.t]\ntitle = "deepest"\n';
      return workspace(files);
    };
    expect(list(chain(255))).toEqual([{ id: 't', title: 'deepest', learned: [] }]);
    const r = kb(chain(256), ['list']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: extends chain longer than 255 files: .jp/config.toml -> .jp/e1.toml -> ... (252 more) -> .jp/e254.toml -> .jp/e255.toml (.jp/e254.toml:1)\n');
    expect(r.out).toBe('');
  });

  // jp_storage lib_tests.rs `picks_most_recently_modified_silo_without_slug_match`
  // and `merges_sibling_user_dirs_keeping_newest_conversation`; lib.rs
  // `choose_canonical_user_dir` and `dir_mtime`: the folder named after the
  // workspace wins; else the one whose newest entry is newest (an empty
  // folder counts its own time), whatever the folders' own times.
  test('the per-user folder: named after the workspace, else the newest file inside', () => {
    const root = workspace({ '.jp/config.toml': `${TOPIC}title = "workspace"\n` });
    writeFileSync(join(root, '.jp/.id'), 'ab12c\n');
    const parent = join(root, '.local/share/jp/workspace');
    const silo = (name: string, fileTime?: number, dirTime?: number) => {
      const dir = join(parent, name);
      mkdirSync(dir, { recursive: true });
      if (fileTime !== undefined) {
        writeFileSync(join(dir, 'config.toml'), `[kb.topic.t]\ntitle = "${name}"\n`);
        utimesSync(join(dir, 'config.toml'), fileTime, fileTime);
      }
      if (dirTime !== undefined) utimesSync(dir, dirTime, dirTime);
    };
    silo('main-ab12c', 1_000, 3_000);
    silo('feature-ab12c', 2_000, 500);
    expect(list(root)[0].title).toBe('feature-ab12c');
    silo('empty-ab12c', undefined, 2_500);
    expect(list(root)[0].title).toBe('workspace');
    silo(`${basename(root)}-ab12c`, 100, 100);
    expect(list(root)[0].title).toBe(`${basename(root)}-ab12c`);
  });

  // jp_config assignment_tests.rs `test_assign_to_entry_object_replaces_map`
  // and providers/llm_tests.rs `assign_aliases_whole_object_replaces_map`;
  // assignment.rs `assign_to_entry`: `:=` on a map (Set) clears it first.
  test('kb.topic:={...} replaces the topics', () => {
    const root = workspace({ '.jp/config.toml': '[kb.topic.p]\nsubjects = "t"\n[kb.topic.stale]\nsubjects = "t"\n' });
    expect(list(root, ['--cfg', 'kb.topic:={"q":{"subjects":"t"},"r":{"subjects":"t","learned":["a"]}}'])).toEqual([
      { id: 'q', learned: [] },
      { id: 'r', learned: ['a'] },
    ]);
  });

  // jp_config assignment_tests.rs `test_assign_to_entry_object_merges_with_plus`;
  // assignment.rs `assign_to_entry` and `try_vec` under `Strategy::Merge`:
  // `:+=` keeps the entries, and a list it reaches is appended to.
  test('kb.topic:+={...} merges: topics kept, lists appended', () => {
    const root = workspace({ '.jp/config.toml': '[kb.topic.p]\nsubjects = "t"\nlearned = ["a"]\n' });
    expect(list(root, ['--cfg', 'kb.topic:+={"q":{"subjects":"t"},"p":{"title":"P","learned":["b"]}}'])).toEqual([
      { id: 'p', title: 'P', learned: ['a', 'b'] },
      { id: 'q', learned: [] },
    ]);
    expect(list(root, ['--cfg', 'kb.topic.p:+={"learned":"c, x"}'])).toEqual([{ id: 'p', learned: ['a', 'c', 'x'] }]);
  });

  // jp_config conversation/tool_tests.rs
  // `test_tool_config_json_merge_unknown_key_errors`; assignment.rs
  // `try_merge_object` and `missing_key`: a key the object's table does not
  // hold is an error naming it (in a file it stays a warning).
  test('an unknown key in a --cfg JSON object is a usage error naming it', () => {
    const root = workspace({ '.jp/config.toml': '[kb.topic.p]\nsubjects = "t"\n' });
    const r = kb(root, ['--cfg', 'kb.topic.p:={"bogus":"val"}', 'list']);
    expect(r.code).toBe(2);
    expect(r.err).toStartWith('error: unknown key `bogus` in topic `p`; known keys: enable, title, introduction, description, subjects, learned, disabled (--cfg kb.topic.p:={"bogus":"val"})\n');
    expect(r.out).toBe('');
    const whole = kb(root, ['--cfg', '{"kb":{"topic":{"p":{"titel":"x"}}}}', 'list']);
    expect(whole.code).toBe(2);
    expect(whole.err).toStartWith('error: unknown key `titel` in topic `p`; did you mean `title`? (--cfg {"kb":{"topic":{"p":{"titel":"x"}}}})\n');
  });

  // jp_config lib_tests.rs `test_partial_app_config_assign`; lib.rs
  // `PartialAppConfig::assign` (`config_load_paths` through `try_vec`, each
  // item a string): `[true]` is a type error.
  test('config_load_paths:=[true] is a type error', () => {
    const root = workspace({ '.jp/config.toml': TOPIC });
    expect(list(root, ['--cfg', 'config_load_paths=foo,bar', '--cfg', 'inherit=true'])).toEqual([{ id: 't', learned: [] }]);
    const r = kb(root, ['--cfg', 'config_load_paths:=[true]', 'list']);
    expect(r.code).toBe(2);
    expect(r.err).toStartWith('error: `config_load_paths[0]` must be a string, got boolean (--cfg config_load_paths:=[true])\n');
  });

  // jp_config assignment_tests.rs `test_kv_assignment_try_bool`; assignment.rs
  // `try_bool` (Rust's `bool::from_str`: `true` or `false`; with `:`, a JSON
  // boolean).
  test('inherit=bar is a boolean parse error; inherit:={...} a type error', () => {
    const root = workspace({ '.jp/config.toml': TOPIC });
    const r = kb(root, ['--cfg', 'inherit=bar', 'list']);
    expect(r.code).toBe(2);
    expect(r.err).toStartWith('error: `inherit` takes true or false, got "bar" (--cfg inherit=bar)\n');
    const json = kb(root, ['--cfg', 'inherit:={"foo":"bar"}', 'list']);
    expect(json.code).toBe(2);
    expect(json.err).toStartWith('error: `inherit` must be a boolean, got table (--cfg inherit:={"foo":"bar"})\n');
    expect(list(root, ['--cfg', 'inherit:=false'])).toEqual([{ id: 't', learned: [] }]);
  });
});
