// Where a new subject may go (docs/guide/search-and-memory.md, "Remembering"): inside the topic's
// subjects directory (symbolic links resolved: a directory whose real
// location leaves the topic is refused), never hidden (no component
// starting with `.`), never ignored (`.gitignore`, `.kbignore` and the
// built-in defaults, exactly as the walk applies them), never inside an
// Agent Skill's folder (the file would be a bundled file, never listed).

import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { realpathSteady } from '../../shared/realpath.ts';
import { isAbsolute, relative, sep } from 'node:path';
import { IgnoreRules } from '../fs/ignore.ts';
import { isInside } from './dir.ts';
import { reservedName } from './given.ts';

export type Placement = { ok: true; real: string; dirs: string[] } | { ok: false; why: string };

/** Where a topic's subjects directory leads when that is outside the
 *  workspace: the link on the way that leads out (relative to the
 *  workspace root), what it points at, and the real location. */
export interface Outside {
  link?: string;
  to?: string;
  real: string;
}

/**
 * Whether the subjects directory `subjectsDir` really is inside the
 * workspace `root` (symbolic links resolved, the root's own too):
 * undefined when it is (or cannot be resolved: then opening it says why),
 * else where it leads.
 */
export function outsideWorkspace(root: string, subjectsDir: string): Outside | undefined {
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSteady(root);
    real = realpathSteady(subjectsDir);
  } catch {
    return undefined;
  }
  if (isInside(realRoot, real)) return undefined;
  // The first link on the way that leads out.
  const rel = relative(root, subjectsDir);
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) {
    const parts = rel.split(sep);
    for (let i = 1; i <= parts.length; i++) {
      const at = `${root}${sep}${parts.slice(0, i).join(sep)}`;
      try {
        if (!lstatSync(at).isSymbolicLink()) continue;
        const to = realpathSteady(at);
        if (!isInside(realRoot, to)) return { link: parts.slice(0, i).join('/'), to: readlinkSync(at), real };
      } catch {
        break;
      }
    }
  }
  return { real };
}

/**
 * Checks `rel` (a `/`-separated file path below the subjects directory)
 * and returns the real path of the subjects directory and the directories
 * to create (relative, in order). Directories that exist must be real
 * directories inside the topic.
 */
export function placeNew(subjectsDir: string, rel: string): Placement {
  let root: string;
  try {
    root = realpathSteady(subjectsDir);
  } catch (err) {
    return { ok: false, why: `the subjects directory cannot be used (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
  const parts = rel.split('/');
  const rules = new IgnoreRules();
  const dirs: string[] = [];
  let abs = root;
  let relDir = '';
  let parentRel: string | null = null;
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i];
    const last = i === parts.length - 1;
    if (name.startsWith('.')) return { ok: false, why: `"${name}" is hidden` };
    const reserved = last ? reservedName(name) : undefined;
    if (reserved !== undefined) return { ok: false, why: reserved };
    let entries: { name: string }[] = [];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      // A directory to be created: no entries, no control files.
    }
    rules.enter(abs, relDir, parentRel, entries, sep);
    if (entries.some((e) => e.name === 'SKILL.md')) return { ok: false, why: `"${relDir}" is an Agent Skill's folder; its files are bundled with the skill, never listed` };
    if (rules.skip(relDir, name, !last)) {
      const r = rules.ignored[rules.ignored.length - 1];
      return { ok: false, why: `"${(relDir === '' ? '' : `${relDir}/`) + name}" is ignored (${r.source === 'built-in' ? 'built-in rule' : r.source}: ${r.rule})` };
    }
    const next = abs + sep + name;
    if (!last) {
      let st;
      try {
        st = lstatSync(next);
      } catch {
        st = undefined;
      }
      if (st === undefined) dirs.push(relDir === '' ? name : `${relDir}/${name}`);
      else if (st.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSteady(next);
        } catch {
          return { ok: false, why: `"${name}" is a broken symbolic link` };
        }
        if (!isInside(root, real)) return { ok: false, why: `"${name}" leads outside the topic's directory` };
      } else if (!st.isDirectory()) return { ok: false, why: `"${name}" is not a directory` };
    }
    parentRel = relDir;
    relDir = relDir === '' ? name : `${relDir}/${name}`;
    abs = next;
  }
  return { ok: true, real: root, dirs };
}
