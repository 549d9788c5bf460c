// The kb-check hook with the real pre-commit framework, in temporary git
// repositories, in the two set-ups the docs show (docs/guide/assistants.md) (its YAML is used as
// written): `repo: local` with the kb binary on PATH, and `repo:` this
// repository, which pre-commit installs with `language: node` (npm install,
// npm pack -> the prepack build, npm install -g). A good knowledge base
// passes; a misspelled key and a missing subjects directory fail with
// kb check's own messages.
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { RFD_CONFIG, RFD_FILES, fixture } from '../e2e/harness.ts';
import { BIN, REPO, baseEnv, codeBlocks, describeWith, kbBinDir, pathWithoutKb, integrationsDoc, sh, tempDir } from './lib.ts';

const CONFIG = `${RFD_CONFIG}
[kb.topic.docs]
title = "Project documentation"
subjects = "docs/knowledge"
`;
const FILES = { ...RFD_FILES, 'docs/knowledge/setup.md': 'Run npm ci.\n', 'src/main.txt': 'code\n' };

const MISSPELLED = CONFIG.replace('subjects = "docs/knowledge"', 'subjcts = "docs/knowledge"');
const MISSING_DIR = CONFIG.replace('subjects = "docs/knowledge"', 'subjects = "docs/knowlege"');

const section = integrationsDoc();
const yaml = codeBlocks(section, 'yaml');
const LOCAL = yaml.find((b) => b.includes('repo: local'));
const REMOTE = yaml.find((b) => b.includes('rev:'));

describe('the docs show both pre-commit set-ups', () => {
  test('repo: local and repo: <this repository>, both with the kb-check hook', () => {
    expect(LOCAL).toContain('id: kb-check');
    expect(LOCAL).toContain('entry: kb check');
    expect(LOCAL).toContain('pass_filenames: false');
    expect(REMOTE).toContain('- id: kb-check');
    for (const block of [LOCAL, REMOTE]) expect(block).toMatch(/^ +always_run: true$/m);
    const hooks = readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8');
    expect(hooks).toContain('- id: kb-check');
    expect(hooks).toContain('pass_filenames: false');
  });

  test('the hook runs for every configuration file kb reads: .jp/ and .jp.{toml,json,json5,yaml,yml}', () => {
    const hooks = readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8');
    const files = new RegExp(/^ {2}files: (.*)$/m.exec(hooks)![1]);
    for (const path of ['.jp/config.toml', '.jp.toml', 'a/.jp.json', 'a/b/.jp.json5', '.jp.yaml', 'x/.jp.yml']) expect([path, files.test(path)]).toEqual([path, true]);
    for (const path of ['src/main.txt', 'a/.jp.txt', 'docs/x.jp.toml']) expect([path, files.test(path)]).toEqual([path, false]);
  });
});

/** A git repository holding a kb workspace and `.pre-commit-config.yaml`. */
function workspace(preCommitConfig: string, env: Record<string, string>) {
  const root = fixture(FILES, CONFIG);
  writeFileSync(join(root, '.pre-commit-config.yaml'), preCommitConfig);
  const run = (cmd: string, ...args: string[]) => {
    // coreutils timeout signals its whole process group: a hook install cut
    // short leaves no npm behind.
    const r = spawnSync('timeout', ['-k', '10', '540', cmd, ...args], { cwd: root, env, encoding: 'utf8' });
    if (r.error) throw r.error;
    return { code: r.status, all: `${r.stdout}${r.stderr}` };
  };
  expect(run('git', 'init', '-q').code).toBe(0);
  expect(run('git', 'add', '-A').code).toBe(0);
  const setConfig = (text: string) => {
    writeFileSync(join(root, '.jp/config.toml'), text);
    expect(run('git', 'add', '-A').code).toBe(0);
  };
  /** kb check's own report for the workspace as it is now. */
  const check = () => sh(BIN, ['check'], { cwd: root, env: baseEnv(root) }).out.trim();
  return { root, run, setConfig, check };
}

describeWith(['pre-commit', 'git'], 'pre-commit, repo: local (kb on PATH)', () => {
  const home = tempDir();
  const env = baseEnv(home, { PATH: `${kbBinDir()}${delimiter}${pathWithoutKb()}`, PRE_COMMIT_HOME: join(home, 'pre-commit') });

  test('a good configuration passes, as `pre-commit run` and as the installed git hook', () => {
    const w = workspace(LOCAL!, env);
    const r = w.run('pre-commit', 'run', '--all-files');
    expect(r.all).toMatch(/kb check\.+Passed/);
    expect(r.code).toBe(0);
    expect(w.run('pre-commit', 'install').code).toBe(0);
    const commit = w.run('git', 'commit', '-q', '-m', 'knowledge base');
    expect(commit.all).toMatch(/kb check\.+Passed/);
    expect(commit.code).toBe(0);

    // always_run: a change to a subject outside .jp/ runs the hook, and so
    // does a change elsewhere.
    writeFileSync(join(w.root, 'docs/knowledge/setup.md'), 'Run npm ci, then npm test.\n');
    w.run('git', 'add', '-A');
    const subject = w.run('git', 'commit', '-q', '-m', 'subject');
    expect(subject.all).toMatch(/kb check\.+Passed/);
    writeFileSync(join(w.root, 'src/main.txt'), 'more code\n');
    w.run('git', 'add', '-A');
    expect(w.run('git', 'commit', '-q', '-m', 'code').all).toMatch(/kb check\.+Passed/);
  }, 120_000);

  test('deleting the only subject a learned pattern names fails the commit (always_run)', () => {
    const w = workspace(LOCAL!, env);
    w.setConfig(CONFIG.replace('subjects = "docs/knowledge"', 'subjects = "docs/knowledge"\nlearned = ["setup"]'));
    expect(w.run('pre-commit', 'install').code).toBe(0);
    expect(w.run('git', 'commit', '-q', '-m', 'knowledge base').code).toBe(0);
    expect(w.run('git', 'rm', '-q', 'docs/knowledge/setup.md').code).toBe(0);
    const report = w.check();
    expect(report).toContain('learned pattern "setup" matches no subject');
    const commit = w.run('git', 'commit', '-q', '-m', 'remove setup');
    expect(commit.all).toMatch(/kb check\.+Failed/);
    expect(commit.all).toContain(report);
    expect(commit.code).not.toBe(0);
  }, 120_000);

  test('a misspelled key fails the commit with kb check\'s message', () => {
    const w = workspace(LOCAL!, env);
    expect(w.run('pre-commit', 'install').code).toBe(0);
    w.setConfig(MISSPELLED);
    const report = w.check();
    expect(report).toContain('unknown key `subjcts` in topic `docs`; did you mean `subjects`?');
    const commit = w.run('git', 'commit', '-q', '-m', 'typo');
    expect(commit.code).not.toBe(0);
    expect(commit.all).toMatch(/kb check\.+Failed/);
    expect(commit.all).toContain(report);
    expect(w.run('git', 'rev-list', '--all').all).toBe('');
  }, 120_000);

  test('a missing subjects directory fails with kb check\'s message', () => {
    const w = workspace(LOCAL!, env);
    w.setConfig(MISSING_DIR);
    const report = w.check();
    expect(report).toContain('topic "docs": subjects directory "docs/knowlege" does not exist (.jp/config.toml:');
    const r = w.run('pre-commit', 'run', '--all-files');
    expect(r.code).toBe(1);
    expect(r.all).toContain(report);
  }, 120_000);

  test('a configuration saved with CRLF line ends and comments passes; a CR that ends no line fails', () => {
    // What a Windows editor or git's autocrlf leaves: valid TOML 1.0.
    const w = workspace(LOCAL!, env);
    w.setConfig(`# The project's knowledge base\n${CONFIG}# end\n`.replace(/\n/g, '\r\n'));
    expect(w.check()).toEndWith('ok: 3 topics, 7 subjects, no problems');
    expect(w.run('pre-commit', 'install').code).toBe(0);
    const commit = w.run('git', 'commit', '-q', '-m', 'crlf');
    expect(commit.all).toMatch(/kb check\.+Passed/);
    expect(commit.code).toBe(0);

    w.setConfig(`# The project's knowledge base\r${CONFIG}`);
    const report = w.check();
    expect(report).toContain('error: invalid TOML: a carriage return (\\u000d) that does not end a line: TOML allows it only just before a line feed (a CRLF line end); in a string, write \\r (.jp/config.toml:1:31)');
    const bad = w.run('git', 'commit', '-q', '-m', 'lone cr');
    expect(bad.all).toMatch(/kb check\.+Failed/);
    expect(bad.all).toContain(report);
    expect(bad.code).not.toBe(0);
  }, 120_000);

  test('only what is staged counts: an unstaged broken edit does not fail the commit', () => {
    const w = workspace(LOCAL!, env);
    expect(w.run('pre-commit', 'install').code).toBe(0);
    writeFileSync(join(w.root, '.jp/config.toml'), MISSPELLED);
    const commit = w.run('git', 'commit', '-q', '-m', 'staged is good');
    expect(commit.all).toMatch(/kb check\.+Passed/);
    expect(commit.code).toBe(0);
    expect(readFileSync(join(w.root, '.jp/config.toml'), 'utf8')).toBe(MISSPELLED);
  }, 120_000);
});

/** The repository as it is on disk (committed or not), as a git repository
 *  pre-commit can clone: tracked and untracked files, ignored ones left out. */
function snapshot(env: Record<string, string>): { path: string; rev: string } {
  const path = join(tempDir(), 'kb-repo');
  const list = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
  if (list.status !== 0) throw new Error(`git ls-files failed: ${list.stderr}`);
  for (const file of list.stdout.split('\0').filter(Boolean)) {
    const from = join(REPO, file);
    if (!existsSync(from) || !lstatSync(from).isFile()) continue;
    mkdirSync(dirname(join(path, file)), { recursive: true });
    copyFileSync(from, join(path, file));
    chmodSync(join(path, file), lstatSync(from).mode & 0o777);
  }
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: path, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout.trim();
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'snapshot');
  return { path, rev: git('rev-parse', 'HEAD') };
}

/**
 * pre-commit installs this repository in three steps: `npm install` in its
 * clone (every package of the lockfile: the build tools), `npm pack` (the
 * prepack build), and `npm install -g` of the packed tarball. kb has no
 * runtime dependency (dist/kb bundles its libraries), so that last step
 * needs nothing but the tarball; the first needs what `npm ci` put in npm's
 * cache. The test runs npm offline against that cache, so that it never
 * waits on a network (npm retries for minutes): a package missing from the
 * cache fails it at once, with npm's ENOTCACHED and the hint below, never a
 * skip.
 */
function explainOffline(output: string): string {
  if (!output.includes('ENOTCACHED')) return output;
  return `${output}\n(npm's cache lacks a package the hook's install needs: run \`npm ci\` in this repository with network access, then run this test again)`;
}

describeWith(['pre-commit', 'git', 'node', 'npm'], 'pre-commit, repo: this repository (language: node)', () => {
  const home = tempDir();
  // No kb on PATH (the hook must bring its own), no build tools of this
  // checkout, and none of the npm_* variables of an enclosing `npm test`.
  const path = pathWithoutKb().split(delimiter).filter((d) => !d.includes('node_modules')).join(delimiter);
  // npm's own cache (where `npm ci` put every package this repository
  // installs), and nothing else: offline, npm fails at once on anything the
  // cache lacks instead of retrying the registry for minutes.
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  const env = baseEnv(home, { PATH: path, PRE_COMMIT_HOME: join(home, 'pre-commit'), npm_config_cache: cache, npm_config_offline: 'true' });
  let config = '';

  test('npm has a cache directory to install from', () => {
    expect(cache).not.toBe('');
  });

  test('installs from the repository and passes a good configuration', () => {
    const repo = snapshot(env);
    config = REMOTE!.replace(/repo: .*/, `repo: ${repo.path}`).replace(/rev: .*/, `rev: ${repo.rev}`);
    const w = workspace(config, env);
    const r = w.run('pre-commit', 'run', '--all-files');
    expect(explainOffline(r.all)).toMatch(/kb check\.+Passed/);
    expect(r.code).toBe(0);
  }, 600_000);

  test('a misspelled key and a missing subjects directory fail with kb check\'s messages', () => {
    expect(config).not.toBe('');
    for (const broken of [MISSPELLED, MISSING_DIR]) {
      const w = workspace(config, env);
      w.setConfig(broken);
      const report = w.check();
      const r = w.run('pre-commit', 'run', '--all-files');
      expect(explainOffline(r.all)).toMatch(/kb check\.+Failed/);
      expect(r.code).toBe(1);
      expect(r.all).toContain(report);
    }
  }, 120_000);
});
