// A strict argv parser. citty keeps only the last value of a repeated flag
// and turns an undeclared `--flag value` into a boolean plus a positional, so
// kb parses argv itself, driven by the same citty argument definitions that
// render --help. Repeatable flags collect every value in order; an unknown
// flag is a usage error (exit 2).
import type { ArgsDef } from 'citty';
import { UsageError } from '../shared/errors.ts';

/** Flags that may be given more than once; their values are collected. */
export const REPEATABLE = new Set(['cfg', 'knowledge']);

export interface Parsed {
  flags: Record<string, string | boolean | string[]>;
  positionals: string[];
}

export function parseArgv(argv: readonly string[], defs: ArgsDef): Parsed {
  const byName = new Map<string, { name: string; type: string }>();
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === 'positional') continue;
    const entry = { name, type: def.type ?? 'string' };
    byName.set(name, entry);
    const alias = (def as { alias?: string | string[] }).alias;
    const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
    for (const a of aliases) byName.set(a, entry);
  }
  const flags: Parsed['flags'] = {};
  const positionals: string[] = [];
  for (const name of REPEATABLE) if (defs[name]) flags[name] = [];

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.length < 2 || arg[0] !== '-' || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const body = long ? arg.slice(2) : arg.slice(1);
    const eq = body.indexOf('=');
    let key = eq === -1 ? body : body.slice(0, eq);
    let inline: string | undefined = eq === -1 ? undefined : body.slice(eq + 1);
    // `-kproject/x` (short flag with attached value)
    if (!long && key.length > 1 && inline === undefined) {
      inline = key.slice(1);
      key = key[0];
    }
    const def = byName.get(key);
    if (!def) throw new UsageError(`unknown option ${long ? '--' : '-'}${key}`, arg);
    if (def.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`option --${def.name} takes no value`, arg);
      flags[def.name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`option --${def.name} needs a value`, arg);
      value = argv[++i];
    }
    if (def.type === 'enum') {
      const options = (defs[def.name] as { options?: string[] }).options ?? [];
      if (!options.includes(value)) {
        throw new UsageError(`invalid value "${value}" for --${def.name}; expected one of: ${options.join(', ')}`, arg);
      }
    }
    if (REPEATABLE.has(def.name)) (flags[def.name] as string[]).push(value);
    else flags[def.name] = value;
  }
  return { flags, positionals };
}
