// Subjects' descriptions: the `description` field of their YAML
// frontmatter, read from the head the probe already read (no extra read).
// A skill's description is its SKILL.md's. Each subject is described once
// per probe of its file.

import { descriptionValue, loadYaml, NEEDS_YAML, parseFrontmatter, simpleFields } from '../content/frontmatter.ts';
import type { ProbeResult } from '../fs/probe.ts';
import type { Subject } from './types.ts';
import { kindOf, type TopicView } from './view.ts';

/** Descriptions by probe result: a result is kept as long as its file is
 *  unchanged (within a view, or between the requests of `kb mcp` while the
 *  topic is watched: kb/index/cache.ts), and a changed file is probed
 *  again into a new result. */
const known = new WeakMap<ProbeResult, string | undefined>();

/** The probe's result for a subject (probing it if needed). */
export function probed(view: TopicView, subject: Subject): ProbeResult | undefined {
  kindOf(view, subject);
  return view.probed.get(subject.slug);
}

/** The descriptions of `subjects`, in order (undefined: none). Loads the
 *  YAML parser only when some frontmatter needs it. */
export async function descriptions(view: TopicView, subjects: readonly Subject[]): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = new Array(subjects.length);
  let pending: { i: number; result: ProbeResult; front: string }[] | undefined;
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[i];
    // Most subjects have no frontmatter: one lookup each.
    const result = view.probed.get(s.slug) ?? probed(view, s);
    const front = result?.front;
    if (typeof front !== 'string') continue;
    if (known.has(result!)) {
      out[i] = known.get(result!);
      continue;
    }
    const fields = simpleFields(front);
    if (fields === NEEDS_YAML) {
      (pending ??= []).push({ i, result: result!, front });
      continue;
    }
    known.set(result!, (out[i] = descriptionValue(fields.description)));
  }
  if (pending !== undefined) {
    const lib = await loadYaml();
    for (const { i, result, front } of pending) {
      const parsed = parseFrontmatter(front, lib);
      known.set(result, (out[i] = parsed.ok ? descriptionValue(parsed.data.description) : undefined));
    }
  }
  return out;
}
