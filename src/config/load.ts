// The configuration entry point, in JP's load order (RFD 079 "Full load
// sequence"): the file sources (user-global, workspace, `.jp.*` from the
// root down to the working directory, the per-user workspace file), each
// read only while no source merged so far says `inherit = false`; then
// JP_CFG_* variables, --cfg values left to right, then -k flags.

import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError, UsageError } from '../shared/errors.ts';
import { statOrNone } from '../shared/stat.ts';
import type { Config } from './types.ts';
import { assignmentOp, objectOp, parseCfg } from './assign.ts';
import { configSources, displayPath, findWorkspace, globalConfigDir, userDataDir, userWorkspaceDir } from './discover.ts';
import { envLayers } from './env.ts';
import { DEFAULT_CONFIG_LOAD_PATHS } from './fields.ts';
import { CONFIG_EXTENSIONS } from './formats.ts';
import { type ReadContext, locateConfigFile, readConfigFile, withExtension } from './files.ts';
import { knowledgeLayer, parseKnowledge } from './knowledge.ts';
import { type Layer, merge } from './merge.ts';
import { topicIds, validate } from './validate.ts';
import { flatMap, map, some } from '../shared/arrays.ts';

export interface LoadOptions {
  /** Working directory. */
  cwd: string;
  /** -w/--workspace (relative to cwd). */
  workspace?: string;
  /** --cfg/-c values in command-line order. */
  cfg: string[];
  /** -k/--knowledge values, e.g. "project/maintainers/*". */
  knowledge: string[];
  /** The process environment. */
  env: Record<string, string | undefined>;
  /** The user's home directory. */
  home: string;
}

/** A --cfg value, parsed: a file to find, or a ready layer. */
type CfgStep = { file: string; text: string } | { layer: Layer };

/** Loads and validates the configuration (asynchronously: a file may need
 *  the full TOML parser, an `extends` glob the glob machinery, each loaded
 *  only then). Rejects with a UsageError for a bad
 *  --cfg / -k / JP_CFG_* value, a ConfigError when there is no workspace, a
 *  --cfg file cannot be found or -k names an unknown topic. Problems inside
 *  files are returned as diagnostics. */
export async function loadConfig(opts: LoadOptions): Promise<Config> {
  // Command-line syntax first: it needs no files.
  const cfg = map(opts.cfg, (c) => cfgStep(c));
  const knowledge = map(opts.knowledge, (k) => parseKnowledge(k));

  const dataDir = userDataDir(opts.env, opts.home, opts.cwd);
  const root = findWorkspace(opts.cwd, opts.workspace, dataDir);
  const globalDir = globalConfigDir(opts.env, opts.home, opts.cwd);
  const userWorkspace = userWorkspaceDir(dataDir, root);
  const ctx: ReadContext = { root, files: [], diagnostics: [], notes: [] };
  const layers: Layer[] = [];
  for (const source of configSources(root, opts.cwd, globalDir, userWorkspace)) {
    // `inherit = false` (JP's `load_partials_with_inheritance`): read from
    // what is merged so far, it keeps every later source out.
    const stop = lastInherit(layers);
    if (stop?.inherit === false) {
      ctx.notes!.push(`inherit = false in ${stop.origin.label}: the ${source.name} configuration and those after it are not read`);
      break;
    }
    for (const location of source.locations) {
      const found = locateConfigFile(location);
      if ('missing' in found) continue;
      if ('error' in found) {
        const message = `cannot read configuration file: ${found.error.message}`;
        // A home or data directory the user cannot enter is no error.
        if (source.optional) ctx.notes!.push(`${source.name} configuration skipped: ${message}`);
        else ctx.diagnostics.push({ severity: 'error', code: 'read-error', message, where: displayPath(root, found.path) });
        continue;
      }
      layers.push(...(await readConfigFile(found.path, ctx)));
    }
  }

  const env = envLayers(opts.env, topicIds(merge(layers)));
  ctx.diagnostics.push(...env.diagnostics);
  // `config_load_paths` accumulate over the files and the environment (JP:
  // `append_vec`, then `vec_dedup`); --cfg values do not change them.
  const fromFiles = flatMap(layers, (l) => l.loadPaths ?? []);
  const set = some(layers, (l) => l.loadPaths !== undefined) || env.loadPaths !== undefined;
  const loadPaths = set ? [...new Set([...fromFiles, ...(env.loadPaths ?? [])])] : DEFAULT_CONFIG_LOAD_PATHS;
  layers.push(...env.layers);

  const roots = [join(globalDir, 'config'), root, ...(userWorkspace ? [join(userWorkspace, 'config')] : [])];
  for (const step of cfg) {
    if ('layer' in step) layers.push(step.layer);
    else for (const file of findCfgFiles(step.file, step.text, opts.cwd, root, roots, loadPaths)) layers.push(...(await readConfigFile(file, ctx)));
  }

  let tree = mergeOrThrow(layers);
  if (knowledge.length) {
    const ids = topicIds(tree);
    for (const k of knowledge) layers.push(knowledgeLayer(k, ids));
    tree = mergeOrThrow(layers);
  }

  const { topics, diagnostics } = validate(tree, root);
  return { root, topics, diagnostics: [...ctx.diagnostics, ...diagnostics], files: ctx.files, notes: ctx.notes };
}

/** The merged tree; an index assignment to a missing item (`--cfg
 *  KEY.N=VALUE`) is a usage error naming it. */
function mergeOrThrow(layers: readonly Layer[]) {
  return merge(layers, (e) => {
    throw new UsageError(e.message, e.origin.label);
  });
}

/** The last layer that sets `inherit`. */
function lastInherit(layers: readonly Layer[]): Layer | undefined {
  for (let i = layers.length - 1; i >= 0; i--) if (layers[i].inherit !== undefined) return layers[i];
  return undefined;
}

function cfgStep(text: string): CfgStep {
  const where = `--cfg ${text}`;
  const value = parseCfg(text);
  if (value.kind === 'file') return { file: value.path, text };
  const op = value.kind === 'object' ? objectOp(value.value, value.raw, where) : assignmentOp(value.path, value.operator, value.raw, where);
  return { layer: { origin: { source: where, label: where }, ops: op ? [op] : [] } };
}

/**
 * A --cfg file (jp_cli `resolve_cfg_args`, RFD 035): the path itself,
 * relative to the working directory, when it exists; else, in each root
 * (the user-global `config/` directory, the workspace root, the per-user
 * workspace `config/` directory), the first `config_load_paths` directory
 * holding `NAME` or `NAME` with a configuration extension (jp_config
 * `find_file_in_load_path`). The matches of every root are read, in that
 * order (later ones win).
 */
function findCfgFiles(path: string, text: string, cwd: string, root: string, roots: readonly string[], dirs: readonly string[]): string[] {
  const direct = resolve(cwd, path);
  const stat = statOrNone(direct);
  if (stat !== undefined && !stat.isDirectory()) return [direct];
  const matches: string[] = [];
  const searched: string[] = [];
  if (!isAbsolute(path)) {
    for (const base of roots) {
      for (const dir of dirs) {
        const loadPath = resolve(base, dir);
        searched.push(displayPath(root, loadPath));
        const found = findInLoadPath(join(loadPath, path));
        if (found !== undefined) {
          matches.push(found);
          break; // the first match within a root
        }
      }
    }
  }
  if (matches.length > 0) return matches;
  const exts = CONFIG_EXTENSIONS.join(', ');
  throw new ConfigError(
    `configuration file not found: ${path} (looked in the working directory, then for ${path} with no extension or ${exts} in ${searched.join(', ') || 'no config_load_paths'})`,
    `--cfg ${text}`,
  );
}

/** `candidate` when it is a file, else the first of its extension
 *  variants that is. */
function findInLoadPath(candidate: string): string | undefined {
  for (const file of [candidate, ...CONFIG_EXTENSIONS.map((ext) => withExtension(candidate, ext))]) {
    if (statOrNone(file)?.isFile()) return file;
  }
  return undefined;
}

