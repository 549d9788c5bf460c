// The listing queries of a view (view.ts): which subjects `learn` lists,
// under a folder or in the whole topic, and whether a topic has any to
// list or to learn. Each probes only the subjects it needs a verdict on.

import { slugLowerBound } from './slug.ts';
import type { Subject } from './types.ts';
import { kindOf, probeUnknown, type TopicView } from './view.ts';
import { some } from '../../shared/arrays.ts';

/** Whether `learn` lists `s`, its verdict aside (readable text): not
 *  hidden, disabled or pre-loaded. */
export function isListableCheap(view: TopicView, s: Subject): boolean {
  return !s.hidden && !view.disabled.has(s.slug) && !view.learnedSlugs.has(s.slug);
}

/** The subjects `learn` lists: non-hidden, non-disabled, not pre-loaded,
 *  readable text (each is probed, all at once), in slug order. */
export function listable(view: TopicView): Subject[] {
  const { disabled, learnedSlugs } = view;
  const filterSets = disabled.size > 0 || learnedSlugs.size > 0;
  // The walk probed every visible subject and knows the few that are not
  // text: no verdict looked up per subject.
  if (view.walkedNonText !== undefined) {
    const out: Subject[] = [];
    for (const s of view.index.subjects) {
      if (s.hidden || (filterSets && (disabled.has(s.slug) || learnedSlugs.has(s.slug)))) continue;
      out.push(s);
    }
    for (const slug of view.walkedNonText) {
      const at = slugIndex(out, slug);
      if (at >= 0) out.splice(at, 1);
    }
    return out;
  }
  // One pass in the common case (every verdict known, as after opening
  // with `probeAll`): a listing walks thousands of subjects.
  const cache = view.probed;
  const out: Subject[] = [];
  let unknown: Subject[] | undefined;
  for (const s of view.index.subjects) {
    if (s.hidden || (filterSets && (disabled.has(s.slug) || learnedSlugs.has(s.slug)))) continue;
    const verdict = cache.get(s.slug);
    if (verdict === undefined) (unknown ??= []).push(s);
    else if (verdict.kind === 'text') out.push(s);
  }
  if (unknown === undefined) return out;
  // Some were not probed yet: probe them (all at once), then filter again,
  // in slug order.
  probeUnknown(view, unknown);
  return view.index.subjects.filter((s) => isListableCheap(view, s) && kindOf(view, s) === 'text');
}

/** Where the subject with `slug` is in `subjects` (in slug order), -1 when
 *  it is not there. */
function slugIndex(subjects: readonly Subject[], slug: string): number {
  const at = slugLowerBound(subjects, slug);
  return at < subjects.length && subjects[at].slug === slug ? at : -1;
}

/** The listable subjects (as `listable`) below the folder `folder`
 *  (slugs starting with `folder/`), in slug order. Probes only those. */
export function listableUnder(view: TopicView, folder: string): Subject[] {
  const prefix = `${folder}/`;
  const all = view.index.subjects;
  // Slugs with one prefix are contiguous in slug order: find the first.
  const below: Subject[] = [];
  for (let i = slugLowerBound(all, prefix); i < all.length && all[i].slug.startsWith(prefix); i++) if (isListableCheap(view, all[i])) below.push(all[i]);
  probeUnknown(view, below);
  return below.filter((s) => kindOf(view, s) === 'text');
}

/** Whether `listable(view)` is non-empty; stops at the first text subject. */
export function hasListable(view: TopicView): boolean {
  return some(view.index.subjects, (s) => isListableCheap(view, s) && kindOf(view, s) === 'text');
}

/** Whether some subject is neither disabled, nor pre-loaded, nor binary (nor
 *  unreadable). Hidden subjects count: they stay loadable by exact slug.
 *  Stops at the first one. */
export function hasLearnable(view: TopicView): boolean {
  return some(
    view.index.subjects,
    (s) => !view.disabled.has(s.slug) && !view.learnedSlugs.has(s.slug) && kindOf(view, s) === 'text',
  );
}

/** Up to `limit` subjects whose slugs start with `prefix`, in slug order:
 *  those `learn` lists, or with `preloaded`, the pre-loaded ones too (every
 *  visible text subject: what a write may revise or remove). Probes only
 *  the subjects it looks at, a batch of `limit` at a time: shell
 *  completion asks on every TAB, in topics of any size. */
export function listableFrom(view: TopicView, prefix: string, limit: number, preloaded = false): Subject[] {
  const all = view.index.subjects;
  const out: Subject[] = [];
  let batch: Subject[] = [];
  const flush = () => {
    probeUnknown(view, batch);
    for (const s of batch) if (out.length < limit && kindOf(view, s) === 'text') out.push(s);
    batch = [];
  };
  for (let i = slugLowerBound(all, prefix); i < all.length && out.length < limit && all[i].slug.startsWith(prefix); i++) {
    const s = all[i];
    if (s.hidden || view.disabled.has(s.slug) || (!preloaded && view.learnedSlugs.has(s.slug))) continue;
    batch.push(s);
    if (batch.length >= limit - out.length) flush();
  }
  flush();
  return out;
}
