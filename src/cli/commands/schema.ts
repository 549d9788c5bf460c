// kb schema: the learn tool definition, or nothing when no topic has a
// subject left to learn (docs/guide/knowledge-base.md, "The tool"). `--format` picks the
// provider's tool format (src/render/providers.ts); `generic` is the RFD's.
// `--tool NAME` prints another tool of the registry (app/tools.ts) instead:
// a tool that writes, for the topics `--write` names (every enabled topic
// by default; docs/guide/search-and-memory.md, "Remembering").
import { learn } from '../../app/tools/learn.ts';
import { TOOL_NAMES, WRITE_TOOL_NAMES } from '../../app/tools/names.ts';
import { schemaDefinition, type AnyTool } from '../../app/tools/tool.ts';
import { SCHEMA_FORMATS, toolInFormat, type SchemaFormat } from '../../render/providers.ts';
import { noArguments } from '../argv.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { openKnowledgeBase, writeTopics } from '../workspace.ts';
import { UsageError } from '../../shared/errors.ts';
import { map } from '../../shared/arrays.ts';

/** The tools that write, which `--write` goes with. */
const WRITE_TOOLS: readonly string[] = WRITE_TOOL_NAMES;

const command: Command = {
  args: {
    format: {
      type: 'enum',
      options: [...SCHEMA_FORMATS],
      default: 'generic',
      description: 'Tool format: generic (the RFD\'s), openai (strict function tool), anthropic, gemini (function declaration), mcp (tools/list entry)',
    },
    tool: { type: 'enum', options: [...TOOL_NAMES], default: 'learn', description: `Which tool: ${either(map(TOOL_NAMES, (n) => (n === 'learn' ? "learn (the RFD's)" : n)))}` },
    write: { type: 'string', valueHint: 'topic', description: `With --tool ${either(WRITE_TOOLS)}: a topic the tool may write (repeatable; default: every enabled topic)` },
  },
  help: {
    examples: [
      ['kb schema', "The tool definition in the RFD's format"],
      ['kb schema --format openai', 'The same tool as an OpenAI strict function tool'],
      ['kb schema --tool search --format anthropic', 'The search tool, for the Anthropic API'],
      ['kb schema --tool remember --write notes --format openai', 'The remember tool, writing to topic notes only'],
    ],
  },
  async run(ctx) {
    noArguments('schema', ctx.positionals);
    const format = (ctx.flags.format as SchemaFormat | undefined) ?? 'generic';
    // A tool's description names topics, never a subject's title: the
    // title rules are not loaded (app/knowledge-base.ts OpenOptions.titles).
    // A read tool's names the topics with a subject to learn, nearly
    // always told from the top of each folder: the walk's code is loaded
    // only where that cannot tell (OpenOptions.views, settleLearnable).
    const kb = await openKnowledgeBase(ctx, { titles: false, views: 'later' });
    const which = await toolOf((ctx.flags.tool as string | undefined) ?? 'learn');
    if (which.access === 'read') await kb.settleLearnable();
    const named = (ctx.flags.write as string[] | undefined) ?? [];
    if (named.length > 0 && which.access !== 'write') throw new UsageError(`--write goes with ${either(map(WRITE_TOOLS, (n) => `--tool ${n}`))}`, '--write');
    const ids = named.length > 0 ? writeTopics(kb, named) : undefined;
    const tool = schemaDefinition(kb, which, ids);
    if (tool) print(`${JSON.stringify(toolInFormat(format, tool), null, 2)}\n`);
    return 0;
  },
};

/** The tool of that name (one of TOOL_NAMES: the flag's values): the
 *  RFD's learn tool without loading the registry (app/tools.ts), which
 *  every other is taken from. */
async function toolOf(name: string): Promise<AnyTool> {
  return name === learn.name ? learn : (await import('../../app/tools.ts')).toolNamed(name)!;
}

/** `a, b or c`. */
function either(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : words.join('');
}

export default command;
