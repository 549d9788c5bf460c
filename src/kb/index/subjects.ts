// The subject index of a topic directory: one subject per slug, sorted.
//
// Built in one pass over the walk: a file's slug, hidden-ness and extension
// come from its name and from its directory's (computed once per directory),
// by the rules of slug.ts (`describePath`, which tests/unit/kb/subjects.test.ts
// checks this against). A CLI run indexes each file once, mostly in
// not-yet-optimised code, so the per-file work is kept to a few string
// operations and one object.

import { notice, type Notice } from '../fs/walk.ts';
import type { Subject, SubjectIndex } from './types.ts';
import { compareCodeUnits } from '../../shared/text.ts';
import { describePath } from './slug.ts';
import { statSize, walkFiles, type WalkDir, type WalkOptions } from '../fs/walk.ts';

/** A subject of the index. `size` is stat'ed on first access (a getter on
 *  the class; `toJSON` shows it as a plain value). */
class IndexedSubject implements Subject {
  readonly path: string;
  readonly abs: string;
  readonly slug: string;
  readonly hidden: boolean;
  readonly ext: string;
  #size: number | undefined;

  constructor(path: string, abs: string, slug: string, hidden: boolean, ext: string, size: number | undefined) {
    this.path = path;
    this.abs = abs;
    this.slug = slug;
    this.hidden = hidden;
    this.ext = ext;
    this.#size = size;
  }

  get size(): number {
    return (this.#size ??= statSize(this.abs));
  }

  toJSON(): Record<string, unknown> {
    return { path: this.path, abs: this.abs, slug: this.slug, hidden: this.hidden, ext: this.ext, size: this.size };
  }
}

/** `a` should win a slug collision against `b`: the non-hidden file wins,
 *  then the lexicographically (code-unit) first path. */
function beats(a: Subject, b: Subject): boolean {
  if (a.hidden !== b.hidden) return !a.hidden;
  return compareCodeUnits(a.path, b.path) < 0;
}

/** Told of each file as the walk finds it: its absolute path, its slug and
 *  whether it is hidden (collisions are not resolved yet). */
export type FileFound = (abs: string, slug: string, hidden: boolean) => void;

/** Walks `dir` and indexes its regular files by slug. Never throws: problems
 *  (missing directory, dangling links, loops, collisions...) are notices. */
export function indexSubjects(dir: string, found?: FileFound, opts: WalkOptions = {}): SubjectIndex {
  const bySlug = new Map<string, Subject | Subject[]>();
  // Per directory: the path prefix, the slug prefix, hidden-ness.
  let last: WalkDir | null = null;
  let pathPrefix = '';
  let slugPrefix = '';
  let dirHidden = false;
  const walked = walkFiles(dir, (d, name, abs, size) => {
    if (d !== last) {
      last = d;
      pathPrefix = d.rel === '' ? '' : d.rel + '/';
      dirHidden = pathPrefix.startsWith('.') || pathPrefix.includes('/.');
      slugPrefix = dirHidden ? pathPrefix.split('/').map(dropLeadingDot).join('/') : pathPrefix;
    }
    // The last component: a leading `.` marks it hidden and is dropped; the
    // extension follows the last `.` of the rest, unless that `.` is the
    // rest's first character (slug.ts).
    const lead = name.charCodeAt(0) === 46 ? 1 : 0;
    const dot = name.lastIndexOf('.');
    const s =
      dot > lead
        ? new IndexedSubject(pathPrefix + name, abs, slugPrefix + name.slice(lead, dot), dirHidden || lead === 1, name.slice(dot + 1).toLowerCase(), size)
        : new IndexedSubject(pathPrefix + name, abs, slugPrefix + (lead ? name.slice(1) : name), dirHidden || lead === 1, '', size);
    if (found !== undefined) found(abs, s.slug, s.hidden);
    const seen = bySlug.get(s.slug);
    if (seen === undefined) bySlug.set(s.slug, s);
    else if (Array.isArray(seen)) seen.push(s);
    else bySlug.set(s.slug, [seen, s]);
  }, opts);
  // The slugs in code-unit order (the built-in string sort, as
  // compareCodeUnits, without a comparator call per comparison).
  const slugs = [...bySlug.keys()].sort();
  const subjects: Subject[] = new Array(slugs.length);
  const notices: Notice[] = walked.notices;
  for (let i = 0; i < slugs.length; i++) {
    const entry = bySlug.get(slugs[i])!;
    if (!Array.isArray(entry)) {
      subjects[i] = entry;
      continue;
    }
    let winner = entry[0];
    for (const s of entry) if (beats(s, winner)) winner = s;
    subjects[i] = winner;
    const losers = entry.filter((s) => s !== winner).sort((a, b) => compareCodeUnits(a.path, b.path));
    for (const loser of losers) {
      notices.push(
        notice(
          'slug-collision',
          loser.path,
          `slug "${winner.slug}" is used by both ${winner.path} and ${loser.path}; ${winner.path} is used, ${loser.path} is ignored`,
        ),
      );
    }
  }
  return { dir, subjects, notices, links: walked.links };
}

function dropLeadingDot(component: string): string {
  return component.charCodeAt(0) === 46 ? component.slice(1) : component;
}
