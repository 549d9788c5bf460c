// The one command every tool runs through. `kb learn`, `kb search`,
// `kb remember`, `kb revise` and `kb forget` are each a face over it
// (cli/commands/<tool>.ts): which of the command's arguments give which of
// the tool's parameters, and its help. Here, for every tool alike:
//
// - the call: `--args JSON` (or `--args -`, from stdin) exactly as a model
//   sends it, or the command's own arguments (a text argument given as `-`
//   is read from stdin); never both;
// - the check against the tool's schema (app/tools/validate.ts): a call as
//   a model sends it that does not fit is answered as the model would be
//   answered (exit 1). So is a read tool's command line, which is that
//   same call (`kb learn TOPIC` shows what the model sees); a write tool's
//   command line writes for the user, whose mistake is a usage error
//   naming the command's own argument (exit 2);
// - the answer, in the form `--format` asks for (render/forms.ts): the
//   model's text, streamed to stdout as it comes (subjects as the bytes of
//   their files), or JSON (schemas/kb-<tool>-output.schema.json);
// - the exit code: 0 done, 1 the tool's error (or, for a face that says
//   so, nothing found), 2 wrong usage of kb itself.
import type { ArgsDef } from 'citty';
import type { FrontStats, WalkStats } from '../../app/knowledge-base.ts';
import { parseToolJson, readInput, readInputBytes, tooLargeProblem, utf8Input } from '../../app/args.ts';
import { readerThread } from '../../app/reader.ts';
import { toolNamed, type AnyTool, type Refused, type RunContext as ToolContext } from '../../app/tools.ts';
import type { OutcomeOf, ToolName } from '../../answer/tool.ts';
import { FORMATS, formsOf, type Format, type Write } from '../../render/forms.ts';
import { filter } from '../../shared/arrays.ts';
import { UsageError } from '../../shared/errors.ts';
import { debug, warn } from '../../shared/log.ts';
import { formatProblem } from '../../shared/problem.ts';
import type { JsonSchema } from '../../shared/tool.ts';
import { REPEATABLE } from '../argv.ts';
import type { Command, CommandHelp, RunContext } from '../command.ts';
import { Output } from '../output.ts';
import { openKnowledgeBase } from '../workspace.ts';

/** The tool parameter one of the command's arguments gives. */
export interface Gives {
  param: string;
  /** A positional that takes the rest of the words: joined by spaces
   *  (`words`) or as a list (`list`). */
  rest?: 'words' | 'list';
  /** A positional that may be left out (the parameter is then absent). */
  optional?: true;
  /** `-` alone reads the value from stdin, at most this many bytes. */
  stdin?: number;
}

/** A tool's command: its own arguments and what each gives, its help. */
export interface ToolFace<N extends ToolName = ToolName> {
  tool: N;
  /** Positionals and flags; `--args` and `--format` are added. An
   *  argument `gives` does not name is the command's own (`--max-tokens`,
   *  `--no-cache`). */
  args: ArgsDef;
  gives: Readonly<Record<string, Gives>>;
  help: CommandHelp;
  /** The positionals as "--args cannot be combined with ..." names them
   *  (default: their names, `TOPIC or SLUG`). */
  positionals?: string;
  /** What the reader thread did, in its --verbose line (`sniffed`). */
  threadDid?: string;
  /** Its calls list topics: keep what the listed files' heads said on
   *  disk (app/knowledge-base.ts OpenOptions.keepHeads). */
  lists?: true;
  /** Exit 1 although the call did not fail (search: nothing matched, as
   *  grep does). */
  nothing?(outcome: OutcomeOf<N>): boolean;
  /** What --verbose adds once the call ran, and how long it took (ms). */
  verbose?(outcome: OutcomeOf<N>, ms: number): Promise<void>;
}

type Flags = RunContext['flags'];

/** The command of a tool's face. */
export function toolCommand<N extends ToolName>(face: ToolFace<N>): Command {
  return {
    args: {
      ...face.args,
      args: { type: 'string', valueHint: 'json', description: `The ${face.tool} tool-call arguments as JSON, or - to read them from stdin` },
      format: { type: 'enum', options: [...FORMATS], default: 'text', description: 'text (what the model reads) or json (for scripts)' },
    },
    help: face.help,
    run: (ctx) => run(face as unknown as ToolFace, ctx),
  };
}

/** A call read from the command line: its arguments as a model's (from
 *  `--args`) or the user's, or refused before it is checked (not JSON). */
type Call = { value: unknown; source: 'model' | 'user' } | { refused: Refused };

async function run(face: ToolFace, ctx: RunContext): Promise<number> {
  const tool = toolNamed(face.tool)!;
  const format = (ctx.flags.format as Format | undefined) ?? 'text';
  const call = readCall(face, tool, ctx);
  // Loaded while the call is checked and the knowledge base opened.
  const forms = formsOf(tool.name);
  const loading = tool.load();
  const out = new Output();
  const write: Write = (chunk) => (typeof chunk === 'string' ? out.write(chunk) : out.writeBytes(chunk));
  const parsed = 'refused' in call ? call.refused : tool.validate(call.value);
  if (!parsed.ok) {
    if (!('refused' in call) && call.source === 'user' && tool.access === 'write') throw new UsageError(inCommandLine(face, parsed));
    (await forms)[format](write).refused(parsed, tool);
    out.flush();
    return 1;
  }
  const thread = readerThread(ctx.readerThreadUrl);
  try {
    const kb = await openKnowledgeBase(ctx, { probe: thread, keepHeads: face.lists === true });
    const form = (await forms)[format](write);
    await loading;
    const started = performance.now();
    const toolCtx: ToolContext = { source: (call as { source: 'model' | 'user' }).source };
    const outcome = await tool.run(kb, parsed.args, { as: 'bytes', event: form.event, problem: (p) => warn(formatProblem(p)) }, toolCtx);
    form.end(outcome);
    out.flush();
    const heads = kb.heads;
    for (const p of [...(heads?.problems() ?? []), ...(kb.walks?.problems() ?? []), ...(kb.fronts?.problems() ?? [])]) await warn(p);
    const kept = heads?.stats();
    const walked = walksSaid(kb.walks?.stats());
    const fronted = frontsSaid(kb.fronts?.stats());
    const walks = walked === '' || fronted === '' ? walked + fronted : `${walked}; ${fronted}`;
    if (kept !== undefined && kept.kept + kept.probed > 0) await debug(`listing cache: ${kept.kept} of ${kept.kept + kept.probed} heads kept${kept.probed > 0 ? `, ${kept.probed} read` : ''}${kept.wrote ? ', written' : ''}${walks === '' ? '' : `; ${walks}`}`);
    else if (walks !== '') await debug(`kept walk: ${walks}`);
    const { files, byThread, started: threaded, statsHere } = thread.stats();
    if (threaded) await debug(`reader thread: ${face.threadDid ?? 'probed'} ${byThread} of ${files} files`);
    else if (statsHere !== undefined) await debug(`reader thread: not started, no core to spare (${statsHere}): ${files} files checked here`);
    await face.verbose?.(outcome, performance.now() - started);
    return outcome.isError || face.nothing?.(outcome) === true ? 1 : 0;
  } finally {
    thread.close();
  }
}

/** What a call's walks did, for `--verbose` (after the listing's heads,
 *  or on a line of its own for a load): `the walk kept` when the folders
 *  were not read, `walked, kept for the next call` when the walk was
 *  written to be kept, `walked` otherwise; '' when nothing was walked. */
function walksSaid(w: WalkStats | undefined): string {
  if (w === undefined || w.kept + w.walked === 0) return '';
  if (w.walked === 0) return w.kept === 1 ? 'the walk kept' : `${w.kept} walks kept`;
  const walked = w.walked === 1 ? 'walked' : `${w.walked} walks made`;
  return `${w.kept > 0 ? `${w.kept} kept, ` : ''}${walked}${w.wrote > 0 ? ', kept for the next call' : ''}`;
}

/** What a call did with kept frontmatter, for `--verbose`: `frontmatter
 *  N kept, M parsed` ('' when it parsed none and kept none). */
function frontsSaid(f: FrontStats | undefined): string {
  if (f === undefined || f.kept + f.parsed === 0) return '';
  return `frontmatter ${f.kept} kept${f.parsed > 0 ? `, ${f.parsed} parsed` : ''}${f.wrote > 0 ? ', written' : ''}`;
}

/** The call, from `--args` or from the command's own arguments. */
function readCall(face: ToolFace, tool: AnyTool, ctx: RunContext): Call {
  const json = ctx.flags.args as string | undefined;
  if (json === undefined) return { value: fromArguments(face, ctx.flags, ctx.positionals), source: 'user' };
  if (ctx.positionals.length > 0) throw new UsageError(`--args cannot be combined with ${face.positionals ?? either(positionalNames(face))}`, ctx.positionals[0]);
  for (const name of Object.keys(face.gives)) {
    if (isFlag(face, name) && given(ctx.flags[name])) throw new UsageError(`--args cannot be combined with --${name}`, '--args');
  }
  const text = json === '-' ? stdinArgs(tool) : json;
  const parsed = text === undefined ? { ok: false as const, problem: tooLargeProblem(tool.argsBytes) } : parseToolJson(text, tool.argsBytes);
  return parsed.ok ? { value: parsed.value, source: 'model' } : { refused: { ok: false, problem: parsed.problem } };
}

/** `--args -`: the arguments on stdin, read up to one byte past the
 *  tool's limit (a longer text is refused as too large: undefined). A
 *  write tool stores what it is given: its arguments must be valid
 *  UTF-8. */
function stdinArgs(tool: AnyTool): string | undefined {
  if (tool.access === 'read') return readInput(0, tool.argsBytes);
  const r = utf8Input(readInputBytes(0, tool.argsBytes), tool.argsBytes);
  if ('invalidAt' in r) throw new UsageError(`the arguments on stdin are not valid UTF-8: ${badByte(r)}; nothing was written`, '--args');
  return 'text' in r ? r.text : undefined;
}

function badByte(r: { invalidAt: number; byte: number }): string {
  return `byte 0x${r.byte.toString(16).padStart(2, '0')} at offset ${r.invalidAt}`;
}

/** A text argument given as `-`: stdin, refused when longer than `limit`
 *  bytes or not valid UTF-8 (never replaced: what is written is what was
 *  given). */
function stdinText(limit: number): string {
  const r = utf8Input(readInputBytes(0, limit), limit);
  if ('tooLong' in r) throw new UsageError(`the text on stdin is longer than ${limit} bytes`, '-');
  if ('invalidAt' in r) throw new UsageError(`the text on stdin is not valid UTF-8: ${badByte(r)}; nothing was written`, '-');
  return r.text;
}

function isFlag(face: ToolFace, name: string): boolean {
  return (face.args[name] as { type?: string } | undefined)?.type !== 'positional';
}

function given(v: string | boolean | string[] | undefined): boolean {
  return Array.isArray(v) ? v.length > 0 : v !== undefined;
}

function positionalNames(face: ToolFace): string[] {
  return Object.keys(face.gives).filter((n) => !isFlag(face, n)).map((n) => n.toUpperCase());
}

/** `a`, `a or b`, `a, b or c`. */
function either(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : words.join('');
}

/** `a`, `a and b`, `a, b and c`. */
function both(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words.join('');
}

/** The call the command's own arguments make: each positional and flag
 *  `gives` names, as the tool's parameter. */
function fromArguments(face: ToolFace, flags: Flags, words: readonly string[]): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  const positionals = filter(Object.entries(face.gives), ([n]) => !isFlag(face, n));
  let at = 0;
  for (let i = 0; i < positionals.length; i++) {
    const g = positionals[i][1];
    if (at >= words.length) {
      if (g.optional) continue;
      throw missing(positionals.slice(i), words);
    }
    if (g.rest === undefined) {
      value[g.param] = words[at++];
      continue;
    }
    const rest = words.slice(at);
    at = words.length;
    if (g.rest === 'list') value[g.param] = rest;
    else value[g.param] = g.stdin !== undefined && rest.length === 1 && rest[0] === '-' ? stdinText(g.stdin) : rest.join(' ');
  }
  if (at < words.length) throw new UsageError(`kb ${face.tool} takes one ${positionals.map(([n]) => n.toUpperCase()).join(' and one ')}`, words[at]);
  for (const [name, g] of Object.entries(face.gives)) {
    if (!isFlag(face, name) || !given(flags[name])) continue;
    const v = flags[name];
    value[g.param] = typeof v === 'string' && !REPEATABLE.has(name) ? flagValue(face, name, g.param, v) : v;
  }
  return value;
}

/** The positionals left out: `missing TOPIC and TEXT (or --args JSON)`,
 *  or the one a `-` may stand for. */
function missing(left: [string, Gives][], words: readonly string[]): UsageError {
  const names = left.filter(([, g]) => !g.optional).map(([n]) => n.toUpperCase());
  if (words.length === 0) return new UsageError(`missing ${both(names)} (or --args JSON)`);
  const stdin = left.length === 1 && left[0][1].stdin !== undefined;
  return new UsageError(`missing ${both(names)}${stdin ? ' (or - to read it from stdin)' : ''}`, words[words.length - 1]);
}

/** A flag's value as its parameter's schema wants it: an integer
 *  parameter takes a whole number within its bounds. */
function flagValue(face: ToolFace, flag: string, param: string, v: string): unknown {
  const tool = toolNamed(face.tool)!;
  const s: JsonSchema | undefined = tool.parameters.properties[param];
  if (s?.type !== 'integer') return v;
  const range = `${s.minimum ?? 0} to ${s.maximum ?? Number.MAX_SAFE_INTEGER}`;
  if (!/^\d{1,9}$/.test(v)) throw new UsageError(`invalid --${flag} "${v}": a whole number from ${range}`, `--${flag}`);
  const n = Number(v);
  if ((s.minimum !== undefined && n < s.minimum) || (s.maximum !== undefined && n > s.maximum)) throw new UsageError(`invalid --${flag} ${n}: from ${range}`, `--${flag}`);
  return n;
}

/** A refusal of the user's command line, naming the argument the way the
 *  command does (`TEXT`, `--tag`). */
function inCommandLine(face: ToolFace, r: Refused): string {
  if (r.key === undefined || r.says === undefined) return r.problem;
  const arg = Object.entries(face.gives).find(([, g]) => g.param === r.key)?.[0];
  if (arg === undefined) return r.problem;
  return `${isFlag(face, arg) ? `--${arg}` : arg.toUpperCase()} ${r.says}`;
}
