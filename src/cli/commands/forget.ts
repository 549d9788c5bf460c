// kb forget: runs the forget tool (cli/commands/tool.ts): removes a visible
// subject (docs/search-and-memory.md, "Remembering"). `kb forget TOPIC
// SLUG`, or `--args JSON` / `--args -` as a model sends the forget tool's
// arguments. Git keeps the history of what was committed.
import { toolCommand } from './tool.ts';

export default toolCommand({
  tool: 'forget',
  args: {
    topic: { type: 'positional', required: false, valueHint: 'topic', description: 'The topic (ID or title)' },
    slug: { type: 'positional', required: false, valueHint: 'subject', description: 'The exact slug of the subject to remove' },
  },
  gives: { topic: { param: 'topic' }, slug: { param: 'slug' } },
  help: {
    usage: ['TOPIC SLUG', '--args <json>'],
    examples: [['kb forget notes release-day', 'Remove notes/release-day.md (git keeps its history)']],
  },
});
