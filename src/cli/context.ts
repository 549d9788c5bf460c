// Loads the workspace configuration for a command and reports what the user
// should know: configuration errors stop the command; warnings go to stderr;
// with --verbose, which files were read and which file set each value.
import { homedir } from 'node:os';
import { loadConfig } from '../config/load.ts';
import { loadFullToml, NeedsFullToml } from '../config/toml.ts';
import type { Config, Diagnostic } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import type { RunContext } from './command.ts';
import { debug, isVerbose, warn } from './log.ts';

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

/** `readConfig`, loading the full TOML parser first if a file needs it
 *  (config/toml.ts): most configurations do without it, and it is a third
 *  of a start's work. */
export async function readConfigLoading(ctx: RunContext): Promise<Config> {
  try {
    return readConfig(ctx);
  } catch (err) {
    if (!(err instanceof NeedsFullToml)) throw err;
  }
  await loadFullToml();
  return readConfig(ctx);
}

/** The configuration for every command but `kb check`. */
export async function workspace(ctx: RunContext): Promise<Config> {
  const config = await readConfigLoading(ctx);
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
