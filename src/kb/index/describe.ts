// Subjects' descriptions: the `description` field of their YAML
// frontmatter, read from the head the probe already read (no extra read).
// A skill's description is its SKILL.md's. Each subject's frontmatter is
// read once per view.
//
// `summaries` is what a subject says it is, for a reader who sees only one
// line about it (an MCP resource): its description, else its frontmatter
// `title`, else its `name`.

import { descriptionValue, loadYaml, NEEDS_YAML, parseFrontmatter, simpleFields } from '../content/frontmatter.ts';
import type { ProbeResult } from '../fs/probe.ts';
import type { Subject } from './types.ts';
import { kindOf, type TopicView } from './view.ts';

/** A subject's frontmatter fields (undefined: none, or not readable). */
type Fields = Readonly<Record<string, unknown>> | undefined;

const cache = new WeakMap<TopicView, Map<string, Fields>>();

/** The probe's result for a subject (probing it if needed). */
export function probed(view: TopicView, subject: Subject): ProbeResult | undefined {
  kindOf(view, subject);
  return view.probed.get(subject.slug);
}

/** The frontmatter fields of `subjects`, in order. Loads the YAML parser
 *  only when some frontmatter needs it. */
export async function frontFields(view: TopicView, subjects: readonly Subject[]): Promise<Fields[]> {
  let known = cache.get(view);
  if (known === undefined) cache.set(view, (known = new Map()));
  const out: Fields[] = new Array(subjects.length);
  let pending: { i: number; slug: string; front: string }[] | undefined;
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[i];
    // Most subjects have no frontmatter: one lookup each.
    const front = (view.probed.get(s.slug) ?? probed(view, s))?.front;
    if (typeof front !== 'string') continue;
    if (known.has(s.slug)) {
      out[i] = known.get(s.slug);
      continue;
    }
    const fields = simpleFields(front);
    if (fields === NEEDS_YAML) {
      (pending ??= []).push({ i, slug: s.slug, front });
      continue;
    }
    known.set(s.slug, (out[i] = fields));
  }
  if (pending !== undefined) {
    const lib = await loadYaml();
    for (const { i, slug, front } of pending) {
      const parsed = parseFrontmatter(front, lib);
      known.set(slug, (out[i] = parsed.ok ? parsed.data : undefined));
    }
  }
  return out;
}

/** The descriptions of `subjects`, in order (undefined: none). */
export async function descriptions(view: TopicView, subjects: readonly Subject[]): Promise<(string | undefined)[]> {
  return (await frontFields(view, subjects)).map((f) => (f === undefined ? undefined : descriptionValue(f.description)));
}

/** What each of `subjects` says it is, in order: its description, else its
 *  frontmatter `title`, else its `name` (undefined: none of them). The
 *  text as written: the caller bounds and escapes it. */
export async function summaries(view: TopicView, subjects: readonly Subject[]): Promise<(string | undefined)[]> {
  return (await frontFields(view, subjects)).map((f) => (f === undefined ? undefined : (descriptionValue(f.description) ?? descriptionValue(f.title) ?? descriptionValue(f.name))));
}
