// A site's own order (docs/guide/knowledge-base.md, "Docs sites"): docs sites say in which
// order their pages are shown, and a listing shows subjects in it, within
// their folder. A subject's place is the number in a top-level field of
// its YAML front matter, the first of:
//
// - `weight` (Hugo; 0 is Hugo's "no weight");
// - `sidebar_position` (Docusaurus);
// - `nav_order` (Jekyll's Just the Docs);
//
// read from the head the probe already read (no extra read); or, for a
// MkDocs site, where its `nav` names it (mkdocs.ts; a folder then where
// its first page is). A folder's
// place is its index page's (`_index`, `index`, `README`: the page that
// shows the folder); that page comes first in its folder. In each folder,
// the entries (subjects and subfolders) with a place come first, by it,
// then the others; ties in natural order (`v3.4.2` before `v3.4.10`). A topic where no subject has a
// place keeps slug order, untouched. The subjects of a folder stay next to
// each other (a folder's listing, summing folders up rely on it).
//
// Each step is one pass over the subjects or their front matter's lines,
// but the sort of each folder's entries.

import type { ProbeResult } from '../fs/probe.ts';
import { compareNatural } from '../../shared/text.ts';
import type { Subject } from './types.ts';

/** The front-matter fields read for a subject's place, in order. */
export const ORDER_FIELDS = ['weight', 'sidebar_position', 'nav_order'] as const;

/** Characters of front matter read for a place, at most (the probe's head
 *  bounds it already; this bounds the scan of a large one). */
const FRONT_CHARS = 16 * 1024;

/** The place a front matter gives its page: the number of the first of
 *  ORDER_FIELDS on a line of its own at the top level (`weight: 20`,
 *  quoted or not, a comment after it), undefined when none has one. */
export function placeIn(front: string): number | undefined {
  const text = front.length > FRONT_CHARS ? front.slice(0, FRONT_CHARS) : front;
  let best: { field: number; value: number } | undefined;
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const c = text.charCodeAt(at);
    // Top-level keys start with a letter or `_`: the fields start so.
    if (c === 0x77 /* w */ || c === 0x73 /* s */ || c === 0x6e /* n */) {
      const found = fieldOf(text, at, end);
      if (found !== undefined && (best === undefined || found.field < best.field)) best = found;
    }
    at = end + 1;
  }
  return best?.value;
}

/** The field of ORDER_FIELDS the line from `at` to `end` sets, and its
 *  number; undefined when it sets none or its value is not a number. */
function fieldOf(text: string, at: number, end: number): { field: number; value: number } | undefined {
  for (let field = 0; field < ORDER_FIELDS.length; field++) {
    const key = ORDER_FIELDS[field];
    if (!text.startsWith(key, at) || text.charCodeAt(at + key.length) !== 0x3a /* : */) continue;
    let value = text.slice(at + key.length + 1, end);
    const hash = value.indexOf(' #');
    if (hash >= 0) value = value.slice(0, hash);
    value = unquoted(value.trim());
    if (!/^[-+]?\d{1,15}(\.\d{1,15})?$/.test(value)) return undefined;
    const n = Number(value);
    // Hugo: a weight of 0 is no weight.
    if (key === 'weight' && n === 0) return undefined;
    return { field, value: n };
  }
  return undefined;
}

/** `s` without the quotes around it, if it has a pair (`'3'`, `"3"`). */
function unquoted(s: string): string {
  const q = s[0];
  return s.length >= 2 && (q === '"' || q === "'") && s[s.length - 1] === q ? s.slice(1, -1) : s;
}

/** The rank of an index page's name (`_index` before `index` before
 *  `README`), -1 for other names. */
export function indexRank(name: string): number {
  const lower = name.toLowerCase();
  return lower === '_index' ? 0 : lower === 'index' ? 1 : lower === 'readme' ? 2 : -1;
}

/** How a folder gets its place: by its index page's (`index`: front
 *  matter), or by its first entry's (`first`: a nav, which lists pages,
 *  a section where its first page is). */
export type FolderPlace = 'index' | 'first';

/** A subject's place by its front matter (`placeIn`), from its probe
 *  result (undefined: none, or not probed). */
export function frontPlaces(resultOf: (s: Subject) => ProbeResult | undefined): (s: Subject) => number | undefined {
  return (s) => {
    const front = resultOf(s)?.front;
    return typeof front === 'string' ? placeIn(front) : undefined;
  };
}

/**
 * `subjects` (in slug order) in the site's order, as at the top of this
 * file, each subject's place given by `placeOf`; the very array when no
 * subject has a place.
 *
 * The subjects of a folder are a range of the slug order (its slugs share
 * its prefix): each folder's range is read once for its entries, which
 * are sorted (by `first`, a range in which no subject has a place is
 * copied as it is). So the cost is a pass over the subjects per folder
 * level, and a sort of each folder's entries.
 */
export function siteOrder(subjects: readonly Subject[], placeOf: (s: Subject) => number | undefined, folders: FolderPlace = 'index'): readonly Subject[] {
  const n = subjects.length;
  const places = new Float64Array(n);
  const before = new Int32Array(n + 1); // subjects with a place before i
  for (let i = 0; i < n; i++) {
    const p = placeOf(subjects[i]);
    places[i] = p ?? NaN;
    before[i + 1] = before[i] + (p === undefined ? 0 : 1);
  }
  if (before[n] === 0) return subjects;
  const out: Subject[] = [];
  orderRange({ subjects, places, before, folders }, 0, n, 0, out);
  return out;
}

interface Ordering {
  subjects: readonly Subject[];
  /** Each subject's place (NaN: none). */
  places: Float64Array;
  before: Int32Array;
  folders: FolderPlace;
}

/** An entry of a folder: a subject (`file`), or a subfolder, the range
 *  from `from` to `to` whose slugs go on past `cut`. */
interface Entry {
  from: number;
  to: number;
  file: boolean;
  cut: number;
  place: number;
  /** Its name in the folder (a file's, or the subfolder's with its `/`,
   *  as slug order and natural order place it). */
  name: string;
}

/** Appends the subjects from `from` to `to`, those of a folder whose
 *  names start at `cut` in their slugs, to `out` in the site's order. */
function orderRange(o: Ordering, from: number, to: number, cut: number, out: Subject[]): void {
  const { subjects, places } = o;
  // No place in the range: as it is, but where index pages come first.
  if (o.before[to] === o.before[from] && o.folders === 'first') {
    for (let i = from; i < to; i++) out.push(subjects[i]);
    return;
  }
  const entries: Entry[] = [];
  let index: { entry: Entry; rank: number } | undefined;
  for (let i = from; i < to; ) {
    const slug = subjects[i].slug;
    const slash = slug.indexOf('/', cut);
    if (slash < 0) {
      const entry: Entry = { from: i, to: i + 1, file: true, cut, place: places[i], name: slug.slice(cut) };
      entries.push(entry);
      const rank = o.folders === 'index' ? indexRankOf(slug, cut) : -1;
      if (rank >= 0 && (index === undefined || rank < index.rank)) index = { entry, rank };
      i++;
      continue;
    }
    const prefix = slug.slice(0, slash + 1);
    let j = i + 1;
    while (j < to && subjects[j].slug.startsWith(prefix)) j++;
    entries.push({ from: i, to: j, file: false, cut: slash + 1, place: o.folders === 'index' ? indexPlace(o, i, j, slash + 1) : leastPlace(places, i, j), name: prefix.slice(cut) });
    i = j;
  }
  entries.sort(byPlace);
  const first = index?.entry;
  if (first !== undefined) out.push(subjects[first.from]);
  for (const e of entries) {
    if (e === first) continue;
    if (e.file) out.push(subjects[e.from]);
    else orderRange(o, e.from, e.to, e.cut, out);
  }
}

/** The index page rank of the name at `cut` in `slug` (`indexRank`);
 *  most names are passed over by their last character, without a slice. */
function indexRankOf(slug: string, cut: number): number {
  const last = slug.charCodeAt(slug.length - 1) | 0x20;
  if (last !== 0x78 && last !== 0x65) return -1; // x, e
  return indexRank(slug.slice(cut));
}

/** The place of the index page of the folder from `from` to `to` (its
 *  own subjects' names start at `cut`), NaN when it has none. */
function indexPlace(o: Ordering, from: number, to: number, cut: number): number {
  if (o.before[to] === o.before[from]) return NaN;
  let best = -1;
  let bestRank = 3;
  for (let i = from; i < to; i++) {
    const slug = o.subjects[i].slug;
    if (slug.indexOf('/', cut) >= 0) continue;
    const rank = indexRankOf(slug, cut);
    if (rank >= 0 && rank < bestRank) {
      best = i;
      bestRank = rank;
    }
  }
  return best < 0 ? NaN : o.places[best];
}

/** The least place from `from` to `to`, NaN when none has one. */
function leastPlace(places: Float64Array, from: number, to: number): number {
  let least = NaN;
  for (let i = from; i < to; i++) {
    const p = places[i];
    if (!Number.isNaN(p) && (Number.isNaN(least) || p < least)) least = p;
  }
  return least;
}

function byPlace(a: Entry, b: Entry): number {
  const pa = a.place;
  const pb = b.place;
  // Ties (and the entries without a place) in natural order, as a
  // listing without places is (`v3.4.2` before `v3.4.10`).
  if (pa === pb || (Number.isNaN(pa) && Number.isNaN(pb))) return compareNatural(a.name, b.name) || a.from - b.from;
  if (Number.isNaN(pa)) return 1;
  if (Number.isNaN(pb)) return -1;
  return pa - pb;
}
