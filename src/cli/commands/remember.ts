// kb remember: writes a new subject (docs/search-and-memory.md, "Remembering"). `kb remember
// TOPIC TEXT...` (`-` reads the text from stdin), or the remember tool's
// arguments as a model sends them: `--args JSON` / `--args -`. Exit 0 when
// written or already there (identical), 1 when not written (a near
// duplicate without --force, or an error), 2 on wrong usage.
import { readInputBytes, utf8Input } from '../../app/args.ts';
import { remember, type WriteOutcome } from '../../app/memory.ts';
import { badArguments, type AnyTool } from '../../app/tools.ts';
import { remember as rememberTool, REMEMBER_MAX_BYTES, validateRememberArgs } from '../../app/tools/remember.ts';
import { renderWriteOutcome } from '../../render/memory.ts';
import { jsonDocument } from '../../shared/controls.ts';
import { UsageError } from '../../shared/errors.ts';
import { warn } from '../../shared/log.ts';
import { formatProblem } from '../../shared/problem.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { openKnowledgeBase } from '../workspace.ts';

const command: Command = {
  args: {
    topic: { type: 'positional', required: false, description: 'The topic (ID or title) to write to' },
    text: { type: 'positional', required: false, description: 'What to remember (several words are one text), or - to read it from stdin' },
    slug: { type: 'string', valueHint: 'slug', description: 'The new subject\'s slug (default: made from the text)' },
    description: { type: 'string', valueHint: 'text', description: 'Its description (default: the text\'s first line)' },
    tag: { type: 'string', valueHint: 'tag', description: 'A tag (repeatable)' },
    force: { type: 'boolean', description: 'Write even when a subject says nearly the same or is an older version (never an identical one)' },
    args: { type: 'string', valueHint: 'json', description: 'The remember tool-call arguments as JSON, or - to read them from stdin' },
    format: { type: 'enum', options: ['text', 'json'], default: 'text', description: 'text, or json for scripts' },
  },
  help: {
    usage: ['TOPIC TEXT...', 'TOPIC -', '--args <json>'],
    examples: [
      ['kb remember notes Releases are tagged vYYYY.MM.DD', 'A new subject in topic notes, its slug made from the text'],
      ['git log -1 --format=%B | kb remember notes - --tag release', 'The text from stdin, with a tag'],
      ['kb remember notes --slug release-day --force "We release on Tuesdays"', 'A chosen slug; written even if a similar subject exists'],
    ],
  },
  async run(ctx) {
    const value = rememberValue(ctx.flags, ctx.positionals);
    const kb = await openKnowledgeBase(ctx);
    let out: WriteOutcome;
    if (value.fromArgs) {
      // The tool call as a model sends it: bad arguments are its answer.
      const parsed = validateRememberArgs(value.json);
      if (!parsed.ok) return printBadArguments(rememberTool, parsed.problem, ctx.flags.format === 'json');
      out = await remember(kb, parsed.args, { source: 'model' });
    } else {
      const parsed = validateRememberArgs(value.args);
      if (!parsed.ok) throw new UsageError(parsed.problem.replace(/^"(\w+)"/, (_, k: string) => (k === 'text' || k === 'topic' ? k.toUpperCase() : `--${k === 'tags' ? 'tag' : k}`)));
      out = await remember(kb, parsed.args, { source: 'user' });
    }
    for (const p of out.problems) await warn(formatProblem(p));
    printOutcome(out, ctx.flags.format === 'json');
    return out.isError ? 1 : 0;
  },
};

export function printOutcome(out: WriteOutcome, json: boolean): void {
  const text = renderWriteOutcome(out);
  if (!json) {
    print(text);
    return;
  }
  const { status, topic, slug, path, existing } = out;
  print(`${jsonDocument({ status, ...(topic !== undefined ? { topic } : {}), ...(slug !== undefined ? { slug } : {}), ...(path !== undefined ? { path } : {}), ...(existing !== undefined ? { existing } : {}), message: text.trim() })}\n`);
}

/** A malformed tool call (`--args`): the tool's answer, exit 1. */
export function printBadArguments(tool: AnyTool, problem: string, json: boolean): number {
  const text = badArguments(tool, problem);
  print(json ? `${jsonDocument({ status: 'error', message: text.trim() })}\n` : text);
  return 1;
}

type Value = { fromArgs: true; json: unknown } | { fromArgs: false; args: Record<string, unknown> };

function rememberValue(flags: Record<string, string | boolean | string[]>, positionals: string[]): Value {
  const json = flags.args as string | undefined;
  if (json !== undefined) {
    if (positionals.length > 0) throw new UsageError('--args cannot be combined with TOPIC or TEXT', positionals[0]);
    for (const f of ['slug', 'description', 'force']) if (flags[f] !== undefined) throw new UsageError(`--args cannot be combined with --${f}`, '--args');
    if ((flags.tag as string[] | undefined)?.length) throw new UsageError('--args cannot be combined with --tag', '--args');
    const text = json === '-' ? stdinText(REMEMBER_MAX_BYTES * 2, '--args') : json;
    if (text.length > REMEMBER_MAX_BYTES * 2) throw new UsageError(`--args is longer than ${REMEMBER_MAX_BYTES * 2} characters`, '--args');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--args is not valid JSON (${(e as Error).message.slice(0, 200)})`, '--args');
    }
    return { fromArgs: true, json: value };
  }
  if (positionals.length === 0) throw new UsageError('missing TOPIC and TEXT (or --args JSON)');
  if (positionals.length === 1) throw new UsageError('missing TEXT (or - to read it from stdin)', positionals[0]);
  const [topic, ...words] = positionals;
  let text: string;
  if (words.length === 1 && words[0] === '-') {
    text = stdinText(REMEMBER_MAX_BYTES, '-');
  } else text = words.join(' ');
  const args: Record<string, unknown> = { topic, text };
  if (typeof flags.slug === 'string') args.slug = flags.slug;
  if (typeof flags.description === 'string') args.description = flags.description;
  if ((flags.tag as string[] | undefined)?.length) args.tags = flags.tag;
  if (flags.force === true) args.force = true;
  return { fromArgs: false, args };
}

/** The text on stdin, refused when longer than `limit` bytes or not
 *  valid UTF-8 (never replaced: what is remembered is what was given). */
export function stdinText(limit: number, where: string): string {
  const r = utf8Input(readInputBytes(0, limit), limit);
  if ('tooLong' in r) throw new UsageError(where === '-' ? `the text on stdin is longer than ${limit} bytes` : `--args is longer than ${limit} characters`, where);
  if ('invalidAt' in r) {
    const hex = r.byte.toString(16).padStart(2, '0');
    throw new UsageError(`the ${where === '-' ? 'text' : 'arguments'} on stdin ${where === '-' ? 'is' : 'are'} not valid UTF-8: byte 0x${hex} at offset ${r.invalidAt}; nothing was written`, where);
  }
  return r.text;
}

export default command;
