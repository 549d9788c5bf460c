// kb learn: runs the learn tool. `kb learn TOPIC [PATTERN...]`, or the
// arguments object exactly as a model sends it: `--args JSON` / `--args -`.
// The model-facing text (result or error) goes to stdout; exit 1 on a tool
// error, 2 on wrong usage of kb itself.
import { readArgs, type ArgsResult } from '../../app/args.ts';
import { readerThread } from '../../app/learn.ts';
import { badArguments } from '../../app/tools.ts';
import { learn, parseLearnArgs, validateLearnArgs } from '../../app/tools/learn.ts';
import { UsageError } from '../../shared/errors.ts';
import { debug, warn } from '../../shared/log.ts';
import { formatProblem } from '../../shared/problem.ts';
import { MAX_TOKENS_ARG } from '../budget.ts';
import { HTML_ARG } from '../html-flag.ts';
import type { Command } from '../command.ts';
import { Output, print } from '../output.ts';
import { openKnowledgeBase } from '../workspace.ts';

const command: Command = {
  args: {
    topic: { type: 'positional', required: false, description: 'Topic ID or title (unless --args gives the call)' },
    pattern: { type: 'positional', required: false, description: 'Subject slugs or glob patterns (any number); none lists the topic' },
    args: { type: 'string', valueHint: 'json', description: 'The tool-call arguments as JSON, or - to read them from stdin' },
    ...MAX_TOKENS_ARG,
    ...HTML_ARG,
  },
  help: {
    usage: ['TOPIC [PATTERN...]', '--args <json>'],
    examples: [
      ['kb learn skills', 'List the subjects of topic skills, as the model sees them'],
      ["kb learn project 'maintainers/*' release", 'Load the subjects under maintainers/, and release'],
      [`kb learn --args '{"topic":"skills","subjects":["ast-grep"]}'`, 'Run a tool call exactly as a model sends it'],
    ],
  },
  async run(ctx) {
    const parsed = learnArgs(ctx.flags.args as string | undefined, ctx.positionals);
    if (!parsed.ok) {
      print(badArguments(learn, parsed.problem));
      return 1;
    }
    // A reader thread shares the probing of a large listing
    // (kb/fs/probe-thread.ts); it starts only if one is that large.
    const thread = readerThread(ctx.readerThreadUrl);
    try {
      const kb = await openKnowledgeBase(ctx, { probe: thread });
      // Streamed to stdout as it is produced, subjects as the bytes of their
      // files (no decoding and re-encoding; each body is written before the
      // next file is read into the same buffer).
      const out = new Output();
      const isError = await learn.run(
        kb,
        parsed.args,
        {
          as: 'bytes',
          write: (chunk) => (typeof chunk === 'string' ? out.write(chunk) : out.writeBytes(chunk)),
          problem: (p) => warn(formatProblem(p)),
        },
        { source: 'user' },
      );
      out.flush();
      const { files, byThread, started } = thread.stats();
      if (started) await debug(`reader thread: sniffed ${byThread} of ${files} files`);
      return isError ? 1 : 0;
    } finally {
      thread.close();
    }
  },
};

function learnArgs(json: string | undefined, positionals: string[]): ArgsResult {
  if (json === undefined) {
    if (positionals.length === 0) throw new UsageError('missing TOPIC (or --args JSON)');
    return validateLearnArgs({ topic: positionals[0], subjects: positionals.length > 1 ? positionals.slice(1) : null });
  }
  if (positionals.length > 0) throw new UsageError('--args cannot be combined with TOPIC or PATTERN arguments', positionals[0]);
  return parseLearnArgs(json === '-' ? readArgs(0) : json);
}

export default command;
