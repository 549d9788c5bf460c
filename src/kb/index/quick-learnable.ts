// Whether a topic has something left to learn, told from the top of its
// folder when that can be told for sure: `kb schema` asks only this of
// each topic (the learn tool's description names the topics that have a
// subject to learn), and walking every folder of a large topic to answer
// it took 60-70 ms of a 10,000-file topic's `kb schema` (a one-file
// topic's walk and index about 0.6 ms of its 17).
//
// `true` only where the full view says so too (listing.ts `hasLearnable`):
// the walk and the index would make a learnable subject of
// - a file at the top of the folder, or
// - the SKILL.md of the first folder the walk enters (a skill: the folder
//   is its subject), as in a collection of Agent Skills,
// whatever else the topic holds. The ignore rules are the walk's own
// (fs/ignore.ts `IgnoreRules`, on the same entries in the same order).
// Anything less plain is left to the full view (`undefined`), which gives
// the same answer more slowly:
// - a topic with `learned` patterns (one may pre-load the file);
// - a folder the walk would not read whole (more entries than it reads),
//   or that cannot be read;
// - a file whose slug another entry of its folder could also take (a file
//   of the same stem, a folder of that name made a skill by its SKILL.md),
//   which the index gives to one of them;
// - a hidden file or folder (a leading `.`), a name the index leaves out
//   (control characters, undecodable bytes, too long), a link or an entry
//   of no reported type, a disabled slug;
// - a file the probe does not find text (binary, unreadable).
// At most two folders are read (one `readdir` each) and a few files
// probed, as the full view probes them. The module loads none of the walk
// and none of the ignore rules' matcher: `kb schema` loads them only when
// this cannot answer (app/knowledge-base.ts `settleLearnable`), and the
// rules only for a folder that has an ignore file (`RULES`, asked for).

import { readdirSync, type Dirent } from 'node:fs';
import { resolve, sep } from 'node:path';
import { byName } from '../../shared/arrays.ts';
import { SUSPECT_NAME } from '../../shared/controls.ts';
import { MAX_PATTERN_LENGTH } from '../../shared/pattern-length.ts';
import { hasControlFile, isDefaultIgnored, isKbOwn } from '../fs/ignore-names.ts';
import type { IgnoreRules } from '../fs/ignore.ts';
import type { Probe } from '../fs/probe.ts';
import { SKILL_FILE, slugOf, slugPrefixOf } from './slug.ts';

/** Files probed at most before the full view is left to answer. */
const MAX_PROBED = 4;

/** What the check needs of a topic. */
export interface QuickTopic {
  /** Absolute path of the subjects folder. */
  readonly subjectsDir: string;
  /** Exact slugs the topic disables. */
  readonly disabled: readonly string[];
  /** The topic's `learned` patterns, as configured. */
  readonly learned: readonly string[];
}

/** The answer when a folder it reads has an ignore file and no `rules`
 *  were given: ask again with them. */
export const RULES = 'rules';

/**
 * true: the topic surely has a learnable subject; undefined: the full view
 * must tell; RULES: a folder holds an ignore file, and `rules` (the walk's
 * IgnoreRules, fs/ignore.ts) are needed to tell. Never throws.
 */
export function quickLearnable(topic: QuickTopic, probe: Probe, maxEntries: number, rules?: new () => IgnoreRules): true | typeof RULES | undefined {
  if (topic.learned.length > 0) return undefined;
  // The folder as the walk reads it (fs/walk.ts `openRoot`, `readDir`).
  const dir = resolve(topic.subjectsDir);
  const entries = entriesOf(dir);
  if (entries === undefined || entries.length > maxEntries) return undefined;
  let r: IgnoreRules | undefined;
  if (hasControlFile(entries)) {
    if (rules === undefined) return RULES;
    r = new rules();
    r.enter(dir, '', null, entries, sep);
  }
  // The walk's verdict on an entry of folder `rel` ('' the top).
  const skipped = (rel: string, name: string, isDir: boolean) => (r !== undefined ? r.skip(rel, name, isDir) : isKbOwn(name, isDir) || isDefaultIgnored(name, isDir));
  const takers = slugTakers(entries);
  const usable = (name: string, slug: string) => takers.get(slug) === 1 && name.charCodeAt(0) !== 46 && slug.length <= MAX_PATTERN_LENGTH && !SUSPECT_NAME().test(name) && !topic.disabled.includes(slug);
  let probed = 0;
  for (const e of entries) {
    if (!e.isFile() || !usable(e.name, slugOf(e.name)) || skipped('', e.name, false)) continue;
    if (probed === MAX_PROBED) return undefined;
    probed++;
    if (isText(probe, dir + sep + e.name)) return true;
  }
  // The first folder the walk enters, if it is a skill.
  const first = entries.find((e) => !e.isFile());
  if (first === undefined || !first.isDirectory() || !usable(first.name, first.name) || skipped('', first.name, true)) return undefined;
  const abs = dir + sep + first.name;
  const inner = entriesOf(abs);
  if (inner === undefined || entries.length + inner.length > maxEntries) return undefined;
  if (hasControlFile(inner)) {
    if (rules === undefined) return RULES;
    if (r === undefined) {
      r = new rules();
      r.enter(dir, '', null, entries, sep);
    }
  }
  r?.enter(abs, first.name, '', inner, sep);
  const skill = inner.find((e) => e.name === SKILL_FILE);
  if (skill === undefined || !skill.isFile() || skipped(first.name, SKILL_FILE, false)) return undefined;
  return isText(probe, abs + sep + SKILL_FILE) ? true : undefined;
}

/** A folder's entries in the walk's order (`byName`), or undefined. */
function entriesOf(dir: string): Dirent[] | undefined {
  try {
    return byName(readdirSync(dir, { withFileTypes: true }));
  } catch {
    return undefined;
  }
}

/** How many entries of a folder could take each slug (index/slug.ts): a
 *  file its own, anything else that too and a folder's (a folder is a
 *  skill's slug when it holds SKILL.md). */
function slugTakers(entries: readonly Dirent[]): Map<string, number> {
  const takers = new Map<string, number>();
  const take = (slug: string) => takers.set(slug, (takers.get(slug) ?? 0) + 1);
  for (const e of entries) {
    const own = slugOf(e.name);
    take(own);
    const folder = slugPrefixOf(`${e.name}/`).slice(0, -1);
    if (!e.isFile() && folder !== own) take(folder);
  }
  return takers;
}

/** Whether the probe finds a file text, as the full view asks it. */
function isText(probe: Probe, path: string): boolean {
  return probe.probe([path])[0]?.kind === 'text';
}
