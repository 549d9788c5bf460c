// kb revise: runs the revise tool (cli/commands/tool.ts): replaces a
// subject's text, keeping its slug and its earlier text
// (docs/search-and-memory.md, "Revising"). `kb revise TOPIC SLUG TEXT...`
// (`-` reads the text from stdin), or the revise tool's arguments as a
// model sends them: `--args JSON` / `--args -`. Exit 0 when revised or
// already saying this, 1 when not revised, 2 on wrong usage.
import { REMEMBER_MAX_BYTES } from '../../app/args.ts';
import { toolCommand } from './tool.ts';

export default toolCommand({
  tool: 'revise',
  args: {
    topic: { type: 'positional', required: false, valueHint: 'topic', description: 'The topic (ID or title)' },
    slug: { type: 'positional', required: false, valueHint: 'subject', description: 'The exact slug of the subject to revise' },
    text: { type: 'positional', required: false, description: 'Its whole new text (several words are one text), or - to read it from stdin' },
    description: { type: 'string', valueHint: 'text', description: 'A new description (default: kept, or made again from the new text)' },
    tag: { type: 'string', valueHint: 'tag', description: 'A tag replacing its tags (repeatable; default: kept)' },
    force: { type: 'boolean', description: 'Revise a subject kb did not write' },
  },
  gives: {
    topic: { param: 'topic' },
    slug: { param: 'slug' },
    text: { param: 'text', rest: 'words', stdin: REMEMBER_MAX_BYTES },
    description: { param: 'description' },
    tag: { param: 'tags' },
    force: { param: 'force' },
  },
  help: {
    usage: ['TOPIC SLUG TEXT...', 'TOPIC SLUG -', '--args <json>'],
    examples: [
      ['kb revise notes deploy-window The deploy window is Thursday 14:00-16:00 UTC.', 'Replace the text of notes/deploy-window.md; the old text goes to .deploy-window.history.md'],
      ['kb revise notes guide - --force < guide.md', 'The text from stdin, for a subject kb did not write'],
    ],
  },
});
