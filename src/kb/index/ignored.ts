// A pattern that matched nothing may name a file an ignore file leaves out
// (a vault's `.gitignore` leaving out `Clippings/`): the note for the model
// then says that it exists, which rule leaves it out, and how to bring it
// back. Looked for only on a miss, and bounded: the ignored entries the
// walk recorded, and inside the ignored directories at most LOOK_ENTRIES
// directory entries, links not followed.

import { readdirSync } from 'node:fs';
import { Budget, PatternTooExpensive, type CompiledPattern } from '../../glob/index.ts';
import type { Ignored } from '../fs/ignore.ts';
import { describePath } from './slug.ts';
import type { IgnoredHint } from './types.ts';

/** Directory entries read inside ignored directories, at most, per miss. */
export const LOOK_ENTRIES = 2000;
/** Folder levels looked into below an ignored directory, at most. */
const LOOK_DEPTH = 16;

/** The first file (walk order) that `c` would have selected had no ignore
 *  rule left it out, and the rule; undefined when none is found within
 *  the bounds. `dir` is the subjects directory. */
export function findIgnored(dir: string, ignored: readonly Ignored[], c: CompiledPattern): IgnoredHint | undefined {
  if (ignored.length === 0 || c.kind === 'invalid') return undefined;
  const budget = new Budget();
  const matches = (path: string): boolean => {
    const { slug, hidden } = describePath(path);
    // An exact pattern: the slug, the path, or (without a folder) the
    // file's name, as the learn tool's near misses read it (near.ts).
    if (c.kind === 'exact') return slug === c.pattern || path === c.pattern || (!c.pattern.includes('/') && slug.slice(slug.lastIndexOf('/') + 1) === c.pattern);
    if (hidden) return false;
    try {
      return c.test!(slug, budget);
    } catch (err) {
      if (err instanceof PatternTooExpensive) return false;
      throw err;
    }
  };
  let left = LOOK_ENTRIES;
  for (const x of ignored) {
    if (left <= 0) break;
    if (!x.path.endsWith('/')) {
      if (matches(x.path)) return hint(x.path, x);
      continue;
    }
    // A directory: the files below it, breadth first.
    let level = [x.path.slice(0, -1)];
    for (let depth = 0; depth < LOOK_DEPTH && level.length > 0 && left > 0; depth++) {
      const next: string[] = [];
      for (const rel of level) {
        let entries: import('node:fs').Dirent[];
        try {
          entries = readdirSync(`${dir}/${rel}`, { withFileTypes: true });
        } catch {
          continue;
        }
        for (const e of entries) {
          if (--left < 0) break;
          const path = `${rel}/${e.name}`;
          if (e.isDirectory()) next.push(path);
          else if (e.isFile() && e.name !== '.gitignore' && e.name !== '.kbignore' && matches(path)) return hint(path, x);
        }
        if (left <= 0) break;
      }
      level = next;
    }
  }
  return undefined;
}

function hint(path: string, x: Ignored): IgnoredHint {
  const { slug } = describePath(path);
  const base = x.source === 'built-in' ? '' : x.source.slice(0, x.source.lastIndexOf('/') + 1);
  return {
    slug,
    path,
    source: x.source,
    rule: x.rule,
    ...(x.line !== undefined ? { line: x.line } : {}),
    // The entry the rule left out, relative to the rule's directory: its
    // negation in that directory's .kbignore brings it back.
    negation: `!${x.path.slice(base.length)}`,
    kbignore: `${base}.kbignore`,
  };
}
