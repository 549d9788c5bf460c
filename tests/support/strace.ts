// Bytes a command read from given files, counted by strace (every read-like
// system call on a descriptor of the file; a memory mapping counts as the
// whole file). Linux with strace only: `STRACE` is '' elsewhere. CI installs
// strace (scripts/ci-deps), where its absence is a failure, not a skip.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const STRACE = process.platform === 'linux' ? spawnSync('sh', ['-c', 'command -v strace'], { encoding: 'utf8' }).stdout.trim() : '';

if (!STRACE && process.env.CI === 'true' && process.platform === 'linux') {
  throw new Error('strace is not installed: run scripts/ci-deps (the read-bound proofs on dist/kb need it)');
}

/** Runs `argv` under strace in `cwd` with `env`; returns the bytes read
 *  from each of `files` (absolute paths), from strace's -y output
 *  (descriptors shown with their paths). The log goes to `logDir`. */
export function bytesRead(argv: readonly string[], cwd: string, env: Record<string, string>, files: readonly string[], logDir: string): Map<string, number> {
  const log = join(logDir, `strace-${process.hrtime.bigint()}.log`);
  const r = spawnSync(STRACE, ['-f', '-qq', '-y', '-o', log, '-e', 'trace=read,pread64,readv,preadv,preadv2,mmap,sendfile,copy_file_range,splice', ...argv], { cwd, encoding: 'utf8', env });
  if (r.error) throw r.error;
  const bytes = new Map<string, number>();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    for (const p of files) {
      if (!line.includes(`<${p}>`)) continue;
      const m = /=\s+(-?\d+)/.exec(line.slice(line.lastIndexOf(')')));
      const n = line.includes('mmap(') ? statSync(p).size : m ? Math.max(0, Number(m[1])) : 0;
      bytes.set(p, (bytes.get(p) ?? 0) + n);
    }
  }
  rmSync(log, { force: true });
  return bytes;
}

/** The folders of `dirs` (absolute paths) whose entries a command read
 *  (a getdents call on a descriptor of the folder), run as `bytesRead`. */
export function foldersRead(argv: readonly string[], cwd: string, env: Record<string, string>, dirs: readonly string[], logDir: string): string[] {
  const log = join(logDir, `strace-${process.hrtime.bigint()}.log`);
  const r = spawnSync(STRACE, ['-f', '-qq', '-y', '-o', log, '-e', 'trace=getdents,getdents64', ...argv], { cwd, encoding: 'utf8', env });
  if (r.error) throw r.error;
  const text = readFileSync(log, 'utf8');
  rmSync(log, { force: true });
  return dirs.filter((d) => text.includes(`<${d}>`));
}
