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

import { descriptionValue, loadYaml, NEEDS_YAML, parseFrontmatter, simpleFields } from '../content/frontmatter.ts';
import { informativeTitle, subjectTitle } from '../content/title.ts';
import type { ProbeResult } from '../fs/probe.ts';
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
  /** Frontmatter `source`: who wrote the subject (`kb remember` writes
   *  `user`, the MCP remember tool `model`). */
  readonly source?: string;
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

/** What `subjects` say about themselves, in order. Loads the YAML parser
 *  only when some frontmatter needs it. */
export async function abouts(view: TopicView, subjects: readonly Subject[]): Promise<About[]> {
  const out: About[] = new Array(subjects.length);
  let pending: { i: number; front: string; r: ProbeResult }[] | undefined;
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[i];
    // Most subjects have neither frontmatter nor a title: one lookup each.
    const r = view.probed.get(s.slug) ?? probed(view, s);
    if (r === undefined || (r.front == null && r.title === undefined && r.summary === undefined)) {
      out[i] = NOTHING;
      continue;
    }
    const seen = known.get(r);
    if (seen !== undefined) {
      out[i] = seen;
      continue;
    }
    if (typeof r.front !== 'string') {
      known.set(r, (out[i] = aboutOf(undefined, r)));
      continue;
    }
    const fields = simpleFields(r.front);
    if (fields === NEEDS_YAML) {
      (pending ??= []).push({ i, front: r.front, r });
      continue;
    }
    known.set(r, (out[i] = aboutOf(fields, r)));
  }
  if (pending !== undefined) {
    const lib = await loadYaml();
    for (const { i, front, r } of pending) {
      const parsed = parseFrontmatter(front, lib);
      known.set(r, (out[i] = aboutOf(parsed.ok ? parsed.data : undefined, r)));
    }
  }
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
  const aliases = aliasesOf(fields?.aliases);
  const source = typeof fields?.source === 'string' ? fields.source : undefined;
  if (description === undefined && title === undefined && r.summary === undefined && aliases === undefined && source === undefined) return NOTHING;
  return {
    ...(source !== undefined ? { source } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(r.summary !== undefined ? { summary: r.summary } : {}),
    ...(aliases !== undefined ? { aliases } : {}),
  };
}

function aliasesOf(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const list = (typeof v === 'string' ? [v] : Array.isArray(v) ? v : []).filter((a): a is string => typeof a === 'string' && a.trim() !== '');
  return list.length > 0 ? list.map((a) => a.trim()) : undefined;
}

/** What a listing shows on each subject's line, in order (undefined:
 *  nothing): its description, else its man-page summary, else its title
 *  where the title says more than the slug. */
export async function descriptions(view: TopicView, subjects: readonly Subject[]): Promise<(string | undefined)[]> {
  const all = await abouts(view, subjects);
  return all.map((a, i) => (a === NOTHING ? undefined : a.description ?? a.summary ?? informativeTitle(a.title, subjects[i].slug)));
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
