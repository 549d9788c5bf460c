// Builds dist/kb (`npm run build`): `bun build --compile`, twice.
//
// The first build is run on the example workspace (examples/) the way
// assistants run kb on every prompt (`schema`, `prompt`, `learn TOPIC`),
// then a warm search, with BUN_BYTECODE_ORDER_OUT recording which
// functions each run uses; the
// second build lays those functions out first in the binary
// (--bytecode-order), so that a start reads and decodes less of it. Measured
// with 151 alternating runs: kb schema 12.9 -> 12.1 ms, kb prompt 13.2 ->
// 12.2 ms; a warm search of Python's PEPs 0.97x-0.98x the build without
// its run (120 alternating searches, twice). The output is the same program either way: only the layout of
// its bytecode changes. Set KB_BUILD_NO_ORDER=1 for a single build.
//
// The binary knows the commit it was built from and its target (`kb
// --version`): both are constants defined at build time (`--define`,
// src/shared/version.ts), so that the same commit builds the same bytes.
// scripts/release.mjs builds every released target with the same functions.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostTarget } from './lib/targets.mjs';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The entry points: the CLI, and the reader thread's Worker. */
export const ENTRIES = ['src/cli.ts', 'src/reader-thread.ts'];

/** kb's build flags (the benchmark builds its hello world with them too). */
export const FLAGS = [
  '--compile',
  // kb has no use for .env or bunfig.toml, and reading them from the working
  // directory would let any repository change what it does.
  '--no-compile-autoload-dotenv',
  '--no-compile-autoload-bunfig',
  '--splitting',
  '--minify',
  '--bytecode',
  '--format=esm',
  '--compile-jit-policy=3',
  // A binary with runtime arguments of its own starts from a deleted working
  // directory (one without refuses before any of kb's code runs: "The
  // current working directory was deleted"); `--no-deprecation` changes
  // nothing else (kb uses no deprecated API, and writes no runtime warning).
  '--compile-exec-argv=--no-deprecation',
];

/** The runs whose functions go first, most common first. */
const RECORD = [
  ['schema', ['-w', 'examples', 'schema']],
  ['prompt', ['-w', 'examples', 'prompt']],
  ['learn', ['-w', 'examples', 'learn', 'skills']],
  // The same listing again: it keeps the heads the first one wrote
  // (src/kb/fs/heads.ts), the path every later listing takes.
  ['learn-kept', ['-w', 'examples', 'learn', 'skills']],
  // A warm search: the index read from the cache the first search wrote
  // (`warm`: that first search is run, not recorded).
  ['search', ['-w', 'examples', 'search', 'how are releases tagged'], { warm: true }],
];

export function bun() {
  const local = join(REPO, 'node_modules/.bin/bun');
  return existsSync(local) ? local : 'bun';
}

function git(args) {
  return execFileSync('git', args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

/** The commit this tree is: the first 12 hex digits of HEAD, `-dirty` after
 *  them when a tracked file differs from it; `unknown` outside a git
 *  checkout of this repository (a source archive, or one unpacked inside
 *  another repository, as the benchmark's baselines are). */
export function commitOf() {
  try {
    if (realpathSync(git(['rev-parse', '--show-toplevel'])) !== realpathSync(REPO)) return 'unknown';
    const head = git(['rev-parse', '--short=12', 'HEAD']);
    return git(['status', '--porcelain', '--untracked-files=no']) === '' ? head : `${head}-dirty`;
  } catch {
    return 'unknown';
  }
}

/** The name `kb --version` gives this machine's target. */
export function hostTargetName() {
  return hostTarget()?.name ?? `${process.platform}-${process.arch}`;
}

/** `bun build` for one binary. `target`: Bun's --target (none: this
 *  machine); `commit` and `name`: what `kb --version` says; `orders`: the
 *  bytecode order files, most important first. */
export function compile({ outfile, target, commit, name, orders = [] }) {
  const args = ['build', ...ENTRIES, ...FLAGS];
  if (target) args.push(`--target=${target}`);
  args.push('--define', `KB_COMMIT=${JSON.stringify(commit)}`, '--define', `KB_TARGET=${JSON.stringify(name)}`);
  if (orders.length > 0) args.push(`--bytecode-order=${orders.join(',')}`);
  mkdirSync(dirname(outfile), { recursive: true });
  execFileSync(bun(), [...args, '--outfile', outfile], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Runs `binary` (this machine's) on the example workspace as RECORD says,
 *  writing the order files into `dir`; returns those written. */
export function recordOrders(binary, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // A cache of its own, empty at first, so that every build records the
  // same runs (a listing keeps its heads in the cache: the user's would
  // make the first run another path, and be written to).
  const cache = mkdtempSync(join(tmpdir(), 'kb-build-cache-'));
  const orders = [];
  try {
    for (const [name, args, how] of RECORD) {
      const file = join(dir, `${name}.order`);
      if (how?.warm) execFileSync(binary, args, { cwd: REPO, stdio: 'ignore', env: { ...process.env, XDG_CACHE_HOME: cache } });
      execFileSync(binary, args, { cwd: REPO, stdio: 'ignore', env: { ...process.env, XDG_CACHE_HOME: cache, BUN_BYTECODE_ORDER_OUT: file } });
      if (existsSync(file)) orders.push(file);
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
  return orders;
}

function main() {
  const out = join(REPO, 'dist/kb');
  const info = { outfile: out, commit: commitOf(), name: hostTargetName() };
  compile(info);
  if (process.env.KB_BUILD_NO_ORDER) return;
  const orders = recordOrders(out, join(REPO, 'dist/.bytecode-order'));
  if (orders.length > 0) compile({ ...info, orders });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
