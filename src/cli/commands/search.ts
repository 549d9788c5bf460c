// kb search: runs the search tool (cli/commands/tool.ts): subjects ranked
// by what they say. `kb search QUERY...`, or the arguments object exactly
// as a model sends it: `--args JSON` / `--args -`. Exit 1 when nothing
// matches (as grep does) or on a tool error, 2 on wrong usage of kb.
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from '../../app/args.ts';
import { debug } from '../../shared/log.ts';
import { MAX_TOKENS_ARG } from '../budget.ts';
import { NO_CACHE_ARG } from '../cache-flag.ts';
import { toolCommand } from './tool.ts';

export default toolCommand({
  tool: 'search',
  args: {
    query: { type: 'positional', required: false, description: 'What to look for, in words (several words are one query)' },
    topic: { type: 'string', alias: 't', valueHint: 'topic', description: 'Search this topic (ID or title) only' },
    limit: { type: 'string', alias: 'n', valueHint: 'n', description: `Results at most (default ${SEARCH_DEFAULT_LIMIT}, at most ${SEARCH_MAX_LIMIT})` },
    ...MAX_TOKENS_ARG,
    ...NO_CACHE_ARG,
  },
  gives: { query: { param: 'query', rest: 'words' }, topic: { param: 'topic' }, limit: { param: 'limit' } },
  positionals: 'a QUERY',
  threadDid: 'checked',
  nothing: (found) => found.total === 0,
  async verbose(found, ms) {
    await debug(() => `search: ${ms.toFixed(1)} ms in all`);
    for (const i of found.indexes) {
      await debug(`search: topic "${i.topic}": index ${i.status} (${i.subjects} files, ${i.read} read, ${i.ms.toFixed(1)} ms: cache read ${i.times.load.toFixed(1)}, checked ${i.times.check.toFixed(1)}, built ${i.times.build.toFixed(1)})`);
    }
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
});
