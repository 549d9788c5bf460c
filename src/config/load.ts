// The configuration entry point: layers, lowest precedence first, are the
// user-global config, the workspace config, `.jp.toml` files from the root
// down to the working directory, JP_CFG_* variables, --cfg values left to
// right, then -k flags.

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../shared/errors.ts';
import type { Config } from './types.ts';
import { assignmentOp, parseCfg } from './assign.ts';
import { baseConfigFiles, displayPath, findWorkspace, globalConfigDir } from './discover.ts';
import { envLayers } from './env.ts';
import { DEFAULT_CONFIG_LOAD_PATHS } from './fields.ts';
import { type ReadContext, readConfigFile } from './files.ts';
import { knowledgeLayer, parseKnowledge } from './knowledge.ts';
import { type Layer, merge } from './merge.ts';
import { topicIds, validate } from './validate.ts';

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
  const cfg = opts.cfg.map(cfgStep);
  const knowledge = opts.knowledge.map(parseKnowledge);

  const root = findWorkspace(opts.cwd, opts.workspace);
  const ctx: ReadContext = { root, files: [], diagnostics: [] };
  const layers: Layer[] = [];
  for (const file of baseConfigFiles(root, opts.cwd, globalConfigDir(opts.env, opts.home, opts.cwd))) {
    const read = await readConfigFile(file, ctx);
    layers.push(...read);
    // `inherit = false`: no configuration file after this one is merged.
    // Environment variables, --cfg and -k still apply, as in JP.
    if (read.some((l) => l.authoritative)) break;
  }

  const env = envLayers(opts.env, topicIds(merge(layers)));
  ctx.diagnostics.push(...env.diagnostics);
  layers.push(...env.layers);

  for (const step of cfg) {
    if ('layer' in step) layers.push(step.layer);
    else layers.push(...(await readConfigFile(findCfgFile(step.file, step.text, opts.cwd, root, loadPaths(layers)), ctx)));
  }

  let tree = merge(layers);
  if (knowledge.length) {
    const ids = topicIds(tree);
    for (const k of knowledge) layers.push(knowledgeLayer(k, ids));
    tree = merge(layers);
  }

  const { topics, diagnostics } = validate(tree, root);
  return { root, topics, diagnostics: [...ctx.diagnostics, ...diagnostics], files: ctx.files };
}

function cfgStep(text: string): CfgStep {
  const value = parseCfg(text);
  if (value.kind === 'file') return { file: value.path, text };
  const where = `--cfg ${text}`;
  const op = assignmentOp(value.path, value.operator, value.raw, where);
  return { layer: { origin: { source: where, label: where }, ops: op ? [op] : [] } };
}

/** The `config_load_paths` in effect: the last file that sets it. */
function loadPaths(layers: readonly Layer[]): string[] {
  for (let i = layers.length - 1; i >= 0; i--) {
    const paths = layers[i].loadPaths;
    if (paths) return paths;
  }
  return DEFAULT_CONFIG_LOAD_PATHS;
}

/** A --cfg file: relative to the working directory if it exists there, else
 *  in each `config_load_paths` directory (relative to the workspace root),
 *  where the `.toml` (or `.json`) extension is optional. */
function findCfgFile(path: string, text: string, cwd: string, root: string, dirs: readonly string[]): string {
  const direct = resolve(cwd, path);
  if (isFile(direct)) return direct;
  for (const dir of dirs) {
    const base = resolve(root, dir, path);
    for (const candidate of [base, `${base}.toml`, `${base}.json`]) {
      if (isFile(candidate)) return candidate;
    }
  }
  const looked = dirs.map((d) => displayPath(root, resolve(root, d))).join(', ');
  throw new ConfigError(
    `configuration file not found: ${path} (looked in the working directory, then for ${path}, ${path}.toml or ${path}.json in ${looked || 'no config_load_paths'})`,
    `--cfg ${text}`,
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
