// The kb benchmark: generates a deterministic synthetic workspace and
// measures dist/kb against references run in the same invocation (see
// `scripts/bench --help` and docs/development/performance.md).
//
// Every comparison alternates kb and its reference run by run (kb first on
// even runs, the reference first on odd ones), after one warm-up run of
// each, and compares medians. Output goes to /dev/null for kb and the
// references alike.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem, release } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpLatency } from './mcp-latency.mjs';
import { mcpHttpLoad } from './mcp-http-load.mjs';
import { BIG_BINARY_BYTES, ensureDescribedWorkspace, ensureTinyWorkspace, ensureWorkspace, TEXT_EXTS } from './lib/bench-workspace.mjs';
import { FLAGS as KB_BUILD_FLAGS } from './build.mjs';
import { ensureBaseline, features } from './lib/baseline.mjs';
import { measureDuplicates } from './lib/duplicates-bench.mjs';
import { freshCopy } from './lib/fresh-copy.mjs';
import { benchProgram } from './lib/bench-program.mjs';
import { mib, ms, plainRow, targetText, verdict, x } from './lib/bench-report.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `Usage: scripts/bench [options]   (or: npm run bench -- [options])

Generates a synthetic knowledge base (deterministic, seeded) and measures kb
against references run in the same invocation: medians over alternating runs,
ratios, peak memory, PASS/FAIL against the targets.

Options:
  --subjects N     text subjects in the main workspace (default 10000)
  --runs N         timed runs per command (default 7; start-up uses 5x)
  --quick          the guard: load, list and start-up ratios only (and
                   repomix when already installed), --runs 5, in about
                   30 seconds; exit status 1 when a target is missed
  --baseline REV   also run kb built at git revision REV (e.g. a892945, kb
                   1.0; built once into DIR/baseline/) alternating with kb
                   and the reference, and report kb's ratio to it
  --scaling [LIST] also check how cost grows, e.g. --scaling 1000,10000,100000
                   (the default list when none is given)
  --no-peers       skip repomix and the files-to-prompt-style packer
  --http-only      only the HTTP load: \`kb mcp --http\`, 32 concurrent clients
                   x 1,000 calls (exact loads, listings, searches) on the
                   main workspace; p50/p99 per kind, peak RSS, sockets left;
                   then the same clients on the floor, a server on kb's
                   runtime that answers at once (scripts/mcp-http-floor.ts)
  --http-calls N   calls per HTTP client (default 1000)
  --duplicates-only
                   only the duplicates section: the labelled pairs and
                   \`kb check --duplicates\` on 20,000 short notes
  --peer-runs N    timed runs per peer (default 3)
  --kb PATH        the kb binary (default dist/kb; npm run bench builds it)
  --dir DIR        where workspaces and tools are kept (default .bench)
  --seed N         generator seed (default 1)
  --hyperfine      also run hyperfine on the start-up pair, when installed
  --json FILE      also write the results as JSON
  -h, --help       this help

Exit status: 0 when every target is met, 1 when one is missed, 2 on an error.
`;

function parseOptions(argv) {
  const o = {
    subjects: 10000,
    runs: 7,
    peers: true,
    peerRuns: 3,
    scaling: null,
    kb: join(REPO, 'dist/kb'),
    dir: join(REPO, '.bench'),
    seed: 1,
    hyperfine: false,
    json: null,
    baseline: null,
  };
  const num = (v, name) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} needs a positive integer, not ${v}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case '--subjects': o.subjects = num(next(), a); break;
      case '--runs': o.runs = num(next(), a); break;
      case '--quick': o.runs = 5; o.quick = true; break;
      case '--baseline': o.baseline = next(); break;
      case '--scaling':
        if (argv[i + 1] && /^\d+(,\d+)*$/.test(argv[i + 1])) o.scaling = next().split(',').map((v) => num(v, a));
        else o.scaling = [1000, 10000, 100000];
        break;
      case '--no-peers': o.peers = false; break;
      case '--duplicates-only': o.duplicatesOnly = true; break;
      case '--http-only': o.httpOnly = true; break;
      case '--http-calls': o.httpCalls = num(next(), a); break;
      case '--peer-runs': o.peerRuns = num(next(), a); break;
      case '--kb': o.kb = resolve(next()); break;
      case '--dir': o.dir = resolve(next()); break;
      case '--seed': o.seed = num(next(), a); break;
      case '--hyperfine': o.hyperfine = true; break;
      case '--json': o.json = resolve(next()); break;
      case '-h': case '--help': process.stdout.write(USAGE); process.exit(0); break;
      default: throw new Error(`unknown option ${a} (see --help)`);
    }
  }
  return o;
}

const log = (s) => process.stderr.write(`${s}\n`);

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// ---------------------------------------------------------------------------
// Running commands

const DEVNULL = openSync('/dev/null', 'w');

/** A command: argv run in cwd; `shell` runs argv[0] through `sh -c`;
 *  `env`, where given, is its whole environment. */
function cmd(label, argv, cwd, opts = {}) {
  return { label, argv, cwd, ...opts };
}

/** Runs once with stdout to /dev/null; returns wall milliseconds. Throws
 *  on a failing exit status (unless the command allows it). */
function runOnce(c) {
  const [file, ...args] = c.shell ? ['sh', '-c', c.argv[0]] : c.argv;
  const t = process.hrtime.bigint();
  const r = spawnSync(file, args, { cwd: c.cwd, env: c.env, stdio: ['ignore', DEVNULL, 'pipe'], maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.error) throw r.error;
  if (r.status !== 0 && !c.allowFail) {
    throw new Error(`${c.label} exited with ${r.status ?? r.signal}: ${String(r.stderr).slice(0, 500)}`);
  }
  return ms;
}

/** Bytes a command writes to stdout (one extra run, output counted). */
function outputBytes(c) {
  const [file, ...args] = c.shell ? ['sh', '-c', `${c.argv[0]} | wc -c`] : ['sh', '-c', `"$0" "$@" | wc -c`, ...c.argv];
  const r = spawnSync(file, args, { cwd: c.cwd, env: c.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return Number(r.stdout.trim());
}

/** Runs of each command in turn after one warm-up run each, the order
 *  rotated run by run (with two: a b, b a, a b, ...); every run's times. */
function rotate(cmds, runs) {
  for (const c of cmds) runOnce(c);
  const times = cmds.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < cmds.length; j++) {
      const at = (i + j) % cmds.length;
      times[at].push(runOnce(cmds[at]));
    }
  }
  return times;
}

/** Alternating runs of a and b (and of `base`, the baseline kb's command,
 *  when given) after one warm-up run each; medians, minimums, spreads. */
function compare(a, b, runs, base) {
  const t = rotate(base ? [a, b, base] : [a, b], runs);
  const r = { a: median(t[0]), b: median(t[1]), aMin: Math.min(...t[0]), bMin: Math.min(...t[1]), aMax: Math.max(...t[0]), bMax: Math.max(...t[1]), runs };
  if (base) Object.assign(r, { base: median(t[2]), baseMin: Math.min(...t[2]), baseMax: Math.max(...t[2]) });
  return r;
}

// Peak resident memory (KiB): GNU time when it works, else /proc polling.
let timeTool;
function peakMethod() {
  if (timeTool !== undefined) return timeTool;
  timeTool = null;
  for (const t of ['/usr/bin/time', which('gtime')]) {
    if (!t || !existsSync(t)) continue;
    const r = spawnSync(t, ['-f', '%M', 'true'], { encoding: 'utf8' });
    if (r.status === 0 && /^\d+\s*$/.test(r.stderr.trim().split('\n').pop())) return (timeTool = t);
  }
  return timeTool;
}

async function peakRssKiB(c) {
  const tool = peakMethod();
  if (c.shell) throw new Error('peak RSS of a pipeline is not measured');
  if (tool) {
    const out = join(tmpdir(), `kb-bench-time-${process.pid}`);
    const r = spawnSync(tool, ['-f', '%M', '-o', out, ...c.argv], { cwd: c.cwd, env: c.env, stdio: ['ignore', DEVNULL, 'pipe'] });
    if (r.status !== 0) throw new Error(`${c.label} failed under ${tool}: ${r.stderr}`);
    const kib = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
    rmSync(out, { force: true });
    return { kib, method: 'GNU time %M' };
  }
  if (!existsSync('/proc/self/status')) return { kib: NaN, method: 'unavailable' };
  // Fallback: poll VmHWM (the kernel's high-water mark) while it runs.
  return new Promise((resolvePeak, reject) => {
    const child = spawn(c.argv[0], c.argv.slice(1), { cwd: c.cwd, stdio: ['ignore', DEVNULL, 'ignore'] });
    let peak = 0;
    const poll = () => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]));
      } catch {
        // Exited between polls.
      }
    };
    const timer = setInterval(poll, 2);
    child.on('error', reject);
    child.on('exit', () => {
      clearInterval(timer);
      resolvePeak({ kib: peak, method: '/proc VmHWM polling (approximate)' });
    });
  });
}

async function maxPeak(c, times = 3) {
  let best = { kib: 0, method: '' };
  for (let i = 0; i < times; i++) {
    const p = await peakRssKiB(c);
    if (!(p.kib <= best.kib)) best = p;
  }
  return best;
}

// ---------------------------------------------------------------------------
// Tools: the Bun hello world, peers

function bunBinary() {
  const local = join(REPO, 'node_modules/.bin/bun');
  if (existsSync(local)) return local;
  const b = which('bun');
  if (!b) throw new Error('bun not found: run npm install');
  return b;
}

/** kb's `bun build` flags (scripts/build.mjs). */
function buildFlags() {
  return KB_BUILD_FLAGS;
}

/** A `console.log` program compiled by the Bun that builds kb. The issue's
 *  reference is the bare program: `bun build --compile hello.js`, Bun's
 *  defaults. With `flags` (kb's own build flags), the same program built
 *  the way kb is, reported alongside. */
function helloWorld(dir, flags = ['--compile']) {
  const bun = bunBinary();
  const version = execFileSync(bun, ['--version'], { encoding: 'utf8' }).trim();
  const tag = flags.join(' ').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const out = join(dir, 'hello', `hello-bun-${version}-${tag}`);
  if (!existsSync(out)) {
    mkdirSync(join(dir, 'hello'), { recursive: true });
    const src = join(dir, 'hello', 'hello.js');
    writeFileSync(src, "console.log('hello');\n");
    log(`compiling the Bun hello world with bun build ${flags.join(' ')} ...`);
    execFileSync(bun, ['build', src, ...flags, '--outfile', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return { path: out, version, flags };
}

/** repomix when an earlier run installed it into <dir>/peers, else null. */
function repomixInstalled(dir) {
  const pkg = join(dir, 'peers', 'node_modules', 'repomix', 'package.json');
  return existsSync(pkg) ? repomix(dir) : null;
}

/** repomix, installed on demand into <dir>/peers (never into the project). */
function repomix(dir) {
  const prefix = join(dir, 'peers');
  const bin = join(prefix, 'node_modules', 'repomix', 'bin', 'repomix.cjs');
  if (!existsSync(bin)) {
    log('installing repomix for the benchmark (npm install --no-save --prefix .bench/peers repomix) ...');
    mkdirSync(prefix, { recursive: true });
    const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, 'repomix'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0 || !existsSync(bin)) return null;
  }
  let version = '?';
  try {
    version = JSON.parse(readFileSync(join(prefix, 'node_modules', 'repomix', 'package.json'), 'utf8')).version;
  } catch {
    // Keep '?'.
  }
  return { bin, version };
}

// ---------------------------------------------------------------------------
// The reference commands

const TEXT_NAMES = TEXT_EXTS.map(([e]) => `-name '*.${e}'`).join(' -o ');
/** Non-hidden text files (what `kb learn docs '**'` loads). */
const findText = (d) => `find ${d} -type f -not -path '*/.*' \\( ${TEXT_NAMES} \\) -print0`;
/** Non-hidden files, binaries included (what a listing has to sniff). */
const findAll = (d) => `find ${d} -type f -not -path '*/.*' -print0`;

/** A row's figures from a comparison (compare()): kb against the
 *  reference, and against the baseline kb when it ran. */
function measured(c) {
  const r = { kb: c.a, ref: c.b, kbMin: c.aMin, kbMax: c.aMax, refMin: c.bMin, refMax: c.bMax, ratio: c.a / c.b, best: c.aMin / c.bMin };
  if (c.base !== undefined) Object.assign(r, { base: c.base, baseMin: c.baseMin, baseMax: c.baseMax });
  return r;
}

/** kb's commands on workspace `ws`; an older kb (`feat`: features()) without
 *  budgets loads and lists everything anyway, so `--max-tokens 0` is left
 *  out for it. `env`: the commands' environment (the baseline's, with a
 *  cache folder of its own). */
function suite(ws, kb, feat = { maxTokens: true, noCache: true }, env = undefined) {
  const unlimited = feat.maxTokens ? ['--max-tokens', '0'] : [];
  // A listing that reads every head, as the first one does (a kb without
  // --no-cache on learn keeps none: its plain listing).
  const fresh = feat.noCache ? ['--no-cache'] : [];
  return {
    load: cmd(`kb learn --max-tokens 0 docs '**'`, [kb, 'learn', ...unlimited, 'docs', '**'], ws.root, { env }),
    loadRef: cmd('find + xargs cat', [`${findText('docs')} | xargs -0 cat`], ws.root, { shell: true }),
    // The listing as users get it: the default budget (20,000 tokens), which
    // on 10,000 subjects sums folders up.
    list: cmd('kb learn docs', [kb, 'learn', 'docs'], ws.root, { env }),
    listAll: cmd('kb learn --max-tokens 0 docs', [kb, 'learn', ...unlimited, 'docs'], ws.root, { env }),
    listFresh: cmd('kb learn docs --no-cache', [kb, 'learn', 'docs', ...fresh], ws.root, { env }),
    listRef: cmd('find + xargs head', [`${findAll('docs')} | xargs -0 head -q -c 8192`], ws.root, { shell: true }),
  };
}

/** Bytes read from the 64 MiB binary by one kb run, counted with strace
 *  (when installed): the sum of read/pread64 results on that file. */
function binaryBytesRead(c, target) {
  const strace = which('strace');
  if (!strace) return null;
  const r = spawnSync(strace, ['-f', '-qq', '-y', '-e', 'trace=read,pread64,readv,preadv,preadv2,sendfile,copy_file_range,mmap', '-e', 'signal=none', ...c.argv], {
    cwd: c.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 512 << 20,
    encoding: 'utf8',
  });
  let total = 0;
  for (const line of r.stderr.split('\n')) {
    if (!line.includes(target)) continue;
    const m = /=\s+(\d+)\s*$/.exec(line);
    if (m && !line.includes('mmap(')) total += Number(m[1]);
    else if (line.includes('mmap(')) total += Infinity; // mapping the file counts as reading all of it
  }
  return total;
}

// ---------------------------------------------------------------------------
// Output

function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------

async function main() {
  let o;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (e) {
    log(`bench: ${e.message}`);
    process.exit(2);
  }
  if (!existsSync(o.kb)) {
    log(`bench: ${o.kb} not found; run \`npm run build\` first (npm run bench does)`);
    process.exit(2);
  }
  mkdirSync(o.dir, { recursive: true });
  if (o.duplicatesOnly) return duplicatesOnly(o);
  if (o.httpOnly) return httpOnly(o);
  const results = { options: { ...o, kb: relative(REPO, o.kb) || o.kb, dir: relative(REPO, o.dir) || o.dir }, machine: {}, rows: [] };
  const load0 = loadavg()[0];
  results.machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? '?',
    memGiB: +(totalmem() / 2 ** 30).toFixed(1),
    kernel: release(),
    node: process.version,
  };

  const ws = ensureWorkspace(o.dir, o.subjects, o.seed, log);
  const tiny = ensureTinyWorkspace(o.dir);
  // The programs timed, as files written now (lib/fresh-copy.mjs): kb,
  // the hello worlds and, below, the baseline.
  o.kb = freshCopy(o.kb, o.dir, 'kb');
  const hello = { ...helloWorld(o.dir) };
  hello.path = freshCopy(hello.path, o.dir, 'hello');
  const helloKbFlags = { ...helloWorld(o.dir, buildFlags()) };
  helloKbFlags.path = freshCopy(helloKbFlags.path, o.dir, 'hello-kb-flags');
  results.machine.bun = hello.version;
  log(`workspace: ${relative(REPO, ws.root)}: ${ws.subjects} text subjects (${ws.hiddenFiles} hidden), ${ws.binaries} binaries, ${(ws.textBytes / 1e6).toFixed(1)} MB of text`);

  const s = suite(ws, o.kb);
  // The baseline kb (--baseline REV): its commands run in turn with kb's
  // and the reference's.
  let base;
  if (o.baseline) {
    try {
      const b = ensureBaseline(REPO, o.dir, o.baseline, log);
      // A cache folder of its own: a listing's kept heads are one file a
      // subjects folder, which another build finds as none and writes
      // over, so two builds run in turn would each find the other's and
      // read every head on every run.
      const env = { ...process.env, XDG_CACHE_HOME: join(dirname(b.path), 'xdg-cache') };
      const path = freshCopy(b.path, o.dir, 'baseline-kb');
      base = { ...b, path, suite: suite(ws, path, features(path), env) };
    } catch (e) {
      log(`bench: ${e.message}`);
      process.exit(2);
    }
    results.baseline = { rev: o.baseline, commit: base.commit };
    log(`baseline: ${base.label} (${o.baseline})`);
  }
  const rows = [];
  const add = (row) => {
    rows.push(row);
    results.rows.push(row);
  };

  // 1. Load everything.
  log('measuring: load everything ...');
  const load = compare(s.load, s.loadRef, o.runs, base?.suite.load);
  add({ id: 'load', what: `load everything: \`kb learn docs '**' --max-tokens 0\``, ...measured(load), refName: '`find … \\| xargs cat` (the same non-hidden text files)', target: 0.8, cmp: '<=' });

  // 2. List, with the default budget (what a model gets), and without one.
  log('measuring: list ...');
  const list = compare(s.list, s.listRef, o.runs, base?.suite.list);
  add({ id: 'list', what: 'list: `kb learn docs` (default budget)', ...measured(list), refName: '`find … \\| xargs head -c 8192`', target: 1.3, cmp: '<=' });
  if (!o.quick) {
    const listAll = compare(s.listAll, s.listRef, o.runs, base?.suite.listAll);
    add({ id: 'listAll', what: 'list everything: `kb learn docs --max-tokens 0`', ...measured(listAll), refName: '`find … \\| xargs head -c 8192`' });
    // Every head read, as by the first listing (src/kb/fs/heads.ts keeps
    // them for the next): no target, the cost of the cold path.
    const listFresh = compare(s.listFresh, s.listRef, o.runs, base?.suite.listFresh);
    add({ id: 'listFresh', what: 'list reading every head: `kb learn docs --no-cache`', ...measured(listFresh), refName: '`find … \\| xargs head -c 8192`' });
  }

  // 2b. Listing with descriptions: the same subjects, each Markdown file
  // with frontmatter, against the plain listing.
  if (!o.quick) {
  log('measuring: list with descriptions ...');
  const described = ensureDescribedWorkspace(ws, log);
  // Every line shown in both (the default budget shortens the plain
  // listing of 10,000 subjects, and would leave descriptions out).
  const listDescribed = compare(cmd('kb learn --max-tokens 0 docs (described)', [o.kb, 'learn', '--max-tokens', '0', 'docs'], described.root), s.listAll, o.runs);
  add({
    id: 'describedList',
    what: `list with descriptions: \`kb learn --max-tokens 0 docs\`, ${described.described} subjects with frontmatter`,
    kb: listDescribed.a,
    ref: listDescribed.b,
    refName: 'the same listing without frontmatter',
    ratio: listDescribed.a / listDescribed.b,
    best: listDescribed.aMin / listDescribed.bMin,
    target: 1.1,
    cmp: '<=',
  });
  }

  // 3. Start-up.
  log('measuring: start-up ...');
  const startupRuns = Math.max(15, o.runs * 5);
  const startup = compare(cmd('kb schema', [o.kb, 'schema'], tiny), cmd('bun hello', [hello.path], tiny), startupRuns, base && cmd('baseline kb schema', [base.path, 'schema'], tiny));
  // What spawning any process costs here (for the record: both sides pay it).
  const spawnCost = o.quick ? NaN : compare(cmd('true', [which('true') ?? '/bin/true'], tiny), cmd('true', [which('true') ?? '/bin/true'], tiny), startupRuns).a;
  // The same program built with kb's flags: how much of kb's start-up is
  // kb's own code (for the record; the target is against the bare one).
  const sameFlags = o.quick ? { a: NaN, b: NaN } : compare(cmd('kb schema', [o.kb, 'schema'], tiny), cmd('bun hello (kb flags)', [helloKbFlags.path], tiny), startupRuns);
  if (!o.quick) results.startup = {
    kb: startup.a,
    hello: startup.b,
    kbMin: startup.aMin,
    helloMin: startup.bMin,
    spawn: spawnCost,
    netRatio: (startup.a - spawnCost) / (startup.b - spawnCost),
    helloKbFlags: sameFlags.b,
    kbVsKbFlags: sameFlags.a / sameFlags.b,
  };
  add({ id: 'startup', what: 'start-up: `kb schema`, one-subject workspace', ...measured(startup), refName: `Bun ${hello.version} \`bun build --compile\` \`console.log\``, target: 1.5, cmp: '<=' });

  // The guard (--quick) stops here, but for repomix when it is installed.
  if (!o.quick) {
  // 4. Peak memory.
  log('measuring: peak memory ...');
  const peak = await maxPeak(s.load);
  results.machine.rssMethod = peak.method;
  add({ id: 'rss', what: `peak RSS, loading all ${(ws.visibleBytes / 1e6).toFixed(0)} MB`, kbValue: peak.kib, target: 80 * 1024, cmp: '<=' });
  const peakList = await maxPeak(s.list);
  const peakStart = await maxPeak(cmd('kb schema', [o.kb, 'schema'], tiny));
  const peakHello = await maxPeak(cmd('hello', [hello.path], tiny));
  results.memory = { loadKiB: peak.kib, listKiB: peakList.kib, schemaKiB: peakStart.kib, helloKiB: peakHello.kib };

  // 5. Bytes read from the 64 MiB binary.
  const big = 'dataset.bin';
  const reads = [
    ['list', binaryBytesRead(s.list, big)],
    ['glob', binaryBytesRead(s.load, big)],
    ['exact', binaryBytesRead(cmd('kb learn docs assets/dataset', [o.kb, 'learn', 'docs', 'assets/dataset'], ws.root), big)],
  ];
  if (reads.every(([, n]) => n !== null)) {
    const worst = Math.max(...reads.map(([, n]) => n));
    add({ id: 'binary', what: `bytes read from the ${BIG_BINARY_BYTES >> 20} MiB binary (list / glob / exact)`, kbValue: worst, detail: reads.map(([k, n]) => `${k} ${n}`).join(', '), target: 8192, cmp: '<=' });
  } else {
    log('strace not installed: the binary-read check is left to the test suite');
  }

  // 5a. Context: the token estimate against o200k on the benchmark's own
  // corpus, and its speed (scripts/token-accuracy.ts, run by bun: the
  // tokenizer is a devDependency).
  log('measuring: the token estimate against o200k ...');
  const acc = spawnSync(bunBinary(), [join(REPO, 'scripts/token-accuracy.ts'), join(ws.root, 'docs'), '--json'], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (acc.status === 0) {
    const [a] = JSON.parse(acc.stdout);
    results.tokens = a;
    add({ id: 'tokAccuracy', what: `token estimate / o200k on the corpus (${a.files} files; per file p10 ${a.p10.toFixed(2)}, p90 ${a.p90.toFixed(2)}): off by`, kbValue: Math.abs(a.ratio - 1), unit: 'fraction', detail: a.ratio.toFixed(3), target: 0.1, cmp: '<=' });
    add({ id: 'tokSpeed', what: 'token estimate speed (MB/s)', kbValue: a.mbPerSecond, unit: 'MB/s', target: 200, cmp: '>=' });
  } else {
    log(`token accuracy not measured: ${acc.stderr.slice(0, 300)}`);
  }

  // 5b. Context: a long MCP session on the same topic (issue targets:
  // exact loads p50 <= 2 ms and p99 <= 10 ms, listings p50 <= 20 ms, and the
  // server's peak RSS under 150 MiB), 2,000 sequential calls.
  log('measuring: a long MCP session (2,000 exact loads, 200 listings, 200 searches) ...');
  const session = await mcpLatency({ bin: o.kb, workspace: ws.root, topic: 'docs', calls: o.quick ? 300 : 2000 });
  results.mcp = session;
  add({ id: 'mcpExactP50', what: 'MCP session: exact load, p50', kbValue: session.exact.p50, unit: 'ms', target: 2, cmp: '<=' });
  add({ id: 'mcpExactP99', what: 'MCP session: exact load, p99', kbValue: session.exact.p99, unit: 'ms', target: 10, cmp: '<=' });
  add({ id: 'mcpListP50', what: 'MCP session: listing, p50', kbValue: session.listing.p50, unit: 'ms', target: 20, cmp: '<=' });
  add({ id: 'mcpSearchP50', what: 'MCP session: search, p50', kbValue: session.search.p50, unit: 'ms' });
  add({ id: 'mcpSearchP99', what: 'MCP session: search, p99', kbValue: session.search.p99, unit: 'ms' });
  add({ id: 'mcpBurstP99', what: `MCP session: a burst of ${o.quick ? 300 : 2000} exact loads written at once, last reply (p99)`, kbValue: session.burst.p99, unit: 'ms' });
  if (session.peakKiB !== null) add({ id: 'mcpRss', what: 'MCP session: peak RSS (sequential calls, listings and the burst)', kbValue: session.peakKiB, unit: 'KiB', target: 150 * 1024, cmp: '<=' });
  if (!o.quick) {
    log('measuring: kb mcp --http under 32 concurrent clients, then the floor under the same clients ...');
    const { load, floor } = await httpLoads(o, ws);
    results.http = load;
    results.httpFloor = floor;
    for (const row of httpRows(load, floor)) add(row);
  }
  }

  // 6. Peers.
  if (o.peers) {
    // The guard never installs repomix (that needs the network), but uses
    // it when an earlier run did.
    const rm = o.quick ? repomixInstalled(o.dir) : repomix(o.dir);
    if (rm) {
      log(`measuring: repomix ${rm.version} (slow) ...`);
      // --no-gitignore: the workspace sits in an ignored directory of this
      // repository (.bench/), and repomix honours the enclosing repository's
      // .gitignore: without it, repomix would pack nothing at all.
      const c = cmd(`repomix docs --stdout --no-gitignore`, ['node', rm.bin, 'docs', '--stdout', '--no-gitignore'], ws.root);
      const r = compare(s.load, c, o.peerRuns, base?.suite.load);
      add({ id: 'repomix', what: `vs repomix ${rm.version} \`repomix docs --stdout --no-gitignore\``, ...measured(r), refName: 'repomix', ratio: r.b / r.a, target: 30, cmp: '>=', speedup: true });
      if (!o.quick) {
        results.outputBytes = { ...(results.outputBytes ?? {}), repomix: outputBytes(c) };
        const peakRm = await maxPeak(c, 1);
        results.memory.repomixKiB = peakRm.kib;
      }
    } else {
      log(o.quick ? 'repomix is not installed (a full `npm run bench` installs it): skipped' : 'repomix could not be installed: skipped');
    }
  }
  if (o.peers && !o.quick) {
    log('measuring: files-to-prompt-style packer ...');
    const ftp = cmd('files-to-prompt-style (node)', ['node', join(REPO, 'scripts/lib/files-to-prompt.mjs'), 'docs'], ws.root, { allowFail: true });
    const f = compare(s.load, ftp, o.peerRuns);
    add({ id: 'ftp', what: 'vs files-to-prompt-style packer (Node reimplementation)', kb: f.a, ref: f.b, refName: 'packer', ratio: f.b / f.a, speedup: true });
  }

  // 6b. Duplicates: the labelled pairs, and kb check --duplicates on many
  // short notes (scripts/lib/duplicates-bench.mjs).
  let dups;
  if (!o.quick) {
    dups = measureDuplicates({ kb: o.kb, dir: o.dir, bun: bunBinary(), baseline: base, log });
    for (const row of dups.rows) add(row);
    results.duplicates = dups.scored;
  }

  // 7. Output sizes (for the record).
  if (!o.quick) results.outputBytes = { ...(results.outputBytes ?? {}), load: outputBytes(s.load), loadRef: outputBytes(s.loadRef), list: outputBytes(s.list) };

  // 8. Scaling.
  if (o.scaling) {
    results.scaling = [];
    for (const n of o.scaling) {
      const w = ensureWorkspace(o.dir, n, o.seed, log);
      const sc = suite(w, o.kb);
      const runs = n >= 100000 ? Math.max(3, Math.ceil(o.runs / 2)) : o.runs;
      log(`measuring: scaling, ${n} subjects ...`);
      const l = compare(sc.load, sc.loadRef, runs);
      const li = compare(sc.list, sc.listRef, runs);
      const p = await maxPeak(sc.load, 1);
      results.scaling.push({ subjects: n, textMB: w.textBytes / 1e6, load: l.a, loadRef: l.b, list: li.a, listRef: li.b, rssKiB: p.kib });
    }
  }

  results.machine.loadavg = [+load0.toFixed(2), +loadavg()[0].toFixed(2)];

  // Report.
  const out = [];
  const m = results.machine;
  if (o.quick) {
    // The guard: one line a measurement, and the verdict.
    for (const r of rows) {
      const spread = (lo, hi) => `[${ms(lo)}-${ms(hi)}]`;
      const ratio = r.speedup ? `${r.ratio.toFixed(1)}x faster` : x(r.ratio);
      const vsBase = r.base === undefined ? '' : `; ${base.label} ${ms(r.base)} ms ${spread(r.baseMin, r.baseMax)}, kb / ${base.label} ${x(r.kb / r.base)}`;
      out.push(`${verdict(r) === 'PASS' ? 'ok  ' : 'SLOW'} ${r.id}: kb ${ms(r.kb)} ms ${spread(r.kbMin, r.kbMax)}, ${r.refName} ${ms(r.ref)} ms ${spread(r.refMin, r.refMax)}: ${ratio} (target ${targetText(r)})${vsBase}`);
    }
    const bad = rows.filter((r) => verdict(r) === 'FAIL').length;
    out.push(`quick check on ${ws.subjects} subjects, ${o.runs} alternating runs, medians [min-max], load average ${results.machine.loadavg.join(' -> ')}: ${bad === 0 ? 'every target met' : `${bad} target${bad === 1 ? '' : 's'} missed`}`);
    process.stdout.write(`${out.join('\n')}\n`);
    if (o.json) writeFileSync(o.json, JSON.stringify(results, null, 2));
    process.exitCode = bad ? 1 : 0;
    return;
  }
  out.push(`kb benchmark: ${ws.subjects} subjects (${(ws.textBytes / 1e6).toFixed(1)} MB of text, ${ws.hiddenFiles} hidden, ${ws.binaries} binaries incl. one ${BIG_BINARY_BYTES >> 20} MiB), ${o.runs} runs, medians`);
  out.push(`machine: ${m.cpus} x ${m.cpu}, ${m.memGiB} GiB, Linux ${m.kernel}, bun ${m.bun}, node ${m.node}, load average ${m.loadavg.join(' -> ')}`);
  out.push(`kb built with: bun build ${helloKbFlags.flags.join(' ')}; the hello world: bun build ${hello.flags.join(' ')}`);
  out.push('');
  out.push(
    table(
      ['Measurement', 'kb', 'Reference', 'Ratio', ...(base ? [base.label] : []), 'Target', 'Result'],
      rows.map((r) => {
        const row = plainRow(r);
        if (base) row.splice(4, 0, r.base === undefined ? '-' : `${ms(r.base)} ms (kb / ${base.label}: ${x(r.kb / r.base)}; ${base.label} / reference: ${x(r.base / r.ref)})`);
        return row;
      }),
    ),
  );
  out.push('');
  const mem = results.memory;
  out.push(
    `peak RSS (${m.rssMethod}): load ${mib(mem.loadKiB)}, list ${mib(mem.listKiB)}, schema ${mib(mem.schemaKiB)}, Bun hello ${mib(mem.helloKiB)}` +
      (mem.repomixKiB ? `, repomix ${mib(mem.repomixKiB)}` : ''),
  );
  if (results.startup) {
    const st = results.startup;
    out.push(
      `start-up detail: medians kb ${ms(st.kb)} ms / hello ${ms(st.hello)} ms, minimums ${ms(st.kbMin)} / ${ms(st.helloMin)} ms (${x(st.kbMin / st.helloMin)}); ` +
        `spawning \`true\` costs ${ms(st.spawn)} ms here, net of it ${x(st.netRatio)}; ` +
        `vs the hello world built with kb's flags (${ms(st.helloKbFlags)} ms): ${x(st.kbVsKbFlags)}`,
    );
  }
  if (dups) out.push('', ...dups.lines);
  const ob = results.outputBytes;
  out.push(
    `output: kb load ${(ob.load / 1e6).toFixed(1)} MB (cat: ${(ob.loadRef / 1e6).toFixed(1)} MB` +
      (ob.repomix ? `, repomix: ${(ob.repomix / 1e6).toFixed(1)} MB` : '') +
      `), kb list ${(ob.list / 1e3).toFixed(0)} kB`,
  );
  if (results.scaling) {
    out.push('');
    const sc = results.scaling;
    out.push(
      table(
        ['Subjects', 'Text', 'Load (kb)', 'per subject', 'vs cat', 'List (kb)', 'per subject', 'vs head', 'Peak RSS (load)'],
        sc.map((r) => [
          String(r.subjects),
          `${r.textMB.toFixed(0)} MB`,
          `${ms(r.load)} ms`,
          `${((r.load * 1000) / r.subjects).toFixed(1)} µs`,
          x(r.load / r.loadRef),
          `${ms(r.list)} ms`,
          `${((r.list * 1000) / r.subjects).toFixed(1)} µs`,
          x(r.list / r.listRef),
          mib(r.rssKiB),
        ]),
      ),
    );
    if (sc.length >= 3) {
      // Linear: the marginal cost per subject of each step stays the same
      // (fixed start-up cost cancels out).
      const slope = (a, b, k) => (b[k] - a[k]) / (b.subjects - a.subjects);
      const verdicts = [];
      for (const k of ['load', 'list']) {
        const s1 = slope(sc[0], sc[1], k);
        const s2 = slope(sc[sc.length - 2], sc[sc.length - 1], k);
        const ratio = s2 / s1;
        verdicts.push(`${k}: marginal cost ${(s1 * 1000).toFixed(1)} µs then ${(s2 * 1000).toFixed(1)} µs per subject (x${ratio.toFixed(2)}): ${ratio <= 1.5 ? 'linear' : 'NOT linear'}`);
        results[`${k}Linear`] = ratio;
      }
      out.push('');
      out.push(verdicts.join('\n'));
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
  if (o.json) writeFileSync(o.json, JSON.stringify(results, null, 2));

  if (o.hyperfine) {
    const hf = which('hyperfine');
    if (!hf) log('hyperfine is not installed; skipped');
    else spawnSync(hf, ['-N', '--warmup', '5', `${o.kb} schema`, hello.path], { cwd: tiny, stdio: 'inherit' });
  }
  const failed = rows.some((r) => verdict(r) === 'FAIL');
  process.exitCode = failed ? 1 : 0;
}

/** The HTTP load on kb (`kb mcp --http`), then the same clients on the
 *  floor: scripts/mcp-http-floor.ts, a server on kb's runtime (node:http,
 *  compiled with kb's flags) that answers every call at once, so the least
 *  latency these clients can see on this machine. */
async function httpLoads(o, ws) {
  const calls = o.httpCalls ?? 1000;
  const load = await mcpHttpLoad({ bin: o.kb, workspace: ws.root, topic: 'docs', clients: 32, calls });
  const floor = await mcpHttpLoad({ bin: httpFloorBinary(o.dir), workspace: ws.root, topic: 'docs', clients: 32, calls });
  return { load, floor };
}

/** scripts/mcp-http-floor.ts, compiled once per Bun version and source
 *  (scripts/lib/bench-program.mjs). */
function httpFloorBinary(dir) {
  return benchProgram({ src: join(REPO, 'scripts', 'mcp-http-floor.ts'), dir, name: 'mcp-http-floor', bun: bunBinary(), log });
}

/** CPU milliseconds a call, of the server and of the clients. */
function cpuPerCall(load) {
  const n = load.exact.n + load.listing.n + load.search.n;
  return { server: load.serverCpuMs === null ? null : load.serverCpuMs / n, clients: load.clientCpuMs / n };
}

/** The rows of the HTTP load (issue targets: exact loads p50 <= 5 ms and
 *  p99 <= 50 ms, peak RSS <= 300 MiB, no errors, no socket left open),
 *  and of its floor (no target: what the same clients see of a server
 *  that answers at once). */
function httpRows(load, floor) {
  const what = `MCP over HTTP, ${load.clients} clients x ${load.calls} calls`;
  const cpu = cpuPerCall(load);
  const floorCpu = cpuPerCall(floor);
  const floorWhat = `the floor under the same clients (a server on kb's runtime that answers at once, scripts/mcp-http-floor.ts)`;
  return [
    { id: 'httpExactP50', what: `${what}: exact load, p50`, kbValue: load.exact.p50, unit: 'ms', target: 5, cmp: '<=' },
    { id: 'httpExactP99', what: `${what}: exact load, p99`, kbValue: load.exact.p99, unit: 'ms', target: 50, cmp: '<=' },
    { id: 'httpListP50', what: `${what}: listing, p50`, kbValue: load.listing.p50, unit: 'ms' },
    { id: 'httpListP99', what: `${what}: listing, p99`, kbValue: load.listing.p99, unit: 'ms' },
    { id: 'httpSearchP50', what: `${what}: search, p50`, kbValue: load.search.p50, unit: 'ms' },
    { id: 'httpSearchP99', what: `${what}: search, p99`, kbValue: load.search.p99, unit: 'ms' },
    ...(load.peakKiB !== null ? [{ id: 'httpRss', what: `${what}: peak RSS`, kbValue: load.peakKiB, unit: 'KiB', target: 300 * 1024, cmp: '<=' }] : []),
    { id: 'httpErrors', what: `${what}: errors`, kbValue: load.errors, unit: 'count', target: 0, cmp: '<=' },
    ...(load.socketsAfter !== null ? [{ id: 'httpSockets', what: `${what}: TCP sockets the server holds afterwards, besides the one listening (${load.listening})`, kbValue: load.socketsAfter, unit: 'count', target: 0, cmp: '<=' }] : []),
    ...(cpu.server !== null ? [{ id: 'httpServerCpu', what: `${what}: the server's CPU a call (the clients' ${ms(cpu.clients)} ms)`, kbValue: cpu.server, unit: 'ms' }] : []),
    { id: 'httpFloorExactP50', what: `${floorWhat}: p50`, kbValue: floor.exact.p50, unit: 'ms' },
    { id: 'httpFloorExactP99', what: `${floorWhat}: p99`, kbValue: floor.exact.p99, unit: 'ms' },
    ...(floorCpu.server !== null ? [{ id: 'httpFloorServerCpu', what: `${floorWhat}: the server's CPU a call (the clients' ${ms(floorCpu.clients)} ms)`, kbValue: floorCpu.server, unit: 'ms' }] : []),
  ];
}

/** `--http-only`: the HTTP load alone, with its verdicts. */
async function httpOnly(o) {
  const ws = ensureWorkspace(o.dir, o.subjects, o.seed, log);
  log(`workspace: ${relative(REPO, ws.root)}: ${ws.subjects} text subjects; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const { load, floor } = await httpLoads(o, ws);
  const rows = httpRows(load, floor);
  const pass = (r) => r.target === undefined || (r.cmp === '<=' ? r.kbValue <= r.target : r.kbValue >= r.target);
  const shown = (r) => (r.unit === 'ms' ? `${ms(r.kbValue)} ms` : r.unit === 'KiB' ? mib(r.kbValue) : String(r.kbValue));
  const target = (r) => (r.target === undefined ? 'no target' : `target ${r.cmp} ${r.unit === 'KiB' ? mib(r.target) : `${r.target}${r.unit === 'ms' ? ' ms' : ''}`}`);
  const out = [`${load.subjects} subjects, ${load.clients} clients x ${load.calls} calls in ${load.seconds.toFixed(1)} s (exact ${load.exact.n}, listings ${load.listing.n}, searches ${load.search.n})`, ...rows.map((r) => `${pass(r) ? 'PASS' : 'FAIL'} ${r.what}: ${shown(r)} (${target(r)})`)];
  if (load.errors > 0) out.push(`first errors: ${load.firstErrors.join(' | ')}`);
  out.push(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  if (o.json) writeFileSync(o.json, `${JSON.stringify({ ...load, floor }, null, 2)}\n`);
  process.stdout.write(`${out.join('\n')}\n`);
  process.exitCode = rows.every(pass) ? 0 : 1;
}

/** `--duplicates-only`: the duplicates section alone, with its verdicts. */
function duplicatesOnly(o) {
  let base;
  if (o.baseline) base = ensureBaseline(REPO, o.dir, o.baseline, log);
  const d = measureDuplicates({ kb: o.kb, dir: o.dir, bun: bunBinary(), baseline: base, log });
  const pass = (r) => (r.cmp === '<=' ? r.kbValue <= r.target : r.kbValue >= r.target);
  const shown = (r) => (r.unit === 'ms' ? `${ms(r.kbValue)} ms` : r.unit === 'KiB' ? mib(r.kbValue) : r.kbValue.toFixed(2));
  const target = (r) => (r.unit === 'KiB' ? `${r.cmp} ${mib(r.target)}` : `${r.cmp} ${r.target}${r.unit === 'ms' ? ' ms' : ''}`);
  const out = [...d.lines, '', ...d.rows.map((r) => `${pass(r) ? 'PASS' : 'FAIL'} ${r.what}: ${shown(r)} (target ${target(r)})`)];
  out.push(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  process.stdout.write(`${out.join('\n')}\n`);
  process.exitCode = d.rows.every(pass) ? 0 : 1;
}

main().catch((e) => {
  log(`bench: ${e.stack ?? e}`);
  process.exit(2);
});
