// Files a topic leaves out: `.gitignore` and `.kbignore` files inside the
// subjects directory (gitignore syntax, each file's patterns relative to its
// own directory, a deeper file overriding a shallower one, `.kbignore`
// overriding `.gitignore` in the same directory), then built-in defaults:
// `node_modules/`, version control's folders (`.git/` and its kin) and
// package managers' lockfiles (ignore-names.ts). The control files
// themselves are never subjects, and kb's write lock (`.kb-lock`) is never
// walked.
//
// An ignored directory is not walked at all (as in git, a file inside an
// excluded directory cannot be re-included). Ignored entries are recorded
// with the rule that left them out, for `kb list --ignored`.
//
// The patterns are matched by the `ignore` package (gitignore semantics,
// as eslint and prettier use them): only topics holding a control file
// build a matcher, and the package is evaluated only then (`newIgnore`:
// about 0.5 ms of every start otherwise); the defaults are two set lookups
// per entry.
//
// The package compiles each pattern to a regular expression run by the
// native, backtracking engine. A pattern with two `**` segments or more
// between others (`a/**/b/**/c`) compiles to one that takes time polynomial
// in the path's depth, to the power of their number (`a/**/` twelve times,
// then `b`: 26 seconds for one file 60 folders deep; two of them: 20
// seconds on a path 2000 folders deep), and committed content must not
// hang a command. Consecutive `**` segments are one (`a/**/**/b` is
// `a/**/b`); a pattern left with more than one between other segments is
// not applied, and said (`dropped`, with its file and line). A trailing
// `/**` costs nothing of the kind, nor does a leading `**/` alone; a
// leading `**/` before another `**` counts as one (`**/x/**/y` is tried
// from every folder of a path: time cubic in a walk's depth).

import { closeSync, fstatSync, openSync } from 'node:fs';
import type { Ignore } from 'ignore';
import { OPEN_FLAGS, readFully } from './probe.ts';
import { map, some } from '../../shared/arrays.ts';
import { hasControlFile, IGNORE_FILES, isDefaultIgnored, isKbOwn } from './ignore-names.ts';

/** The `ignore` package's factory, evaluated when a topic first has a
 *  control file. Loaded by `require`, which a bundle resolves to the
 *  package it holds (evaluated at that call: a walk is synchronous, and an
 *  `import()` is not); where ES modules have no `require` (deno), by one
 *  made for this module. */
let ignoreFactory: (() => Ignore) | undefined;
function newIgnore(): Ignore {
  ignoreFactory ??= loadIgnore();
  return ignoreFactory();
}
function loadIgnore(): () => Ignore {
  type Loaded = (() => Ignore) | { default: () => Ignore };
  const m: Loaded =
    typeof require === 'function'
      ? require('ignore')
      : (process as unknown as { getBuiltinModule(id: string): typeof import('node:module') }).getBuiltinModule('node:module').createRequire(import.meta.url)('ignore');
  return typeof m === 'function' ? m : m.default;
}

export { DEFAULT_FILES, IGNORE_FILES, LOCK_NAME } from './ignore-names.ts';

/** Why an entry was left out. */
export interface Ignored {
  /** Relative to the subjects directory, `/`-separated; a directory ends
   *  with `/`. */
  readonly path: string;
  /** The control file whose rule matched (relative to the subjects
   *  directory), or `built-in`. */
  readonly source: string;
  /** The rule, as written. */
  readonly rule: string;
  /** The rule's line in its control file (counting from 1); absent for a
   *  built-in default. */
  readonly line?: number;
}

/** The rules of one directory's control files. */
interface RuleSet {
  /** Directory of the control files, relative, '' or ending with `/`. */
  readonly base: string;
  readonly ig: Ignore;
}

/** What the walk asks of the ignore rules, per directory. */
export class IgnoreRules {
  /** Every ignored entry, in walk order. */
  readonly ignored: Ignored[] = [];
  /** Control files that could not be read (not regular, too large,
   *  unreadable): their rules are not applied. */
  readonly unread: string[] = [];
  /** Patterns not applied: too complex to match in bounded time (see
   *  above). `file` is relative to the subjects directory, `line` counts
   *  from 1, `globstars` is how many `**` segments the pattern has between
   *  others. */
  readonly dropped: { file: string; line: number; pattern: string; globstars: number; leading?: boolean }[] = [];
  /** Rule sets by directory (relative, '' or ending with `/`), inherited
   *  by subdirectories; absent when the directory adds none. */
  private readonly sets = new Map<string, readonly RuleSet[]>();

  /** Told of a directory's entries before any is visited: reads its
   *  control files, if it has any. `abs` is the directory's absolute
   *  path, `rel` its path relative to the subjects directory ('' for the
   *  root), `parentRel` its parent's. */
  enter(abs: string, rel: string, parentRel: string | null, entries: readonly { name: string }[], sep: string): void {
    // Most directories of most topics hold no control file and inherit
    // none: nothing to do.
    if (this.sets.size === 0 && !hasControlFile(entries)) return;
    const inherited = parentRel === null ? [] : (this.sets.get(parentRel === '' ? '' : parentRel + '/') ?? []);
    const base = rel === '' ? '' : rel + '/';
    let own: Ignore | undefined;
    for (const file of IGNORE_FILES) {
      if (!some(entries, (e) => e.name === file)) continue;
      const text = readControlFile(abs + sep + file);
      if (text === undefined) {
        this.unread.push(base + file);
        continue;
      }
      own ??= newIgnore();
      const mark = base + file;
      let lines = text.split(/\r?\n/).slice(0, MAX_RULES);
      if (text.includes('**')) lines = this.bound(mark, lines);
      // The mark says where the rule is written: `<line>:<file>`.
      own.add(map(lines, (pattern, i) => ({ pattern, mark: `${i + 1}:${mark}` })));
    }
    const sets = own === undefined ? inherited : [...inherited, { base, ig: own }];
    if (sets.length > 0) this.sets.set(base, sets);
  }

  /** `file`'s lines with consecutive `**` segments made one, and those
   *  left with more than one `**` between other segments blank (dropped). */
  private bound(file: string, lines: readonly string[]): string[] {
    return lines.map((line, i) => {
      if (!line.includes('**')) return line;
      const collapsed = line.replace(CONSECUTIVE_GLOBSTARS, '$1**');
      const inner = innerGlobstars(collapsed);
      // A leading `**/` costs nothing alone, but before another `**` the
      // pattern is tried from every folder of a path: `**/x/**/y` took
      // time cubic in the depth of a walk (1,000 folders: seconds).
      const leading = inner > 0 && /^!?\/?\*\*\//.test(collapsed);
      const globstars = inner + (leading ? 1 : 0);
      if (globstars < 2) return collapsed;
      this.dropped.push({ file, line: i + 1, pattern: line, globstars, ...(leading ? { leading } : {}) });
      return '';
    });
  }

  /** Whether the entry `name` of directory `rel` is left out (and then
   *  records why). Control files and kb's lock are always left out,
   *  unrecorded. */
  skip(rel: string, name: string, isDir: boolean): boolean {
    if (isKbOwn(name, isDir)) return true;
    const sets = this.sets.size === 0 ? undefined : this.sets.get(rel === '' ? '' : rel + '/');
    if (sets !== undefined) {
      const path = (rel === '' ? '' : rel + '/') + name + (isDir ? '/' : '');
      // The deepest set with an opinion decides.
      for (let i = sets.length - 1; i >= 0; i--) {
        const { base: at, ig } = sets[i];
        const r = ig.test(path.slice(at.length));
        if (r.ignored) {
          const mark = r.rule?.mark;
          const colon = mark === undefined ? -1 : mark.indexOf(':');
          if (mark === undefined || colon < 0) this.ignored.push({ path, source: mark ?? at, rule: r.rule?.pattern ?? '' });
          else this.ignored.push({ path, source: mark.slice(colon + 1), rule: r.rule?.pattern ?? '', line: Number(mark.slice(0, colon)) });
          return true;
        }
        if (r.unignored) return false;
      }
    }
    if (isDefaultIgnored(name, isDir)) {
      const path = (rel === '' ? '' : rel + '/') + name + (isDir ? '/' : '');
      this.ignored.push({ path, source: 'built-in', rule: isDir ? `${name}/` : name });
      return true;
    }
    return false;
  }
}

/** Two `**` segments or more in a row. */
const CONSECUTIVE_GLOBSTARS = /(^|\/)\*\*(?:\/\*\*)+(?=\/|$)/g;

/** How many `**` segments a pattern has between two others (a negation's
 *  `!` and an anchoring `/` are not segments of their own). */
export function innerGlobstars(pattern: string): number {
  const segments = pattern.replace(/^!/, '').replace(/^\//, '').trimEnd().replace(/\/$/, '').split('/');
  let n = 0;
  for (let i = 1; i < segments.length - 1; i++) if (segments[i] === '**') n++;
  return n;
}



/** Lines read from one control file, at most. */
const MAX_RULES = 10_000;

/** The largest control file read: far above any real one. */
export const MAX_CONTROL_BYTES = 256 * 1024;

/** A control file's text; undefined when it is not a regular file, is
 *  larger than MAX_CONTROL_BYTES, or cannot be read (never blocks: a FIFO
 *  is opened non-blocking and refused). */
function readControlFile(abs: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_CONTROL_BYTES) return undefined;
    const buf = new Uint8Array(st.size);
    const n = readFully(fd, buf, 0, buf.length, st.size);
    return new TextDecoder().decode(buf.subarray(0, n));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
