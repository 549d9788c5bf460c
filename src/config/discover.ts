// Where the workspace is and which configuration files apply to it.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { realpathSteady } from '../shared/realpath.ts';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../shared/errors.ts';

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** A workspace ID as JP writes it in `.jp/.id`: five of [0-9a-z]. */
const WORKSPACE_ID = /^[0-9a-z]{5}$/;

/** The workspace root: the nearest directory, from `workspace` (resolved
 *  against `cwd`) when given, else from `cwd`, upwards (itself included),
 *  holding a `.jp/` directory (JP's `Workspace::find_root`). As in JP,
 *  `-w` may also name a workspace by its ID when no such path exists: the
 *  workspace whose per-user directory (in `dataDir`) ends in that ID. */
export function findWorkspace(cwd: string, workspace?: string, dataDir?: string): string {
  let start = resolve(cwd);
  if (workspace !== undefined) {
    start = resolve(cwd, workspace);
    if (!exists(start)) {
      const byId = WORKSPACE_ID.test(workspace) && dataDir !== undefined ? workspaceById(dataDir, workspace) : undefined;
      if (byId === undefined) {
        throw new ConfigError(`no workspace found: ${start} does not exist${WORKSPACE_ID.test(workspace) ? ` and no workspace has the ID ${workspace}` : ''}`, '-w');
      }
      start = byId;
    }
  }
  for (let dir = start; ; dir = dirname(dir)) {
    if (isDirectory(join(dir, '.jp'))) return dir;
    if (dirname(dir) === dir) break;
  }
  const hint = workspace === undefined ? "; run 'kb init' to make this directory one, or pass -w DIR" : '';
  throw new ConfigError(`no workspace found: no .jp directory in ${start} or any parent${hint}`, workspace === undefined ? undefined : '-w');
}

function exists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** The per-user data directory (JP's `user_data_dir`): `JP_USER_DATA_DIR`
 *  when set and not empty, else `$XDG_DATA_HOME/jp` (when absolute), else
 *  `~/.local/share/jp`. */
export function userDataDir(env: Record<string, string | undefined>, home: string, cwd: string): string {
  if (env.JP_USER_DATA_DIR) return resolve(cwd, env.JP_USER_DATA_DIR);
  const xdg = env.XDG_DATA_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'jp');
  return join(home, '.local', 'share', 'jp');
}

/** The workspace's ID: the last line of `.jp/.id`, when it is one. */
export function workspaceId(root: string): string | undefined {
  let text: string;
  try {
    const path = join(root, '.jp', '.id');
    // A small regular file, or nothing (a link to a device is not read).
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > 4096) return undefined;
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const last = text.split(/\r?\n/).filter((l, i, all) => i < all.length - 1 || l !== '').pop()?.trim();
  return last !== undefined && WORKSPACE_ID.test(last) ? last : undefined;
}

/**
 * The workspace's per-user directory, `<dataDir>/workspace/<name>-<id>`
 * (jp_storage `resolve_user_dir`, `choose_canonical_user_dir`): among the
 * directories named `<id>` or ending in `-<id>`, the one named after the
 * workspace directory, else the one whose newest entry was modified last
 * (`dir_mtime`; ties: the greater name). Undefined when the workspace has no
 * ID or no such directory exists; kb never creates one (JP does).
 */
export function userWorkspaceDir(dataDir: string, root: string): string | undefined {
  const id = workspaceId(root);
  if (id === undefined) return undefined;
  const matches = userDirs(dataDir, id);
  const wanted = `${basename(root)}-${id}`;
  const exact = matches.find((d) => d.name === wanted);
  if (exact) return exact.path;
  if (matches.length <= 1) return matches[0]?.path;
  let best: { path: string; name: string; time: bigint } | undefined;
  for (const dir of matches) {
    const time = newestTime(dir.path);
    if (best === undefined || time > best.time || (time === best.time && compareUtf8(dir.name, best.name) > 0)) {
      best = { ...dir, time };
    }
  }
  return best?.path;
}

/** `a` and `b` compared as UTF-8 bytes (code point order: JP compares the
 *  names' bytes). */
function compareUtf8(a: string, b: string): number {
  const x = ENCODER.encode(a);
  const y = ENCODER.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

const ENCODER = new TextEncoder();

/** When a per-user directory was last used, as JP's `dir_mtime` reckons it:
 *  the newest modification time among its entries (links followed, entries
 *  that cannot be read passed over), else the directory's own, else 0. */
function newestTime(dir: string): bigint {
  let newest: bigint | undefined;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // No entries to read: the directory's own time.
  }
  for (const name of names) {
    try {
      const t = statSync(join(dir, name), { bigint: true }).mtimeNs;
      if (newest === undefined || t > newest) newest = t;
    } catch {
      // JP passes over an entry it cannot read.
    }
  }
  if (newest !== undefined) return newest;
  try {
    return statSync(dir, { bigint: true }).mtimeNs;
  } catch {
    return 0n;
  }
}

function userDirs(dataDir: string, id: string): { name: string; path: string; mtime: number }[] {
  const parent = join(dataDir, 'workspace');
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const out: { name: string; path: string; mtime: number }[] = [];
  for (const name of names) {
    if (name !== id && !name.endsWith(`-${id}`)) continue;
    const path = join(parent, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) out.push({ name, path, mtime: stat.mtimeMs });
  }
  return out;
}

/** `-w ID`: the workspace a per-user directory's `storage` link points to. */
function workspaceById(dataDir: string, id: string): string | undefined {
  for (const dir of userDirs(dataDir, id).sort((a, b) => b.mtime - a.mtime)) {
    try {
      return realpathSteady(join(dir.path, 'storage'));
    } catch {
      // No link: try the next.
    }
  }
  return undefined;
}

/** The user-global configuration directory: `JP_GLOBAL_CONFIG_DIR` (a
 *  leading `~` is the home directory), else `$XDG_CONFIG_HOME/jp` (when
 *  absolute, as the XDG spec requires), else `~/.config/jp`. */
export function globalConfigDir(env: Record<string, string | undefined>, home: string, cwd: string): string {
  const explicit = env.JP_GLOBAL_CONFIG_DIR;
  if (explicit) {
    const expanded = explicit === '~' || explicit.startsWith('~/') ? join(home, explicit.slice(1)) : explicit;
    return resolve(cwd, expanded);
  }
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'jp');
  return join(home, '.config', 'jp');
}

/** One configuration source (RFD 079 "Implicit loading"): its
 *  locations, each a path whose extension JP replaces in turn (files.ts
 *  `locateConfigFile`). */
export interface ConfigSource {
  name: 'user-global' | 'workspace' | 'directory' | 'user-workspace';
  locations: string[];
  /** A missing or unreadable directory is no error here: the source is
   *  skipped (a home the user cannot enter). */
  optional: boolean;
}

/** The file sources, lowest precedence first (jp_cli
 *  `load_partial_configs_from_files`): user-global `config.*`, the
 *  workspace's `.jp/config.*`, `.jp.*` from the root down to `cwd` (only
 *  when `cwd` is inside the root), and the per-user workspace `config.*`
 *  when there is such a directory. */
export function configSources(root: string, cwd: string, globalDir: string, userWorkspace?: string): ConfigSource[] {
  const sources: ConfigSource[] = [
    { name: 'user-global', locations: [join(globalDir, 'config.toml')], optional: true },
    { name: 'workspace', locations: [join(root, '.jp', 'config.toml')], optional: false },
  ];
  const rel = relative(root, resolve(cwd));
  if (isInside(rel)) {
    const locations: string[] = [];
    let dir = root;
    for (const part of ['', ...segments(rel)]) {
      dir = join(dir, part);
      locations.push(join(dir, '.jp.toml'));
    }
    sources.push({ name: 'directory', locations, optional: false });
  }
  if (userWorkspace !== undefined) sources.push({ name: 'user-workspace', locations: [join(userWorkspace, 'config.toml')], optional: true });
  return sources;
}

/** How a path is shown in messages: relative to the workspace root when
 *  inside it, else absolute. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel !== '' && isInside(rel) ? rel : path;
}

/** Whether a `relative(root, x)` result stays inside the root. */
function isInside(rel: string): boolean {
  return rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
}

/** The non-empty segments of a relative path, split at `/` and `\\` (no
 *  regular expression: a first split by one costs about 0.2 ms of a start,
 *  the engine compiling its split from source). */
function segments(rel: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i <= rel.length; i++) {
    const c = i < rel.length ? rel.charCodeAt(i) : 0x2f;
    if (c !== 0x2f && c !== 0x5c) continue;
    if (i > from) out.push(rel.slice(from, i));
    from = i + 1;
  }
  return out;
}
