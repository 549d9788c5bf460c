// kb export: every visible subject of the topics named (or of every
// enabled topic) as JSON Lines on stdout, one subject a line, to feed
// another engine. Hidden subjects with --hidden; disabled ones never.
// Streamed: each line is written before the next file is read. What is
// skipped (binary, unreadable) or changed (invalid bytes) is said on
// stderr, and the count last.
import { exportSubjects, exportTopics } from '../../app/export.ts';
import type { ExportItem } from '../../answer/export.ts';
import { exportLine, replacedText, skippedText, summaryText } from '../../render/export.ts';
import { UsageError } from '../../shared/errors.ts';
import { info, isVerbose, warn } from '../../shared/log.ts';
import { formatProblem } from '../../shared/problem.ts';
import type { Command } from '../command.ts';
import { Output } from '../output.ts';
import { openKnowledgeBase } from '../workspace.ts';

/** Subjects skipped or changed named one by one on stderr, at most (all
 *  of them with --verbose); the count says how many more. */
const NAMED = 50;

const command: Command = {
  args: {
    topic: { type: 'positional', required: false, valueHint: 'topics', description: 'Topic IDs or titles (any number); none: every enabled topic' },
    format: { type: 'enum', options: ['jsonl'], default: 'jsonl', description: 'jsonl: one JSON object per subject and line (topic, slug, title, description, tags, path, size, text)' },
    hidden: { type: 'boolean', description: 'Also export hidden subjects (a dot in their path; skills\' bundled files)' },
  },
  help: {
    usage: ['[TOPIC...]'],
    examples: [
      ['kb export > kb.jsonl', 'Every visible subject of every enabled topic, one JSON line each'],
      ['kb export docs --hidden', 'Topic docs, hidden subjects included'],
      ["kb export | jq -c '{id: (.topic + \"/\" + .slug), text}'", 'Reshape the lines for another engine'],
    ],
  },
  async run(ctx) {
    const kb = await openKnowledgeBase(ctx);
    const chosen = exportTopics(kb, ctx.positionals);
    if ('error' in chosen) throw new UsageError(chosen.error);
    const out = new Output();
    let named = 0;
    let unnamed = 0;
    /** A subject skipped or changed: named, while under the limit (a
     *  binary file, expected and counted in the summary, only with
     *  --verbose). */
    const say = async (text: string, binary = false) => {
      if ((named < NAMED && !binary) || isVerbose()) {
        named++;
        await warn(text);
      } else unnamed++;
    };
    try {
      for await (const item of exportSubjects(kb, chosen.topics, { hidden: ctx.flags.hidden === true })) {
        await write(out, item, say, unnamed);
      }
    } finally {
      out.flush();
    }
    return 0;
  },
};

async function write(out: Output, item: ExportItem, say: (text: string, binary?: boolean) => Promise<void>, unnamed: number): Promise<void> {
  switch (item.kind) {
    case 'subject':
      out.write(exportLine(item.record));
      if (item.replaced) await say(replacedText(item.record));
      return;
    case 'skipped':
      return say(skippedText(item), item.why === 'binary');
    case 'problem':
      return warn(formatProblem(item.problem));
    case 'summary':
      out.flush();
      return info(summaryText(item.summary, unnamed));
  }
}

export default command;
