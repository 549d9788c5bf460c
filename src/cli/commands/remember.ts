// kb remember: runs the remember tool (cli/commands/tool.ts): writes a new
// subject (docs/search-and-memory.md, "Remembering"). `kb remember TOPIC
// TEXT...` (`-` reads the text from stdin), or the remember tool's
// arguments as a model sends them: `--args JSON` / `--args -`. Exit 0 when
// written or already there (identical), 1 when not written (a near
// duplicate without --force, or an error), 2 on wrong usage.
import { REMEMBER_MAX_BYTES } from '../../app/args.ts';
import { toolCommand } from './tool.ts';

export default toolCommand({
  tool: 'remember',
  args: {
    topic: { type: 'positional', required: false, valueHint: 'topic', description: 'The topic (ID or title) to write to' },
    text: { type: 'positional', required: false, description: 'What to remember (several words are one text), or - to read it from stdin' },
    slug: { type: 'string', valueHint: 'slug', description: 'The new subject\'s slug (default: made from the text)' },
    description: { type: 'string', valueHint: 'text', description: 'Its description (default: the text\'s first line)' },
    tag: { type: 'string', valueHint: 'tag', description: 'A tag (repeatable)' },
    force: { type: 'boolean', description: 'Write even when a subject says nearly the same or is an older version (never an identical one)' },
  },
  gives: {
    topic: { param: 'topic' },
    text: { param: 'text', rest: 'words', stdin: REMEMBER_MAX_BYTES },
    slug: { param: 'slug' },
    description: { param: 'description' },
    tag: { param: 'tags' },
    force: { param: 'force' },
  },
  help: {
    usage: ['TOPIC TEXT...', 'TOPIC -', '--args <json>'],
    examples: [
      ['kb remember notes Releases are tagged vYYYY.MM.DD', 'A new subject in topic notes, its slug made from the text'],
      ['git log -1 --format=%B | kb remember notes - --tag release', 'The text from stdin, with a tag'],
      ['kb remember notes --slug release-day --force "We release on Tuesdays"', 'A chosen slug; written even if a similar subject exists'],
    ],
  },
});
