// A real path that holds while another process replaces the file.
//
// The runtime's realpath (Bun's, both `realpathSync` and its `.native`)
// can fail with ENOENT while the path is being replaced by a rename,
// although the name never stops naming a file: in a loop of renames over
// one name, about one call in a hundred failed, where `stat` never did.
// kb resolves paths that another kb may be replacing that way at the same
// moment: a configuration another `kb init` appends to (16 of them at once
// lost a table to it: "the configuration file is a broken symbolic
// link"), a subject another writer saves.

import { lstatSync, realpathSync } from 'node:fs';

/** Calls made, at most, while the entry is there and realpath says it is
 *  not. */
const TRIES = 8;

/** `realpathSync(path)`, asked again (TRIES calls in all) while it fails
 *  with ENOENT and the entry is there (`lstat`). Throws what it threw: a
 *  path that is not there, a dangling link (after TRIES calls), any other
 *  error at once. */
export function realpathSteady(path: string): string {
  for (let i = 1; ; i++) {
    try {
      return realpathSync(path);
    } catch (err) {
      if (i >= TRIES || (err as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT' || !present(path)) throw err;
    }
  }
}

function present(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
