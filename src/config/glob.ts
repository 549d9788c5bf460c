// Expanding an `extends` glob into files.

import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { globEngine, mayBeGlob } from '../glob/index.ts';

/** Whether an `extends` entry is a glob (the glob machinery is needed, and
 *  loaded, only when it may be: kb/globs.ts). */
export function isGlob(pattern: string): boolean {
  return mayBeGlob(pattern) && globEngine().picomatch.scan(pattern).isGlob;
}

/** Symlinked or nested directories are walked at most this deep. */
const MAX_DEPTH = 32;

/** The regular files matching `pattern` (relative to `dir`, or absolute),
 *  sorted by path in code-unit order. Hidden files only match a pattern that
 *  names the dot explicitly. */
export function globFiles(dir: string, pattern: string): string[] {
  const { picomatch } = globEngine();
  const { base, glob } = picomatch.scan(pattern);
  const start = resolve(dir, base);
  const matches = picomatch(glob);
  // A glob without `**` never needs to look deeper than its own segments.
  const depth = glob.includes('**') ? MAX_DEPTH : glob.split('/').length;
  const found: string[] = [];
  const walk = (abs: string, rel: string, level: number) => {
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch {
      return;
    }
    for (const name of names) {
      const childAbs = join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      const stat = tryStat(childAbs);
      if (stat?.isFile() && matches(childRel)) found.push(childRel);
      else if (stat?.isDirectory() && level < depth) walk(childAbs, childRel, level + 1);
    }
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
