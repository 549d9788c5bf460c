// kb revise: replaces a subject's text, keeping its slug and its earlier
// text (docs/search-and-memory.md, "Revising"). `kb revise TOPIC SLUG
// TEXT...` (`-` reads the text from stdin), or the revise tool's arguments
// as a model sends them: `--args JSON` / `--args -`. Exit 0 when revised or
// already saying this, 1 when not revised, 2 on wrong usage.
import { parseToolJson } from '../../app/args.ts';
import type { WriteOutcome } from '../../app/memory.ts';
import { revise } from '../../app/revise.ts';
import { REMEMBER_MAX_BYTES } from '../../app/tools/remember.ts';
import { revise as reviseTool, validateReviseArgs } from '../../app/tools/revise.ts';
import { UsageError } from '../../shared/errors.ts';
import { warn } from '../../shared/log.ts';
import { formatProblem } from '../../shared/problem.ts';
import type { Command } from '../command.ts';
import { openKnowledgeBase } from '../workspace.ts';
import { printBadArguments, printOutcome, stdinText } from './remember.ts';

const command: Command = {
  args: {
    topic: { type: 'positional', required: false, description: 'The topic (ID or title)' },
    slug: { type: 'positional', required: false, description: 'The exact slug of the subject to revise' },
    text: { type: 'positional', required: false, description: 'Its whole new text (several words are one text), or - to read it from stdin' },
    description: { type: 'string', valueHint: 'text', description: 'A new description (default: kept, or made again from the new text)' },
    tag: { type: 'string', valueHint: 'tag', description: 'A tag replacing its tags (repeatable; default: kept)' },
    force: { type: 'boolean', description: 'Revise a subject kb did not write' },
    args: { type: 'string', valueHint: 'json', description: 'The revise tool-call arguments as JSON, or - to read them from stdin' },
    format: { type: 'enum', options: ['text', 'json'], default: 'text', description: 'text, or json for scripts' },
  },
  help: {
    usage: ['TOPIC SLUG TEXT...', 'TOPIC SLUG -', '--args <json>'],
    examples: [
      ['kb revise notes deploy-window The deploy window is Thursday 14:00-16:00 UTC.', 'Replace the text of notes/deploy-window.md; the old text goes to .deploy-window.history.md'],
      ['kb revise notes guide - --force < guide.md', 'The text from stdin, for a subject kb did not write'],
    ],
  },
  async run(ctx) {
    const json = ctx.flags.args as string | undefined;
    let out: WriteOutcome;
    if (json !== undefined) {
      if (ctx.positionals.length > 0) throw new UsageError('--args cannot be combined with TOPIC, SLUG or TEXT', ctx.positionals[0]);
      for (const f of ['description', 'force']) if (ctx.flags[f] !== undefined) throw new UsageError(`--args cannot be combined with --${f}`, '--args');
      if ((ctx.flags.tag as string[] | undefined)?.length) throw new UsageError('--args cannot be combined with --tag', '--args');
      const text = json === '-' ? stdinText(REMEMBER_MAX_BYTES * 2, '--args') : json;
      const parsed = parseToolJson(text);
      if (!parsed.ok) throw new UsageError(`--args: ${parsed.problem}`, '--args');
      const kb = await openKnowledgeBase(ctx);
      // The tool call as a model sends it: bad arguments are its answer.
      const args = validateReviseArgs(parsed.value);
      if (!args.ok) return printBadArguments(reviseTool, args.problem, ctx.flags.format === 'json');
      out = await revise(kb, args.args, { source: 'model' });
    } else {
      const args = validateReviseArgs(reviseValue(ctx.flags, ctx.positionals));
      if (!args.ok) throw new UsageError(args.problem.replace(/^"(\w+)"/, (_, k: string) => (k === 'text' || k === 'topic' || k === 'slug' ? k.toUpperCase() : `--${k === 'tags' ? 'tag' : k}`)));
      const kb = await openKnowledgeBase(ctx);
      out = await revise(kb, args.args, { source: 'user' });
    }
    for (const p of out.problems) await warn(formatProblem(p));
    printOutcome(out, ctx.flags.format === 'json');
    return out.isError ? 1 : 0;
  },
};

/** The arguments of `kb revise TOPIC SLUG TEXT...` as a tool call's. */
function reviseValue(flags: Record<string, string | boolean | string[]>, positionals: string[]): Record<string, unknown> {
  if (positionals.length < 2) throw new UsageError('missing TOPIC, SLUG and TEXT (or --args JSON)', positionals[0]);
  if (positionals.length === 2) throw new UsageError('missing TEXT (or - to read it from stdin)', positionals[1]);
  const [topic, slug, ...words] = positionals;
  const text = words.length === 1 && words[0] === '-' ? stdinText(REMEMBER_MAX_BYTES, '-') : words.join(' ');
  const args: Record<string, unknown> = { topic, slug, text };
  if (typeof flags.description === 'string') args.description = flags.description;
  if ((flags.tag as string[] | undefined)?.length) args.tags = flags.tag;
  if (flags.force === true) args.force = true;
  return args;
}

export default command;
