// An older kb to compare against (`scripts/bench --baseline REV`): kb built
// from git revision REV, kept in <dir>/baseline/<commit>/ so that later runs
// reuse it.
//
// The revision's tree is exported with `git archive` (no worktree is left
// registered), its own package-lock.json installed with `npm ci --offline`
// (the packages come from npm's cache: an older kb's dependencies are a
// subset of today's), falling back to `--prefer-offline`, then built with
// that revision's own `npm run build` (or a plain `bun build --compile` of
// src/cli.ts when it has none). An older kb may lack flags today's has
// (`--max-tokens`): `features()` says which it knows, and the benchmark
// leaves the others out of its command lines.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function git(repo, args) {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** kb built at `rev` (a commit, tag or branch of `repo`): { path, commit,
 *  short, label }. Builds it on first use (about a minute with a warm npm
 *  cache); throws with the failing step's output. */
export function ensureBaseline(repo, dir, rev, log = () => {}) {
  let commit;
  try {
    commit = git(repo, ['rev-parse', '--verify', `${rev}^{commit}`]);
  } catch {
    throw new Error(`--baseline ${rev}: not a commit of this repository`);
  }
  const short = commit.slice(0, 7);
  const home = join(dir, 'baseline', commit);
  const bin = join(home, 'kb');
  const label = `kb@${short}`;
  if (existsSync(bin)) return { path: bin, commit, short, label };

  const src = join(home, 'src');
  rmSync(home, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  log(`baseline: building kb at ${short} in ${home} ...`);
  // git archive | tar: the tree as committed, nothing of this worktree.
  const tar = spawnSync('sh', ['-c', `git -C "$0" archive --format=tar "$1" | tar -x -C "$2"`, repo, commit, src], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`baseline: git archive ${short} failed: ${tar.stderr}`);

  const pkg = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'));
  const npm = (args) => spawnSync('npm', args, { cwd: src, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  const lock = existsSync(join(src, 'package-lock.json'));
  const install = lock ? ['ci'] : ['install', '--no-save'];
  let r = npm([...install, '--offline']);
  if (r.status !== 0) {
    log(`baseline: offline install failed, trying --prefer-offline ...`);
    r = npm([...install, '--prefer-offline']);
  }
  if (r.status !== 0) throw new Error(`baseline: npm ${install.join(' ')} failed at ${short}: ${r.stderr.slice(-800)}`);

  // Its own build when it has one (later kbs: two passes with a bytecode
  // order), else the one build every kb has had.
  const bun = existsSync(join(src, 'node_modules/.bin/bun')) ? join(src, 'node_modules/.bin/bun') : 'bun';
  const built = join(src, 'dist/kb');
  const b = pkg.scripts?.build
    ? spawnSync('npm', ['run', 'build', '--silent'], { cwd: src, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
    : spawnSync(bun, ['build', 'src/cli.ts', '--compile', '--minify', '--outfile', built], { cwd: src, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (b.status !== 0 || !existsSync(built)) throw new Error(`baseline: build failed at ${short}: ${(b.stderr ?? '').slice(-800)}`);
  renameSync(built, bin);
  writeFileSync(join(home, 'REVISION'), `${commit} (${rev})\n`);
  // The sources and their node_modules are not needed any more.
  rmSync(src, { recursive: true, force: true });
  return { path: bin, commit, short, label };
}

/** Which of today's flags `kb` knows (older kbs lack some). */
export function features(kb) {
  const help = spawnSync(kb, ['learn', '--help'], { encoding: 'utf8' });
  const text = `${help.stdout ?? ''}${help.stderr ?? ''}`;
  return { maxTokens: text.includes('--max-tokens'), noCache: text.includes('--no-cache') };
}
