// What a search index read from the cache may name. The cache file is
// outside the workspace and kb reads it back as data, never as a
// description of the topic: before an index from it is used, every path it
// names is checked to be one the topic's walk would have indexed, by the
// walk's own rules, without walking:
//
// - every directory is the subjects directory or one below it (a clean
//   relative path, no `..`), whose parent is listed too, and that the
//   ignore rules do not leave out;
// - every ignore file is in a listed directory, and every ignore file that
//   a listed directory holds now is listed (its rules are replayed from
//   them, fs/ignore.ts);
// - every document is a clean relative path in a listed directory, neither
//   hidden (a segment starting with `.`: never indexed) nor holding a
//   control character (left out of every index), nor left out by the
//   ignore rules.
//
// The rest is checked where the index is used: the directories' times and
// the ignore files' sizes and times (the tree is unchanged), and each
// document's size and time (the same file), by topic.ts. Disabled subjects
// are left out at query time.
//
// All of it is checked at once but the ignore rules' verdict on each file:
// the rules cost microseconds per path (as much as a walk spends on them),
// so in a topic with ignore files that verdict is had for the documents a
// search reads (`vet`: the files read again, the results shown), each once.
// Directories are far fewer than files; their checks cost two lstat calls
// each. The names are checked in one pass over the paths as read.

import { lstatSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { map, some } from '../../shared/arrays.ts';
import { CONTROL, escapeControls } from '../../shared/controls.ts';
import { DEFAULT_FILES, IGNORE_FILES, IgnoreRules } from '../fs/ignore.ts';
import type { CacheEntry } from './cache.ts';
import { withinDir } from '../fs/within.ts';

/** A control character but the newline (CONTROL's class, the newline
 *  taken out). */
const CONTROL_BUT_NEWLINE = new RegExp(CONTROL.source.replace('\\u0000-\\u001f', '\\u0000-\\u0009\\u000b-\\u001f'));

/** Where, in paths joined by newlines, the first bad name is: an empty
 *  path or segment, a segment starting with `.` (hidden, `.`, `..`), or a
 *  control character but the newline. Returns an offset in the line of
 *  that path, or -1 when every name is good. Seven searches for a fixed
 *  string or one character class over the text: one regular expression
 *  with a leading alternation took 1.7 ms for the 845 KB of 10,000 paths,
 *  these 0.4. */
export function badNameAt(text: string): number {
  if (text === '') return 0;
  let at = -1;
  let line = -1;
  /** A bad name found at `i`, its line starting `skip` characters on. */
  const found = (i: number, skip: number): void => {
    if (i >= 0 && (at < 0 || i < at)) {
      at = i;
      line = i + skip;
    }
  };
  const first = text.charCodeAt(0);
  if (first === 46 || first === 10 || first === 47) found(0, 0);
  // After a newline: the next path; after a slash: this one.
  for (const s of ['\n.', '\n\n', '\n/']) found(text.indexOf(s), 1);
  for (const s of ['/.', '/\n', '//']) found(text.indexOf(s), 0);
  const last = text.charCodeAt(text.length - 1);
  if (last === 10) found(text.length - 1, 1);
  else if (last === 47) found(text.length - 1, 0);
  found(CONTROL_BUT_NEWLINE.exec(text)?.index ?? -1, 0);
  return line;
}

/** In paths joined by newlines, where the first file the built-in
 *  defaults ignore is (a whole last segment: after the start, a newline or
 *  a slash, before a newline or the end), or -1; a hidden one (`.git`) is
 *  left to badNameAt, which refuses every hidden name. A search for each name
 *  (a few native searches of the text, where one pattern with a leading
 *  alternation was tried at every place). */
export function lockfileAt(text: string): number {
  let first = -1;
  for (const name of DEFAULT_FILES) {
    // A hidden name (`.git`): badNameAt finds it.
    if (name.charCodeAt(0) === 46) continue;
    for (let at = text.indexOf(name); at >= 0 && (first < 0 || at < first); at = text.indexOf(name, at + 1)) {
      const before = at === 0 ? 10 : text.charCodeAt(at - 1);
      const end = at + name.length;
      if ((before === 10 || before === 47) && (end === text.length || text.charCodeAt(end) === 10)) {
        first = at;
        break;
      }
    }
  }
  return first;
}

/** The line of `text` holding offset `at`. */
function lineAt(text: string, at: number): string {
  const end = text.indexOf('\n', at);
  return text.slice(text.lastIndexOf('\n', at - 1) + 1, end < 0 ? text.length : end);
}

/** A path, shown in a message: escaped, and cut when long. */
function shown(path: string): string {
  const p = escapeControls(path);
  return JSON.stringify(p.length > 80 ? `${p.slice(0, 80)}...` : p);
}

/** A relative path of non-empty segments, none `.` or `..`. By
 *  searches for fixed strings, making no array (a warm search checks
 *  every directory of the topic this way). */
export function clean(rel: string): boolean {
  if (rel === '' || rel === '.' || rel === '..') return false;
  if (rel.charCodeAt(0) === 47 || rel.charCodeAt(rel.length - 1) === 47 || rel.includes('//')) return false;
  if (rel.startsWith('./') || rel.startsWith('../') || rel.endsWith('/.') || rel.endsWith('/..')) return false;
  return !rel.includes('/./') && !rel.includes('/../');
}

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

function nameOf(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

function depth(rel: string): number {
  if (rel === '') return 0;
  let n = 1;
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) n++;
  return n;
}

/** What the check of a cached index found. */
export interface Verdict {
  /** Why the index names something the topic's walk would not have
   *  indexed: then it is not used. */
  why?: string;
  /** In a topic with ignore files: why document `doc` is one the rules
   *  leave out, or undefined when it is not. */
  vet?: (doc: number) => string | undefined;
}

/** Checks the cached index of `subjectsDir` (see above). */
export function checkCached(entry: CacheEntry, subjectsDir: string): Verdict {
  const why = untrusted(entry, subjectsDir);
  return typeof why === 'string' ? { why } : why;
}

/** Where the topic is: its subjects directory, with a separator after it,
 *  and a path below it relative to it (undefined: outside, or not clean). */
interface Place {
  root: string;
  prefix: string;
  relOf(abs: string): string | undefined;
}

function placeOf(subjectsDir: string): Place {
  const root = resolve(subjectsDir);
  const prefix = root.endsWith(sep) ? root : root + sep;
  const relOf = (abs: string): string | undefined => {
    if (abs === root || abs === subjectsDir) return '';
    if (!abs.startsWith(prefix)) return undefined;
    const rel = abs.slice(prefix.length);
    return clean(rel) ? rel : undefined;
  };
  return { root, prefix, relOf };
}

/** The ignore files found in each directory, by its path. */
type Controls = Map<string, { name: string }[]>;

function untrusted(entry: CacheEntry, subjectsDir: string): string | Verdict {
  const place = placeOf(subjectsDir);
  const dirs = tracedDirs(entry, place);
  if (typeof dirs === 'string') return dirs;
  const controls = tracedControls(entry, place, dirs);
  if (typeof controls === 'string') return controls;
  const missing = unlistedControl(place, dirs, controls);
  if (missing !== undefined) return missing;
  const rules = replayedRules(place, dirs, controls);
  if (typeof rules === 'string') return rules;
  return documentsVerdict(entry, dirs, controls, rules);
}

/** The directories the index lists, relative to the subjects directory,
 *  or why they are not the topic's: outside it, without the subjects
 *  directory itself, or without a parent. */
function tracedDirs(entry: CacheEntry, place: Place): Set<string> | string {
  const dirs = new Set<string>();
  for (const [abs] of entry.trace.dirs) {
    const rel = place.relOf(abs);
    if (rel === undefined) return `it lists the directory ${shown(abs)}, outside the topic`;
    dirs.add(rel);
  }
  if (!dirs.has('')) return 'it does not list the subjects directory';
  for (const rel of dirs) if (rel !== '' && !dirs.has(parentOf(rel))) return `it lists the directory ${shown(rel)} but not its parent`;
  return dirs;
}

/** The ignore files the index lists, by directory: each must be one of
 *  IGNORE_FILES in a listed directory. */
function tracedControls(entry: CacheEntry, place: Place, dirs: ReadonlySet<string>): Controls | string {
  const controls: Controls = new Map();
  for (const [abs] of entry.trace.controls) {
    const rel = place.relOf(abs);
    const name = rel === undefined ? '' : nameOf(rel);
    if (rel === undefined || !(IGNORE_FILES as readonly string[]).includes(name) || !dirs.has(parentOf(rel))) {
      return `it lists the ignore file ${shown(abs)}, not one of the topic's`;
    }
    const at = controls.get(parentOf(rel));
    if (at === undefined) controls.set(parentOf(rel), [{ name }]);
    else at.push({ name });
  }
  return controls;
}

/** Why the index is not trusted when an ignore file is on disk in a
 *  listed directory but not listed (undefined: none is). */
function unlistedControl(place: Place, dirs: ReadonlySet<string>, controls: Controls): string | undefined {
  // By paths relative to the subjects directory (fs/within.ts): each
  // directory's is clean (tracedDirs).
  return withinDir(place.root, (base) => unlistedControlAt(base === '' ? '' : place.prefix, dirs, controls));
}

/** unlistedControl, each path after `base` ('': relative). */
function unlistedControlAt(base: string, dirs: ReadonlySet<string>, controls: Controls): string | undefined {
  for (const rel of dirs) {
    const listed = controls.get(rel);
    for (const name of IGNORE_FILES) {
      if (listed !== undefined && some(listed, (e) => e.name === name)) continue;
      const path = rel === '' ? base + name : base + rel + sep + name;
      let there = false;
      try {
        there = lstatSync(path, { throwIfNoEntry: false }) !== undefined;
      } catch {
        there = true;
      }
      if (there) return `it does not list the ignore file ${shown(rel === '' ? name : `${rel}/${name}`)}`;
    }
  }
  return undefined;
}

/** The ignore rules, replayed parents first (fs/ignore.ts, as the walk
 *  applies them), or why a listed directory is one they leave out. */
function replayedRules(place: Place, dirs: ReadonlySet<string>, controls: Controls): IgnoreRules | string {
  const rules = new IgnoreRules();
  // No ignore file: only the built-in rules, which look at a directory's
  // name alone (fs/ignore.ts `skip`), so no order is needed and no rule
  // set is entered.
  if (controls.size === 0) {
    for (const rel of dirs) if (rel !== '' && rules.skip(parentOf(rel), nameOf(rel), true)) return `it lists the directory ${shown(rel)}, which the topic ignores`;
    return rules;
  }
  const byDepth = map([...dirs], (rel): [number, string] => [depth(rel), rel]).sort((a, b) => a[0] - b[0]);
  for (const [, rel] of byDepth) {
    const parent = rel === '' ? null : parentOf(rel);
    if (parent !== null && rules.skip(parent, nameOf(rel), true)) return `it lists the directory ${shown(rel)}, which the topic ignores`;
    rules.enter(rel === '' ? place.root : place.prefix + rel, rel, parent, controls.get(rel) ?? [], sep);
  }
  return rules;
}

/** The check of the documents. Their names first, in one pass over the
 *  paths as read: no empty, `.` or `..` segment, none hidden, no control
 *  character (the newline separates them), no lockfile unless ignore files
 *  can say otherwise. Then their directories; with ignore files, the
 *  rules vet each document as it is used. */
function documentsVerdict(entry: CacheEntry, dirs: ReadonlySet<string>, controls: Controls, rules: IgnoreRules): string | Verdict {
  const index = entry.index;
  const n = index.count;
  if (n === 0) return {};
  const paths = index.paths;
  const text = entry.paths ?? paths.join('\n');
  const bad = badNameAt(text);
  if (bad >= 0) return `it names ${shown(lineAt(text, bad))}, not a subject of the topic`;
  if (controls.size === 0) {
    const lock = lockfileAt(text);
    if (lock >= 0) return `it names ${shown(lineAt(text, lock))}, which the topic ignores`;
  }
  const outside = documentOutside(paths, n, dirs);
  if (outside !== undefined) return `it names ${shown(outside)}, not a subject of the topic`;
  if (controls.size === 0) return {};
  return {
    vet: (d) => {
      const path = paths[d];
      const slash = path.lastIndexOf('/');
      return rules.skip(slash < 0 ? '' : path.slice(0, slash), path.slice(slash + 1), false) ? `it names ${shown(path)}, which the topic ignores` : undefined;
    },
  };
}

/** The first of the `n` documents `paths` whose directory is not listed
 *  (undefined: none), in path order: a directory is looked up once for
 *  its files. */
function documentOutside(paths: readonly string[], n: number, dirs: ReadonlySet<string>): string | undefined {
  let dir = '';
  let dirOk = true;
  let dirLen = 0;
  for (let d = 0; d < n; d++) {
    const path = paths[d];
    const slash = path.lastIndexOf('/');
    if (slash !== dirLen - 1 || (slash > 0 && !path.startsWith(dir))) {
      dir = slash < 0 ? '' : path.slice(0, slash);
      dirLen = slash + 1;
      dirOk = dirs.has(dir);
    }
    if (!dirOk) return path;
  }
  return undefined;
}
