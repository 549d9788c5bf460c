// Temporary directory trees for config tests.

import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeTempDir } from '../../support/temp.ts';



/** Writes `files` (relative path -> content; a path ending in `/` is an
 *  empty directory) under a fresh temporary directory and returns it. */
export function tree(files: Record<string, string>): string {
  const root = realpathSync(makeTempDir('kb-config-'));
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
