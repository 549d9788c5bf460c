// What subjects say about themselves, read from the head the probe already
// read (no extra read): the `description`, `title`, `name` and `aliases`
// fields of their YAML frontmatter, and the title and man-page summary of
// their own format (content/title.ts has the rules). A skill's are its
// SKILL.md's. Each subject is described once per probe of its file.
//
// A listing shows, on a subject's line, its description; else its man-page
// summary; else its title where the title says more than the slug
// (`descriptions`). `summaries` is what a subject says it is, for a reader
// who sees only one line about it (an MCP resource): its description, else
// its man-page summary, else its title where it says more than the slug.

import { descriptionValue, keptFields, loadYaml, NEEDS_YAML, parseFrontmatter, simpleFields, timeValue, type KeptFields, type YamlModule } from '../content/frontmatter.ts';
import { informativeTitle, subjectTitle } from '../content/title.ts';
import type { ProbeResult } from '../fs/probe.ts';
import { probeHere } from '../fs/probe-titles.ts';
import { filter, map } from '../../shared/arrays.ts';
import type { Subject } from './types.ts';
import { kindOf, type TopicView } from './view.ts';

/** What a subject says about itself. */
export interface About {
  /** Frontmatter `description`. */
  readonly description?: string;
  /** Frontmatter `title`, else `name`, else the document's own title. */
  readonly title?: string;
  /** A man page's NAME summary. */
  readonly summary?: string;
  /** Frontmatter `aliases` (a list of strings, or one string). */
  readonly aliases?: readonly string[];
  /** Frontmatter `tags` (a list of strings, or one string), as `kb
   *  remember` writes them. */
  readonly tags?: readonly string[];
  /** Frontmatter `source`: who wrote the subject (`kb remember` writes
   *  `user`, the MCP remember tool `model`). */
  readonly source?: string;
  /** Frontmatter `created` and `updated` (content/frontmatter.ts
   *  `timeValue`): kb writes both. */
  readonly created?: string;
  readonly updated?: string;
}

const NOTHING: About = Object.freeze({});

/** What subjects say, by probe result: a result is kept as long as its
 *  file is unchanged (within a view, or between the requests of `kb mcp`
 *  while the topic is watched: kb/index/cache.ts), and a changed file is
 *  probed again into a new result. */
const known = new WeakMap<ProbeResult, About>();

/** The probe's result for a subject (probing it if needed). */
export function probed(view: TopicView, subject: Subject): ProbeResult | undefined {
  kindOf(view, subject);
  return view.probed.get(subject.slug);
}

/** Not known without the YAML parser (`aboutHere`). */
const NEEDS_PARSER = Symbol('needs the YAML parser');
/** Not known without probing the file again: its head was not searched
 *  for a title (ProbeResult.titlesSkipped). */
const NEEDS_PROBE = Symbol('needs a probe');

/** What subject `s` says, as far as it is known without the YAML parser
 *  (NEEDS_PARSER: its frontmatter needs it) or another probe
 *  (NEEDS_PROBE). */
function aboutHere(view: TopicView, s: Subject): About | typeof NEEDS_PARSER | typeof NEEDS_PROBE {
  // Most subjects have neither frontmatter nor a title: one lookup each.
  const r = view.probed.get(s.slug) ?? probed(view, s);
  if (r === undefined) return NOTHING;
  if (r.titlesSkipped) return NEEDS_PROBE;
  return aboutOfResult(r);
}

/** What a text file's probe result says, as far as it is known without
 *  the YAML parser. */
function aboutOfResult(r: ProbeResult): About | typeof NEEDS_PARSER {
  if (r.front == null && r.title === undefined && r.summary === undefined) return NOTHING;
  const seen = known.get(r);
  if (seen !== undefined) return seen;
  let about: About;
  if (typeof r.front !== 'string') about = aboutOf(undefined, r);
  else {
    const fields = simpleFields(r.front);
    if (fields === NEEDS_YAML) return NEEDS_PARSER;
    about = aboutOf(fields, r);
  }
  known.set(r, about);
  return about;
}

/** Whether a listing would show something on the line of subject `slug`
 *  by what its probe result `r` alone says (false where that is not known
 *  without the YAML parser or another probe). */
export function resultDescribes(r: ProbeResult, slug: string): boolean {
  if (r.kind !== 'text' || r.titlesSkipped) return false;
  const a = aboutOfResult(r);
  return a !== NEEDS_PARSER && a !== NOTHING && lineOf(a, slug) !== undefined;
}

/** What a text file whose probe result (kb/fs/probe.ts `probeBytes`) is
 *  `r` says about itself, for a caller holding the file's bytes (kb
 *  export); undefined when its frontmatter needs the YAML parser and `lib`
 *  is not given. */
export function aboutOfProbe(r: ProbeResult, lib?: YamlModule): About | undefined {
  if (r.kind !== 'text') return NOTHING;
  const a = aboutOfResult(r);
  if (a !== NEEDS_PARSER) return a;
  if (lib === undefined) return undefined;
  const parsed = parseFrontmatter(r.front as string, lib);
  const about = aboutOf(parsed.ok ? parsed.data : undefined, r);
  known.set(r, about);
  return about;
}

/** What subject `s` says, its frontmatter parsed by `lib`. */
function aboutParsed(view: TopicView, s: Subject, lib: YamlModule): About {
  const r = view.probed.get(s.slug)!;
  const front = r.front as string;
  const parsed = parseFrontmatter(front, lib);
  view.fronts?.set(front, parsed.ok ? keptFields(parsed.data) : null);
  const about = aboutOf(parsed.ok ? parsed.data : undefined, r);
  known.set(r, about);
  return about;
}

/** What a subject whose kept frontmatter gave `fields` (null: refused)
 *  says (kb/fs/front-cache.ts): read as the parser's fields are, of which
 *  only the DESCRIBING ones are ever read (tests/unit/kb/front-cache.test.ts
 *  compares the two on random frontmatter). */
function aboutKept(r: ProbeResult, fields: KeptFields | null): About {
  const about = aboutOf(fields ?? undefined, r);
  known.set(r, about);
  return about;
}

/** Probes the files of `subjects` at `at` again, their heads searched
 *  for titles, all at once. */
function probeAgain(view: TopicView, subjects: readonly Subject[], at: readonly number[]): void {
  // A view whose probe searches no head for a title (fs/probe.ts
  // `probeKinds`) is asked for them by the main thread's probe that does.
  const probe = view.probe.titles === false ? probeHere : view.probe;
  const results = probe.probe(at.map((i) => subjects[i].abs));
  for (let k = 0; k < at.length; k++) view.probed.set(subjects[at[k]].slug, results[k]);
}

/** Hands `visit` what each of `subjects` says about itself (NOTHING for
 *  none), by index, until `visit` returns true (then returns true): first
 *  those known without the YAML parser, then those probed again for their
 *  titles, then, loading the parser only then, those whose frontmatter
 *  needs it. */
async function eachAbout(view: TopicView, subjects: readonly Subject[], visit: (i: number, a: About) => boolean): Promise<boolean> {
  let pending: number[] | undefined;
  let again: number[] | undefined;
  for (let i = 0; i < subjects.length; i++) {
    const a = aboutHere(view, subjects[i]);
    if (a === NEEDS_PARSER) (pending ??= []).push(i);
    else if (a === NEEDS_PROBE) (again ??= []).push(i);
    else if (visit(i, a)) return true;
  }
  if (again !== undefined) {
    probeAgain(view, subjects, again);
    for (const i of again) {
      const a = aboutHere(view, subjects[i]);
      if (a === NEEDS_PARSER) (pending ??= []).push(i);
      else if (visit(i, a === NEEDS_PROBE ? NOTHING : a)) return true;
    }
  }
  if (pending === undefined) return false;
  // Kept fields first (by the frontmatter's text); the parser is loaded
  // only for one that is not kept.
  const fronts = view.fronts;
  let lib: YamlModule | undefined;
  try {
    for (const i of pending) {
      const r = view.probed.get(subjects[i].slug)!;
      const kept = fronts?.get(r.front as string);
      if (kept !== undefined ? visit(i, aboutKept(r, kept)) : visit(i, aboutParsed(view, subjects[i], (lib ??= await loadYaml())))) return true;
    }
    return false;
  } finally {
    fronts?.save();
  }
}

/** What `subjects` say about themselves, in order. Loads the YAML parser
 *  only when some frontmatter needs it. */
export async function abouts(view: TopicView, subjects: readonly Subject[]): Promise<About[]> {
  const out: About[] = new Array(subjects.length);
  await eachAbout(view, subjects, (i, a) => {
    out[i] = a;
    return false;
  });
  return out;
}

function aboutOf(fields: Record<string, unknown> | undefined, r: ProbeResult): About {
  // No frontmatter (most titled subjects): the document's title and
  // summary alone, one object.
  if (fields === undefined) {
    if (r.title === undefined && r.summary === undefined) return NOTHING;
    const a: { title?: string; summary?: string } = {};
    if (r.title !== undefined) a.title = r.title;
    if (r.summary !== undefined) a.summary = r.summary;
    return a;
  }
  const description = descriptionValue(fields?.description);
  const title = subjectTitle(fields, r.title);
  const aliases = stringsOf(fields?.aliases);
  const tags = stringsOf(fields?.tags);
  const source = typeof fields?.source === 'string' ? fields.source : undefined;
  const created = timeValue(fields?.created);
  const updated = timeValue(fields?.updated);
  if (description === undefined && title === undefined && r.summary === undefined && aliases === undefined && tags === undefined && source === undefined && created === undefined && updated === undefined) return NOTHING;
  return {
    ...(source !== undefined ? { source } : {}),
    ...(created !== undefined ? { created } : {}),
    ...(updated !== undefined ? { updated } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(r.summary !== undefined ? { summary: r.summary } : {}),
    ...(aliases !== undefined ? { aliases } : {}),
    ...(tags !== undefined ? { tags } : {}),
  };
}

/** A frontmatter list of names (`aliases`, `tags`): its non-blank
 *  strings, trimmed; one string is a list of one. */
function stringsOf(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const list = filter(typeof v === 'string' ? [v] : Array.isArray(v) ? (v as unknown[]) : [], (a): a is string => typeof a === 'string' && a.trim() !== '');
  return list.length > 0 ? map(list, (a) => a.trim()) : undefined;
}

/** Whether the view's walk knows that none of `subjects` (visible ones:
 *  the walk probed each) says anything about itself (TopicView.walkedPlain):
 *  then none is asked, a pass over thousands of subjects saved. */
function saysNothing(view: TopicView, subjects: readonly Subject[]): boolean {
  if (view.walkedPlain !== true) return false;
  for (let i = 0; i < subjects.length; i++) if (subjects[i].hidden) return false;
  return true;
}

/** What a listing shows on each subject's line, in order (undefined:
 *  nothing): its description, else its man-page summary, else its title
 *  where the title says more than the slug. */
export async function descriptions(view: TopicView, subjects: readonly Subject[]): Promise<(string | undefined)[]> {
  if (saysNothing(view, subjects)) return new Array<string | undefined>(subjects.length).fill(undefined);
  const all = await abouts(view, subjects);
  return map(all, (a, i) => (a === NOTHING ? undefined : lineOf(a, subjects[i].slug)));
}

/** Whether a listing would show something on the line of any of
 *  `subjects` (`descriptions`): stops at the first that has something,
 *  and loads the YAML parser only when no subject without it has. A
 *  listing whose names alone are over its budget shows no description but
 *  says that it left them out. */
export async function describedAny(view: TopicView, subjects: readonly Subject[]): Promise<boolean> {
  if (saysNothing(view, subjects)) return false;
  return eachAbout(view, subjects, (i, a) => a !== NOTHING && lineOf(a, subjects[i].slug) !== undefined);
}

/** When each of `subjects` was written, as its frontmatter says (`{}`
 *  for none), in order. */
export async function timesOf(view: TopicView, subjects: readonly Subject[]): Promise<{ created?: string; updated?: string }[]> {
  if (saysNothing(view, subjects)) return subjects.map(() => ({}));
  return (await abouts(view, subjects)).map((a) => ({ ...(a.created !== undefined ? { created: a.created } : {}), ...(a.updated !== undefined ? { updated: a.updated } : {}) }));
}

/** What a listing shows on the line of a subject that says `a`. */
function lineOf(a: About, slug: string): string | undefined {
  return a.description ?? a.summary ?? informativeTitle(a.title, slug);
}

/** The titles of `subjects`, in order (undefined: none): frontmatter
 *  `title`, else `name`, else the document's own (content/title.ts). */
export async function titles(view: TopicView, subjects: readonly Subject[]): Promise<(string | undefined)[]> {
  return (await abouts(view, subjects)).map((a) => a.title);
}

/** What each of `subjects` says it is, in order: its description, else its
 *  man-page summary, else its title (undefined: none of them). The text as
 *  written: the caller bounds and escapes it. */
export async function summaries(view: TopicView, subjects: readonly Subject[]): Promise<(string | undefined)[]> {
  return (await abouts(view, subjects)).map((a, i) => a.description ?? a.summary ?? informativeTitle(a.title, subjects[i].slug));
}
