// Temporary directory trees for config tests.

import { afterAll } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (relative path -> content; a path ending in `/` is an
 *  empty directory) under a fresh temporary directory and returns it. */
export function tree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kb-config-')));
  made.push(root);
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    if (path.endsWith('/')) mkdirSync(abs, { recursive: true });
    else {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    }
  }
  return root;
}
