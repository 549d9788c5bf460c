// A program to time, copied so that its file is written now.
//
// The same compiled program started measurably faster from a file written
// minutes before than from one written half an hour before (kb 1.0's `kb
// schema`: 10.4 against 12.8 ms, 200 alternating runs, the same bytes), so
// a run that compared a kb just built with an older baseline or reference
// favoured kb by about that much, and less as kb's file aged. The benches
// copy the programs they compare at the start of a comparison, so that
// each file is as old as the others.

import { chmodSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** `path` copied to `<dir>/run/<name>` (replaced), executable; its path. */
export function freshCopy(path, dir, name) {
  const run = join(dir, 'run');
  mkdirSync(run, { recursive: true });
  const to = join(run, name);
  rmSync(to, { force: true });
  copyFileSync(path, to);
  chmodSync(to, 0o755);
  return to;
}
