// Expanding an `extends` glob into files (the glob module's `pathGlob`
// loads the glob machinery only for an entry that may be a glob).
//
// The walk is bounded whatever the directories hold: each real directory
// (device and inode) is walked once, by its own path when it has one
// (directories reached through symbolic links come after every directory
// reached without one), so links that loop or fan out (`a -> .`, `b -> .`)
// cannot multiply it; each real file is matched once; and the walk stops,
// with a warning, after MAX_GLOB_ENTRIES directory entries.

import { type Dirent, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathGlob } from '../glob/index.ts';
import { statOrNone } from '../shared/stat.ts';

/** Nested directories are walked at most this deep. */
const MAX_DEPTH = 32;
/** Directory entries one glob walks at most. */
export const MAX_GLOB_ENTRIES = 20_000;

export interface GlobResult {
  /** Absolute paths, sorted by their path below the glob's base in
   *  code-unit order. */
  files: string[];
  /** The entries walked when the walk was cut short by MAX_GLOB_ENTRIES. */
  truncated?: number;
}

/** The regular files an `extends` glob matches (relative to `dir`, or
 *  absolute); undefined when `pattern` is not a glob but a plain path. */
export async function globFiles(dir: string, pattern: string): Promise<GlobResult | undefined> {
  const glob = await pathGlob(pattern);
  if (glob === undefined) return undefined;
  const start = resolve(dir, glob.base);
  // A glob without `**` never needs to look deeper than its own segments.
  const depth = glob.glob.includes('**') ? MAX_DEPTH : glob.glob.split('/').length;
  const found = new Map<string, string>(); // file identity -> relative path (the smallest)
  const seen = new Set<string>(); // directory identities walked
  type Dir = { abs: string; rel: string; level: number };
  const direct: Dir[] = [{ abs: start, rel: '', level: 1 }];
  const linked: Dir[] = [];
  let entries = 0;
  let truncated: number | undefined;

  const visit = (d: Dir) => {
    const id = identity(d.abs);
    if (id === undefined || seen.has(id)) return;
    seen.add(id);
    let names: Dirent[];
    try {
      names = readdirSync(d.abs, { withFileTypes: true });
    } catch {
      return; // no permission, vanished
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      if (++entries > MAX_GLOB_ENTRIES) {
        truncated = MAX_GLOB_ENTRIES;
        return;
      }
      const abs = join(d.abs, entry.name);
      const rel = d.rel ? `${d.rel}/${entry.name}` : entry.name;
      const link = entry.isSymbolicLink();
      const stat = link ? statOrNone(abs) : undefined;
      const isFile = link ? stat?.isFile() : entry.isFile();
      const isDir = link ? stat?.isDirectory() : entry.isDirectory();
      if (isFile && glob.matches(rel)) {
        const key = link ? `${stat!.dev}:${stat!.ino}` : identity(abs);
        if (key !== undefined) {
          const had = found.get(key);
          if (had === undefined || rel < had) found.set(key, rel);
        }
      } else if (isDir && d.level < depth) {
        (link ? linked : direct).push({ abs, rel, level: d.level + 1 });
      }
    }
  };
  while (truncated === undefined && (direct.length > 0 || linked.length > 0)) {
    visit(direct.length > 0 ? direct.shift()! : linked.shift()!);
  }
  const files = [...found.values()].sort().map((rel) => join(start, rel));
  return truncated === undefined ? { files } : { files, truncated };
}

/** `dev:ino` of what `path` points to; undefined when it cannot be read. */
function identity(path: string): string | undefined {
  const s = statOrNone(path);
  return s ? `${s.dev}:${s.ino}` : undefined;
}

