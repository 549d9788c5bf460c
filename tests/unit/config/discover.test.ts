import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { baseConfigFiles, displayPath, findWorkspace, globalConfigDir } from '../../../src/config/discover.ts';
import { ConfigError } from '../../../src/shared/errors.ts';
import { tree } from './tmp.ts';

describe('NOTES 19: workspace root', () => {
  const dir = tree({ 'ws/.jp/': '', 'ws/a/b/': '', 'ws/a/.jp': 'a file, not a directory', 'ws/nested/.jp/': '', 'ws/nested/x/': '', 'plain/': '' });

  test.each([
    ['ws', 'ws'],
    ['ws/a/b', 'ws'],
    ['ws/a', 'ws'],
    ['ws/nested/x', 'ws/nested'],
  ])('from %s the root is %s', (cwd, root) => {
    expect(findWorkspace(join(dir, cwd))).toBe(join(dir, root));
  });

  test('-w overrides discovery, relative to cwd', () => {
    expect(findWorkspace(join(dir, 'ws/nested/x'), '../..')).toBe(join(dir, 'ws'));
    expect(findWorkspace(join(dir, 'ws'), join(dir, 'plain'))).toBe(join(dir, 'plain'));
  });

  test('-w must be a directory', () => {
    expect(() => findWorkspace(dir, 'missing')).toThrow(ConfigError);
    expect(() => findWorkspace(dir, 'missing')).toThrow(`workspace is not a directory: ${join(dir, 'missing')}`);
  });

  test('no .jp anywhere: ConfigError', () => {
    // The temp directory's ancestors could hold a .jp; only check when they do not.
    let outside: string | undefined;
    try {
      outside = findWorkspace(join(dir, 'plain'));
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).exitCode).toBe(1);
      expect((err as ConfigError).message).toBe(`no workspace found: no .jp directory in ${join(dir, 'plain')} or any parent; pass -w DIR`);
    }
    if (outside !== undefined) expect(join(dir, 'plain').startsWith(outside)).toBe(true);
  });
});

describe('NOTES 20: user-global directory', () => {
  test.each([
    [{ JP_GLOBAL_CONFIG_DIR: '/g', XDG_CONFIG_HOME: '/x' }, '/g'],
    [{ JP_GLOBAL_CONFIG_DIR: '~/g' }, '/home/u/g'],
    [{ JP_GLOBAL_CONFIG_DIR: '~' }, '/home/u'],
    [{ JP_GLOBAL_CONFIG_DIR: 'rel' }, '/cwd/rel'],
    [{ JP_GLOBAL_CONFIG_DIR: '', XDG_CONFIG_HOME: '/x' }, '/x/jp'],
    [{ XDG_CONFIG_HOME: 'relative-is-ignored' }, '/home/u/.config/jp'],
    [{}, '/home/u/.config/jp'],
  ])('%j -> %s', (env, expected) => {
    expect(globalConfigDir(env, '/home/u', '/cwd')).toBe(expected);
  });
});

describe('NOTES 20: file layers, lowest first', () => {
  test('global, workspace, then .jp.toml from the root down to cwd, each with its JSON twin', () => {
    expect(baseConfigFiles('/ws', '/ws/a/b', '/g')).toEqual([
      '/g/config.toml',
      '/g/config.json',
      '/ws/.jp/config.toml',
      '/ws/.jp/config.json',
      '/ws/.jp.toml',
      '/ws/.jp.json',
      '/ws/a/.jp.toml',
      '/ws/a/.jp.json',
      '/ws/a/b/.jp.toml',
      '/ws/a/b/.jp.json',
    ]);
  });

  test('no .jp.toml files when cwd is outside the root', () => {
    expect(baseConfigFiles('/ws', '/elsewhere', '/g')).toEqual(['/g/config.toml', '/g/config.json', '/ws/.jp/config.toml', '/ws/.jp/config.json']);
    expect(baseConfigFiles('/ws', '/ws-sibling', '/g')).toHaveLength(4);
    expect(baseConfigFiles('/ws', '/ws', '/g').slice(4)).toEqual(['/ws/.jp.toml', '/ws/.jp.json']);
  });

  test('displayPath: relative inside the root, else absolute', () => {
    expect(displayPath('/ws', '/ws/.jp/config.toml')).toBe('.jp/config.toml');
    expect(displayPath('/ws', '/ws')).toBe('/ws');
    expect(displayPath('/ws', '/g/config.toml')).toBe('/g/config.toml');
    expect(displayPath('/ws', '/ws-other/x')).toBe('/ws-other/x');
    expect(displayPath('/ws', '/ws/..x/y')).toBe('..x/y');
  });
});
