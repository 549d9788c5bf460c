// Runs the test suite in tiers (`npm test` runs all three; `npm run
// test:unit`, `test:e2e`, `test:slow` one each):
//
//   unit  the type check (tsc), the layer check, unit tests and in-process
//         app tests (tests/unit): no binary, well under a minute.
//   e2e   dist/kb as a user runs it: tests/e2e, tests/hardening, and the
//         shell-completion and config-schema integrations.
//   slow  property tests, deno parity (tests/parity: a tagged subset of the
//         e2e cases under `deno run src/cli.ts`), and the integrations that
//         install or drive whole programs: the npm package, the npm route
//         (a local registry), the release for this machine, pre-commit, the
//         recipes, the MCP conformance suite (through an HTTP bridge).
//
// `node scripts/test.mjs [unit] [e2e] [slow] [-- bun test options]`; no tier
// named means all. dist/kb is built once, before the first tier that runs
// it. Every tier runs even when an earlier one failed (a failed type check,
// layer check or build stops the run); the last line sums them up:
// `tests: N passed, N failed, N skipped (unit 20.1 s, e2e 95.3 s, ...)`.
//
// The tests run with a scratch HOME and XDG_CACHE_HOME (a fresh temporary
// directory, removed at the end), never the user's: a test that runs kb
// without giving it a home of its own (tests/e2e/harness.ts isolatedEnv)
// would read and write the user's search cache. Such a test fails the tier
// it ran in: after each tier the scratch cache must hold no kb directory.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A test's time limit, as bunfig.toml's `[test] timeout` says. */
const BUN_TIMEOUT_MS = 30_000;

/** Each tier: the test files and folders it runs, and whether it needs
 *  dist/kb. A file named by one tier and inside a folder named by another
 *  belongs to the one that names it (the longest path wins). */
export const TIERS = {
  unit: { build: false, paths: ['tests/unit'] },
  e2e: {
    build: true,
    paths: ['tests/e2e', 'tests/hardening', 'tests/integrations/completion.test.ts', 'tests/integrations/config-schema.test.ts'],
  },
  slow: {
    build: true,
    paths: ['tests/property', 'tests/parity', 'tests/hardening/large.test.ts', 'tests/hardening/export-large.test.ts', 'tests/integrations/package.test.ts', 'tests/integrations/npm-route.test.ts', 'tests/integrations/release.test.ts', 'tests/integrations/pre-commit.test.ts', 'tests/integrations/recipes.test.ts', 'tests/integrations/mcp-http-conformance.test.ts', 'tests/integrations/mcp-conformance.test.ts'],
  },
};

/** Every test file under tests/, as a path relative to the repository. */
function testFiles(dir = join(REPO, 'tests')) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(path));
    else if (e.isFile() && e.name.endsWith('.test.ts')) out.push(relative(REPO, path).split(sep).join('/'));
  }
  return out.sort();
}

/** The test files of each tier; throws when a file is in none. */
export function tierFiles() {
  const files = Object.fromEntries(Object.keys(TIERS).map((t) => [t, []]));
  const orphans = [];
  for (const file of testFiles()) {
    let best;
    for (const [tier, { paths }] of Object.entries(TIERS)) {
      for (const p of paths) {
        if ((file === p || file.startsWith(`${p}/`)) && (best === undefined || p.length > best.path.length)) best = { tier, path: p };
      }
    }
    if (best) files[best.tier].push(file);
    else orphans.push(file);
  }
  if (orphans.length > 0) throw new Error(`${orphans.join(', ')}: in no test tier (scripts/test.mjs, TIERS)`);
  return files;
}

const bin = (name) => {
  const local = join(REPO, 'node_modules/.bin', name);
  return existsSync(local) ? local : name;
};

/** Runs a command with the terminal's stdio; resolves to its exit code. */
function step(cmd, args) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: REPO, stdio: 'inherit' });
    child.on('error', (err) => {
      console.error(`test: cannot run ${cmd} (${err.message})`);
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** The environment of the tests: the runner's, with HOME and
 *  XDG_CACHE_HOME in `scratch`. npm's cache stays where npm says it is
 *  (the pre-commit test installs from it, offline): under `npm test` npm
 *  names it in npm_config_cache, else npm is asked once. */
function testEnv(scratch) {
  const env = { ...process.env, HOME: scratch, XDG_CACHE_HOME: join(scratch, '.cache') };
  if (!env.npm_config_cache) {
    try {
      const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      if (cache !== '') env.npm_config_cache = cache;
    } catch {
      // No npm: the tests that need it skip (or fail in CI) with their own reason.
    }
  }
  return env;
}

/** The files kb left in the scratch home's cache (`.cache/kb`), each with
 *  the subjects directory its header names: what a test ran kb on without
 *  an environment of its own. */
function leakedCache(scratch) {
  const dir = join(scratch, '.cache', 'kb');
  if (!existsSync(dir)) return [];
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else out.push(`${relative(scratch, path)}${subjectsDirOf(path)}`);
    }
  };
  walk(dir);
  return out.length > 0 ? out : [relative(scratch, dir)];
}

/** ` (subjects: DIR)` for a search index (magic, version, the header's
 *  length, the header as JSON), else ''. */
function subjectsDirOf(file) {
  try {
    const b = readFileSync(file);
    const header = JSON.parse(b.subarray(12, 12 + b.readUInt32LE(8)).toString('utf8'));
    return typeof header.subjectsDir === 'string' ? ` (subjects: ${header.subjectsDir})` : '';
  } catch {
    return '';
  }
}

/** Runs bun test, passing its output through, and reads its summary
 *  (` N pass`, ` N fail`, ` N skip` lines; bun writes them to stderr). */
function bunTest(args, baseEnv) {
  return new Promise((done) => {
    const env = { ...baseEnv };
    if (process.stdout.isTTY && env.NO_COLOR === undefined) env.FORCE_COLOR = '1';
    const child = spawn(bin('bun'), ['test', ...args], { cwd: REPO, stdio: ['inherit', 'pipe', 'pipe'], env });
    const counts = { pass: 0, fail: 0, skip: 0 };
    const failed = [];
    const scan = (stream, out) => {
      let rest = '';
      stream.on('data', (chunk) => {
        out.write(chunk);
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop();
        for (const raw of lines) {
          const line = raw.replace(/\x1b\[[0-9;]*m/g, '');
          const m = /^\s*(\d+) (pass|fail|skip)\s*$/.exec(line);
          if (m) counts[m[2]] = Number(m[1]);
          // bun names each failed test twice (where it fails, and again in
          // its summary); the runner keeps each name once.
          else if (line.startsWith('(fail) ') && !failed.includes(line)) failed.push(line);
        }
      });
    };
    scan(child.stdout, process.stdout);
    scan(child.stderr, process.stderr);
    child.on('error', (err) => {
      console.error(`test: cannot run bun (${err.message})`);
      done({ code: 1, counts, failed });
    });
    child.on('close', (code, signal) => done({ code: code ?? (signal ? 1 : 0), counts, failed }));
  });
}

async function main(argv) {
  const dash = argv.indexOf('--');
  const names = dash === -1 ? argv : argv.slice(0, dash);
  const extra = dash === -1 ? [] : argv.slice(dash + 1);
  for (const name of names) {
    if (!Object.hasOwn(TIERS, name)) {
      console.error(`test: unknown tier "${name}"; tiers: ${Object.keys(TIERS).join(', ')}`);
      return 2;
    }
  }
  const chosen = names.length === 0 ? Object.keys(TIERS) : Object.keys(TIERS).filter((t) => names.includes(t));
  if (chosen.includes('unit')) {
    if ((await step(bin('tsc'), ['-p', '.'])) !== 0) return fail('the type check (tsc -p .)');
    if ((await step(process.execPath, [join(REPO, 'scripts/check-layers.mjs')])) !== 0) return fail('the layer check');
  }
  let files;
  try {
    files = tierFiles();
  } catch (err) {
    console.error(`test: ${err.message}`);
    return 1;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'kb-test-home-'));
  try {
    return await runTiers(chosen, files, extra, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function runTiers(chosen, files, extra, scratch) {
  const env = testEnv(scratch);
  let built = false;
  const total = { pass: 0, fail: 0, skip: 0 };
  const times = [];
  const failures = [];
  let status = 0;
  for (const tier of chosen) {
    const { build, paths } = TIERS[tier];
    const tierTests = files[tier];
    if (build && !built) {
      if ((await step(process.execPath, [join(REPO, 'scripts/build.mjs')])) !== 0) return fail('the build (npm run build)');
      built = true;
    }
    const started = performance.now();
    console.error(`\ntest: ${tier} (${paths.join(' ')})`);
    // bun test does not take its default timeout from bunfig.toml when it
    // is given files (it stays 5 s): the one set there is passed here, so
    // that a test spawning deno many times passes on a busy machine too.
    const { code, counts, failed } = await bunTest(['--timeout', String(BUN_TIMEOUT_MS), ...tierTests.map((f) => `./${f}`), ...extra], env);
    const seconds = (performance.now() - started) / 1000;
    times.push(`${tier} ${seconds.toFixed(1)} s`);
    const leaked = leakedCache(scratch);
    if (leaked.length > 0) {
      // Each of these would be in the user's cache outside this runner.
      console.error(`test: ${tier}: a test ran kb on the tests' HOME, not a home of its own (isolatedEnv in tests/e2e/harness.ts); kb wrote its search cache there:\n${leaked.map((l) => `  $HOME/${l}`).join('\n')}`);
      counts.fail += 1;
      failed.push('(fail) a test wrote the search cache in the tests\' HOME');
      rmSync(join(scratch, '.cache', 'kb'), { recursive: true, force: true });
    }
    for (const k of Object.keys(total)) total[k] += counts[k];
    for (const f of failed) failures.push(`${tier}: ${f}`);
    console.error(`test: ${tier}: ${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped in ${seconds.toFixed(1)} s`);
    if (code !== 0) status = code;
    else if (leaked.length > 0) status = 1;
  }
  // The failures again, last, where a log cut to its end still shows them.
  if (failures.length > 0) console.error(`\ntest: failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  console.log(`tests: ${total.pass} passed, ${total.fail} failed, ${total.skip} skipped (${times.join(', ')})`);
  return status;
}

function fail(what) {
  console.error(`test: ${what} failed; no test ran after it`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
