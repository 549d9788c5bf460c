// Writing a file of one of kb's caches (the search indexes, a listing's
// heads): in the user's cache directory, made private (0700) when it is not
// there, through a temporary file renamed into place, so that a reader
// never sees half a file and two writers leave one whole file.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Makes the folder of `file` (mode 0700) when it is not there; the
 *  reason it could not, or undefined (a writer that would do work only to
 *  have it kept asks first). */
export function cacheFolderFor(file: string): string | undefined {
  try {
    makeFolder(file);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function makeFolder(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
}

/** Writes `bytes` to `file` (mode 0600); the reason it could not, or
 *  undefined. */
export function writeCacheFile(file: string, bytes: Uint8Array): string | undefined {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    makeFolder(file);
    writeFileSync(temp, bytes, { mode: 0o600 });
    renameSync(temp, file);
    return undefined;
  } catch (err) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing to clean up
    }
    return (err as Error).message;
  }
}
