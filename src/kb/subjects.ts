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
  const all = walked.files.map(subjectOf).sort((a, b) => compareCodeUnits(a.slug, b.slug));
  const subjects: Subject[] = [];
  const notices: Notice[] = [...walked.notices];
  // Equal slugs are adjacent once sorted.
  for (let i = 0; i < all.length; ) {
    let j = i + 1;
    while (j < all.length && all[j].slug === all[i].slug) j++;
    if (j === i + 1) {
      subjects.push(all[i]);
    } else {
      const group = all.slice(i, j);
      let winner = group[0];
      for (const s of group) if (beats(s, winner)) winner = s;
      subjects.push(winner);
      const losers = group.filter((s) => s !== winner).sort((a, b) => compareCodeUnits(a.path, b.path));
      for (const loser of losers) {
        notices.push({
          kind: 'slug-collision',
          path: loser.path,
          message: `slug "${winner.slug}" is used by both ${winner.path} and ${loser.path}; ${winner.path} is used, ${loser.path} is ignored`,
        });
      }
    }
    i = j;
  }
  return { dir, subjects, notices };
}
