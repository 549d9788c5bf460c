// Subjects' descriptions: the `description` field of their YAML
// frontmatter, read from the head the probe already read (no extra read).
// A skill's description is its SKILL.md's. Each subject is described once
// per view.

import { descriptionValue, loadYaml, NEEDS_YAML, parseFrontmatter, simpleFields } from '../content/frontmatter.ts';
import type { ProbeResult } from '../fs/probe.ts';
import type { Subject } from './types.ts';
import { kindOf, type TopicView } from './view.ts';

const cache = new WeakMap<TopicView, Map<string, string | undefined>>();

/** The probe's result for a subject (probing it if needed). */
export function probed(view: TopicView, subject: Subject): ProbeResult | undefined {
  kindOf(view, subject);
  return view.probed.get(subject.slug);
}

/** The descriptions of `subjects`, in order (undefined: none). Loads the
 *  YAML parser only when some frontmatter needs it. */
export async function descriptions(view: TopicView, subjects: readonly Subject[]): Promise<(string | undefined)[]> {
  let known = cache.get(view);
  if (known === undefined) cache.set(view, (known = new Map()));
  const out: (string | undefined)[] = new Array(subjects.length);
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
    known.set(s.slug, (out[i] = descriptionValue(fields.description)));
  }
  if (pending !== undefined) {
    const lib = await loadYaml();
    for (const { i, slug, front } of pending) {
      const parsed = parseFrontmatter(front, lib);
      known.set(slug, (out[i] = parsed.ok ? descriptionValue(parsed.data.description) : undefined));
    }
  }
  return out;
}
