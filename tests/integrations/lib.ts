// Shared by the integration tests: real external programs (pre-commit, git,
// bash, zsh, fish, jq, taplo) driving the compiled binary.
//
// A program that is not installed skips its tests with a loud reason on a
// developer's machine, and fails them in CI (CI=true), where
// scripts/ci-deps installs them.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, test } from 'bun:test';
import { BIN, REPO, homeIn, tempDir } from '../e2e/harness.ts';

export { BIN, REPO, tempDir };

export const IN_CI = process.env.CI === 'true';

/** The absolute path of `cmd` on PATH, or undefined. */
export function which(cmd: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const full = join(dir, cmd);
    if (existsSync(full)) return full;
  }
  return undefined;
}

/** `describe`, or a skip (a failure under CI=true) when a program is missing. */
export function describeWith(programs: string[], name: string, body: () => void): void {
  const missing = programs.filter((p) => !which(p));
  if (missing.length === 0) {
    describe(name, body);
    return;
  }
  const reason = `${missing.join(', ')} not installed (scripts/ci-deps installs ${missing.length === 1 ? 'it' : 'them'})`;
  if (IN_CI) {
    describe(name, () => {
      test(`needs ${missing.join(', ')}`, () => {
        throw new Error(`${reason}: required in CI`);
      });
    });
    return;
  }
  console.warn(`\n*** SKIPPED "${name}": ${reason} ***\n`);
  describe.skip(name, body);
}

/** A directory holding only `kb` (a link to dist/kb), to put on PATH. */
export function kbBinDir(): string {
  const dir = join(tempDir(), 'bin');
  mkdirSync(dir, { recursive: true });
  symlinkSync(BIN, join(dir, 'kb'));
  return dir;
}

/** PATH without any directory that holds a `kb`, so that only the kb a test
 *  provides can run. */
export function pathWithoutKb(): string {
  return (process.env.PATH ?? '').split(delimiter).filter((d) => d && !existsSync(join(d, 'kb'))).join(delimiter);
}

export interface Ran {
  out: string;
  err: string;
  code: number | null;
}

export function sh(cmd: string, args: string[], opts: SpawnSyncOptions = {}): Ran {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 120_000, ...opts });
  if (r.error) throw r.error;
  return { out: String(r.stdout ?? ''), err: String(r.stderr ?? ''), code: r.status };
}

/** An environment for child processes: the machine's (certificate bundles,
 *  proxies), without the variables of an enclosing `npm test` (npm_*), of an
 *  enclosing git hook (GIT_DIR, ...), kb's and jp's (KB_*, JP_*) or the
 *  user's directories (XDG_*_HOME); HOME and every user-level directory in
 *  `root` (homeIn: no user configuration, no user search cache), a git
 *  identity, no colour. */
export function baseEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(npm_|JP_|KB_|PRE_COMMIT)/i.test(key) || /^XDG_[A-Z]+_HOME$/.test(key) || /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|PREFIX|CONFIG)/.test(key)) continue;
    if (key === 'INIT_CWD' || key === 'NODE_PATH') continue;
    env[key] = value;
  }
  return {
    ...env,
    PATH: process.env.PATH ?? '',
    ...homeIn(root),
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    TERM: 'dumb',
    GIT_AUTHOR_NAME: 'kb tests',
    GIT_AUTHOR_EMAIL: 'kb-tests@example.invalid',
    GIT_COMMITTER_NAME: 'kb tests',
    GIT_COMMITTER_EMAIL: 'kb-tests@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(root, '.gitconfig-none'),
    ...extra,
  };
}

/** docs/guide/assistants.md, where the docs show pre-commit, the
 *  editors' schema set-up, shell completion and the recipes. */
export function integrationsDoc(): string {
  return readFileSync(join(REPO, 'docs/guide/assistants.md'), 'utf8');
}

/** The fenced code blocks of `lang` in the text, in order. */
export function codeBlocks(section: string, lang: string): string[] {
  const out: string[] = [];
  const re = new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g');
  for (const m of section.matchAll(re)) out.push(m[1]);
  return out;
}
