// The subject index of a topic directory: one subject per slug, sorted.
//
// Built in one pass over the walk: a file's slug, hidden-ness and extension
// come from its name and from its directory's (computed once per directory),
// by the rules of slug.ts (`describePath`, which tests/unit/kb/subjects.test.ts
// checks this against). A CLI run indexes each file once, mostly in
// not-yet-optimised code, so the per-file work is kept to a few string
// operations and one object.

import { sep } from 'node:path';
import { IgnoreRules } from '../fs/ignore.ts';
import { notice, type Notice } from '../fs/walk.ts';
import type { Alias, SharedSlug, SkillInfo, Subject, SubjectIndex } from './types.ts';
import { isBinaryFormat, precedes } from './precedence.ts';
import { describePath, isHiddenPath, SKILL_FILE, slugLowerBound, slugPrefixOf } from './slug.ts';
import { filter, inCodeUnitOrder } from '../../shared/arrays.ts';
import { statSize, walkFiles, type FileVisitor, type WalkDir, type WalkOptions, type WalkOutcome, type WalkTrace } from '../fs/walk.ts';
import type { WalkShape } from '../fs/walk-cache.ts';
import { slugOrder, type FolderRun } from './walk-order.ts';

/** A subject of the index. `size` is stat'ed on first access (a getter on
 *  the class; `toJSON` shows it as a plain value). */
class IndexedSubject implements Subject {
  readonly path: string;
  readonly abs: string;
  readonly slug: string;
  readonly hidden: boolean;
  readonly ext: string;
  /** Subject.folder: the walk's string for its directory. */
  readonly folder: string;
  #size: number | undefined;
  skill?: SkillInfo;
  bundled?: boolean;

  constructor(path: string, abs: string, slug: string, hidden: boolean, ext: string, size: number | undefined, folder?: string) {
    this.path = path;
    this.abs = abs;
    this.slug = slug;
    this.hidden = hidden;
    this.ext = ext;
    this.#size = size;
    this.folder = folder ?? slug.slice(0, slug.lastIndexOf('/') + 1);
  }

  get size(): number {
    return (this.#size ??= statSize(this.abs));
  }


  /** The size, learnt by the probe (from its read of the head when that
   *  was the whole file, else from an fstat of the file it had open),
   *  when not known yet: no stat then. */
  knowSize(size: number): void {
    this.#size ??= size;
  }

  /** Forgets the size (the file changed): stat'ed again when asked. */
  forgetSize(): void {
    this.#size = undefined;
  }

  /** The same file under another name (an alias). */
  renamed(slug: string): IndexedSubject {
    const s = new IndexedSubject(this.path, this.abs, slug, this.hidden, this.ext, this.#size);
    if (this.skill) s.skill = this.skill;
    if (this.bundled) s.bundled = true;
    return s;
  }

  /** This SKILL.md as its skill's subject. */
  asSkill(slug: string, skill: SkillInfo): IndexedSubject {
    const s = this.renamed(slug);
    s.skill = skill;
    return s;
  }

  /** This file as one of a skill's bundled files: never listed, never
   *  matched by a glob (hidden), loadable by exact slug. */
  asBundled(): IndexedSubject {
    const s = new IndexedSubject(this.path, this.abs, this.slug, true, this.ext, this.#size, this.folder);
    s.bundled = true;
    return s;
  }

  toJSON(): Record<string, unknown> {
    return { path: this.path, abs: this.abs, slug: this.slug, hidden: this.hidden, ext: this.ext, size: this.size };
  }
}

/** Forgets what `subject` knew of its file's size (the file changed). */
export function forgetSize(subject: Subject): void {
  if (subject instanceof IndexedSubject) subject.forgetSize();
}

/** Told of each file as the walk finds it: its absolute path, its slug,
 *  whether it is hidden (collisions are not resolved yet), its subject
 *  (its own slug and folder, Subject.folder), which takes its size when a
 *  probe learns it (`knowSize`), and its folder below the walked one and
 *  its name, as ProbeFeed.add takes them (the system's separator after
 *  each folder's name). */
export type FileFound = (abs: string, slug: string, hidden: boolean, subject: { readonly slug: string; readonly folder: string; knowSize(size: number): void }, below: string, name: string) => void;

export { SKILL_FILE };

/** How a topic is indexed: the walk's options, and where its walk is
 *  kept (kb/fs/walk-cache.ts). */
export interface IndexOptions extends WalkOptions {
  /** The walk as it was kept: its files told as the walk told them, and
   *  what it left out added to the rules', no directory read
   *  (WalkKeeper.begin). */
  replay?: (visit: FileVisitor, rules: IgnoreRules) => WalkOutcome;
  /** Told of the walk's shape when it is one to keep (walk-cache.ts). */
  shape?: (shape: WalkShape) => void;
}

/** Walks `dir` and indexes its regular files by slug. Never throws: problems
 *  (missing directory, dangling links, loops, collisions...) are notices.
 *  Files left out by `.gitignore`, `.kbignore` or the built-in defaults
 *  (kb/fs/ignore.ts) are not subjects at all. */
export function indexSubjects(dir: string, found?: FileFound, opts: IndexOptions = {}): SubjectIndex {
  // Every file, as found (sorted by slug below).
  const all: IndexedSubject[] = [];
  // Directories holding SKILL.md, relative ('' never: a SKILL.md at the
  // root of a topic is an ordinary subject).
  let skillDirs: Set<string> | undefined;
  // Per directory: the path prefix, the slug prefix, hidden-ness.
  let last: WalkDir | null = null;
  let pathPrefix = '';
  // The same with the system's separator, for `found`.
  let below = '';
  let slugPrefix = '';
  let dirHidden = false;
  // Inside a skill found so far: its files need no probing for a listing.
  let inSkill = false;
  // Each folder's run of files in `all`, for putting them in slug order.
  const runs: FolderRun[] = [];
  const rules = new IgnoreRules();
  // What the walk went through, for its shape (`shape`).
  const trace = opts.trace ?? (opts.shape === undefined || opts.replay !== undefined ? undefined : { dirs: [], controls: [], links: [] });
  const visit: FileVisitor = (d, name, abs, size) => {
    if (d !== last) {
      last = d;
      pathPrefix = d.rel === '' ? '' : d.rel + '/';
      below = sep === '/' ? pathPrefix : pathPrefix.replaceAll('/', sep);
      dirHidden = isHiddenPath(pathPrefix);
      slugPrefix = slugPrefixOf(pathPrefix, dirHidden);
      inSkill = skillDirs !== undefined && underSkill(d.rel, skillDirs);
      if (runs.length > 0) runs[runs.length - 1].end = all.length;
      runs.push({ folder: d, prefix: slugPrefix, start: all.length, end: all.length });
    }
    if (name === SKILL_FILE && d.rel !== '') {
      (skillDirs ??= new Set()).add(d.rel);
      inSkill = true;
    }
    // The last component: a leading `.` marks it hidden and is dropped; the
    // extension follows the last `.` of the rest, unless that `.` is the
    // rest's first character (slug.ts).
    const lead = name.charCodeAt(0) === 46 ? 1 : 0;
    const dot = name.lastIndexOf('.');
    const s =
      dot > lead
        ? new IndexedSubject(pathPrefix + name, abs, slugPrefix + name.slice(lead, dot), dirHidden || lead === 1, name.slice(dot + 1).toLowerCase(), size, slugPrefix)
        : new IndexedSubject(pathPrefix + name, abs, slugPrefix + (lead ? name.slice(1) : name), dirHidden || lead === 1, '', size, slugPrefix);
    if (found !== undefined) {
      // A skill's SKILL.md is probed under the skill's slug.
      const skill = name === SKILL_FILE && d.rel !== '';
      found(abs, skill ? slugPrefix.slice(0, -1) : s.slug, s.hidden || (inSkill && !skill), s, below, name);
    }
    all.push(s);
  };
  const walked = opts.replay !== undefined ? opts.replay(visit, rules) : walkFiles(dir, visit, { maxEntries: opts.maxEntries, rules, trace });
  if (runs.length > 0) runs[runs.length - 1].end = all.length;
  if (opts.shape !== undefined && opts.replay === undefined && trace !== undefined) {
    const shape = shapeToKeep(walked, rules, trace, runs, all);
    if (shape !== undefined) opts.shape(shape);
  }
  const aliases = new Map<string, Alias>();
  // Skills change slugs (and hidden-ness).
  if (skillDirs !== undefined) gatherSkills(all, skillDirs, aliases);
  const notices: Notice[] = walked.notices;
  noteRules(rules, notices);
  const shared = new Map<string, SharedSlug>();
  const subjects = winners(inSlugOrder(all, runs, skillDirs === undefined), aliases, notices, shared);
  // An alias that is some subject's slug names that subject.
  for (const name of aliases.keys()) {
    const at = slugLowerBound(subjects, name);
    if (at < subjects.length && subjects[at].slug === name) aliases.delete(name);
  }
  const index: SubjectIndex = { dir, subjects, notices, ignored: rules.ignored, aliases, links: walked.links };
  if (shared.size > 0) index.shared = shared;
  if (walked.oddNames === undefined) index.plainNames = true;
  return index;
}

/** A walk's shape, to keep (kb/fs/walk-cache.ts): every folder it read,
 *  in order, with its files' names, the ignore files it read and what it
 *  left out; undefined when the walk followed a link, said anything (a
 *  rule it could not apply among it) or read an odd name. */
function shapeToKeep(walked: WalkOutcome, rules: IgnoreRules, trace: WalkTrace, runs: readonly FolderRun[], all: readonly IndexedSubject[]): WalkShape | undefined {
  if (walked.notices.length > 0 || walked.links.length > 0 || walked.oddNames !== undefined || walked.entries === undefined) return undefined;
  if (trace.links.length > 0 || rules.unread.length > 0 || rules.dropped.length > 0 || trace.dirs.length === 0) return undefined;
  const root = trace.dirs[0];
  const relOf = (abs: string): string => (abs === root ? '' : abs.slice(root.length + 1).replaceAll(sep, '/'));
  const dirs: { rel: string; names: string[] }[] = [];
  let r = 0;
  for (const abs of trace.dirs) {
    const run = r < runs.length && runs[r].folder.abs === abs ? runs[r++] : undefined;
    if (run === undefined) {
      dirs.push({ rel: relOf(abs), names: [] });
      continue;
    }
    const { folder } = run;
    const names: string[] = [];
    const cut = folder.rel === '' ? 0 : folder.rel.length + 1;
    for (let k = run.start; k < run.end; k++) names.push(all[k].path.slice(cut));
    dirs.push({ rel: folder.rel, names });
  }
  if (r !== runs.length) return undefined;
  const controls: string[] = [];
  for (const abs of trace.controls) controls.push(relOf(abs));
  return { dirs, controls, ignored: rules.ignored.slice(), entries: walked.entries };
}

/** `files` by slug in code-unit order (shared/arrays.ts inCodeUnitOrder),
 *  the files of a slug in the order they were found: the order the walk's
 *  folders give (walk-order.ts), else sorted. `plain`: every slug is its
 *  folder's prefix and its name's (no skill renamed a SKILL.md). */
function inSlugOrder(files: readonly IndexedSubject[], runs: readonly FolderRun[], plain: boolean): IndexedSubject[] {
  const n = files.length;
  const keys: string[] = new Array(n);
  for (let i = 0; i < n; i++) keys[i] = files[i].slug;
  const order = slugOrder(keys, runs, folderSlugPrefix, plain);
  if (order === undefined) return inCodeUnitOrder(files, keys);
  const out: IndexedSubject[] = new Array(n);
  for (let k = 0; k < n; k++) out[k] = files[order[k]];
  return out;
}

/** The slug prefix of a folder's files (slug.ts slugPrefixOf). */
function folderSlugPrefix(folder: WalkDir): string {
  return slugPrefixOf(folder.rel === '' ? '' : folder.rel + '/');
}

/** Notices for the ignore files the walk could not read, and for the
 *  rules it could not apply. */
function noteRules(rules: IgnoreRules, notices: Notice[]): void {
  for (const path of rules.unread) {
    notices.push(notice('unreadable', path, `cannot read ${path} (not a regular file, too large, or unreadable); its rules are not applied`));
  }
  for (const { file, line, pattern, globstars, leading } of rules.dropped) {
    const shown = pattern.length > 160 ? `${pattern.slice(0, 160)}...` : pattern;
    notices.push(
      notice(
        'unreadable',
        file,
        `cannot apply ${file}:${line}: ${shown} (${leading ? `a leading "**" segment and ${globstars - 1} between others` : `${globstars} "**" segments between others`}: matching it can take minutes on deep paths; at most one is supported); this rule is not applied`,
      ),
    );
  }
}

/** The subject of each slug (sorted): the file of its own, or the one
 *  that comes first of the files that share it (precedence.ts: the
 *  document); every file of a shared slug gets an alias, its slug plus its
 *  extension, and each shared slug one notice and an entry in `shared`. */
function winners(files: readonly IndexedSubject[], aliases: Map<string, Alias>, notices: Notice[], shared: Map<string, SharedSlug>): Subject[] {
  const subjects: Subject[] = [];
  for (let i = 0; i < files.length; ) {
    const slug = files[i].slug;
    let end = i + 1;
    while (end < files.length && files[end].slug === slug) end++;
    if (end === i + 1) {
      subjects.push(files[i++]);
      continue;
    }
    // Best first; a strict order, so the result does not depend on the
    // walk's order.
    const group = files.slice(i, end).sort((a, b) => (precedes(a, b) ? -1 : precedes(b, a) ? 1 : 0));
    i = end;
    const winner = group[0];
    subjects.push(winner);
    // Every file of the group stays loadable by its slug plus its
    // extension as written (`listing-01-01/Cargo.toml`).
    for (const s of group) {
      const alias = withExtension(s);
      if (alias !== s.slug && !aliases.has(alias)) aliases.set(alias, { subject: s.renamed(alias), of: s.slug });
    }
    const others = group.slice(1).map((s) => ({ name: withExtension(s), path: s.path }));
    shared.set(winner.slug, { path: winner.path, others });
    // Not said when every other file is of a binary format, never a
    // subject (a page beside its PDF, a font as .woff and .woff2): it
    // hides nothing, and a warning about it would be one nobody can act
    // on. A text file behind a binary one is said.
    if (!othersBinary(group)) notices.push(notice('slug-collision', winner.path, sharedMessage(winner.slug, winner.path, others)));
  }
  return subjects;
}

/** Whether every file of `group` but its first is of a binary format
 *  (precedence.ts isBinaryFormat). */
function othersBinary(group: readonly IndexedSubject[]): boolean {
  for (let i = 1; i < group.length; i++) if (!isBinaryFormat(group[i].ext)) return false;
  return true;
}

/** The notice of a shared slug: which file it loads, and the names that
 *  load the others (the slug plus each one's extension: `learn t
 *  a.txt`). */
function sharedMessage(slug: string, path: string, others: SharedSlug['others']): string {
  const names = others.map((o) => `"${o.name}"`).join(', ');
  return `slug "${slug}" is shared by ${others.length + 1} files: it loads ${path}; ${others.length === 1 ? 'the other loads by its name with its extension,' : 'the others load by their names with their extensions,'} ${names}`;
}

/** `rel` is one of `dirs` or below one. */
function underSkill(rel: string, dirs: ReadonlySet<string>): boolean {
  if (dirs.has(rel)) return true;
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) if (dirs.has(rel.slice(0, i))) return true;
  return false;
}

/** A subject's slug plus its extension as the file name writes it. */
function withExtension(s: Subject): string {
  const name = s.path.slice(s.path.lastIndexOf('/') + 1);
  const lead = name.charCodeAt(0) === 46 ? 1 : 0;
  const dot = name.lastIndexOf('.');
  return dot > lead ? `${s.slug}${name.slice(dot)}` : s.slug;
}

/** Turns each outermost directory holding SKILL.md into one subject (slug:
 *  the directory's slug; content: SKILL.md) and the other files below it
 *  into its bundled files: hidden from listings and globs, loadable by
 *  exact slug. SKILL.md itself stays loadable as `<dir>/SKILL`. */
function gatherSkills(all: IndexedSubject[], dirs: Set<string>, aliases: Map<string, Alias>): void {
  // Outermost only: a SKILL.md below a skill is one of its files.
  const outer = filter([...dirs], (d) => {
    for (let i = d.indexOf('/'); i >= 0; i = d.indexOf('/', i + 1)) if (dirs.has(d.slice(0, i))) return false;
    return true;
  });
  const skills = new Map<string, SkillInfo>();
  for (const d of outer) skills.set(d, { dir: d, files: [] });
  const skillOf = (path: string): SkillInfo | undefined => {
    for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
      const found = skills.get(path.slice(0, i));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (let i = 0; i < all.length; i++) {
    const s = all[i];
    const skill = skillOf(s.path);
    if (skill === undefined) continue;
    if (s.path === `${skill.dir}/${SKILL_FILE}`) {
      const slug = s.slug.slice(0, s.slug.lastIndexOf('/'));
      aliases.set(s.slug, { subject: s, of: slug });
      all[i] = s.asSkill(slug, skill);
    } else {
      all[i] = s.asBundled();
      skill.files.push(all[i]);
    }
  }
}
