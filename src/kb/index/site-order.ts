// The order a listing shows a topic's subjects in: the site's own, where
// its site gives one (order.ts, mkdocs.ts), else slug order. Apart from
// listing.ts: only the commands that list load it (and the reads of
// mkdocs.ts with it), never `kb prompt` or `kb schema`.

import { mkdocsPlaces } from './mkdocs.ts';
import { frontPlaces, siteOrder } from './order.ts';
import type { Subject } from './types.ts';
import { probeUnknown, type TopicView } from './view.ts';

/** `subjects` (in slug order) in the order their site gives them: a
 *  MkDocs nav's (mkdocs.ts), else their front matter's (order.ts); the
 *  very array where no subject gives itself a place (when the walk
 *  knows, no subject is asked). Those not probed yet are probed (a
 *  listing has probed all). `visibleOnly`: no subject in `subjects` is
 *  hidden. */
export function inSiteOrder(view: TopicView, subjects: readonly Subject[], visibleOnly = false): readonly Subject[] {
  const nav = navOf(view);
  if (nav !== undefined) return siteOrder(subjects, (s) => nav.get(s.path), 'first');
  // The walk saw every visible subject's front matter, and none gave a
  // place (`visibleOnly`: the caller passes no hidden subject; a listing
  // of thousands is spared a pass).
  if (view.walkedUnplaced === true && (visibleOnly || !subjects.some((s) => s.hidden))) return subjects;
  probeUnknown(view, subjects);
  const probed = view.probed;
  return siteOrder(subjects, frontPlaces((s) => probed.get(s.slug)));
}

/** The places a MkDocs nav gives the view's subjects (mkdocs.ts), looked
 *  for once per view. */
const navs = new WeakMap<TopicView, Map<string, number> | null>();
function navOf(view: TopicView): Map<string, number> | undefined {
  let nav = navs.get(view);
  if (nav === undefined) navs.set(view, (nav = mkdocsPlaces(view.topic.subjectsDir) ?? null));
  return nav ?? undefined;
}
