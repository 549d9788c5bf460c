// kb learn: runs the learn tool. `kb learn TOPIC [PATTERN...]`, or the
// arguments object exactly as a model sends it: `--args JSON` / `--args -`.
// The model-facing text (result or error) goes to stdout; exit 1 on a tool
// error, 2 on wrong usage of kb itself.
import { readFileSync } from 'node:fs';
import type { Command } from '../cli/command.ts';
import { workspace } from '../cli/context.ts';
import { warn } from '../cli/log.ts';
import { Output, print } from '../cli/output.ts';
import { UsageError } from '../errors.ts';
import { isRaw, listable, loadPatterns, openTopic } from '../kb/topic.ts';
import { renderBadArguments, renderListing, renderNote, renderUnknownTopic, type Note } from '../render/learn.ts';
import { subjectBlock } from '../render/prompt.ts';
import { endWithNewline } from '../render/text.ts';
import { parseLearnArgs, validateLearnArgs, type ArgsResult } from '../tool/args.ts';
import { resolveTopic } from '../tool/topic.ts';

const command: Command = {
  args: {
    topic: { type: 'positional', required: false, description: 'Topic ID or title' },
    pattern: { type: 'positional', required: false, description: 'Subject slugs or glob patterns (any number); none lists the topic' },
    args: { type: 'string', valueHint: 'json', description: 'The tool-call arguments as JSON, or - to read them from stdin' },
  },
  async run(ctx) {
    const parsed = learnArgs(ctx.flags.args as string | undefined, ctx.positionals);
    if (!parsed.ok) {
      print(renderBadArguments(parsed.problem));
      return 1;
    }
    const { topic: name, subjects } = parsed.args;
    const config = await workspace(ctx);
    const topic = resolveTopic(config.topics, name);
    if (!topic) {
      print(renderUnknownTopic(name, config.topics.filter((t) => t.enable)));
      return 1;
    }
    const view = openTopic(topic);
    if (subjects === null) {
      print(renderListing(topic, listable(view).map((s) => s.slug), view.learned.map((m) => m.subject.slug)));
      return 0;
    }
    const raw = isRaw(view, subjects);
    const out = new Output();
    const notes: Note[] = [];
    let loaded = 0;
    for (const item of loadPatterns(view, subjects)) {
      if (item.kind !== 'subject') {
        notes.push(item);
        continue;
      }
      if (item.replaced) await warn(`subject "${item.slug}" of topic "${topic.id}" is not valid UTF-8; invalid bytes were replaced`);
      if (raw) out.write(endWithNewline(item.content));
      else out.write(`${loaded > 0 ? '\n\n' : ''}${subjectBlock(item.slug, item.content)}`);
      loaded++;
    }
    if (notes.length > 0) {
      out.write(`${loaded > 0 ? '\n\n' : ''}${notes.map((n) => renderNote(n, topic.id)).join('\n')}`);
    }
    if (!raw || loaded === 0) out.write('\n');
    out.flush();
    return loaded > 0 ? 0 : 1;
  },
};

function learnArgs(json: string | undefined, positionals: string[]): ArgsResult {
  if (json === undefined) {
    if (positionals.length === 0) throw new UsageError('missing TOPIC (or --args JSON)');
    return validateLearnArgs({ topic: positionals[0], subjects: positionals.length > 1 ? positionals.slice(1) : null });
  }
  if (positionals.length > 0) throw new UsageError('--args cannot be combined with TOPIC or PATTERN arguments', positionals[0]);
  return parseLearnArgs(json === '-' ? readFileSync(0, 'utf8') : json);
}

export default command;
