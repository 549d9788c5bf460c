// Where the workspace is and which configuration files apply to it.

import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../shared/errors.ts';

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The workspace root: `workspace` (resolved against `cwd`) when given,
 *  else the nearest ancestor of `cwd` (itself included) holding a `.jp/`
 *  directory. */
export function findWorkspace(cwd: string, workspace?: string): string {
  if (workspace !== undefined) {
    const root = resolve(cwd, workspace);
    if (!isDirectory(root)) throw new ConfigError(`workspace is not a directory: ${root}`, '-w');
    return root;
  }
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (isDirectory(join(dir, '.jp'))) return dir;
    if (dirname(dir) === dir) break;
  }
  throw new ConfigError(`no workspace found: no .jp directory in ${start} or any parent; pass -w DIR`);
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

/** The file layers, lowest precedence first, whether they exist or not:
 *  user-global, workspace, then `.jp.toml` from the root down to `cwd` (only
 *  when `cwd` is inside the root). Each TOML file is followed by its JSON
 *  twin. */
export function baseConfigFiles(root: string, cwd: string, globalDir: string): string[] {
  const files = [join(globalDir, 'config.toml'), join(globalDir, 'config.json')];
  files.push(join(root, '.jp', 'config.toml'), join(root, '.jp', 'config.json'));
  const rel = relative(root, resolve(cwd));
  if (isInside(rel)) {
    let dir = root;
    for (const part of ['', ...rel.split(/[\\/]/).filter(Boolean)]) {
      dir = join(dir, part);
      files.push(join(dir, '.jp.toml'), join(dir, '.jp.json'));
    }
  }
  return files;
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
