// kb forget: removes a visible subject (docs/search-and-memory.md, "Remembering"). `kb forget
// TOPIC SLUG`, or `--args JSON` / `--args -` as a model sends the forget
// tool's arguments. Git keeps the history of what was committed.
import { parseToolJson, readArgs } from '../../app/args.ts';
import { forget } from '../../app/memory.ts';
import { forget as forgetTool, validateForgetArgs } from '../../app/tools/forget.ts';
import { UsageError } from '../../shared/errors.ts';
import { warn } from '../../shared/log.ts';
import { formatProblem } from '../../shared/problem.ts';
import type { Command } from '../command.ts';
import { openKnowledgeBase } from '../workspace.ts';
import { printBadArguments, printOutcome } from './remember.ts';

const command: Command = {
  args: {
    topic: { type: 'positional', required: false, description: 'The topic (ID or title)' },
    slug: { type: 'positional', required: false, description: 'The exact slug of the subject to remove' },
    args: { type: 'string', valueHint: 'json', description: 'The forget tool-call arguments as JSON, or - to read them from stdin' },
    format: { type: 'enum', options: ['text', 'json'], default: 'text', description: 'text, or json for scripts' },
  },
  help: {
    usage: ['TOPIC SLUG', '--args <json>'],
    examples: [['kb forget notes release-day', 'Remove notes/release-day.md (git keeps its history)']],
  },
  async run(ctx) {
    const json = ctx.flags.args as string | undefined;
    let value: unknown;
    if (json !== undefined) {
      if (ctx.positionals.length > 0) throw new UsageError('--args cannot be combined with TOPIC or SLUG', ctx.positionals[0]);
      const parsed = parseToolJson(json === '-' ? readArgs(0) : json);
      if (!parsed.ok) throw new UsageError(`--args: ${parsed.problem}`, '--args');
      value = parsed.value;
    } else {
      if (ctx.positionals.length !== 2) throw new UsageError(ctx.positionals.length < 2 ? 'missing TOPIC and SLUG' : 'kb forget takes one TOPIC and one SLUG', ctx.positionals[2]);
      const parsed = validateForgetArgs({ topic: ctx.positionals[0], slug: ctx.positionals[1] });
      if (!parsed.ok) throw new UsageError(parsed.problem);
    }
    const kb = await openKnowledgeBase(ctx);
    let out;
    if (json !== undefined) {
      // The tool call as a model sends it: bad arguments are its answer.
      const parsed = validateForgetArgs(value);
      if (!parsed.ok) return printBadArguments(forgetTool, parsed.problem, ctx.flags.format === 'json');
      out = await forget(kb, parsed.args, { source: 'model' });
    } else {
      out = await forget(kb, { topic: ctx.positionals[0], slug: ctx.positionals[1] }, { source: 'user' });
    }
    for (const p of out.problems) await warn(formatProblem(p));
    printOutcome(out, ctx.flags.format === 'json');
    return out.isError ? 1 : 0;
  },
};

export default command;
