// kb learn: runs the learn tool (cli/commands/tool.ts). `kb learn TOPIC
// [PATTERN...]`, or the arguments object exactly as a model sends it:
// `--args JSON` / `--args -`. The model-facing text (result or error) is
// streamed to stdout, subjects as the bytes of their files.
import { MAX_TOKENS_ARG } from '../budget.ts';
import { HTML_ARG } from '../html-flag.ts';
import { NO_CACHE_ARG } from '../cache-flag.ts';
import { toolCommand } from './tool.ts';

export default toolCommand({
  tool: 'learn',
  args: {
    topic: { type: 'positional', required: false, valueHint: 'topic', description: 'Topic ID or title (unless --args gives the call)' },
    pattern: { type: 'positional', required: false, valueHint: 'slug', description: 'Subject slugs or glob patterns (any number); none lists the topic' },
    ...MAX_TOKENS_ARG,
    ...HTML_ARG,
    ...NO_CACHE_ARG,
  },
  gives: { topic: { param: 'topic' }, pattern: { param: 'subjects', rest: 'list', optional: true } },
  positionals: 'TOPIC or PATTERN arguments',
  threadDid: 'sniffed',
  lists: true,
  help: {
    usage: ['TOPIC [PATTERN...]', '--args <json>'],
    examples: [
      ['kb learn skills', 'List the subjects of topic skills, as the model sees them'],
      ["kb learn project 'maintainers/*' release", 'Load the subjects under maintainers/, and release'],
      [`kb learn --args '{"topic":"skills","subjects":["ast-grep"]}'`, 'Run a tool call exactly as a model sends it'],
      ['kb learn docs release --format json', 'The subject as JSON'],
    ],
  },
});
