// Expanding an `extends` glob into files (the glob module's `pathGlob`
// loads the glob machinery only for an entry that may be a glob).

import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathGlob } from '../glob/index.ts';

/** Symlinked or nested directories are walked at most this deep. */
const MAX_DEPTH = 32;

/** The regular files an `extends` glob matches (relative to `dir`, or
 *  absolute), sorted by path in code-unit order; undefined when `pattern`
 *  is not a glob but a plain path. Hidden files only match a pattern that
 *  names the dot explicitly. */
export async function globFiles(dir: string, pattern: string): Promise<string[] | undefined> {
  const glob = await pathGlob(pattern);
  if (glob === undefined) return undefined;
  const start = resolve(dir, glob.base);
  // A glob without `**` never needs to look deeper than its own segments.
  const depth = glob.glob.includes('**') ? MAX_DEPTH : glob.glob.split('/').length;
  const found: string[] = [];
  // The real paths of the directories being walked: a symbolic link back to
  // one of them (a loop) is not followed again.
  const onPath: string[] = [];
  const walk = (abs: string, rel: string, level: number) => {
    let names: string[];
    let real: string;
    try {
      real = realpathSync(abs);
      if (onPath.includes(real)) return;
      names = readdirSync(abs);
    } catch {
      return;
    }
    onPath.push(real);
    for (const name of names) {
      const childAbs = join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      const stat = tryStat(childAbs);
      if (stat?.isFile() && glob.matches(childRel)) found.push(childRel);
      else if (stat?.isDirectory() && level < depth) walk(childAbs, childRel, level + 1);
    }
    onPath.pop();
  };
  walk(start, '', 1);
  return found.sort().map((rel) => join(start, rel));
}

function tryStat(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined; // dangling link, no permission, vanished
  }
}
