// kb recall: the subjects most relevant to a text (a user's prompt),
// packed within the token budget as a `<knowledge>` block to put in front
// of the prompt. `kb recall TEXT...`, or `kb recall -` to read the text
// from stdin. Prints nothing when nothing is relevant (exit 0).
import { readArgs } from '../../app/args.ts';
import { recall } from '../../app/recall.ts';
import { recallText } from '../../render/search.ts';
import { jsonDocument } from '../../shared/controls.ts';
import { UsageError } from '../../shared/errors.ts';
import { debug, warn } from '../../shared/log.ts';
import { formatProblem } from '../../shared/problem.ts';
import { MAX_TOKENS_ARG } from '../budget.ts';
import { HTML_ARG } from '../html-flag.ts';
import { NO_CACHE_ARG } from '../cache-flag.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { openKnowledgeBase } from '../workspace.ts';

const command: Command = {
  args: {
    text: { type: 'positional', required: false, description: 'The text to recall knowledge for (several words are one text), or - for stdin' },
    topic: { type: 'string', alias: 't', valueHint: 'topic', description: 'Recall from this topic (ID or title) only (repeatable: these topics)' },
    format: { type: 'enum', options: ['text', 'json'], default: 'text', description: 'text (the <knowledge> block) or json (the block and what is in it)' },
    ...MAX_TOKENS_ARG,
    ...HTML_ARG,
    ...NO_CACHE_ARG,
  },
  help: {
    usage: ['TEXT...', '-'],
    examples: [
      ['kb recall "how do we tag a release?"', 'The knowledge relevant to the question, within 20,000 tokens'],
      ['kb recall --max-tokens 4000 -t docs "$prompt"', 'At most 4,000 tokens, from topic docs'],
      ['kb recall "$q" | llm "$q"', 'Put it in front of a question to an LLM command-line tool'],
    ],
  },
  async run(ctx) {
    const text = textOf(ctx.positionals);
    const kb = await openKnowledgeBase(ctx);
    const r = await recall(kb, text, Array.isArray(ctx.flags.topic) ? { topics: ctx.flags.topic } : {});
    if (r.error !== undefined) throw new UsageError(r.error, '--topic');
    for (const p of r.problems) await warn(formatProblem(p));
    for (const i of r.indexes) {
      await debug(`recall: topic "${i.topic}": index ${i.status} (${i.subjects} files, ${i.read} read, ${i.ms.toFixed(1)} ms: cache read ${i.times.load.toFixed(1)}, checked ${i.times.check.toFixed(1)}, built ${i.times.build.toFixed(1)})`);
    }
    if (ctx.flags.format === 'json') {
      print(`${jsonDocument({ text: recallText(r), subjects: r.items, left_out: r.leftOut })}\n`);
    } else {
      print(recallText(r));
    }
    return 0;
  },
};

function textOf(positionals: string[]): string {
  // stdin is read up to 1 MiB (and one byte): the search uses far less.
  if (positionals.length === 1 && positionals[0] === '-') return readArgs(0);
  if (positionals.length === 0) throw new UsageError('missing TEXT (or - to read it from stdin)');
  return positionals.join(' ');
}

export default command;
