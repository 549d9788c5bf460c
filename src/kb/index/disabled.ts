// What a topic disables, decided here and nowhere else: every slug of its
// `disabled` list, and every bundled file of a disabled skill (a skill is
// one subject, SKILL.md; the files beside it go with it). A disabled
// subject is never listed, loaded (by exact slug, alias or glob),
// pre-loaded, searched, recalled, served as a resource, counted as
// pre-loaded, offered as a near miss, or compared as a duplicate.
//
// A view holds the set (`disabledSlugs`, TopicView.disabled): everything
// that works on a view asks it. A search works on its index's documents
// (slugs and paths) without a view: `disabledTest` tells the same of them.

import { SKILL_FILE } from './subjects.ts';
import { slugLowerBound, slugOf } from './slug.ts';
import type { Subject } from './types.ts';

/** The slugs `configured` disables among `subjects` (sorted by slug, as
 *  an index keeps them): those slugs, and the bundled files of each skill
 *  among them. */
export function disabledSlugs(configured: readonly string[], subjects: readonly Subject[]): Set<string> {
  const out = new Set(configured);
  for (const slug of configured) {
    const at = slugLowerBound(subjects, slug);
    const skill = at < subjects.length && subjects[at].slug === slug ? subjects[at].skill : undefined;
    if (skill !== undefined) for (const f of skill.files) out.add(f.slug);
  }
  return out;
}

/**
 * Whether the subject of `slug` at `path` (relative, `/`-separated) is
 * disabled by `configured`: its slug is, or it lies in the folder of a
 * disabled skill. `pathOf(slug)` is the path of the subject of that slug
 * (undefined: none); a skill's is `<folder>/SKILL.md`. It is asked only of
 * a disabled slug that the subject's slug starts with, as a folder.
 */
export function disabledTest(configured: ReadonlySet<string>, pathOf: (slug: string) => string | undefined): (slug: string, path: string) => boolean {
  const folders = new Map<string, string | undefined>();
  /** The folder of the skill of that slug, undefined when it is none. */
  const skillFolder = (slug: string): string | undefined => {
    if (folders.has(slug)) return folders.get(slug);
    const p = pathOf(slug);
    const folder = p !== undefined && p.endsWith(`/${SKILL_FILE}`) && slugOf(p) === `${slug}/SKILL` ? p.slice(0, -SKILL_FILE.length - 1) : undefined;
    folders.set(slug, folder);
    return folder;
  };
  return (slug, path) => {
    if (configured.has(slug)) return true;
    for (let i = slug.indexOf('/'); i > 0; i = slug.indexOf('/', i + 1)) {
      const head = slug.slice(0, i);
      if (!configured.has(head)) continue;
      const folder = skillFolder(head);
      if (folder !== undefined && path.startsWith(`${folder}/`)) return true;
    }
    return false;
  };
}
