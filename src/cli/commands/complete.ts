// kb __complete -- WORD...: completion candidates for the scripts that
// `kb completion SHELL` prints (hidden from --help). The WORDs are the
// command line after `kb`, up to and including the word being completed
// (the last one, empty when the cursor follows a space).
//
// Output, one per line: the candidates that start with the word being
// completed. A first line `:files` or `:dirs` asks the shell to add its own
// file or directory names (after -w, --cfg). Nothing is printed on any
// failure (no workspace, a broken configuration): completion must never
// spill errors onto the user's command line.
//
// Dynamic candidates come from the workspace the completed command would
// use: the -w / --cfg / -k flags already on the command line are honoured.
import { join } from 'node:path';
import type { ArgsDef } from 'citty';
import { KnowledgeBase } from '../../app/knowledge-base.ts';
import { aliasesOf, findFlag, flagWord, takesValue, type ArgDef } from '../argv.ts';
import type { Command, CommandTable, RunContext } from '../command.ts';
import { GLOBAL_ARGS } from '../globals.ts';
import { print } from '../output.ts';
import { CONTROL } from '../../shared/controls.ts';
import { homeDirectory } from '../home.ts';
import { COSTS } from '../../render/costs.ts';
import { workspaceOptions } from '../workspace.ts';

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

/** The command line as far as it matters for completion. */
export interface Line {
  command?: string;
  positionals: string[];
  /** A flag that takes a value, given last without its value: the word
   *  being completed is that value. */
  pending?: { name: string; def: ArgDef };
  workspace?: string;
  cfg: string[];
  knowledge: string[];
  /** After a `--`: everything is a positional. */
  literal: boolean;
}

/** What the candidates need from kb: the command table, each command's
 *  arguments, and (lazily) the workspace's knowledge base. */
export interface Sources {
  commands: { name: string; hidden: boolean }[];
  args(command: string): Promise<ArgsDef | undefined>;
  knowledge(line: Line): Promise<KnowledgeBase | undefined>;
}

/** bash splits `--flag=value` into `--flag`, `=`, `value`: join them back. */
export function joinEquals(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const prev = out[out.length - 1];
    if (words[i] === '=' && prev?.startsWith('--') && !prev.includes('=')) {
      out[out.length - 1] = `${prev}=${words[i + 1] ?? ''}`;
      i++;
      continue;
    }
    out.push(words[i]);
  }
  return out;
}

/** Reads the words before the one being completed. */
export async function parseLine(before: readonly string[], sources: Pick<Sources, 'args'>): Promise<Line> {
  const line: Line = { positionals: [], cfg: [], knowledge: [], literal: false };
  let defs: ArgsDef = { ...GLOBAL_ARGS };
  const record = (name: string, value: string) => {
    if (name === 'workspace') line.workspace = value;
    else if (name === 'cfg') line.cfg.push(value);
    else if (name === 'knowledge') line.knowledge.push(value);
  };
  for (let i = 0; i < before.length; i++) {
    const word = before[i];
    if (!line.literal && word === '--') {
      line.literal = true;
      continue;
    }
    const flagged = line.literal ? undefined : flagWord(word);
    if (flagged === undefined) {
      if (!line.literal && line.command === undefined) {
        line.command = word;
        const args = await sources.args(word);
        if (args) defs = { ...args, ...GLOBAL_ARGS };
      } else {
        line.positionals.push(word);
      }
      continue;
    }
    const flag = findFlag(defs, flagged.key);
    if (!flag || !takesValue(flag.def)) continue;
    if (flagged.inline !== undefined) {
      record(flag.name, flagged.inline);
    } else if (i + 1 < before.length) {
      record(flag.name, before[++i]);
    } else {
      line.pending = flag;
    }
  }
  return line;
}

function flagNames(defs: ArgsDef, short: boolean): string[] {
  const out: string[] = [];
  for (const [name, raw] of Object.entries(defs)) {
    const def = raw as ArgDef;
    if (def.type === 'positional') continue;
    out.push(`--${name}`);
    if (short) for (const a of aliasesOf(def)) if (a.length === 1) out.push(`-${a}`);
  }
  return out;
}

/** Slugs offered for one word, at most: completion runs on every TAB, so
 *  a topic of any size is read by prefix (kb/index/listing.ts
 *  `listableFrom`), and typing more narrows it. */
export const MAX_SLUGS = 500;

/** `topic/slug` for -k: the topics `current` may still name, each with its
 *  slugs that start with the rest of it. */
function knowledgeValues(kb: KnowledgeBase, current: string): string[] {
  const out: string[] = [];
  for (const topic of kb.topics) {
    if (!topic.enable) continue;
    const head = `${topic.id}/`;
    if (!head.startsWith(current) && !current.startsWith(head)) continue;
    const prefix = current.startsWith(head) ? current.slice(head.length) : '';
    for (const slug of kb.slugsFrom(topic, prefix, MAX_SLUGS - out.length)) out.push(`${head}${slug}`);
    if (out.length >= MAX_SLUGS) break;
  }
  return out;
}

/** The enabled topics' IDs. */
function topicIds(kb: KnowledgeBase): string[] {
  return kb.topics.filter((t) => t.enable).map((t) => t.id);
}

/** The positional arguments of `defs`, in order. */
function positionalDefs(defs: ArgsDef): [string, ArgDef & { valueHint?: string }][] {
  return (Object.entries(defs) as [string, ArgDef & { valueHint?: string }][]).filter(([, d]) => d.type === 'positional');
}

/** The candidates for `words` (the last one is being completed). */
export async function candidates(words: readonly string[], sources: Sources): Promise<string[]> {
  const joined = joinEquals(words.length === 0 ? [''] : words);
  const current = joined[joined.length - 1];
  const line = await parseLine(joined.slice(0, -1), sources);
  const found = await unfiltered(line, current, sources);
  const directive = found[0] === ':files' || found[0] === ':dirs' ? found.shift() : undefined;
  let matches = found.filter((c) => c.startsWith(current) && !c.includes('\n'));
  matches = [...new Set(matches)];
  return directive ? [directive, ...matches] : matches;
}

async function unfiltered(line: Line, current: string, sources: Sources): Promise<string[]> {
  // `--flag=partial`: complete the value, keeping the `--flag=` prefix.
  if (!line.literal && current.startsWith('--') && current.includes('=')) {
    const eq = current.indexOf('=');
    const defs = { ...((line.command && (await sources.args(line.command))) || {}), ...GLOBAL_ARGS };
    const flag = findFlag(defs, current.slice(2, eq));
    if (!flag || !takesValue(flag.def)) return [];
    const values = await flagValues({ ...line, pending: flag }, current.slice(eq + 1), sources);
    const prefix = current.slice(0, eq + 1);
    return values.filter((v) => !v.startsWith(':')).map((v) => prefix + v);
  }
  if (line.pending) return flagValues(line, current, sources);
  if (!line.literal && current.startsWith('-')) {
    const commandArgs = line.command ? await sources.args(line.command) : undefined;
    const defs: ArgsDef = line.command ? { ...(commandArgs ?? {}), ...GLOBAL_ARGS } : { ...GLOBAL_ARGS, version: { type: 'boolean' } };
    return flagNames(defs, current === '-');
  }
  if (line.command === undefined) return sources.commands.filter((c) => !c.hidden).map((c) => c.name);
  return positionalValues(line, current, sources);
}

/**
 * The values of the positional being completed, from what its definition
 * says it is (`valueHint`, as --help reads the same definition): `topic`,
 * a topic ID; `slug`, a subject as learn lists it (those typed already
 * left out), and `subject`, any visible one (what a write may revise or
 * remove), both of the topic the `topic` positional names; `dir`, a
 * directory; `shell`, a shell. A command takes any number of slugs (learn's
 * patterns) and directories (kb init's folders), one of the others.
 */
async function positionalValues(line: Line, current: string, sources: Sources): Promise<string[]> {
  const defs = positionalDefs((await sources.args(line.command!)) ?? {});
  if (defs.length === 0) return [];
  const at = Math.min(line.positionals.length, defs.length - 1);
  const hint = defs[at][1].valueHint;
  // Past the last positional, only the kinds a command takes many of.
  if (line.positionals.length > at && hint !== 'dir' && hint !== 'slug') return [];
  if (hint === 'dir') return [':dirs'];
  if (hint === 'shell') return [...SHELLS];
  if (hint !== 'topic' && hint !== 'slug' && hint !== 'subject') return [];
  const kb = await sources.knowledge(line);
  if (!kb) return [];
  if (hint === 'topic') return topicIds(kb);
  const named = defs.findIndex(([, d]) => d.valueHint === 'topic');
  const topic = named >= 0 && named < line.positionals.length ? kb.resolveTopic(line.positionals[named]) : undefined;
  if (!topic?.enable) return [];
  const typed = new Set(line.positionals.slice(at));
  return kb.slugsFrom(topic, current, MAX_SLUGS + typed.size, hint === 'subject').filter((slug) => !typed.has(slug));
}

async function flagValues(line: Line, current: string, sources: Sources): Promise<string[]> {
  const { name, def } = line.pending!;
  if (def.options) return [...def.options];
  switch (name) {
    case 'workspace':
      return [':dirs'];
    case 'cfg':
      return [':files', ...((await sources.knowledge(line))?.configKeys() ?? [])];
    case 'knowledge': {
      const kb = await sources.knowledge(line);
      return kb ? knowledgeValues(kb, current) : [];
    }
  }
  // A flag whose value is a topic (`-t`, `--write`, `--list`).
  if ((def as { valueHint?: string }).valueHint !== 'topic') return [];
  const kb = await sources.knowledge(line);
  return kb ? topicIds(kb) : [];
}

/** `~` and `~/...` in the home directory (the command's HOME, as every
 *  command reads it: workspace.ts homeDirectory). */
function expandHome(path: string | undefined, home: string): string | undefined {
  if (path === '~') return home;
  if (path?.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

/** The real sources: the command table and the workspace on disk. */
export function liveSources(ctx: RunContext, commands: CommandTable = ctx.commands): Sources {
  return {
    commands: Object.entries(commands).map(([name, c]) => ({ name, hidden: c.hidden === true })),
    async args(command) {
      if (!Object.hasOwn(commands, command)) return undefined;
      try {
        return (await commands[command].load()).args;
      } catch {
        return undefined;
      }
    },
    async knowledge(line) {
      const attempt = async (cfg: string[], knowledge: string[]): Promise<KnowledgeBase | undefined> => {
        try {
          const home = await homeDirectory(ctx.env);
          const globals = { workspace: expandHome(line.workspace, home), cfg: cfg.map((c) => expandHome(c, home)!), knowledge, verbose: false, quiet: false };
          return await KnowledgeBase.open(await workspaceOptions({ ...ctx, globals }), { costs: COSTS });
        } catch {
          return undefined;
        }
      };
      // A half-typed --cfg or -k must not cost the user every candidate.
      return (await attempt(line.cfg, line.knowledge)) ?? (await attempt([], []));
    },
  };
}

const command: Command = {
  args: {},
  help: { examples: [['kb __complete -- learn ""', 'The candidates after `kb learn `: topic IDs']] },
  async run(ctx) {
    let out: string[] = [];
    try {
      out = await candidates(ctx.positionals, liveSources(ctx));
    } catch {
      out = [];
    }
    // One candidate per line: a topic ID holding a newline or an escape
    // sequence is not offered (completion prints nothing but candidates;
    // `kb check` warns about such an ID).
    out = out.filter((c) => !CONTROL.test(c));
    if (out.length > 0) print(`${out.join('\n')}\n`);
    return 0;
  },
};

export default command;
