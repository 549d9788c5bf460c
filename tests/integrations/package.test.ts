// The npm package: dist/kb bundles every library kb uses, so the package
// has no runtime dependency and installing it adds kb alone, from the
// tarball, with an empty npm cache and no registry (what pre-commit's
// `language: node` does with it after `npm pack`).
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, REPO, baseEnv, describeWith, tempDir } from './lib.ts';

const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('package.json', () => {
  test('declares no runtime dependency: every library is bundled into dist/kb', () => {
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies']) {
      expect([field, manifest[field]]).toEqual([field, undefined]);
    }
    expect(manifest.bin).toEqual({ kb: 'dist/kb' });
    expect(manifest.files).toEqual(['dist/kb']);
  });
});

describeWith(['npm'], 'npm pack, then npm install -g of the tarball', () => {
  test('adds one package, with an empty cache and offline, and its kb runs', () => {
    const home = tempDir();
    const out = tempDir();
    const prefix = tempDir();
    // --ignore-scripts: pack the dist/kb this run tests (npm test builds it)
    // rather than building it again in prepack.
    const env = baseEnv(home, { npm_config_cache: join(home, 'empty-cache'), npm_config_offline: 'true', npm_config_update_notifier: 'false' });
    const run = (args: string[]) => {
      const r = spawnSync('npm', args, { cwd: REPO, env, encoding: 'utf8', timeout: 120_000 });
      if (r.error) throw r.error;
      return { code: r.status, out: r.stdout, all: `${r.stdout}${r.stderr}` };
    };
    const pack = run(['pack', '--ignore-scripts', '--pack-destination', out]);
    expect(pack.all).toContain('kb-1.0.0.tgz');
    expect(pack.code).toBe(0);
    const install = run(['install', '-g', '--no-audit', '--no-fund', '--prefix', prefix, join(out, 'kb-1.0.0.tgz')]);
    expect(install.all).toContain('added 1 package');
    expect(install.code).toBe(0);
    expect(readdirSync(join(prefix, 'lib/node_modules'))).toEqual(['kb']);
    expect(readdirSync(join(prefix, 'bin'))).toEqual(['kb']);
    const kb = spawnSync(join(prefix, 'bin/kb'), ['--version'], { encoding: 'utf8' });
    const built = spawnSync(BIN, ['--version'], { encoding: 'utf8' });
    expect(kb.stdout).toBe(built.stdout);
    expect(kb.status).toBe(0);
  }, 120_000);
});
