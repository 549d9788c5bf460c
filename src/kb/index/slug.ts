// Slugs, hidden-ness and extensions of subject paths.
//
// A subject path is relative to the topic's subjects directory and uses `/`
// separators (`ast-grep/.rules.md`). Its slug drops the last extension and
// the leading `.` of every component (`ast-grep/rules`). Hidden-ness is a
// property of the path and is never re-derived from the slug.
//
// Extension rule for the last component: first the leading `.` (the hidden
// marker) is set aside, then the extension is what follows the last `.` of
// the rest, provided that `.` is not the rest's first character. So
// `.bashrc` and `.md` have no extension (slugs `bashrc`, `md`), `.rules.md`
// has `md`, `a.tar.gz` has `gz` (slug `a.tar`), and `notes.` has an empty
// extension (slug `notes`). Only one leading `.` is dropped per component:
// `..x.md` has the slug `.x`.

/** The file that makes a folder an Agent Skill: the folder is one subject
 *  (index/subjects.ts), whose slug is the folder's. */
export const SKILL_FILE = 'SKILL.md';

/** Splits the last component of `path` into its stem (hidden `.` kept) and
 *  its extension (as written, without the dot; '' when none). */
function splitLast(path: string): { head: string; name: string; stem: string; ext: string } {
  const slash = path.lastIndexOf('/');
  const head = slash < 0 ? '' : path.slice(0, slash + 1);
  const name = slash < 0 ? path : path.slice(slash + 1);
  const lead = name.startsWith('.') ? 1 : 0;
  const dot = name.lastIndexOf('.');
  if (dot <= lead) return { head, name, stem: name, ext: '' };
  return { head, name, stem: name.slice(0, dot), ext: name.slice(dot + 1) };
}

function dropLeadingDot(component: string): string {
  return component.startsWith('.') ? component.slice(1) : component;
}

/** The slug of a subject path: last extension stripped, the leading `.` of
 *  every component dropped. `ast-grep/.rules.md` -> `ast-grep/rules`. */
export function slugOf(path: string): string {
  return describePath(path).slug;
}

/** Slug, hidden-ness and extension of a subject path, computed together. */
export function describePath(path: string): { slug: string; hidden: boolean; ext: string } {
  const { head, stem, ext } = splitLast(path);
  const hidden = isHiddenPath(path);
  if (!hidden) return { slug: head + stem, hidden, ext: ext.toLowerCase() };
  return { slug: slugPrefixOf(head) + dropLeadingDot(stem), hidden, ext: ext.toLowerCase() };
}

/** The slug prefix of a folder's files, from its path prefix (`''`, or
 *  its path and a `/`): the leading `.` of every component dropped
 *  (`a/.b/` -> `a/b/`), the prefix itself when none is hidden. */
export function slugPrefixOf(pathPrefix: string, hidden = isHiddenPath(pathPrefix)): string {
  return hidden ? pathPrefix.split('/').map(dropLeadingDot).join('/') : pathPrefix;
}

/** Any component of the path starts with `.`. */
export function isHiddenPath(path: string): boolean {
  return path.startsWith('.') || path.includes('/.');
}

/** Lower-case extension of the last component, without the dot; '' when
 *  there is none (`.bashrc`, `README`, `notes.`). */
export function extOf(path: string): string {
  return splitLast(path).ext.toLowerCase();
}

/** In `subjects`, in slug order (code units, as the index keeps them),
 *  where `slug` is or would go: the first subject whose slug is not below
 *  it (`subjects.length` when none). */
export function slugLowerBound(subjects: readonly { slug: string }[], slug: string): number {
  let lo = 0;
  let hi = subjects.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (subjects[mid].slug < slug) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
