// Loads the workspace configuration for a command and reports what the user
// should know: configuration errors stop the command; warnings go to stderr;
// with --verbose, which files were read and which file set each value.
import { homedir } from 'node:os';
import { loadConfig } from '../config/load.ts';
import { loadFullToml, NeedsFullToml } from '../config/toml.ts';
import { loadGlobEngine, NeedsGlobEngine, needsGlobEngine } from '../glob/index.ts';
import type { Config, Diagnostic } from '../config/types.ts';
import { ConfigError } from '../shared/errors.ts';
import type { RunContext } from './command.ts';
import { debug, isVerbose, warn } from '../shared/log.ts';

/** Diagnostics that make a configuration unusable for anything but `kb check`. */
const FATAL = new Set(['toml-syntax', 'wrong-type', 'extends-cycle', 'missing-subjects']);

export function isFatal(d: Diagnostic): boolean {
  return d.severity === 'error' && FATAL.has(d.code);
}

export function readConfig(ctx: RunContext): Config {
  return loadConfig({
    cwd: ctx.cwd,
    workspace: ctx.globals.workspace,
    cfg: ctx.globals.cfg,
    knowledge: ctx.globals.knowledge,
    env: ctx.env,
    home: homedir(),
  });
}

/** `readConfig`, loading what a file turns out to need first: the full
 *  TOML parser (config/toml.ts) and the glob machinery for an `extends`
 *  glob (kb/globs.ts). Most configurations need neither, and loading them
 *  is a good part of a start's work. */
export async function readConfigLoading(ctx: RunContext): Promise<Config> {
  for (;;) {
    try {
      return readConfig(ctx);
    } catch (err) {
      if (err instanceof NeedsFullToml) await loadFullToml();
      else if (err instanceof NeedsGlobEngine) await loadGlobEngine();
      else throw err;
    }
  }
}

/** Loads what the synchronous code will need for `patterns`, and for
 *  every enabled topic's `learned` patterns: the glob machinery when one of
 *  them may be a glob (kb/globs.ts). */
async function prepare(config: Config, patterns: readonly string[] = []): Promise<void> {
  const learned = config.topics.flatMap((t) => (t.enable ? t.learned : []));
  if ([...patterns, ...learned].some(needsGlobEngine)) await loadGlobEngine();
}

/** Everything the synchronous code may need, whatever the input: for the
 *  commands that are not run at every prompt (check, mcp, completion). */
export async function loadEverything(): Promise<void> {
  await Promise.all([loadFullToml(), loadGlobEngine()]);
}

/** The configuration for every command but `kb check`, with what its
 *  `learned` patterns and `patterns` (a learn call's) need loaded. */
export async function workspace(ctx: RunContext, patterns: readonly string[] = []): Promise<Config> {
  const config = await readConfigLoading(ctx);
  await prepare(config, patterns);
  const fatal = config.diagnostics.find(isFatal);
  if (fatal) throw new ConfigError(fatal.message, fatal.where);
  for (const d of config.diagnostics) await warn(d.where ? `${d.message} (${d.where})` : d.message);
  if (isVerbose()) await explain(config);
  return config;
}

export async function explain(config: Config): Promise<void> {
  await debug(`workspace: ${config.root}`);
  for (const f of config.files) await debug(`read ${f}`);
  for (const t of config.topics) {
    for (const [field, source] of Object.entries(t.sources)) {
      await debug(`kb.topic.${t.id}.${field} set by ${t.where?.[field as keyof typeof t.where] ?? source}`);
    }
  }
}
