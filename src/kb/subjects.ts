// The subject index of a topic directory: one subject per slug, sorted.

import type { Notice, Subject, SubjectIndex } from './types.ts';
import { compareCodeUnits, describePath } from './slug.ts';
import { walk, type WalkedFile } from './walk.ts';

/** Builds the subject for a walked file (its `size` stays lazy). */
export function subjectOf(file: WalkedFile): Subject {
  const { slug, hidden, ext } = describePath(file.path);
  // A getter in the literal: an own enumerable property, one shared shape.
  return {
    path: file.path,
    abs: file.abs,
    slug,
    hidden,
    ext,
    get size(): number {
      return file.size;
    },
  };
}

/** `a` should win a slug collision against `b`: the non-hidden file wins,
 *  then the lexicographically (code-unit) first path. */
function beats(a: Subject, b: Subject): boolean {
  if (a.hidden !== b.hidden) return !a.hidden;
  return compareCodeUnits(a.path, b.path) < 0;
}

/** Walks `dir` and indexes its regular files by slug. Never throws: problems
 *  (missing directory, dangling links, loops, collisions...) are notices. */
export function indexSubjects(dir: string): SubjectIndex {
  const walked = walk(dir);
  // Grouped by slug, the slugs sorted by the built-in string sort, which is
  // code-unit order (as compareCodeUnits) without a comparator call per
  // comparison.
  const bySlug = new Map<string, Subject | Subject[]>();
  for (const file of walked.files) {
    const s = subjectOf(file);
    const seen = bySlug.get(s.slug);
    if (seen === undefined) bySlug.set(s.slug, s);
    else if (Array.isArray(seen)) seen.push(s);
    else bySlug.set(s.slug, [seen, s]);
  }
  const slugs = [...bySlug.keys()].sort();
  const subjects: Subject[] = new Array(slugs.length);
  const notices: Notice[] = [...walked.notices];
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
      notices.push({
        kind: 'slug-collision',
        path: loser.path,
        message: `slug "${winner.slug}" is used by both ${winner.path} and ${loser.path}; ${winner.path} is used, ${loser.path} is ignored`,
      });
    }
  }
  return { dir, subjects, notices };
}
