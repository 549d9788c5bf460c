// The npm route (docs/guide/install.md): the `kb` package and the platform
// packages (scripts/lib/npm-packages.mjs), published to a local registry
// (verdaccio, a devDependency, started here on loopback with no uplink:
// nothing leaves the machine), then `npm install -g kb`, the same with
// --ignore-scripts, and `npx kb`. Each runs the README's first screen or
// `kb --version` through what npm installed.
//
// Only this machine's platform package holds a real binary (dist/kb, which
// npm test builds): the others hold a stand-in that says it was run by
// mistake, because building them needs Bun's runtimes for other targets,
// which come from the network (`npm run release` builds them all; docs/guide/install.md
// says what is tested where). npm must install this machine's package and
// none of the others: os, cpu and libc pick it.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { runFirstScreen, spawnRun } from '../../scripts/lib/first-screen.mjs';
import { packageName, writeNpmPackages } from '../../scripts/lib/npm-packages.mjs';
import { TARGETS, hostTarget } from '../../scripts/lib/targets.mjs';
import { BIN, REPO, baseEnv, describeWith, tempDir } from './lib.ts';

const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
const host = hostTarget();

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describeWith(['npm'], 'the npm route, from a local registry', () => {
  if (!host) throw new Error(`no released target is this machine (${process.platform}-${process.arch})`);
  const root = tempDir();
  const env = baseEnv(root, {
    npm_config_userconfig: join(root, 'npmrc'),
    npm_config_globalconfig: join(root, 'npmrc-global'),
    npm_config_cache: join(root, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    // Nothing but the local registry: any other request goes to a proxy
    // that is not there, and fails.
    npm_config_proxy: 'http://127.0.0.1:9',
    npm_config_https_proxy: 'http://127.0.0.1:9',
    npm_config_noproxy: '127.0.0.1',
  });
  let registry = '';
  let verdaccio: ChildProcess | undefined;
  const npm = (args: string[], cwd = root) => {
    const r = spawnSync('npm', [...args, '--registry', registry], { cwd, env, encoding: 'utf8', timeout: 240_000 });
    if (r.error) throw r.error;
    return { code: r.status, all: `${r.stdout}${r.stderr}` };
  };

  beforeAll(async () => {
    const port = await freePort();
    registry = `http://127.0.0.1:${port}/`;
    writeFileSync(join(root, 'npmrc-global'), '');
    writeFileSync(
      join(root, 'verdaccio.yaml'),
      [
        `storage: ${join(root, 'storage')}`,
        `auth: { htpasswd: { file: ${join(root, 'htpasswd')}, max_users: 1 } }`,
        'uplinks: {}',
        "packages: { '**': { access: $all, publish: $authenticated } }",
        'max_body_size: 1gb',
        'log: { type: stdout, format: pretty, level: error }',
        'web: { enable: false }',
        '',
      ].join('\n'),
    );
    verdaccio = spawn('node', [join(REPO, 'node_modules/verdaccio/bin/verdaccio'), '--config', join(root, 'verdaccio.yaml'), '--listen', `127.0.0.1:${port}`], { env, stdio: 'ignore' });
    const until = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${registry}-/ping`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > until) throw new Error('verdaccio did not answer within 60 s');
      await Bun.sleep(200);
    }
    const user = await fetch(`${registry}-/user/org.couchdb.user:kb`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'kb', password: 'kb-local-registry' }) });
    const { token } = (await user.json()) as { token: string };
    writeFileSync(join(root, 'npmrc'), `//127.0.0.1:${port}/:_authToken=${token}\n`);
    // This machine's package holds dist/kb; the others a stand-in.
    const standIn = join(root, 'stand-in');
    writeFileSync(standIn, '#!/bin/sh\necho "the platform package of another machine was run" >&2\nexit 3\n');
    chmodSync(standIn, 0o755);
    const binaries = TARGETS.map((target) => ({ target, path: target.name === host.name ? BIN : standIn }));
    for (const dir of writeNpmPackages({ repo: REPO, out: join(root, 'packages'), version, binaries })) {
      const r = npm(['publish', dir, '--ignore-scripts']);
      if (r.code !== 0) throw new Error(`npm publish ${dir}: ${r.all}`);
    }
  }, 600_000);

  afterAll(() => {
    verdaccio?.kill();
  });

  test('npm install -g kb adds kb and this machine\'s package alone; kb is the binary itself, and runs the README\'s first screen', () => {
    const prefix = join(root, 'global');
    const r = npm(['install', '-g', 'kb', '--prefix', prefix]);
    expect(r.all).toContain('added 2 packages');
    expect(r.code).toBe(0);
    expect(readdirSync(join(prefix, 'lib/node_modules/kb/node_modules'))).toEqual([packageName(host)]);
    // The postinstall step made bin/kb the platform binary (a hard link):
    // no Node.js start before kb's.
    const kb = join(prefix, 'bin/kb');
    expect(lstatSync(kb).isSymbolicLink()).toBe(true);
    expect(statSync(realpathSync(kb)).ino).toBe(statSync(join(prefix, 'lib/node_modules/kb/node_modules', packageName(host), 'bin/kb')).ino);
    expect(spawnSync(kb, ['--version'], { encoding: 'utf8' }).stdout).toBe(spawnSync(BIN, ['--version'], { encoding: 'utf8' }).stdout);
    const { results } = runFirstScreen(REPO, spawnRun([kb], env), tempDir());
    expect(results.map((x) => [x.line, x.out, x.err, x.code])).toEqual(results.map((x) => [x.line, x.expected, '', 0]));
  }, 300_000);

  test('with --ignore-scripts, the Node.js launcher runs the same binary', () => {
    const prefix = join(root, 'global-no-scripts');
    const r = npm(['install', '-g', 'kb', '--prefix', prefix, '--ignore-scripts']);
    expect(r.code).toBe(0);
    const kb = join(prefix, 'bin/kb');
    expect(readFileSync(kb, 'utf8').slice(0, 19)).toBe('#!/usr/bin/env node');
    const v = spawnSync(kb, ['--version'], { env, encoding: 'utf8' });
    expect([v.stdout, v.stderr, v.status]).toEqual([spawnSync(BIN, ['--version'], { encoding: 'utf8' }).stdout, '', 0]);
    // Its exit code is kb's: a usage error exits 2.
    const bad = spawnSync(kb, ['frobnicate'], { env, encoding: 'utf8' });
    expect([bad.status, bad.stderr.split('\n')[0]]).toEqual([2, expect.stringContaining('error: unknown command "frobnicate"')]);
    const { results } = runFirstScreen(REPO, spawnRun([kb], env), tempDir());
    expect(results.map((x) => [x.line, x.out, x.code])).toEqual(results.map((x) => [x.line, x.expected, 0]));
  }, 300_000);

  test('npx kb runs it', () => {
    const dir = join(root, 'npx');
    mkdirSync(dir);
    const r = spawnSync('npx', ['--yes', '--registry', registry, 'kb', '--version'], { cwd: dir, env, encoding: 'utf8', timeout: 240_000 });
    expect([r.stdout, r.status]).toEqual([spawnSync(BIN, ['--version'], { encoding: 'utf8' }).stdout, 0]);
  }, 300_000);
});
