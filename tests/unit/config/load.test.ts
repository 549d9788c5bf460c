import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { type LoadOptions, loadConfig } from '../../../src/config/load.ts';
import type { Config } from '../../../src/config/types.ts';
import { ConfigError, KbError, UsageError } from '../../../src/shared/errors.ts';
import { tree } from './tmp.ts';

/** A workspace `ws` (with `.jp/`) and a home directory `home` under `dir`. */
function setup(files: Record<string, string>) {
  const dir = tree({ 'ws/.jp/': '', 'home/': '', ...files });
  const base = (over: Partial<LoadOptions> = {}): LoadOptions => ({
    cwd: join(dir, 'ws'),
    cfg: [],
    knowledge: [],
    env: {},
    home: join(dir, 'home'),
    ...over,
  });
  return { dir, ws: join(dir, 'ws'), load: (over: Partial<LoadOptions> = {}) => loadConfig(base(over)) };
}

/** What `fn` throws (or the promise it returns rejects with). */
async function thrown(fn: () => unknown): Promise<KbError> {
  try {
    await fn();
  } catch (err) {
    return err as KbError;
  }
  throw new Error('did not throw');
}

/** Layer `level` sets the title of topics t<level> and above, so topic t<k>
 *  shows which layer won among those that set it: L<k> when order holds. */
function titles(level: number, last = 8): string {
  let out = '';
  for (let j = level; j <= last; j++) out += `[kb.topic.t${j}]\ntitle = "L${level}"\n`;
  return out;
}

describe('NOTES 20: layer order', () => {
  const { ws, dir, load } = setup({
    'home/.config/jp/config.toml': Array.from({ length: 9 }, (_, j) => `[kb.topic.t${j}]\nsubjects = "s${j}"\ntitle = "L0"\n`).join(''),
    'ws/.jp/config.toml': titles(1),
    'ws/.jp/config.json': JSON.stringify({ kb: { topic: Object.fromEntries([2, 3, 4, 5, 6, 7, 8].map((j) => [`t${j}`, { title: 'L2' }])) } }),
    'ws/.jp.toml': titles(3),
    'ws/a/.jp.toml': titles(4),
    'ws/a/b/.jp.toml': titles(5),
    'ws/a/b/seven.toml': titles(7),
  });
  let config: Config;
  beforeAll(async () => {
    config = await load({
      cwd: join(ws, 'a/b'),
      env: { JP_CFG_KB_TOPIC_T6_TITLE: 'L6', JP_CFG_KB_TOPIC_T7_TITLE: 'L6', JP_CFG_KB_TOPIC_T8_TITLE: 'L6' },
      cfg: ['seven.toml', 'kb.topic.t8.title=L8'],
    });
  });

  test('global < workspace < its JSON twin < .jp.toml root..cwd < env < --cfg left to right', () => {
    expect(config.diagnostics).toEqual([]);
    expect(config.root).toBe(ws);
    expect(config.topics.map((t) => [t.id, t.title])).toEqual(Array.from({ length: 9 }, (_, k) => [`t${k}`, `L${k}`]));
  });

  test('sources name the layer that set each field', () => {
    expect(config.topics.map((t) => t.sources.title)).toEqual([
      join(dir, 'home/.config/jp/config.toml'),
      join(ws, '.jp/config.toml'),
      join(ws, '.jp/config.json'),
      join(ws, '.jp.toml'),
      join(ws, 'a/.jp.toml'),
      join(ws, 'a/b/.jp.toml'),
      'env JP_CFG_KB_TOPIC_T6_TITLE',
      join(ws, 'a/b/seven.toml'),
      '--cfg kb.topic.t8.title=L8',
    ]);
    expect(config.topics[0].sources.subjects).toBe(join(dir, 'home/.config/jp/config.toml'));
    // where: relative inside the root, absolute outside
    expect(config.topics[0].where?.title).toBe(`${join(dir, 'home/.config/jp/config.toml')}:3`);
    expect(config.topics[1].where?.title).toBe('.jp/config.toml:2');
    expect(config.topics[5].where?.title).toBe('a/b/.jp.toml:2');
  });

  test('files lists what was read, lowest precedence first', () => {
    expect(config.files).toEqual([
      join(dir, 'home/.config/jp/config.toml'),
      join(ws, '.jp/config.toml'),
      join(ws, '.jp/config.json'),
      join(ws, '.jp.toml'),
      join(ws, 'a/.jp.toml'),
      join(ws, 'a/b/.jp.toml'),
      join(ws, 'a/b/seven.toml'),
    ]);
  });

  test('only the .jp.toml files between the root and cwd are read', async () => {
    expect((await load({ cwd: join(ws, 'a') })).topics.map((t) => t.title)).toEqual(['L0', 'L1', 'L2', 'L3', 'L4', 'L4', 'L4', 'L4', 'L4']);
    expect((await load()).topics.map((t) => t.title)).toEqual(['L0', 'L1', 'L2', 'L3', 'L3', 'L3', 'L3', 'L3', 'L3']);
    // cwd outside the root (-w): no .jp.toml at all
    expect((await load({ cwd: dir, workspace: 'ws' })).topics.map((t) => t.title)).toEqual(['L0', 'L1', 'L2', 'L2', 'L2', 'L2', 'L2', 'L2', 'L2']);
  });

  test('the user-global directory follows JP_GLOBAL_CONFIG_DIR', async () => {
    const c = await load({ env: { JP_GLOBAL_CONFIG_DIR: join(dir, 'nowhere') } });
    expect(c.files[0]).toBe(join(ws, '.jp/config.toml'));
    expect(c.topics).toEqual([]); // nothing sets subjects any more
    expect((await load({ env: { XDG_CONFIG_HOME: join(dir, 'home/.config') } })).files[0]).toBe(join(dir, 'home/.config/jp/config.toml'));
  });
});

describe('NOTES 20: inherit = false', () => {
  const { ws, load } = setup({
    'home/.config/jp/config.toml': '[kb.topic.global]\nsubjects = "g"\n',
    'ws/.jp/config.toml': '[kb.topic.workspace]\nsubjects = "w"\n',
    'ws/.jp.toml': '[kb.topic.root]\nsubjects = "r"\n',
    'ws/a/.jp.toml': 'inherit = false\nextends = ["base.toml"]\n[kb.topic.a]\nsubjects = "a"\n',
    'ws/a/base.toml': '[kb.topic.base]\nsubjects = "b"\n',
    'ws/a/b/.jp.toml': '[kb.topic.deeper]\nsubjects = "d"\n',
    'ws/reset.toml': 'inherit = false\n[kb.topic.reset]\nsubjects = "x"\n',
  });

  test('as in JP, the declaring file is authoritative: files after it are not merged; earlier ones, what it extends, env and --cfg are', async () => {
    const c = await load({ cwd: join(ws, 'a/b'), env: { JP_CFG_KB_TOPIC_ENV_SUBJECTS: 'e' }, cfg: ['kb.topic.cfg.subjects=c'] });
    expect(c.topics.map((t) => t.id)).toEqual(['global', 'workspace', 'root', 'base', 'a', 'env', 'cfg']);
  });

  test('a workspace config with inherit = false shuts out every .jp.toml', async () => {
    const s = setup({
      'ws/.jp/config.toml': 'inherit = false\n[kb.topic.workspace]\nsubjects = "w"\n',
      'ws/.jp.toml': '[kb.topic.root]\nsubjects = "r"\n',
      'ws/a/.jp.toml': '[kb.topic.workspace]\ntitle = "overridden"\n',
    });
    const c = await s.load({ cwd: join(s.ws, 'a'), knowledge: ['workspace/k'] });
    expect(c.topics.map((t) => [t.id, t.title, t.learned])).toEqual([['workspace', undefined, ['k']]]);
  });

  test('in a --cfg file it changes nothing: --cfg values after it still apply', async () => {
    const c = await load({ cfg: ['kb.topic.before.subjects=x', 'reset.toml', 'kb.topic.after.subjects=y'], knowledge: ['reset/k'] });
    expect(c.topics.map((t) => t.id)).toEqual(['global', 'workspace', 'root', 'before', 'reset', 'after']);
  });
});

describe('NOTES 21: --cfg files', () => {
  const { ws, load } = setup({
    'ws/.jp/config.toml': '[kb.topic.project]\nsubjects = ".jp/kb/project"\nlearned = ["base"]\n',
    'ws/.jp/config.d/kb/maintainers.toml': '[kb.topic.project]\nlearned = ["maintainers/*"]\n',
    'ws/.jp/config.d/kb/json.json': '{"kb": {"topic": {"project": {"title": "from json"}}}}',
    'ws/.jp/config.d/broken.toml': '[kb.topic.project\n',
    'ws/kb/maintainers.toml': '[kb.topic.project]\nlearned = ["from cwd"]\n',
    'ws/local.toml': '[kb.topic.project]\ntitle = "local"\n',
    'ws/sub/.keep': '',
    'custom/ws/.jp/config.toml': 'config_load_paths = ["cfgs", ".jp/config.d"]\n[kb.topic.p]\nsubjects = "p"\n',
    'custom/ws/cfgs/x.toml': '[kb.topic.p]\ntitle = "cfgs"\n',
    'custom/ws/.jp/config.d/x.toml': '[kb.topic.p]\ntitle = "config.d"\n',
    'custom/ws/.jp/config.d/y.toml': '[kb.topic.p]\ntitle = "y"\n',
  });
  const learned = async (cfg: string[], cwd = join(ws, 'sub')) => (await load({ cwd, cfg })).topics[0].learned;

  test('a bare path is looked up in config_load_paths with .toml optional (the RFD example)', async () => {
    expect(await learned(['kb/maintainers'])).toEqual(['maintainers/*']);
    expect(await learned(['kb/maintainers.toml'])).toEqual(['maintainers/*']);
    expect(await learned(['@kb/maintainers'])).toEqual(['maintainers/*']);
    expect((await load({ cfg: ['kb/json'], cwd: join(ws, 'sub') })).topics[0].title).toBe('from json');
  });

  test('a path relative to the working directory wins when it exists', async () => {
    expect(await learned(['kb/maintainers.toml'], ws)).toEqual(['from cwd']);
    expect(await learned(['../local.toml'])).toEqual(['base']);
    expect((await load({ cwd: join(ws, 'sub'), cfg: ['../local.toml'] })).topics[0].title).toBe('local');
  });

  test('assignments and files apply left to right', async () => {
    expect(await learned(['kb/maintainers', 'kb.topic.project.learned+=x'])).toEqual(['maintainers/*', 'x']);
    expect(await learned(['kb.topic.project.learned+=x', 'kb/maintainers'])).toEqual(['maintainers/*']);
    expect(await learned(['kb.topic.project.learned:+=["x","y"]', 'kb.topic.project.learned+=z'])).toEqual(['base', 'x', 'y', 'z']);
    expect(await learned(['kb.topic.project.learned='])).toEqual([]);
  });

  test('config_load_paths: from the configuration, relative to the root, first match wins', async () => {
    const custom = async (cfg: string[]) => (await load({ cwd: join(ws, '../custom/ws'), cfg })).topics[0].title;
    expect(await custom(['x'])).toBe('cfgs');
    expect(await custom(['y'])).toBe('y');
  });

  test('a file that cannot be found: ConfigError naming what was looked for', async () => {
    const err = await thrown(() => load({ cfg: ['kb/nope'] }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe('configuration file not found: kb/nope (looked in the working directory, then for kb/nope, kb/nope.toml or kb/nope.json in .jp/config.d)');
    expect(err.where).toBe('--cfg kb/nope');
  });

  test('a file with a syntax error is a diagnostic, not a failure', async () => {
    const c = await load({ cfg: ['broken'] });
    expect(c.diagnostics.map((d) => [d.code, d.where])).toEqual([['toml-syntax', '.jp/config.d/broken.toml:1:19']]);
    expect(c.topics.map((t) => t.id)).toEqual(['project']);
    expect(c.files).toContain(join(ws, '.jp/config.d/broken.toml'));
  });

  test('keys outside kb are accepted and ignored', async () => {
    const c = await load({ cfg: ['assistant.model.id=anthropic/x', 'conversation.title:=1'] });
    expect(c.diagnostics).toEqual([]);
    expect(c.topics).toHaveLength(1);
  });

  test('an unknown field set by --cfg is reported where it was set', async () => {
    expect((await load({ cfg: ['kb.topic.project.titel=x'] })).diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unknown-key',
        message: 'unknown key `titel` in topic `project`; did you mean `title`?',
        where: '--cfg kb.topic.project.titel=x',
        topic: 'project',
      },
    ]);
  });

  test('bad syntax is a UsageError, raised before looking for a workspace', async () => {
    const err = await thrown(() => loadConfig({ cwd: '/', workspace: '/definitely/missing', cfg: ['kb.topic.a.enable=maybe'], knowledge: [], env: {}, home: '/' }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.where).toBe('--cfg kb.topic.a.enable=maybe');
  });
});

describe('NOTES 22: JP_CFG_* variables', () => {
  const { load } = setup({ 'ws/.jp/config.toml': '[kb.topic.Code_Review]\nsubjects = "c"\nlearned = ["a"]\n' });

  test('match configured topics case-insensitively, after the files and before --cfg', async () => {
    const c = await load({ env: { JP_CFG_KB_TOPIC_CODE_REVIEW_LEARNED: '+b', JP_CFG_KB_TOPIC_NEW_SUBJECTS: 'n' }, cfg: ['kb.topic.Code_Review.learned+=c'] });
    expect(c.topics.map((t) => [t.id, t.subjects, t.learned])).toEqual([
      ['Code_Review', 'c', ['a', 'b', 'c']],
      ['new', 'n', []],
    ]);
    expect(c.topics[1].sources.subjects).toBe('env JP_CFG_KB_TOPIC_NEW_SUBJECTS');
  });

  test('a bad value is a UsageError naming the variable', async () => {
    const err = await thrown(() => load({ env: { JP_CFG_KB_TOPIC_CODE_REVIEW_ENABLE: 'nope' } }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.where).toBe('env JP_CFG_KB_TOPIC_CODE_REVIEW_ENABLE');
  });

  test('an unknown kb variable is a diagnostic; other tools\' variables are ignored', async () => {
    const c = await load({ env: { JP_CFG_KB_TOPIC_CODE_REVIEW_TITEL: 'x', JP_CFG_ASSISTANT_NAME: 'y' } });
    expect(c.diagnostics.map((d) => [d.code, d.where])).toEqual([['unknown-key', 'env JP_CFG_KB_TOPIC_CODE_REVIEW_TITEL']]);
  });
});

describe('NOTES 23: -k', () => {
  const { load } = setup({ 'ws/.jp/config.toml': '[kb.topic.project]\nsubjects = "p"\nlearned = ["a"]\n[kb.topic.skills]\nsubjects = "s"\n' });

  test('appends to learned after everything else, splitting on the first /', async () => {
    const c = await load({ knowledge: ['project/maintainers/*', 'skills/ast-grep', 'project/x'], cfg: ['kb.topic.project.learned+=b'] });
    expect(c.topics.map((t) => t.learned)).toEqual([['a', 'b', 'maintainers/*', 'x'], ['ast-grep']]);
    expect(c.topics[0].sources.learned).toBe('-k project/x');
    expect(c.topics[0].where?.learned).toBe('-k project/x');
  });

  test('a topic defined by --cfg can be used', async () => {
    expect((await load({ cfg: ['kb.topic.new.subjects=n'], knowledge: ['new/x'] })).topics[2].learned).toEqual(['x']);
  });

  test.each(['project', '/x', 'project/', ''])('%j: UsageError (exit 2)', async (value) => {
    const err = await thrown(() => load({ knowledge: [value] }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.exitCode).toBe(2);
    expect(err.where).toBe(`-k ${value}`);
    expect(err.message).toBe('expected TOPIC/PATTERN, e.g. -k "project/maintainers/*"');
  });

  test('an unknown topic is a ConfigError naming the valid ones', async () => {
    const err = await thrown(() => load({ knowledge: ['x/y'] }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe('unknown topic "x" in -k x/y; valid topics: project, skills');
    // IDs are exact
    expect(await thrown(() => load({ knowledge: ['Project/y'] }))).toBeInstanceOf(ConfigError);
  });
});

describe('NOTES 24 and file problems', () => {
  test('unknown keys and wrong types are diagnostics with file:line; other tools\' keys are ignored', async () => {
    const { load } = setup({
      'ws/.jp/config.toml': '[assistant]\nname = "jp"\n\n[kb.topic.project]\nsubjects = "p"\ntitel = "x"\nenable = "no"\n',
    });
    const c = await load();
    expect(c.diagnostics).toEqual([
      { severity: 'error', code: 'unknown-key', message: 'unknown key `titel` in topic `project`; did you mean `title`?', where: '.jp/config.toml:6', topic: 'project' },
      { severity: 'error', code: 'wrong-type', message: '`kb.topic.project.enable` must be a boolean, got string', where: '.jp/config.toml:7', topic: 'project' },
    ]);
    expect(c.topics.map((t) => [t.id, t.enable])).toEqual([['project', true]]);
  });

  test('a file with a syntax error contributes nothing; the others still load', async () => {
    const { load, ws } = setup({
      'ws/.jp/config.toml': '[kb.topic.project]\nsubjects = "p"\n',
      'ws/.jp.toml': '[kb.topic.project]\ntitle = "half"\nbad =\n',
    });
    const c = await load();
    expect(c.diagnostics.map((d) => [d.code, d.where])).toEqual([['toml-syntax', '.jp.toml:3:6']]);
    expect(c.topics.map((t) => [t.id, t.title])).toEqual([['project', undefined]]);
    expect(c.files).toEqual([join(ws, '.jp/config.toml'), join(ws, '.jp.toml')]);
  });

  test('extends in the workspace config (glob, cycle) through loadConfig', async () => {
    const { load } = setup({
      'ws/.jp/config.toml': 'extends = ["config.d/*.toml"]\n[kb.topic.a]\ntitle = "main"\n',
      'ws/.jp/config.d/1.toml': '[kb.topic.a]\nsubjects = "a"\ntitle = "one"\n',
      'ws/.jp/config.d/2.toml': 'extends = ["../config.toml"]\n',
    });
    const c = await load();
    expect(c.topics.map((t) => [t.title, t.subjects])).toEqual([['main', 'a']]);
    expect(c.diagnostics.map((d) => [d.code, d.message])).toEqual([['extends-cycle', 'extends cycle: .jp/config.toml -> .jp/config.d/2.toml -> .jp/config.toml']]);
  });

  test('no workspace: ConfigError from loadConfig', async () => {
    const { dir } = setup({});
    const err = await thrown(() => loadConfig({ cwd: dir, workspace: 'missing', cfg: [], knowledge: [], env: {}, home: dir }));
    expect(err).toBeInstanceOf(ConfigError);
  });
});
