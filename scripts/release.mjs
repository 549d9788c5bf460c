// Builds kb's release (`npm run release`; docs/development/releasing.md): a binary per
// target in dist/release/, kb-<version>-<target>[.exe], SHA256SUMS beside
// them, and the npm packages in dist/release/npm/.
//
//   npm run release [-- --targets linux-x64,darwin-arm64] [--smoke] [--reproduce] [--no-npm] [--out DIR]
//
// --targets   the targets to build (default: every one in scripts/lib/targets.mjs)
// --out       where (default: dist/release; emptied first)
// --smoke     then run scripts/smoke.mjs on each binary (a test needs
//             qemu-user, wine and MinGW: scripts/smoke-deps installs them)
// --reproduce then build every target again, elsewhere, and compare the bytes
// --no-npm    no npm packages
// --npm-name  the npm package's name (default kb; the platform packages'
//             names start with it: @scope/kb -> @scope/kb-linux-x64)
//
// The version is package.json's; a release is built from a commit tagged
// v<version> (`npm version X` makes both). A tag that names another version
// stops the build; an untagged commit builds, and says that it is a
// snapshot (its `kb --version` names its commit). Bun fetches the runtime of
// each target but this machine's from the npm registry, once (it keeps them
// in ~/.bun/install/cache).
//
// Every target is built with kb's flags and the bytecode order recorded on
// this machine's binary (scripts/build.mjs): the order files name functions
// by a hash of their code, which is the same bundle on every target (the
// order recorded by the linux-arm64 binary under qemu-user is byte for byte
// the order recorded natively).

import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO, commitOf, compile, hostTargetName, recordOrders } from './build.mjs';
import { adhocSign } from './lib/macho-sign.mjs';
import { readBinary } from './lib/binfmt.mjs';
import { writeNpmPackages } from './lib/npm-packages.mjs';
import { TARGETS, binaryName, targetNamed } from './lib/targets.mjs';

/** package.json's version, checked against the tags on HEAD: { version,
 *  tagged }; throws when a version tag on HEAD names another version. */
export function releaseVersion(repo = REPO) {
  const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  let tags = [];
  try {
    tags = execFileSync('git', ['tag', '--points-at', 'HEAD'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter((t) => /^v\d/.test(t));
  } catch {
    // not a git checkout: a snapshot
  }
  const others = tags.filter((t) => t !== `v${version}`);
  if (others.length > 0 && !tags.includes(`v${version}`)) throw new Error(`HEAD is tagged ${others.join(', ')}, but package.json says ${version}: tag the release with npm version`);
  return { version, tagged: tags.includes(`v${version}`) };
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A darwin binary whose signature does not check (Bun's darwin-x64, see
 *  scripts/lib/macho-sign.mjs) signed again ad hoc; then checked. */
function fixSignature(file) {
  const sig = readBinary(readFileSync(file)).signature;
  if (sig && sig.adhoc && sig.problems.length === 0) return undefined;
  writeFileSync(file, adhocSign(readFileSync(file), 'kb'));
  const again = readBinary(readFileSync(file)).signature;
  if (!again || again.problems.length > 0) throw new Error(`${file}: the ad-hoc signature does not check after signing: ${again?.problems.join('; ')}`);
  return sig ? `re-signed ad hoc (${sig.problems.join('; ') || 'not ad hoc'})` : 'signed ad hoc (it had no signature)';
}

/** Builds every target into `out`; returns [{ target, path, seconds, note }]. */
export function buildAll({ out, targets, commit, log = () => {} }) {
  mkdirSync(out, { recursive: true });
  const { version } = releaseVersion();
  const work = join(out, '.work');
  const host = join(work, 'kb-host');
  log(`recording the bytecode order on ${hostTargetName()} ...`);
  compile({ outfile: host, commit, name: hostTargetName() });
  const orders = recordOrders(host, join(work, 'order'));
  const built = [];
  for (const target of targets) {
    const path = join(out, binaryName(version, target));
    const started = performance.now();
    // Built as `kb` (the runtime keeps the name it is built under, as its
    // script's: it is the same binary as npm run build's), then renamed.
    const compiled = join(work, target.name, `kb${target.exe ?? ''}`);
    compile({ outfile: compiled, target: target.bun, commit, name: target.name, orders });
    renameSync(compiled, path);
    const note = target.os === 'darwin' ? fixSignature(path) : undefined;
    const seconds = (performance.now() - started) / 1000;
    built.push({ target, path, seconds, note });
    log(`${target.name}: ${statSync(path).size.toLocaleString('en')} bytes in ${seconds.toFixed(1)} s${note ? `; ${note}` : ''}`);
  }
  rmSync(work, { recursive: true, force: true });
  return built;
}

/** SHA256SUMS in `sha256sum -c`'s format, one line per file, by name. */
export function writeSums(out, built) {
  const lines = built.map(({ path }) => `${sha256(path)}  ${path.slice(out.length + 1)}`).sort((a, b) => a.slice(66).localeCompare(b.slice(66)));
  writeFileSync(join(out, 'SHA256SUMS'), `${lines.join('\n')}\n`);
  return lines;
}

function parseArgs(argv) {
  const opts = { targets: TARGETS, smoke: false, reproduce: false, npm: true, npmName: 'kb', out: join(REPO, 'dist/release') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--smoke') opts.smoke = true;
    else if (a === '--reproduce') opts.reproduce = true;
    else if (a === '--no-npm') opts.npm = false;
    else if (a === '--npm-name') opts.npmName = argv[++i] ?? fail('--npm-name needs a name');
    else if (a === '--out') opts.out = resolve(argv[++i] ?? fail('--out needs a directory'));
    else if (a === '--targets' || a.startsWith('--targets=')) {
      const list = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      opts.targets = (list ?? '').split(',').filter(Boolean).map((name) => targetNamed(name) ?? fail(`unknown target ${name}; targets: ${TARGETS.map((t) => t.name).join(', ')} (and linux-x64-baseline, windows-x64-baseline)`));
    } else fail(`unknown option ${a}`);
  }
  return opts;
}

function fail(message) {
  throw Object.assign(new Error(message), { usage: true });
}

async function main(argv) {
  const opts = parseArgs(argv);
  const log = (line) => process.stderr.write(`release: ${line}\n`);
  const { version, tagged } = releaseVersion();
  const commit = commitOf();
  if (!tagged) log(`HEAD is not tagged v${version}: a snapshot; its kb --version names commit ${commit}`);
  if (commit.endsWith('-dirty')) log('the working tree has uncommitted changes: the binaries say -dirty');
  const { out } = opts;
  rmSync(out, { recursive: true, force: true });
  const started = performance.now();
  const built = buildAll({ out, targets: opts.targets, commit, log });
  const sums = writeSums(out, built);
  log(`built ${built.length} binaries in ${((performance.now() - started) / 1000).toFixed(1)} s; SHA256SUMS:`);
  process.stdout.write(`${sums.join('\n')}\n`);
  if (opts.npm) {
    const dirs = writeNpmPackages({ repo: REPO, out: join(out, 'npm'), version, binaries: built, name: opts.npmName });
    log(`npm packages in ${join(out, 'npm')}: ${dirs.map((d) => d.slice(d.lastIndexOf('/') + 1)).join(', ')} (npm publish each, in that order)`);
  }
  let ok = true;
  if (opts.reproduce) ok = reproduce(out, opts.targets, commit, log) && ok;
  if (opts.smoke) {
    const { smoke, report } = await import('./smoke.mjs');
    for (const b of built) ok = report(smoke(b.path, b.target, { version, commit })) && ok;
  }
  return ok ? 0 : 1;
}

/** Builds the targets again in another directory and compares the bytes. */
function reproduce(out, targets, commit, log) {
  const again = `${out}-again`;
  rmSync(again, { recursive: true, force: true });
  log('building every target a second time, to compare ...');
  const second = buildAll({ out: again, targets, commit, log });
  let same = true;
  for (const { target, path } of second) {
    const first = join(out, path.slice(again.length + 1));
    const equal = sha256(first) === sha256(path);
    if (!equal) same = false;
    log(`${target.name}: ${equal ? 'the same bytes' : 'DIFFERENT bytes'}`);
  }
  if (same) rmSync(again, { recursive: true, force: true });
  else log(`the second build is kept in ${again}`);
  return same;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`error: ${err.message}\n`);
      process.exitCode = err.usage ? 2 : 1;
    },
  );
}
