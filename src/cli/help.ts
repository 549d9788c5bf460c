// The --help pages, built from the same argument definitions that the
// parser (argv.ts) reads, and rendered by render/help.ts. Imported only when
// help is asked for.
//
// citty's renderUsage rendered them before; it pads every column to its
// widest cell (trailing spaces on most lines), does not wrap (lines of 190
// columns), writes a repeatable positional as `[PATTERN]`, shows no
// examples and leaves optional flags out of the usage line. The layout is a
// few lines of code, so kb renders the pages itself; the definitions keep
// citty's format.
import type { ArgsDef } from 'citty';
import { renderHelp, type HelpRow } from '../render/help.ts';
import { VERSION } from '../shared/version.ts';
import { aliasesOf, type ArgDef } from './argv.ts';
import type { Command, CommandEntry, CommandTable } from './command.ts';
import { GLOBAL_ARGS } from './globals.ts';

const DESCRIPTION = 'A file-based knowledge base for LLM assistants';

interface Def extends ArgDef {
  description?: string;
  valueHint?: string;
  default?: unknown;
  required?: boolean;
}

function entries(defs: ArgsDef): [string, Def][] {
  return Object.entries(defs) as [string, Def][];
}

/** `-w, --workspace <dir>`; flags without a short form line up with the
 *  long names of those with one. */
function optionRow(name: string, def: Def): HelpRow {
  const short = aliasesOf(def).filter((a) => a.length === 1).map((a) => `-${a}, `).join('');
  let label = `${short || '    '}--${name}`;
  if (def.type === 'enum') label += ` <${(def.options ?? []).join('|')}>`;
  else if (def.type === 'string') label += ` <${def.valueHint ?? name}>`;
  const description = def.default === undefined ? (def.description ?? '') : `${def.description ?? ''} (default: ${String(def.default)})`;
  return { label, description };
}

function optionRows(defs: ArgsDef): HelpRow[] {
  return entries(defs).filter(([, d]) => d.type !== 'positional').map(([n, d]) => optionRow(n, d));
}

function positionals(defs: ArgsDef): [string, Def][] {
  return entries(defs).filter(([, d]) => d.type === 'positional');
}

function examples(list: readonly (readonly [string, string])[]): HelpRow[] {
  return list.map(([label, description]) => ({ label, description }));
}

/** What a command does, in one line: its tool's summary for a tool's
 *  command (the registry is loaded for it). */
export async function descriptionOf(name: string, entry: CommandEntry): Promise<string> {
  if (!entry.tool) return entry.description ?? '';
  const { toolNamed } = await import('../app/tools.ts');
  return toolNamed(name)?.summary ?? entry.description ?? '';
}

export async function rootHelp(commands: CommandTable): Promise<string> {
  const visible = await Promise.all(Object.entries(commands).filter(([, c]) => !c.hidden).map(async ([name, c]) => [name, await descriptionOf(name, c)] as const));
  return renderHelp({
    title: `${DESCRIPTION} (kb v${VERSION})`,
    usage: ['kb [OPTIONS] COMMAND [ARGUMENTS...]'],
    sections: [
      { heading: 'COMMANDS', rows: visible.map(([name, description]) => ({ label: name, description })) },
      { heading: 'OPTIONS', rows: [...optionRows(GLOBAL_ARGS), optionRow('version', { type: 'boolean', description: 'Print the version, the commit it was built from and the target' })] },
    ],
    examples: examples([
      ['kb init docs', 'Make this directory a workspace, with the folder docs as a topic'],
      ['kb prompt', 'The <knowledge> section for the workspace around the working directory'],
      ['kb learn skills', 'The subjects of topic skills, as the model sees them'],
      ['kb check', 'Check the configuration and the files, as a pre-commit hook does'],
    ]),
    footer: "Run 'kb COMMAND --help' for a command's arguments and examples.",
  });
}

export function commandHelp(name: string, description: string, command: Command): string {
  const args = positionals(command.args);
  const derived = args.map(([n, d]) => (d.required === false ? `[${n.toUpperCase()}]` : n.toUpperCase())).join(' ');
  const usage = (command.help.usage ?? [derived]).map((rest) => `kb ${name} [OPTIONS]${rest ? ` ${rest}` : ''}`);
  return renderHelp({
    title: `${description} (kb ${name})`,
    usage,
    sections: [
      { heading: 'ARGUMENTS', rows: args.map(([n, d]) => ({ label: n.toUpperCase(), description: d.description ?? '' })) },
      { heading: 'OPTIONS', rows: optionRows(command.args) },
      { heading: 'GLOBAL OPTIONS', rows: optionRows(GLOBAL_ARGS) },
    ],
    examples: examples(command.help.examples),
  });
}
