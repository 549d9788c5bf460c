// Smoke tests of kb's release binaries (docs/guide/install.md, "What is tested
// where"): `node scripts/smoke.mjs [--target NAME] [--commit C] BINARY`
// (default: dist/kb, this machine's target), and `npm run release --
// --smoke`, which runs it on every binary it built.
//
// Every binary: its headers (scripts/lib/binfmt.mjs) say the target's
// format, OS and CPU (ELF with glibc's or musl's loader, a PE32+ console
// program, a Mach-O executable with a valid ad-hoc signature), and it holds
// the commit it says it was built from. A binary that runs here, natively
// or under an emulator (linux-arm64 under qemu-user, windows-x64 under
// wine), then runs a short script: `--version`, the README's first screen
// (`init`, `learn`, `search`, compared with what the README shows) and an
// MCP `initialize`. Prints one line per check; exits 1 when one fails.

import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBinary } from './lib/binfmt.mjs';
import { runFirstScreen, spawnRun } from './lib/first-screen.mjs';
import { hostTarget, targetNamed } from './lib/targets.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function which(cmd) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  return undefined;
}

/** How `target` runs here: { argv, env, how }, or { skip } saying why not. */
export function runnerFor(target, host = hostTarget()) {
  const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', LANG: 'C.UTF-8' };
  if (host && target.os === host.os && target.cpu === host.cpu && (target.libc ?? '') === (host.libc ?? '')) return { argv: [], env, how: 'natively' };
  if (host?.os === 'linux' && target.name === 'linux-arm64') {
    const qemu = which('qemu-aarch64-static') ?? which('qemu-aarch64');
    const sysroot = '/usr/aarch64-linux-gnu';
    if (!qemu || !existsSync(join(sysroot, 'lib/ld-linux-aarch64.so.1'))) return { skip: 'needs qemu-user and an arm64 C library (scripts/smoke-deps installs them)' };
    return { argv: [qemu, '-L', sysroot], env, how: 'under qemu-user' };
  }
  if (host?.os === 'linux' && target.os === 'win32' && target.cpu === 'x64') {
    const wine = which('wine');
    if (!wine) return { skip: 'needs wine (scripts/smoke-deps installs it)' };
    const prefix = winePrefix();
    if (prefix.skip) return prefix;
    return { argv: [wine], env: { ...env, WINEPREFIX: prefix.dir, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' }, how: 'under wine', stdinFile: true };
  }
  if (target.libc === 'musl') return { skip: 'needs musl and a musl build of libstdc++ (an Alpine system): the headers are checked' };
  return { skip: `no ${target.os} here: the headers${target.os === 'darwin' ? ' and the signature' : ''} are checked` };
}

/** The wine prefix the smoke tests use (made once, ~/.cache/kb-smoke/wine).
 *  Bun's Windows runtime imports ProcessPrng from bcryptprimitives.dll,
 *  which Windows 10 and later have and wine before 9.0 lacks: for such a
 *  wine the prefix gets a stand-in built from a few lines of C
 *  (RtlGenRandom behind ProcessPrng) with MinGW's compiler. */
function winePrefix() {
  const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kb-smoke', 'wine');
  const system32 = join(dir, 'drive_c/windows/system32');
  if (!existsSync(system32)) {
    mkdirSync(dir, { recursive: true });
    spawnSync('wineboot', ['-i'], { env: { ...process.env, WINEPREFIX: dir, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' }, stdio: 'ignore', timeout: 300_000 });
    spawnSync('wineserver', ['-w'], { env: { ...process.env, WINEPREFIX: dir }, stdio: 'ignore', timeout: 120_000 });
  }
  if (!existsSync(system32)) return { skip: `wineboot made no prefix in ${dir}` };
  const dll = join(system32, 'bcryptprimitives.dll');
  if (!existsSync(dll)) {
    const gcc = which('x86_64-w64-mingw32-gcc');
    if (!gcc) return { skip: 'this wine lacks bcryptprimitives.dll, and no MinGW compiler can make the stand-in (scripts/smoke-deps installs it)' };
    const work = mkdtempSync(join(tmpdir(), 'kb-smoke-dll-'));
    writeFileSync(join(work, 'bcryptprimitives.c'), PROCESS_PRNG);
    try {
      execFileSync(gcc, ['-shared', '-O2', '-o', join(work, 'bcryptprimitives.dll'), join(work, 'bcryptprimitives.c'), '-ladvapi32'], { stdio: 'inherit' });
      copyFileSync(join(work, 'bcryptprimitives.dll'), dll);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return { dir };
}

const PROCESS_PRNG = `#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
    if (!SystemFunction036(data, n)) return FALSE;
    data += n;
    len -= n;
  }
  return TRUE;
}
`;

/** The header checks: [name, ok, detail]. */
export function headerChecks(file, target, commit) {
  const buf = readFileSync(file);
  const bin = readBinary(buf);
  const checks = [];
  const want = { linux: 'elf', win32: 'pe', darwin: 'macho' }[target.os];
  checks.push(['format', bin.format === want && bin.os === target.os && bin.machine === target.cpu, `${bin.format}, ${bin.os}, ${bin.machine}`]);
  if (bin.format === 'elf') {
    const loader = target.libc === 'musl' ? /\/ld-musl-/ : /\/ld-linux-/;
    checks.push(['loader', loader.test(bin.interpreter ?? ''), bin.interpreter ?? 'none']);
  } else if (bin.format === 'pe') {
    checks.push(['console program', bin.subsystem === 'console', bin.subsystem]);
  } else if (bin.format === 'macho') {
    checks.push(['executable', bin.executable && bin.main, `MH_EXECUTE ${bin.executable}, LC_MAIN ${bin.main}`]);
    const s = bin.signature;
    checks.push(['ad-hoc signature', Boolean(s?.adhoc) && s.problems.length === 0, s ? `${s.identifier}, ${s.pages} pages of ${s.pageSize} B, ${s.hash}${s.problems.length ? `: ${s.problems.join('; ')}` : ', every page hash matches'}` : 'none']);
  }
  if (commit) checks.push(['embeds its commit', buf.includes(Buffer.from(commit)), commit]);
  return checks;
}

/** The run checks: [name, ok, detail]. */
export function runChecks(file, target, runner, { version, commit }) {
  const root = mkdtempSync(join(tmpdir(), 'kb-smoke-'));
  try {
    return runIn(root, file, target, runner, { version, commit });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function runIn(root, file, target, runner, { version, commit }) {
  const checks = [];
  const home = join(root, 'home');
  mkdirSync(home);
  const env = { ...runner.env, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), XDG_CONFIG_HOME: join(home, '.config'), JP_GLOBAL_CONFIG_DIR: join(home, '.jp') };
  const argv = [...runner.argv, file];
  const v = spawnSync(argv[0], [...argv.slice(1), '--version'], { env, encoding: 'utf8', timeout: 120_000 });
  const expected = `${version} (commit ${commit ?? 'unknown'}, ${target.name})\n`;
  const vOk = v.status === 0 && (commit ? v.stdout === expected : v.stdout.startsWith(`${version} (commit `) && v.stdout.endsWith(`, ${target.name})\n`));
  checks.push(['--version', vOk, JSON.stringify(v.stdout || String(v.stderr || v.error || v.status))]);
  const { dir, results } = runFirstScreen(REPO, spawnRun(argv, env), join(root, 'screen'));
  for (const r of results) checks.push([r.line, r.ok, r.ok ? 'as the README shows' : `exit ${r.code}; got ${JSON.stringify(r.out.slice(0, 400))}${r.err ? `; stderr ${JSON.stringify(r.err.slice(0, 200))}` : ''}`]);
  checks.push(mcpInitialize(argv, env, version, dir, runner.stdinFile === true));
  return checks;
}

/** `kb mcp` in the workspace `ws` (the first screen's), given an
 *  initialize request and then the end of its input: through a pipe, or
 *  from a file under wine, whose pipes Bun's stdin cannot read (wine 8: a
 *  two-line Bun program that reads stdin fails the same way, EBADF). */
function mcpInitialize(argv, env, version, ws, stdinFile) {
  const request = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'kb-smoke', version: '1' } } };
  const input = `${JSON.stringify(request)}\n`;
  let r;
  if (stdinFile) {
    const file = join(ws, '..', 'initialize.json');
    writeFileSync(file, input);
    const fd = openSync(file, 'r');
    try {
      r = spawnSync(argv[0], [...argv.slice(1), 'mcp'], { cwd: ws, env, stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', timeout: 120_000 });
    } finally {
      closeSync(fd);
    }
  } else {
    r = spawnSync(argv[0], [...argv.slice(1), 'mcp'], { cwd: ws, env, input, encoding: 'utf8', timeout: 120_000 });
  }
  let reply;
  try {
    reply = JSON.parse(r.stdout.split('\n')[0]);
  } catch {
    // not JSON: reported below
  }
  const ok = r.status === 0 && reply?.id === 1 && reply?.result?.protocolVersion === '2025-06-18' && reply?.result?.serverInfo?.name === 'kb' && reply?.result?.serverInfo?.version === version;
  return ['mcp initialize', ok, ok ? `serverInfo ${JSON.stringify(reply.result.serverInfo)}` : `exit ${r.status}; ${JSON.stringify((r.stdout || r.stderr || String(r.error)).slice(0, 300))}`];
}

/** Every check of one binary: { target, how, checks }. */
export function smoke(file, target, { version, commit } = {}) {
  const checks = headerChecks(file, target, commit);
  const runner = runnerFor(target);
  if (runner.skip) return { target: target.name, how: `not run: ${runner.skip}`, checks };
  return { target: target.name, how: `run ${runner.how}`, checks: [...checks, ...runChecks(file, target, runner, { version, commit })] };
}

/** Prints a smoke result; returns whether every check passed. */
export function report({ target, how, checks }, out = process.stdout) {
  out.write(`${target}: ${how}\n`);
  for (const [name, ok, detail] of checks) out.write(`  ${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}\n`);
  return checks.every(([, ok]) => ok);
}

function main(argv) {
  const opt = (name) => {
    const i = argv.indexOf(`--${name}`);
    return i === -1 ? undefined : argv.splice(i, 2)[1];
  };
  const name = opt('target');
  const target = name ? targetNamed(name) : hostTarget();
  if (!target) {
    console.error(`smoke: unknown target ${name ?? '(this machine)'}`);
    return 2;
  }
  const commit = opt('commit');
  const file = resolve(argv[0] ?? join(REPO, 'dist/kb'));
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  return report(smoke(file, target, { version, commit })) ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
