// End-to-end harness: builds fixture workspaces in temp directories and runs
// kb as a user does, checking stdout, stderr and the exit code together.
// Runners: the compiled binary (dist/kb, built by `npm run build`), and the
// same sources under deno (`deno run -A src/cli.ts`), which must behave alike
// (tests/parity runs the cases marked parity under deno: caseTest below).
import { test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { makeTempDir, tempWorkspace } from '../support/temp.ts';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dir, '../..');
export const BIN = join(REPO, 'dist/kb');
const DENO = join(REPO, 'node_modules/.bin/deno');

export interface Runner {
  name: string;
  argv: string[];
}

export const BINARY: Runner = { name: 'dist/kb', argv: [BIN] };
export const DENO_RUNNER: Runner = {
  name: 'deno run src/cli.ts',
  argv: [DENO, 'run', '-A', '--quiet', `--config=${join(REPO, 'deno.json')}`, join(REPO, 'src/cli.ts')],
};

/**
 * The `test` of a case function (`cases(runner)` in tests/e2e/*.cases.ts),
 * which tests/e2e runs on dist/kb and tests/parity under deno. Every case
 * runs on dist/kb; under another runner only the cases marked
 * `test.parity(...)` run: a subset that covers each command, the MCP server
 * and what differs between runtimes (stdin, pipes, the reader thread,
 * caches, writes), so that deno parity does not run every case twice.
 */
export function caseTest(runner: Runner): typeof test & { parity: typeof test } {
  const every = runner === BINARY;
  const only = ((...args: Parameters<typeof test>) => {
    if (every) test(...args);
  }) as typeof test & { parity: typeof test };
  only.each = ((table: unknown[]) => (every ? test.each(table as never) : () => undefined)) as typeof test.each;
  only.parity = test;
  return only;
}

if (!existsSync(BIN)) throw new Error('dist/kb is missing: run `npm run build` first (npm test does)');


export function tempDir(): string {
  return makeTempDir('kb-e2e-');
}

/** A workspace: `.jp/config.toml` (when given) plus files. */
export function fixture(files: Record<string, string | Uint8Array>, config?: string): string {
  return tempWorkspace('kb-e2e-', files, config);
}

export interface Result {
  out: string;
  err: string;
  code: number | null;
}

export interface RunOptions {
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
}

export function run(runner: Runner, root: string, args: string[], opts: RunOptions = {}): Result {
  const [cmd, ...pre] = runner.argv;
  const r = spawnSync(cmd, [...pre, ...args], {
    cwd: opts.cwd ?? root,
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: 30000,
    env: isolatedEnv(root, opts.env),
  });
  return { out: r.stdout ?? '', err: r.stderr ?? '', code: r.status };
}

/** The environment kb runs in under test: no colours, and HOME and every
 *  user-global directory inside the fixture (homeIn), so that nothing
 *  from the machine running the tests leaks in. */
export function isolatedEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NO_COLOR: '1',
    ...homeIn(root),
    DENO_NO_UPDATE_CHECK: '1',
    ...extra,
  };
}

/** HOME and every user-global directory kb reads or writes (its and jp's
 *  configuration, the search cache), inside `root`: a test never reads
 *  the user's configuration nor reads or writes the user's search cache. */
export function homeIn(root: string): Record<string, string> {
  return {
    HOME: root,
    XDG_CONFIG_HOME: join(root, '.xdg'),
    XDG_CACHE_HOME: join(root, '.xdg-cache'),
    JP_GLOBAL_CONFIG_DIR: join(root, '.global'),
  };
}

export { NOTE, RFD_CONFIG, RFD_FILES } from '../support/rfd.ts';
