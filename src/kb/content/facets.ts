// A subject's facets: the frontmatter fields people filter notes by
// (`tags`, `type`, `status`) and the `#tags` of Markdown text, as the
// search index keeps them (one line a document, kb/search/cache.ts) and
// as a search's filter tests them (app/search.ts). Read once, when a file
// is indexed: filtering reads no file.
//
// - `tags` (or `tag`): a YAML list (Obsidian, Hugo: `[a, b]` or `- a`
//   lines), or a string of words split at commas and blanks (Jekyll's
//   `tags: a b`, Obsidian's older `tags: a, b`); a leading `#` is dropped.
// - `#tags` in Markdown text, as Obsidian reads them: a `#` at the start
//   of a line or after a blank, then letters, digits, `_`, `-` or `/`, at
//   least one of them not a digit (`# Heading`, `#123` and `a#b` are not
//   tags); none inside fenced code or an inline code span.
// - an Org file's `#+filetags:` (org-roam's `:books:draft:`, or words)
//   in its preamble, before its first heading: Org's frontmatter tags.
// - `type` and `status`: a string (or a number, as text).
//
// Values are compared without case, blanks trimmed, runs of blanks one
// space. Bounded: at most MAX_TAGS tags, each value at most MAX_FACET
// characters (longer ones are cut), whatever the file holds.

/** The most tags kept of one subject. */
export const MAX_TAGS = 64;
/** The most characters of one tag, type or status. */
export const MAX_FACET = 100;

export interface Facets {
  tags: string[];
  type?: string;
  status?: string;
}

/** What a search keeps: every filter given must hold. */
export interface FacetFilter {
  /** Each of these tags (a tag `a` is held by a subject tagged `a` or
   *  `a/b`, as Obsidian's nested tags). */
  tags?: readonly string[];
  type?: string;
  status?: string;
}

/** A value as facets keep it: trimmed, blanks one space, lower case, cut
 *  at MAX_FACET characters, without a leading `#` (a tag's); '' for none. */
export function facetValue(raw: string, tag = false): string {
  let s = raw.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  if (tag) s = s.replace(/^#+/, '');
  s = s.toLowerCase();
  return s.length > MAX_FACET ? s.slice(0, MAX_FACET) : s;
}

function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** The tags of a frontmatter value: a list of strings, or a string of
 *  words (split at commas and blanks). */
function tagsOfValue(v: unknown, into: Set<string>): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (into.size >= MAX_TAGS) return;
      const s = scalar(item);
      if (s === undefined) continue;
      const t = facetValue(s, true);
      if (t !== '') into.add(t);
    }
    return;
  }
  const s = scalar(v);
  if (s === undefined) return;
  for (const word of s.split(/[\s,]+/)) {
    if (into.size >= MAX_TAGS) return;
    const t = facetValue(word, true);
    if (t !== '') into.add(t);
  }
}

/** A file's facets, from its frontmatter's fields (simple or parsed) and,
 *  for Markdown (`format` 'md'), the `#tags` of its text, for Org ('org')
 *  its `#+filetags:`. */
export function facetsOf(front: Readonly<Record<string, unknown>> | undefined, text: string, format: 'md' | 'org' | undefined): Facets {
  const tags = new Set<string>();
  let type: string | undefined;
  let status: string | undefined;
  if (front !== undefined) {
    tagsOfValue(front.tags, tags);
    tagsOfValue(front.tag, tags);
    const ty = scalar(front.type);
    if (ty !== undefined && facetValue(ty) !== '') type = facetValue(ty);
    const st = scalar(front.status);
    if (st !== undefined && facetValue(st) !== '') status = facetValue(st);
  }
  if (format === 'md' && tags.size < MAX_TAGS) inlineTags(text, tags);
  if (format === 'org' && tags.size < MAX_TAGS) orgFileTags(text, tags);
  return { tags: [...tags], ...(type !== undefined ? { type } : {}), ...(status !== undefined ? { status } : {}) };
}

/** The most of an Org file's start looked at for its preamble. */
const ORG_PREAMBLE = 64 * 1024;

/** Adds the tags of an Org file's `#+filetags:` lines (any case) to
 *  `into` (up to MAX_TAGS): in its preamble, the lines before its first
 *  heading (`* `), within its first ORG_PREAMBLE characters. Tags are
 *  separated by `:` or blanks. Each line read once. */
function orgFileTags(text: string, into: Set<string>): void {
  const limit = Math.min(text.length, ORG_PREAMBLE);
  for (let at = 0; at < limit; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 || nl > limit ? limit : nl;
    if (text.charCodeAt(at) === 0x2a && (text.charCodeAt(at + 1) === 0x20 || text.charCodeAt(at + 1) === 0x2a)) return; // a heading
    if (text.charCodeAt(at) === 0x23 && text.slice(at, at + 11).toLowerCase() === '#+filetags:') {
      for (const t of text.slice(at + 11, end).split(/[:\s]+/)) {
        if (into.size >= MAX_TAGS) return;
        const v = facetValue(t, true);
        if (v !== '') into.add(v);
      }
    }
    at = end + 1;
  }
}

/** Adds the `#tags` of Markdown `text` to `into` (up to MAX_TAGS): one
 *  pass from `#` to `#`; the lines up to one that holds a tag's `#` are
 *  looked at (for fences and code spans) only then, each once, so a text
 *  without a tag costs a search for `#`. */
export function inlineTags(text: string, into: Set<string>): void {
  // The line holding the candidate: [line, end); whether it is fenced;
  // backticks counted on it up to `counted`.
  let line = 0;
  let end = -1;
  let fence = '';
  let fenced = false;
  let ticks = 0;
  let counted = 0;
  for (let at = text.indexOf('#'); at >= 0 && into.size < MAX_TAGS; at = text.indexOf('#', at + 1)) {
    const before = at === 0 ? 0x0a : text.charCodeAt(at - 1);
    if (before !== 0x0a && !isBlankCode(before)) continue;
    let e = at + 1;
    let word = false;
    while (e < text.length && isTagChar(text.charCodeAt(e))) {
      if (!isDigitCode(text.charCodeAt(e))) word = true;
      e++;
    }
    if (!word) continue;
    // Lines up to the one holding `at`, each once.
    while (at >= end) {
      line = end + 1;
      end = text.indexOf('\n', line);
      if (end < 0) end = text.length;
      const f = fenceOf(text, line, end);
      fenced = fence !== '';
      if (fence !== '') {
        if (f !== '' && f[0] === fence[0] && f.length >= fence.length) fence = '';
      } else if (f !== '') {
        fence = f;
        fenced = true;
      }
      ticks = 0;
      counted = line;
    }
    for (; counted < at; counted++) if (text.charCodeAt(counted) === 0x60) ticks++;
    if (!fenced && ticks % 2 === 0) {
      const t = facetValue(text.slice(at + 1, e));
      if (t !== '') into.add(t);
    }
    at = e - 1;
  }
}

/** The fence a line opens or closes (``` or ~~~ and more, after up to
 *  three spaces), or ''. */
function fenceOf(text: string, start: number, end: number): string {
  let i = start;
  while (i < end && i - start < 3 && text.charCodeAt(i) === 0x20) i++;
  const c = text.charCodeAt(i);
  if (c !== 0x60 && c !== 0x7e) return '';
  let j = i;
  while (j < end && text.charCodeAt(j) === c) j++;
  return j - i >= 3 ? text.slice(i, j) : '';
}

function isBlankCode(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}

function isDigitCode(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Letters, digits, `_`, `-`, `/` (any character past ASCII counts as a
 *  letter: Obsidian takes tags in any script, and emoji). */
function isTagChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d || c === 0x2f || (c >= 0x80 && c !== 0x3000 && c !== 0xa0 && c !== 0x2028 && c !== 0x2029);
}

/** Facets as the index keeps them, on one line: `type:X`, `status:X` and
 *  `tag:X` entries joined by tabs (no value holds a tab: facetValue);
 *  '' for none. */
export function encodeFacets(f: Facets): string {
  const out: string[] = [];
  if (f.type !== undefined) out.push(`type:${f.type}`);
  if (f.status !== undefined) out.push(`status:${f.status}`);
  for (const t of f.tags) out.push(`tag:${t}`);
  return out.join('\t');
}

/** `encodeFacets` read back (a corrupt line gives fewer facets, never an
 *  error). */
export function decodeFacets(line: string): Facets {
  const f: Facets = { tags: [] };
  if (line === '') return f;
  for (const e of line.split('\t')) {
    if (e.startsWith('tag:')) f.tags.push(e.slice(4));
    else if (e.startsWith('type:')) f.type = e.slice(5);
    else if (e.startsWith('status:')) f.status = e.slice(7);
  }
  return f;
}

/** Whether a filter asks for anything. */
export function filters(f: FacetFilter | undefined): f is FacetFilter {
  return f !== undefined && ((f.tags?.length ?? 0) > 0 || f.type !== undefined || f.status !== undefined);
}

/** The test of `filter` on a document's encoded facets: every tag, the
 *  type and the status asked for, compared as facetValue keeps them. */
export function facetTest(filter: FacetFilter): (encoded: string) => boolean {
  const tags = (filter.tags ?? []).map((t) => facetValue(t, true));
  const type = filter.type === undefined ? undefined : `type:${facetValue(filter.type)}`;
  const status = filter.status === undefined ? undefined : `status:${facetValue(filter.status)}`;
  return (encoded) => {
    if (encoded === '') return false;
    const entries = encoded.split('\t');
    if (type !== undefined && !entries.includes(type)) return false;
    if (status !== undefined && !entries.includes(status)) return false;
    for (const t of tags) {
      const exact = `tag:${t}`;
      const nested = `${exact}/`;
      if (!entries.some((e) => e === exact || e.startsWith(nested))) return false;
    }
    return true;
  };
}
