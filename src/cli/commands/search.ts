// kb search: subjects ranked by what they say. `kb search QUERY...`, or the
// arguments object exactly as a model sends it to the `search` tool:
// `--args JSON` / `--args -`. The text is the tool's result; `--format
// json` gives the results for scripts. Exit 1 when nothing matches or on a
// tool error, 2 on wrong usage of kb itself.
import { readArgs } from '../../app/args.ts';
import { readerThread } from '../../app/learn.ts';
import { search } from '../../app/search.ts';
import { badArguments } from '../../app/tools.ts';
import { parseSearchArgs, search as searchTool, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, validateSearchArgs, type SearchArgsResult } from '../../app/tools/search.ts';
import { renderSearch, searchNotes } from '../../render/search.ts';
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
    query: { type: 'positional', required: false, description: 'What to look for, in words (several words are one query)' },
    topic: { type: 'string', alias: 't', valueHint: 'topic', description: 'Search this topic (ID or title) only' },
    limit: { type: 'string', alias: 'n', valueHint: 'n', description: `Results at most (default ${SEARCH_DEFAULT_LIMIT}, at most ${SEARCH_MAX_LIMIT})` },
    format: { type: 'enum', options: ['text', 'json'], default: 'text', description: 'text (what the model sees) or json' },
    args: { type: 'string', valueHint: 'json', description: 'The search tool-call arguments as JSON, or - to read them from stdin' },
    ...MAX_TOKENS_ARG,
    ...HTML_ARG,
    ...NO_CACHE_ARG,
  },
  help: {
    usage: ['QUERY...', '--args <json>'],
    examples: [
      ['kb search how are releases tagged', 'Subjects about tagging releases, best first, in every topic'],
      ['kb search -t docs --limit 3 semantic search', 'The three best in topic docs'],
      [`kb search --args '{"query":"release","topic":"project"}'`, 'Run a search tool call exactly as a model sends it'],
      ['kb search --format json cache', 'The results as JSON'],
    ],
  },
  async run(ctx) {
    const parsed = searchArgs(ctx.flags, ctx.positionals);
    if (!parsed.ok) {
      print(badArguments(searchTool, parsed.problem));
      return 1;
    }
    // A reader thread shares the revalidation of a large cached index
    // (one stat per file, kb/fs/probe-thread.ts); it starts only if the
    // index is that large.
    const thread = readerThread(ctx.readerThreadUrl);
    let r: Awaited<ReturnType<typeof search>>;
    let started: number;
    try {
      const kb = await openKnowledgeBase(ctx, { probe: thread });
      started = performance.now();
      r = await search(kb, parsed.args);
      const { files, byThread, started: threaded } = thread.stats();
      if (threaded) await debug(`reader thread: checked ${byThread} of ${files} files`);
    } finally {
      thread.close();
    }
    await debug(() => `search: ${(performance.now() - started).toFixed(1)} ms in all`);
    for (const p of r.problems) await warn(formatProblem(p));
    for (const i of r.indexes) {
      await debug(`search: topic "${i.topic}": index ${i.status} (${i.subjects} files, ${i.read} read, ${i.ms.toFixed(1)} ms: cache read ${i.times.load.toFixed(1)}, checked ${i.times.check.toFixed(1)}, built ${i.times.build.toFixed(1)})`);
    }
    if (ctx.flags.format === 'json') {
      print(`${jsonDocument({ query: parsed.args.query, ...(parsed.args.topic !== undefined ? { topic: parsed.args.topic } : {}), total: r.total, results: r.results, left_out: r.cut, notes: searchNotes(r), ...(r.isError ? { error: renderSearch(r).trim() } : {}) })}\n`);
    } else {
      print(renderSearch(r));
    }
    return r.isError || r.total === 0 ? 1 : 0;
  },
};

function searchArgs(flags: Record<string, string | boolean | string[]>, positionals: string[]): SearchArgsResult {
  const json = flags.args as string | undefined;
  if (json !== undefined) {
    if (positionals.length > 0) throw new UsageError('--args cannot be combined with a QUERY', positionals[0]);
    if (flags.topic !== undefined || flags.limit !== undefined) throw new UsageError('--args cannot be combined with --topic or --limit', '--args');
    return parseSearchArgs(json === '-' ? readArgs(0) : json);
  }
  if (positionals.length === 0) throw new UsageError('missing QUERY (or --args JSON)');
  let limit: number | undefined;
  if (typeof flags.limit === 'string') {
    if (!/^\d{1,4}$/.test(flags.limit)) throw new UsageError(`invalid --limit "${flags.limit}": a whole number from 1 to ${SEARCH_MAX_LIMIT}`, '--limit');
    limit = Number(flags.limit);
    if (limit < 1 || limit > SEARCH_MAX_LIMIT) throw new UsageError(`invalid --limit ${limit}: from 1 to ${SEARCH_MAX_LIMIT}`, '--limit');
  }
  return validateSearchArgs({ query: positionals.join(' '), ...(typeof flags.topic === 'string' ? { topic: flags.topic } : {}), ...(limit !== undefined ? { limit } : {}) });
}

export default command;
