// The command line's one tokenizer, and the strict parser built on it.
// citty keeps only the last value of a repeated flag and turns an undeclared
// `--flag value` into a boolean plus a positional, so kb parses argv itself,
// driven by argument definitions in citty's format, which --help (help.ts)
// renders too.
// Repeatable flags collect every value in order; an unknown flag is a usage
// error (exit 2). Completion (commands/complete.ts) reads half-typed command
// lines with the same tokenizer, leniently.
import type { ArgsDef } from 'citty';
import { UsageError } from '../shared/errors.ts';

/** Flags that may be given more than once; their values are collected. */
export const REPEATABLE = new Set(['allow-origin', 'cfg', 'knowledge', 'list', 'tag', 'topic', 'write']);

export interface Parsed {
  flags: Record<string, string | boolean | string[]>;
  positionals: string[];
}

/** One flag word: `--name`, `--name=value`, `-n`, `-nvalue`, `-n=value`. */
export interface FlagWord {
  long: boolean;
  /** The name or alias, as typed. */
  key: string;
  /** A value attached to the word. */
  inline?: string;
}

/** The flag a word holds, or undefined when the word is not a flag (a
 *  positional: it does not start with `-`, or is `-` alone). `--` is the
 *  caller's to test first. */
export function flagWord(arg: string): FlagWord | undefined {
  if (arg.length < 2 || arg[0] !== '-') return undefined;
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
  return inline === undefined ? { long, key } : { long, key, inline };
}

export interface ArgDef {
  type?: string;
  alias?: string | string[];
  options?: readonly string[];
}

export function aliasesOf(def: ArgDef): string[] {
  return def.alias === undefined ? [] : Array.isArray(def.alias) ? def.alias : [def.alias];
}

/** Whether a flag takes a value (string and enum flags do). */
export function takesValue(def: ArgDef): boolean {
  return def.type !== 'boolean' && def.type !== 'positional';
}

/** The flag a name or alias stands for in `defs`. */
export function findFlag(defs: ArgsDef, key: string): { name: string; def: ArgDef } | undefined {
  for (const [name, raw] of Object.entries(defs)) {
    const def = raw as ArgDef;
    if (def.type === 'positional') continue;
    if (name === key || aliasesOf(def).includes(key)) return { name, def };
  }
  return undefined;
}

/** `where` names the command line an unknown option was given to (`kb
 *  learn`), whose --help lists the valid ones; by default the option itself. */
export function parseArgv(argv: readonly string[], defs: ArgsDef, where?: string): Parsed {
  const flags: Parsed['flags'] = {};
  const positionals: string[] = [];
  for (const name of REPEATABLE) if (defs[name]) flags[name] = [];

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const word = flagWord(arg);
    if (word === undefined) {
      positionals.push(arg);
      continue;
    }
    const flag = findFlag(defs, word.key);
    if (!flag) throw new UsageError(`unknown option ${word.long ? '--' : '-'}${word.key}`, where ?? arg);
    const { name, def } = flag;
    if (!takesValue(def)) {
      if (word.inline !== undefined) throw new UsageError(`option --${name} takes no value`, arg);
      flags[name] = true;
      continue;
    }
    let value = word.inline;
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`option --${name} needs a value`, arg);
      value = argv[++i];
    }
    if (def.type === 'enum') {
      const options = def.options ?? [];
      if (!options.includes(value)) {
        throw new UsageError(`invalid value "${value}" for --${name}; expected one of: ${options.join(', ')}`, arg);
      }
    }
    if (REPEATABLE.has(name)) (flags[name] as string[]).push(value);
    else flags[name] = value;
  }
  return { flags, positionals };
}

/** For commands that take no positional arguments. */
export function noArguments(command: string, positionals: readonly string[]): void {
  if (positionals.length > 0) throw new UsageError(`kb ${command} takes no arguments`, positionals[0]);
}
