// A site's own order (docs/learn.md, "Order"): docs sites say in which
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
// then the others; ties keep slug order. A topic where no subject has a
// place keeps slug order, untouched. The subjects of a folder stay next to
// each other (a folder's listing, summing folders up rely on it).
//
// Each step is one pass over the subjects or their front matter's lines,
// but the sort of each folder's entries.

import type { ProbeResult } from '../fs/probe.ts';
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

/** An entry of a folder: a subject, or a subfolder. */
interface Entry {
  /** First seen at (in slug order): ties keep that order. */
  seen: number;
  place?: number;
  subject?: Subject;
  /** A subfolder's entries, by name (with `/` after a folder's). */
  entries?: Map<string, Entry>;
  /** A subfolder's index page, its rank (indexRank). */
  index?: { entry: Entry; rank: number };
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
 */
export function siteOrder(subjects: readonly Subject[], placeOf: (s: Subject) => number | undefined, folders: FolderPlace = 'index'): readonly Subject[] {
  const places = new Map<Subject, number>();
  for (const s of subjects) {
    const place = placeOf(s);
    if (place !== undefined) places.set(s, place);
  }
  if (places.size === 0) return subjects;
  const root: Entry = { seen: 0, entries: new Map() };
  for (let i = 0; i < subjects.length; i++) addEntry(root, subjects[i], i, places.get(subjects[i]));
  const out: Subject[] = [];
  if (folders === 'first') firstPlaces(root);
  emit(root, out, folders);
  return out;
}

/** Gives each folder below `folder` the least place of what it holds
 *  (none when nothing in it has one); returns `folder`'s. */
function firstPlaces(folder: Entry): number | undefined {
  let least: number | undefined;
  for (const e of folder.entries!.values()) {
    if (e.entries !== undefined) {
      const p = firstPlaces(e);
      if (p !== undefined) e.place = p;
    }
    if (e.place !== undefined && (least === undefined || e.place < least)) least = e.place;
  }
  return least;
}

/** Puts subject `s` (the `seen`th) in the tree below `root`. */
function addEntry(root: Entry, s: Subject, seen: number, place: number | undefined): void {
  let folder = root;
  let from = 0;
  for (let slash = s.slug.indexOf('/'); slash >= 0; slash = s.slug.indexOf('/', from)) {
    const key = s.slug.slice(from, slash + 1);
    let sub = folder.entries!.get(key);
    if (sub === undefined) folder.entries!.set(key, (sub = { seen, entries: new Map() }));
    folder = sub;
    from = slash + 1;
  }
  const name = s.slug.slice(from);
  const entry: Entry = { seen, subject: s, ...(place !== undefined ? { place } : {}) };
  folder.entries!.set(name, entry);
  const rank = indexRank(name);
  if (rank >= 0 && (folder.index === undefined || rank < folder.index.rank)) folder.index = { entry, rank };
}

/** Appends the subjects of `folder` to `out`: by `index`, its index page
 *  first; then its entries by place, then the others, each subfolder in
 *  its place (by `index`, its index page's). */
function emit(folder: Entry, out: Subject[], folders: FolderPlace): void {
  const entries = [...folder.entries!.values()];
  if (folders === 'index') for (const e of entries) if (e.entries !== undefined && e.index?.entry.place !== undefined) e.place = e.index.entry.place;
  entries.sort(byPlace);
  const first = folders === 'index' ? folder.index?.entry : undefined;
  if (first !== undefined) out.push(first.subject!);
  for (const e of entries) {
    if (e === first) continue;
    if (e.subject !== undefined) out.push(e.subject);
    else emit(e, out, folders);
  }
}

function byPlace(a: Entry, b: Entry): number {
  if (a.place !== undefined && b.place !== undefined && a.place !== b.place) return a.place - b.place;
  if (a.place !== undefined && b.place === undefined) return -1;
  if (a.place === undefined && b.place !== undefined) return 1;
  return a.seen - b.seen;
}
