// Near misses: what a `learn` pattern that matches nothing was most likely
// meant to name. The rules live here and only here (`kb learn`,
// `kb learn --args` and MCP all reach them through app/learn.ts), and they
// apply only when a pattern matches nothing as written: a pattern that
// matches keeps the RFD's behaviour, byte for byte.
//
// For an exact pattern that names no subject, in this order, the first
// rule that finds one target wins:
// 1. the same path spelled as a file: a trailing `/` dropped, a leading
//    path that repeats the topic's directory (`docs/`, or its trailing
//    components) dropped, a known extension (the subject's own, or a document one: md, txt...)
//    dropped, the leading `.` of hidden names dropped; a skill's
//    `<dir>/SKILL.md` read as the skill (`<dir>`). These name one file
//    exactly, so they may reach a hidden subject; and a folder that has an
//    index page (`_index`, `index`, `README`: docs sites show a folder by
//    it) read as that page, when it is visible;
// 2. a folder: the pattern names a folder of visible subjects;
// 3. one visible subject whose slug equals it case-insensitively;
// 4. one visible folder, case-insensitively;
// 5. a bare file name (no `/`): the one visible subject whose last
//    component is that name (exactly, else case-insensitively);
// 6. a name the subject gives itself: its title (frontmatter `title`, else
//    `name`, else the document's own: content/title.ts) or one of its
//    frontmatter `aliases`, compared loosely (case, separators,
//    punctuation, Unicode forms: `looseName`), when one visible subject
//    has it;
// 7. a list in one string (`"a, b"`, or `"a,"`; commas outside braces;
//    or a JSON array of strings, `'["a","b"]'`, as some clients send a
//    list argument): each part is a pattern of its own (and gets rules
//    1-6 and 8, not 7);
// 8. else up to five visible slugs close to it are suggested.
// A wikilink (`[[target]]`, `[[target|shown text]]`, `[[target#Heading]]`,
// `![[target]]`), as notes vaults write them, or an Org link
// (`[[file:x.org][shown]]`, org-roam's `[[id:UUID][Title]]`: its shown
// text), is read as its target,
// which gets rules 1-6 and 8 (never a glob, whatever its characters); the
// heading it names is said in the note. Names match in either Unicode
// normalisation (a file name saved decomposed, as some macOS tools do,
// loads when typed composed, and the reverse): rule 1 tries both forms.
// A glob that matches nothing and ends in an extension (`main/*.org`) is
// read without it, for the files it then matches that have it (rule 1
// for a glob). A glob that matches nothing is split by rule 7 too; a glob
// that still
// matches nothing says how many hidden subjects it skipped (resolve.ts).
// Rules 2-8 never consider hidden subjects; disabled ones are never
// considered at all. Every rule that substitutes (1-7) is reported as a
// `Fallback`, which the reply shows the model, so it learns the real slug.
//
// Cost on a miss: one binary search per reading for rule 1, and one map
// lookup for rule 6, for every missing pattern; then, for the first
// MAX_SCANNED_MISSES missing patterns of a call only, rules 2-5 (a few
// linear passes over the topic's slugs, lower-cased once, lazily), the
// split of a glob (rule 7; a string that is not a glob is split for every
// miss: a lookup), and for suggestions a length-filtered, banded edit
// distance (at most 3 edits) per slug: bounded by the topic's size, like a
// listing, and far cheaper than one (no file is read, but the heads of the
// few suggested or listed subjects). Rule 6 alone reads heads: those a
// listing probes (the first 8192 bytes of each visible subject), once per
// call, into a map of names, when a miss first gets past rules 1-5; every
// later miss is a lookup in that map. So a call of 1,000 missing patterns
// costs at most one listing's probing, 16 scans, and 1,000 lookups.

import { compilePatterns, type CompiledPattern } from '../../glob/index.ts';
import { looseName } from '../content/title.ts';
import { abouts } from './describe.ts';
import { findBySlug, resolvePatterns } from './resolve.ts';
import { levenshtein } from '../../shared/edit-distance.ts';
import { splitOutsideBraces } from '../../shared/text.ts';
import { describePath } from './slug.ts';
import type { MissHint, Subject } from './types.ts';
import { listableUnder } from './listing.ts';
import { inSiteOrder } from './site-order.ts';
import { kindOf, probeUnknown, type TopicView } from './view.ts';
import { filter, map } from '../../shared/arrays.ts';
import { trimEndChars } from '../../shared/text.ts';

/** Why a pattern was read as another slug. */
export type Reason = 'prefix' | 'slash' | 'extension' | 'dot' | 'case' | 'file-name' | 'skill-file' | 'index-page' | 'unicode' | 'title' | 'alias' | 'wikilink';

/** A pattern matched nothing as written, and was read otherwise. */
export type Fallback =
  /** Read as the slug `slug` (which is loaded, or noted as pre-loaded...);
   *  `prefix`: the repeated directory dropped, with reason `prefix`. */
  | { kind: 'read-as'; pattern: string; slug: string; reasons: Reason[]; prefix?: string; /** A wikilink's `#Heading`. */ section?: string }
  /** A folder: answered with its listing (`more` left out past the cap). */
  | { kind: 'folder'; pattern: string; folder: string; slugs: string[]; more: number; nested: boolean }
  /** One string holding a list: read as its parts. */
  | { kind: 'split'; pattern: string; parts: string[]; /** the string held a JSON array */ json?: true };

export interface Plan {
  /** The patterns to load, in order (fallback slugs in place of the
   *  patterns they rescue, parts in place of a split string; folders
   *  left out: their listing is the answer). */
  patterns: CompiledPattern[];
  /** In pattern order. */
  fallbacks: Fallback[];
  /** Suggestions for exact patterns that still match nothing, by raw
   *  pattern (view.ts `loadPatterns` attaches them to `no-match`). */
  hints: Map<string, MissHint>;
}

/** How many suggestions a miss gets. */
export const MAX_SUGGESTIONS = 5;
/** How many slugs a folder's listing shows. */
export const MAX_FOLDER_LISTING = 50;
/** How many missing patterns of one call get the rules that scan the
 *  whole topic (2-5, the split of a glob, suggestions): a call may hold
 *  1000 patterns. The others get the lookups (rule 1, rule 6 in the map
 *  of names made once per call, the split of a string that is not a
 *  glob) and the plain no-match line. */
export const MAX_SCANNED_MISSES = 16;
/** The names of a folder's index page, in order of precedence. */
const INDEX_PAGES = ['_index', 'index', 'README', 'readme', 'Readme'];
/** Patterns longer than this get no edit distance (nothing is that close). */
const MAX_DISTANCE_INPUT = 256;

/** Extensions dropped from a pattern even when the subject's file has
 *  another one (a link to `x.md` for a subject stored as `x.txt`). */
const DOCUMENT_EXTENSIONS = new Set(['md', 'markdown', 'mdx', 'qmd', 'rmd', 'txt', 'text', 'rst', 'adoc', 'org']);

/**
 * Plans a call's patterns: those that match as written are kept; the
 * others go through the near-miss rules (see the top of this file). Reads
 * no file but the heads of the subjects a folder lists or a miss suggests.
 */
export async function planPatterns(view: TopicView, patterns: readonly CompiledPattern[]): Promise<Plan> {
  const plan: Plan = { patterns: [], fallbacks: [], hints: new Map() };
  const near = new Near(view);
  for (const c of patterns) await planOne(near, c, plan, true);
  return plan;
}

async function planOne(near: Near, c: CompiledPattern, plan: Plan, maySplit: boolean): Promise<void> {
  const { view } = near;
  let scan = false;
  const link = wikilink(c.raw);
  if (link !== undefined && !(c.kind === 'exact' && findBySlug(view.index.subjects, c.pattern) !== undefined)) {
    await planLink(near, c, link, plan);
    return;
  }
  if (c.kind === 'invalid' && !(maySplit && jsonList(c.pattern) !== undefined)) {
    plan.patterns.push(c);
    return;
  }
  if (c.kind === 'exact') {
    const hit = findBySlug(view.index.subjects, c.pattern);
    if (hit !== undefined && !view.disabled.has(hit.slug)) {
      plan.patterns.push(c);
      return;
    }
    scan = near.mayScan();
    const rescue = near.rescue(c.pattern, scan) ?? (await near.byName(c.pattern));
    if (rescue?.kind === 'slug') {
      plan.patterns.push({ kind: 'exact', pattern: rescue.slug, raw: rescue.slug });
      plan.fallbacks.push({ ...rescue, kind: 'read-as', pattern: c.raw });
      return;
    }
    if (rescue?.kind === 'folder') {
      plan.fallbacks.push({ ...rescue, pattern: c.raw });
      return;
    }
  } else if (c.kind === 'glob' && (await globWithoutExtension(near, c, plan))) {
    return;
  } else if (!maySplit || (jsonList(c.pattern) ?? splitList(c.pattern)) === undefined || !near.mayScan() || resolvePatterns(view.index.subjects, [c], view.disabled).perPattern[0].slugs.length > 0) {
    // A glob: only a list in one string is rescued (finding out whether it
    // matches is a scan); the rest is resolve.ts's (which counts the
    // hidden subjects a miss skipped).
    plan.patterns.push(c);
    return;
  }
  const json = maySplit ? jsonList(c.pattern) : undefined;
  const parts = json ?? (maySplit ? splitList(c.pattern) : undefined);
  if (parts !== undefined) {
    plan.fallbacks.push({ kind: 'split', pattern: c.raw, parts, ...(json !== undefined ? { json: true as const } : {}) });
    for (const part of await compilePatterns(parts)) await planOne(near, part, plan, false);
    return;
  }
  plan.patterns.push(c);
  if (c.kind === 'exact' && scan) {
    const suggestions = near.suggest(c.pattern);
    if (suggestions.length > 0) plan.hints.set(c.raw, { suggestions });
  }
}

/** A glob that ends in a file's extension (`main/*.org`, `docs/**` then
 *  `/*.md`) and matches nothing, read without it (slugs have no
 *  extension; rule 1's reading of an exact name, for a glob): the subjects
 *  it then matches whose files have that extension, as the glob without it
 *  when they are all it matches, else each by its slug. Planned, with its
 *  fallback; false when none has it (a scan of the slugs, counted as a
 *  miss's: MAX_SCANNED_MISSES). */
async function globWithoutExtension(near: Near, c: CompiledPattern, plan: Plan): Promise<boolean> {
  const m = /^(.*[^/.])\.([A-Za-z0-9]{1,10})$/.exec(c.pattern);
  if (m === null || !near.mayScan()) return false;
  const { view } = near;
  const slugsOf = (p: CompiledPattern) => resolvePatterns(view.index.subjects, [p], view.disabled).perPattern[0].slugs;
  if (slugsOf(c).length > 0) return false;
  const [bare] = await compilePatterns([m[1]]);
  if (bare.kind === 'invalid') return false;
  const all = slugsOf(bare);
  const ext = m[2].toLowerCase();
  const mine = all.filter((slug) => findBySlug(view.index.subjects, slug)?.ext === ext);
  if (mine.length === 0) return false;
  if (mine.length === all.length) plan.patterns.push(bare);
  else for (const slug of mine) plan.patterns.push({ kind: 'exact', pattern: slug, raw: slug });
  plan.fallbacks.push({ kind: 'read-as', pattern: c.raw, slug: bare.pattern, reasons: ['extension'] });
  return true;
}

/** A wikilink's parts. */
export interface Wikilink {
  target: string;
  section?: string;
}

/** `[[target]]`, `[[target|shown]]`, `[[target#Heading]]`,
 *  `[[target#Heading|shown]]`, `![[target]]` (an embed): the target and
 *  the heading; and Org's links, `[[file:x.org][shown]]`,
 *  `[[file:x.org::*Heading]]` (the file, and the heading), and
 *  `[[id:UUID][shown]]` (org-roam's: the shown text, the note's title,
 *  names it); undefined for anything else. */
export function wikilink(pattern: string): Wikilink | undefined {
  const p = pattern.trim();
  const org = /^\[\[([^\[\]]+)\]\[([^\[\]]+)\]\]$/.exec(p);
  if (org !== null) return orgLink(org[1], org[2]);
  const m = /^!?\[\[([^\[\]]+)\]\]$/.exec(p);
  if (m === null) return undefined;
  if (m[1].startsWith('file:') || m[1].startsWith('id:')) return orgLink(m[1], undefined);
  const inner = m[1].split('|')[0];
  const hash = inner.indexOf('#');
  const target = (hash < 0 ? inner : inner.slice(0, hash)).trim();
  const section = hash < 0 ? undefined : inner.slice(hash + 1).replace(/^\^/, '').trim();
  if (target === '') return undefined;
  return section ? { target, section } : { target };
}

/** An Org link's target (`file:x.org::*Heading`, `id:UUID`, another
 *  note's name) and shown text. */
function orgLink(target: string, shown: string | undefined): Wikilink | undefined {
  let t = target.trim();
  if (t.startsWith('id:')) t = shown?.trim() ?? t;
  else if (t.startsWith('file:')) t = t.slice(5);
  const sep = t.indexOf('::');
  const section = sep < 0 ? undefined : t.slice(sep + 2).replace(/^[*#]/, '').trim();
  if (sep >= 0) t = t.slice(0, sep).trim();
  if (t === '') return undefined;
  return section ? { target: t, section } : { target: t };
}

/** A wikilink: its target as an exact name (rules 1-6, else suggestions
 *  for it), never as a glob. */
async function planLink(near: Near, c: CompiledPattern, link: Wikilink, plan: Plan): Promise<void> {
  const { view } = near;
  const target = link.target.replace(/^\.\//, '');
  const extra: Reason[] = ['wikilink'];
  const found = findBySlug(view.index.subjects, target);
  const scan = near.mayScan();
  const rescue: Rescue | undefined =
    found !== undefined && !view.disabled.has(found.slug)
      ? { kind: 'slug', slug: found.slug, reasons: [] }
      : near.rescue(target, scan) ?? (await near.byName(target));
  if (rescue?.kind === 'slug') {
    plan.patterns.push({ kind: 'exact', pattern: rescue.slug, raw: rescue.slug });
    plan.fallbacks.push({ ...rescue, kind: 'read-as', pattern: c.raw, reasons: [...extra, ...rescue.reasons], ...(link.section ? { section: link.section } : {}) });
    return;
  }
  if (rescue?.kind === 'folder') {
    plan.fallbacks.push({ ...rescue, pattern: c.raw });
    return;
  }
  // Nothing: a plain no-match for the link as written.
  plan.patterns.push({ kind: 'exact', pattern: target, raw: c.raw });
  if (scan) {
    const suggestions = near.suggest(target);
    if (suggestions.length > 0) plan.hints.set(c.raw, { suggestions });
  }
}

/**
 * `"a, b"` -> `["a", "b"]`: the parts of a list given as one string,
 * split at commas outside braces (`{a,b}` is a glob's), trimmed, quotes or
 * backticks around a part dropped, empty parts dropped (`"a,"` -> `["a"]`).
 * Undefined without such a comma, or when no part is left.
 */
export function splitList(pattern: string): string[] | undefined {
  const raw = splitOutsideBraces(pattern, ',');
  if (raw.length === 1) return undefined;
  const parts = raw.map((p) => unquote(p.trim())).filter((p) => p !== '');
  return parts.length > 0 ? parts : undefined;
}

/**
 * `'["a", "b"]'` -> `["a", "b"]`: a JSON array of strings held in one
 * string (what a client that cannot send an array sends for one), its
 * items trimmed, empty ones dropped. Undefined for anything else.
 */
export function jsonList(pattern: string): string[] | undefined {
  const text = pattern.trim();
  if (!text.startsWith('[') || !text.endsWith(']')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return undefined;
  const parts = (value as string[]).map((p) => p.trim()).filter((p) => p !== '');
  return parts.length > 0 ? parts : undefined;
}

function unquote(s: string): string {
  const q = s[0];
  return s.length >= 2 && (q === '"' || q === "'" || q === '`') && s[s.length - 1] === q ? s.slice(1, -1).trim() : s;
}

/**
 * The leading paths a pattern may repeat the topic's directory with,
 * longest first: `.jp/kb/skills` -> `.jp/kb/skills/`, `kb/skills/`,
 * `skills/`. None for the workspace root itself or an absolute path.
 */
export function directoryPrefixes(subjects: string | undefined): string[] {
  if (subjects === undefined || subjects.startsWith('/') || /^[A-Za-z]:[\\/]/.test(subjects)) return [];
  let parts = filter(subjects.split(/[\\/]/), (p) => p !== '' && p !== '.');
  const up = parts.lastIndexOf('..');
  if (up >= 0) parts = parts.slice(up + 1);
  return map(parts, (_, i) => `${parts.slice(i).join('/')}/`);
}

/** One way of reading a pattern as a slug. */
interface Reading {
  slug: string;
  /** The extension dropped, if one was. */
  ext?: string;
  reasons: Reason[];
  prefix?: string;
}

type Rescue = { kind: 'slug'; slug: string; reasons: Reason[]; prefix?: string } | { kind: 'folder'; folder: string; slugs: string[]; more: number; nested: boolean };

/** The near-miss rules over one view; the lower-cased slugs are computed
 *  once, on the first rule that needs them. */
class Near {
  readonly view: TopicView;
  readonly #prefixes: string[];
  #visible: { subject: Subject; lower: string }[] | undefined;
  #scansLeft = MAX_SCANNED_MISSES;
  #names: Map<string, { subject: Subject; reason: Reason } | null> | undefined;

  constructor(view: TopicView) {
    this.view = view;
    this.#prefixes = directoryPrefixes(view.topic.subjects);
  }

  /** Whether the next missing pattern may scan the topic (one of the
   *  first MAX_SCANNED_MISSES of the call). */
  mayScan(): boolean {
    if (this.#scansLeft === 0) return false;
    this.#scansLeft--;
    return true;
  }

  /** Visible, non-disabled subjects with their lower-cased slugs. */
  visible(): { subject: Subject; lower: string }[] {
    if (this.#visible === undefined) {
      const { disabled } = this.view;
      this.#visible = [];
      for (const s of this.view.index.subjects) if (!s.hidden && !disabled.has(s.slug)) this.#visible.push({ subject: s, lower: s.slug.normalize('NFC').toLowerCase() });
    }
    return this.#visible;
  }

  /** The readings of `pattern`: as written, then without a repeated
   *  directory; each also as a file path (extension and dots dropped). */
  readings(pattern: string): Reading[] {
    const trimmed = pattern.length > 1 && pattern.endsWith('/') ? trimEndChars(pattern, '/') : pattern;
    const slash: Reason[] = trimmed === pattern ? [] : ['slash'];
    const forms: Reading[] = [{ slug: trimmed, reasons: slash }];
    for (const prefix of this.#prefixes) {
      if (trimmed.startsWith(prefix) && trimmed.length > prefix.length) forms.push({ slug: trimmed.slice(prefix.length), reasons: ['prefix', ...slash], prefix });
    }
    // The other Unicode normalisation of each (a name saved decomposed).
    for (const f of [...forms]) {
      for (const form of ['NFC', 'NFD'] as const) {
        const other = f.slug.normalize(form);
        if (other !== f.slug && !forms.some((x) => x.slug === other)) forms.push({ ...f, slug: other, reasons: [...f.reasons, 'unicode'] });
      }
    }
    const out: Reading[] = [];
    for (const f of forms) {
      out.push(f);
      const d = describePath(f.slug);
      if (d.slug === f.slug || d.slug === '' || d.slug.endsWith('/')) continue;
      const reasons: Reason[] = [...f.reasons];
      if (d.ext !== '' || /\.$/.test(f.slug)) reasons.push('extension');
      if (d.hidden) reasons.push('dot');
      out.push({ ...f, slug: d.slug, ext: d.ext, reasons });
    }
    return out;
  }

  /** Rules 1-5 (see the top of this file; only rule 1 unless `scan`), or
   *  undefined. */
  rescue(pattern: string, scan: boolean): Rescue | undefined {
    const { view } = this;
    const readings = this.readings(pattern);
    const fits = (s: Subject, r: Reading): boolean => r.ext === undefined || r.ext === '' || s.ext === r.ext || DOCUMENT_EXTENSIONS.has(r.ext);
    const slug = (s: Subject, r: Reading, more: Reason[] = []): Rescue => ({ kind: 'slug', slug: s.slug, reasons: [...r.reasons, ...more], ...(r.prefix ? { prefix: r.prefix } : {}) });
    // 1. The path, spelled as a file.
    for (const r of readings) {
      if (r.slug === pattern) continue; // tried as written already
      const s = findBySlug(view.index.subjects, r.slug);
      if (s !== undefined && !view.disabled.has(s.slug) && fits(s, r)) return slug(s, r);
      // A skill's SKILL.md, by its path: the skill itself (`<dir>/SKILL`
      // is an alias of the file; the skill's slug is `<dir>`).
      const skill = skillOfFile(view, r);
      if (skill !== undefined) return { kind: 'slug', slug: skill.slug, reasons: [...r.reasons.filter((x) => x !== 'extension'), 'skill-file'], ...(r.prefix ? { prefix: r.prefix } : {}) };
    }
    // 1b. A folder with an index page: that page.
    for (const r of readings) {
      const page = r.ext === undefined && !r.reasons.includes('slash') ? this.indexPage(r.slug) : undefined;
      if (page !== undefined) return slug(page, r, ['index-page']);
    }
    if (!scan) return undefined;
    // 2. A folder.
    for (const r of readings) {
      if (r.ext !== undefined) continue;
      const folder = this.folder(r.slug);
      if (folder !== undefined) return folder;
    }
    // 3. One subject, case-insensitively (in one Unicode form).
    for (const r of readings) {
      const lower = r.slug.normalize('NFC').toLowerCase();
      const found = this.unique((v) => v.lower === lower && fits(v.subject, r));
      if (found !== undefined) return slug(found, r, ['case']);
    }
    // 4. One folder, case-insensitively.
    for (const r of readings) {
      if (r.ext !== undefined) continue;
      const lower = `${r.slug.normalize('NFC').toLowerCase()}/`;
      const depth = r.slug.split('/').length;
      const names = new Set<string>();
      for (const v of this.visible()) if (v.lower.startsWith(lower)) names.add(v.subject.slug.split('/').slice(0, depth).join('/'));
      if (names.size === 1) {
        const folder = this.folder([...names][0]);
        if (folder !== undefined) return folder;
      }
    }
    // 5. A bare file name.
    for (const r of readings) {
      if (r.slug.includes('/')) continue;
      const name = `/${r.slug}`;
      const exact = this.unique((v) => v.subject.slug.endsWith(name) && fits(v.subject, r));
      if (exact !== undefined) return slug(exact, r, ['file-name']);
      const lower = name.normalize('NFC').toLowerCase();
      const folded = this.unique((v) => v.lower.endsWith(lower) && fits(v.subject, r));
      if (folded !== undefined) return slug(folded, r, ['file-name', 'case']);
    }
    return undefined;
  }

  /** Rule 6: the one visible subject whose title or alias is `name`
   *  (compared loosely), or undefined. The names are gathered once per
   *  call, from the heads a listing probes. */
  async byName(name: string): Promise<Rescue | undefined> {
    const key = looseName(name);
    if (key === '') return undefined;
    if (this.#names === undefined) {
      const names = new Map<string, { subject: Subject; reason: Reason } | null>();
      const subjects = this.visible().map((v) => v.subject);
      probeUnknown(this.view, subjects);
      const texts = subjects.filter((s) => kindOf(this.view, s) === 'text');
      const about = await abouts(this.view, texts);
      const add = (n: string, subject: Subject, reason: Reason) => {
        const k = looseName(n);
        if (k === '') return;
        const had = names.get(k);
        if (had === undefined) names.set(k, { subject, reason });
        else if (had !== null && had.subject !== subject) names.set(k, null); // two subjects: neither
      };
      for (let i = 0; i < texts.length; i++) {
        const a = about[i];
        if (a.title !== undefined) add(a.title, texts[i], 'title');
        for (const alias of a.aliases ?? []) add(alias, texts[i], 'alias');
      }
      this.#names = names;
    }
    const hit = this.#names.get(key);
    if (hit == null) return undefined;
    return { kind: 'slug', slug: hit.subject.slug, reasons: [hit.reason] };
  }

  /** The one visible subject `test` accepts, or undefined (none, or several). */
  unique(test: (v: { subject: Subject; lower: string }) => boolean): Subject | undefined {
    let found: Subject | undefined;
    for (const v of this.visible()) {
      if (!test(v)) continue;
      if (found !== undefined) return undefined;
      found = v.subject;
    }
    return found;
  }

  /** The index page of the folder `name` (`name/_index`, `name/index`,
   *  `name/README`, in that order; order.ts), visible, not disabled and
   *  text, or undefined. Lookups, and the probe of the page found. */
  indexPage(name: string): Subject | undefined {
    if (name === '' || name.endsWith('/')) return undefined;
    for (const page of INDEX_PAGES) {
      const s = findBySlug(this.view.index.subjects, `${name}/${page}`);
      if (s !== undefined && !s.hidden && !this.view.disabled.has(s.slug) && kindOf(this.view, s) === 'text') return s;
    }
    return undefined;
  }

  /** `name` as a folder of listable subjects, or undefined. */
  folder(name: string): Rescue | undefined {
    if (name === '' || name.endsWith('/')) return undefined;
    const below = inSiteOrder(this.view, listableUnder(this.view, name), true);
    if (below.length === 0) return undefined;
    const depth = name.split('/').length + 1;
    const slugs = below.slice(0, MAX_FOLDER_LISTING).map((s) => s.slug);
    const nested = below.some((s) => s.slug.split('/').length > depth);
    return { kind: 'folder', folder: name, slugs, more: below.length - slugs.length, nested };
  }

  /**
   * Up to five visible, non-pre-loaded text subjects close to `pattern`,
   * best first: by edit distance of the whole slug, then of its last
   * component (from another folder), then slugs whose last component
   * contains the pattern's; ties in slug order. At most 3 edits, fewer for
   * short names (a third of the name's length, rounded down: none below 3
   * characters, where one edit is a different name).
   */
  suggest(pattern: string): string[] {
    const readings = this.readings(pattern);
    const q = readings[readings.length - 1].slug.toLowerCase();
    if (q.length === 0 || q.length > MAX_DISTANCE_INPUT) return [];
    const qBase = q.slice(q.lastIndexOf('/') + 1);
    const limit = Math.min(3, Math.floor(qBase.length / 3));
    const scored: { subject: Subject; score: number }[] = [];
    const { view } = this;
    for (const v of this.visible()) {
      const s = v.lower;
      let score = Infinity;
      if (Math.abs(s.length - q.length) <= limit) score = distance(q, s, limit);
      const base = s.slice(s.lastIndexOf('/') + 1);
      if (score > 0 && Math.abs(base.length - qBase.length) <= limit) score = Math.min(score, distance(qBase, base, limit) + 0.5);
      if (score === Infinity && qBase.length >= 4 && base.includes(qBase)) score = limit + 1;
      if (score !== Infinity) scored.push({ subject: v.subject, score });
    }
    scored.sort((a, b) => a.score - b.score || (a.subject.slug < b.subject.slug ? -1 : 1));
    const out: string[] = [];
    for (const { subject } of scored) {
      if (view.learnedSlugs.has(subject.slug) || kindOf(view, subject) !== 'text') continue;
      out.push(subject.slug);
      if (out.length === MAX_SUGGESTIONS) break;
    }
    return out;
  }
}

/** The skill whose SKILL.md `r` names as a file (`<dir>/SKILL` with
 *  the extension `md` dropped), or undefined. */
function skillOfFile(view: TopicView, r: Reading): Subject | undefined {
  if (r.ext !== 'md' || !r.slug.endsWith('/SKILL')) return undefined;
  const alias = view.index.aliases.get(r.slug);
  if (alias === undefined || view.disabled.has(alias.of) || view.disabled.has(r.slug)) return undefined;
  const skill = findBySlug(view.index.subjects, alias.of);
  return skill?.skill !== undefined ? skill : undefined;
}

/** The Levenshtein distance between `a` and `b` if it is at most `limit`,
 *  else Infinity. */
function distance(a: string, b: string, limit: number): number {
  const d = levenshtein(a, b, limit);
  return d <= limit ? d : Infinity;
}
