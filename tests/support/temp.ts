// Temporary directories made by tests, removed once after the whole run by
// the preload in tests/support/cleanup.ts (bunfig.toml). A module-level
// afterAll would run for the first test file that imports its module only,
// and bun test fires no process exit event.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made: string[] = [];

/** A fresh directory under the system temp dir, removed after the run. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh directory (removed after the run) and a writer of numbered files
 *  in it: `file(content)` writes `f0`, `f1`... and returns its path. */
export function tempFiles(prefix: string): { root: string; file: (content: string | Uint8Array) => string } {
  const root = makeTempDir(prefix);
  let n = 0;
  return {
    root,
    file(content) {
      const p = join(root, `f${n++}`);
      writeFileSync(p, content);
      return p;
    },
  };
}

/** A fresh workspace (removed after the run): `.jp/config.toml` (when
 *  given) plus files, by path relative to the root. */
export function tempWorkspace(prefix: string, files: Record<string, string | Uint8Array>, config?: string): string {
  const root = makeTempDir(prefix);
  mkdirSync(join(root, '.jp'), { recursive: true });
  if (config !== undefined) writeFileSync(join(root, '.jp', 'config.toml'), config);
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), c);
  }
  return root;
}
