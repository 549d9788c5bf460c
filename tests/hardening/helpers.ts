// Helpers for the hostile-input suite: workspaces in temp directories
// (removed after each file), and dist/kb run as a user runs it, with stdout,
// stderr, the exit code, the wall time and the peak memory of the process.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN, isolatedEnv as env } from '../e2e/harness.ts';

export { BIN };

export const TOPIC = '[kb.topic.t]\nsubjects = "t"\n';

const roots: string[] = [];

/** Removes every temp directory made so far. Each test file registers it
 *  with `afterAll` (a module-level hook would run once, after the first
 *  file that imports this module); process exit is the fallback. */
export function cleanup(): void {
  for (const r of roots.splice(0)) removeTree(r);
}
process.on('exit', cleanup);

/** Removes a tree even where a test took permissions away. */
export function removeTree(root: string): void {
  if (!existsSync(root)) return;
  const stack = [root];
  while (stack.length > 0) {
    const d = stack.pop()!;
    try {
      if (!lstatSync(d).isDirectory()) continue;
      chmodSync(d, 0o755);
      for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) stack.push(join(d, e.name));
    } catch {
      // Gone already.
    }
  }
  rmSync(root, { recursive: true, force: true });
}

/** A fresh temp directory, removed after the test file. */
export function tempDir(prefix = 'kb-hard-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  roots.push(d);
  return d;
}

export type Entry = string | Uint8Array | { link: string } | { dir: true };

/** A workspace: `.jp/config.toml` plus entries (paths relative to the
 *  workspace root: file contents, `{ link }` symlinks, `{ dir }`). */
export function workspace(entries: Record<string, Entry>, config = TOPIC): string {
  const root = tempDir();
  // Readable by an unprivileged user (for the permission cases).
  chmodSync(root, 0o755);
  mkdirSync(join(root, '.jp'), { recursive: true });
  writeFileSync(join(root, '.jp', 'config.toml'), config);
  mkdirSync(join(root, 't'), { recursive: true });
  for (const [rel, v] of Object.entries(entries)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof v === 'string' || v instanceof Uint8Array) writeFileSync(abs, v);
    else if ('link' in v) symlinkSync(v.link, abs);
    else mkdirSync(abs, { recursive: true });
  }
  return root;
}

export interface Result {
  out: string;
  err: string;
  code: number | null;
}

export interface Measured extends Result {
  ms: number;
  /** Peak resident memory of the process, in bytes. */
  maxRss: number;
}

export interface KbOptions {
  input?: string | Uint8Array;
  env?: Record<string, string>;
  /** Run as this user (via setpriv), for permission cases as root. */
  asUser?: number;
  timeoutMs?: number;
}

function command(args: string[], opts: KbOptions): string[] {
  const base = [BIN, ...args];
  if (opts.asUser === undefined) return base;
  return ['setpriv', `--reuid=${opts.asUser}`, `--regid=${opts.asUser}`, '--clear-groups', ...base];
}

const PEAK_MEMORY = join(import.meta.dir, 'peak-memory.ts');
let measured = 0;

/** Runs dist/kb in `root`: stdout, stderr, exit code, time and peak memory
 *  (measured by a fresh wrapper process: see peak-memory.ts). */
export function kbMeasured(root: string, args: string[], opts: KbOptions = {}): Measured {
  const peakFile = join(tmpdir(), `kb-peak-${process.pid}-${measured++}`);
  const t0 = performance.now();
  const r = Bun.spawnSync([process.execPath, PEAK_MEMORY, ...command(args, opts)], {
    cwd: root,
    env: { ...env(root, opts.env), PEAK_MEMORY_OUT: peakFile },
    stdin: opts.input === undefined ? 'ignore' : typeof opts.input === 'string' ? Buffer.from(opts.input) : opts.input,
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: opts.timeoutMs ?? 60_000,
  });
  const ms = performance.now() - t0;
  let maxRss = Number.NaN;
  try {
    maxRss = Number(readFileSync(peakFile, 'utf8'));
    rmSync(peakFile, { force: true });
  } catch {
    // The wrapper did not get to write it (killed by the timeout).
  }
  return { out: r.stdout.toString(), err: r.stderr.toString(), code: r.exitCode, ms, maxRss };
}

/** Runs dist/kb in `root`: stdout, stderr and exit code, to compare whole. */
export function kb(root: string, args: string[], opts: KbOptions = {}): Result {
  const { out, err, code } = kbMeasured(root, args, opts);
  return { out, err, code };
}

/** What every hostile case must never show: a JavaScript stack trace or an
 *  uncaught-error report. */
export function expectNoCrash(r: Result): void {
  const bad = /^\s+at .+[:(]\d+|RangeError|TypeError|ReferenceError|Maximum call stack|Segmentation fault|panic|\bBun v\d/m;
  if (bad.test(r.err) || bad.test(r.out) || r.code === null || (r.code !== 0 && r.code !== 1 && r.code !== 2)) {
    throw new Error(`kb crashed (exit ${r.code}):\nstdout: ${r.out.slice(0, 2000)}\nstderr: ${r.err.slice(0, 2000)}`);
  }
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function hasSetpriv(): boolean {
  if (!isRoot) return false;
  const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']);
  return r.status === 0;
}

/**
 * How to make a file unreadable for kb. chmod 000 does nothing to root, so
 * as root kb is run as `nobody` through `setpriv`; as any other user, chmod
 * is enough. `skip` says why neither works.
 */
export const permissions: { runAs?: number; skip?: string } = (() => {
  if (process.platform === 'win32') return { skip: 'no POSIX permissions on Windows' };
  if (!isRoot) return {};
  if (hasSetpriv()) return { runAs: 65534 };
  return { skip: 'running as root without setpriv: chmod 000 cannot make a file unreadable for root' };
})();

/** Whether a program is on PATH (and runs). */
export function hasProgram(name: string, args = ['--version']): boolean {
  return spawnSync(name, args).status === 0;
}
