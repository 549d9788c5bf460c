// Temporary directories made by tests, removed once after the whole run by
// the preload in tests/support/cleanup.ts (bunfig.toml). A module-level
// afterAll would run for the first test file that imports its module only,
// and bun test fires no process exit event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
