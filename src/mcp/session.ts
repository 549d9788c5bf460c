// What `kb mcp` serves, without the MCP SDK (server.ts wires these to the
// protocol): a thin adapter over the application layer (app/). Every
// request opens the knowledge base again, so edits apply without a restart.
// Nothing here writes to stdout: warnings go to stderr, once per server for
// each distinct message.
import { Buffer } from 'node:buffer';
import { createHmac, randomBytes } from 'node:crypto';
import { LIMITS, patternsProblem } from '../app/args.ts';
import { ConfigShare, KnowledgeBase, type WorkspaceOptions } from '../app/knowledge-base.ts';
import { IndexCache } from '../app/resident.ts';
import { prompt } from '../app/prompt.ts';
import { describeSubjects, read, readLines, subjects } from '../app/resources.ts';
import { isRefused, runTool, servedTools, toolDefinition, toolNamed, type AnyTool } from '../app/tools.ts';
import { COSTS } from '../render/costs.ts';
import { type DataForm, type Form, formsOf } from '../render/forms.ts';
import { toolInFormat } from '../render/providers.ts';
import { linesText, oneLine } from '../render/learn.ts';
import { renderPrompt } from '../render/prompt.ts';
import { resourceText } from '../render/subject.ts';
import { labelOf } from '../render/topic.ts';
import { describe, KbError } from '../shared/errors.ts';
import { debug, warn } from '../shared/log.ts';
import { formatProblem, type Problem } from '../shared/problem.ts';
import { jsonQuoted } from '../shared/controls.ts';
import { compareCodeUnits, humanSize, splitOutsideBraces, utf8Length } from '../shared/text.ts';
import { complete, type CompleteRef } from './complete.ts';
import { INTERNAL_ERROR, INVALID_PARAMS } from './jsonrpc.ts';

import { RequestError, RESOURCE_NOT_FOUND } from './errors.ts';

export { INTERNAL_ERROR, INVALID_PARAMS, RequestError, RESOURCE_NOT_FOUND };

/** The most text one result may hold (UTF-8 bytes): a tool result, a
 *  prompt, a resource. The server holds a result whole (a JSON-RPC reply is
 *  one line), so this bounds its memory; what goes past it is cut, with a
 *  note for the model and a warning on stderr. */
export const RESULT_LIMIT = 4 * 1024 * 1024;

/** The most the replies of one JSON-RPC batch hold together (2025-03-26):
 *  a batch's reply is one message, held whole like one result, so it is
 *  bounded like one (32 loads of 4 MiB each peaked at 630 MiB). */
export const BATCH_LIMIT = RESULT_LIMIT;

/** What one request's result may hold (UTF-8 bytes): one result's limit,
 *  or, for an entry of a batch, what the batch's earlier replies left of
 *  its limit (`batchUsed`: the bytes they took). */
export interface Room {
  limit: number;
  batchUsed?: number;
}

const ONE_RESULT: Room = { limit: RESULT_LIMIT };

/** The room of a request on its own (`used` undefined), or of an entry
 *  of a batch whose earlier replies took `used` bytes. */
export function roomFor(used: number | undefined): Room {
  return used === undefined ? ONE_RESULT : { limit: Math.max(0, BATCH_LIMIT - used), batchUsed: used };
}

/** A `tools/call` result: the model's text, and, from 2025-06-18 on, the
 *  same outcome as data. */
export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/** One form that writes to two: the text and the data of one call. */
function both<E, O>(a: Form<E, O>, b: DataForm<E, O>): Form<E, O> {
  return {
    event: (e) => {
      a.event(e);
      b.event(e);
    },
    end: (o) => {
      a.end(o);
      b.end(o);
    },
    refused: (r, tool) => {
      a.refused(r, tool);
      b.refused(r, tool);
    },
  };
}

/** `utf8Length` of `s`, counted natively where `s` is well formed (no
 *  lone surrogate: both count alike then); 16 times faster on a subject
 *  of 5 KB, and every result is counted. */
function byteLength(s: string): number {
  return (s as { isWellFormed?: () => boolean }).isWellFormed?.() === true ? Buffer.byteLength(s, 'utf8') : utf8Length(s);
}

/** Text up to a number of UTF-8 bytes: what goes past it is dropped. */
export class BoundedText {
  private readonly parts: string[] = [];
  private bytes = 0;
  cut = false;
  readonly limit: number;

  constructor(readonly room: Room = ONE_RESULT) {
    this.limit = room.limit;
  }

  add(s: string): void {
    if (this.cut || s.length === 0) return;
    const n = byteLength(s);
    if (this.bytes + n <= this.limit) {
      this.parts.push(s);
      this.bytes += n;
      return;
    }
    // Whole characters only: encodeInto never splits one.
    const room = new Uint8Array(this.limit - this.bytes);
    const { read } = new TextEncoder().encodeInto(s, room);
    this.parts.push(s.slice(0, read));
    this.bytes = this.limit;
    this.cut = true;
  }

  /** The text, with the note for the model when it was cut. */
  text(what: string): string {
    const text = this.parts.join('');
    if (!this.cut) return text;
    if (text === '') return `${cutNote(what, this.room)}\n`;
    return `${text}${text.endsWith('\n') ? '' : '\n'}\n${cutNote(what, this.room)}\n`;
  }
}

/** What the model reads where a result was cut. */
export function cutNote(what: string, room: Room = ONE_RESULT): string {
  if (room.batchUsed === undefined) return `[The result was cut here: it reached the limit of ${humanSize(room.limit)} for one result. ${what}]`;
  return `[The result was cut here: it reached the limit of ${humanSize(BATCH_LIMIT)} for the replies of one batch (the replies before it in the batch took ${humanSize(room.batchUsed)}). ${what} Send large requests apart, not in one batch.]`;
}



export const PROMPT_NAME = 'knowledge';
export const PROMPT_ARGUMENT = 'knowledge';
export const URI_SCHEME = 'kb://';
/** The one resource template: a subject by topic ID and slug. */
export const SUBJECT_TEMPLATE = `${URI_SCHEME}{topic}/{+slug}`;
/** Lines of a subject: `kb://<topic>/<slug>?lines=120-160`. */
export const SUBJECT_LINES_TEMPLATE = `${URI_SCHEME}{topic}/{+slug}{?lines}`;

/** What every session of one server shares: on stdio there is one
 *  session; over HTTP each request of protocol 2026-07-28, and each
 *  2025-11-25 session, is answered by a session of its own (its protocol
 *  version, its request's limits), forked from one. */
export class SessionShared {
  readonly warned = new Set<string>();
  /** Topic indexes and probes between requests, watched (an edited,
   *  added, removed or renamed file shows in the next request); closed by
   *  the server at shutdown. */
  readonly cache = new IndexCache((line) => void debug(line));
  /** The `resources/list` cursors this server issues. */
  readonly cursors: Cursors;
  /** The configuration last loaded, for the requests that arrived before
   *  its loading began. */
  readonly configs = new ConfigShare();

  /** `key`: what cursors are signed with; by default a key of this
   *  server's own (replicas given the same key take each other's). */
  constructor(readonly key: Uint8Array = randomBytes(32)) {
    this.cursors = new Cursors(key);
  }
}

export class KbSession {
  private readonly warned: Set<string>;
  readonly cache: IndexCache;
  /** The protocol version `initialize` agreed on (server.ts), if any. */
  protocol: string | undefined;
  private readonly cursors: Cursors;

  /** The topics the write tools may write (`kb mcp --write`); none: the
   *  tools are not served. */
  /** `listed`: the topics the `knowledge` prompt lists by default (`kb
   *  mcp --list`, KB_PROMPT_LIST). */
  constructor(
    private readonly options: WorkspaceOptions,
    private readonly writable: ReadonlySet<string> = new Set(),
    private readonly listed: { names: readonly string[]; from: string } = { names: [], from: '--list' },
    readonly shared: SessionShared = new SessionShared(),
  ) {
    this.warned = shared.warned;
    this.cache = shared.cache;
    this.cursors = shared.cursors;
  }

  /** A session of its own (no protocol agreed yet) sharing this one's
   *  caches, cursors and warnings. */
  fork(): KbSession {
    return new KbSession(this.options, this.writable, this.listed, this.shared);
  }

  /** The tools served, in order (app/tools.ts). */
  served(): AnyTool[] {
    return servedTools(this.writable);
  }

  /** A warning on stderr, the first time it is seen. */
  note(problem: Problem): void {
    const message = formatProblem(problem);
    if (this.warned.has(message)) return;
    this.warned.add(message);
    void warn(message);
  }

  /** The knowledge base as it is now, plus extra `-k` values. */
  async open(knowledge: readonly string[] = []): Promise<KnowledgeBase> {
    // Kept indexes checked by an event barrier where stats would cost more.
    if (this.since !== undefined) await this.cache.ready(this.since);
    let kb: KnowledgeBase;
    try {
      kb = await KnowledgeBase.open({ ...this.options, knowledge: [...this.options.knowledge, ...knowledge] }, { cache: this.cache, configs: this.shared.configs, costs: COSTS, ...(this.since !== undefined ? { since: this.since } : {}) });
    } catch (err) {
      if (err instanceof KbError) throw new RequestError(knowledge.length > 0 ? INVALID_PARAMS : INTERNAL_ERROR, describe(err));
      throw err;
    }
    const fatal = kb.fatal();
    if (fatal) throw new RequestError(INTERNAL_ERROR, `invalid configuration: ${formatProblem(fatal)}`);
    for (const p of kb.problems) this.note(p);
    return kb;
  }

  /** Reports what the enabled topics' walks noticed. */
  private noteTopics(kb: KnowledgeBase): void {
    for (const topic of kb.topics) if (topic.enable) for (const p of kb.topicProblems(topic)) this.note(p);
  }

  // --- tools ---------------------------------------------------------------

  /** The tools served (app/tools.ts: the read tools, and the write tools
   *  with `--write`), each as `kb schema --format mcp --tool NAME` prints
   *  it. Always listed (MCP clients fetch the list once): with nothing to
   *  learn, the descriptions say so and calls answer with the listing or
   *  an error. */
  async tools(structured = false) {
    const kb = await this.open();
    const schemas = structured ? (await import('../render/output-schemas.ts')).OUTPUT_SCHEMAS : undefined;
    const tools = this.served().map((tool) => {
      const listed = toolInFormat('mcp', toolDefinition(kb, tool, this.writable));
      return schemas === undefined ? listed : { ...listed, outputSchema: schemas[tool.name] };
    });
    this.noteTopics(kb);
    return tools;
  }

  /** `tools/call`: the same text as `kb <tool> --args`, bounded to one
   *  result's limit; errors (bad arguments, unknown topic, nothing loaded,
   *  unusable configuration) are `isError` results the model can read. The
   *  arguments are as the client sent them (own "__proto__" keys included),
   *  checked by the rule `--args` applies. `structured` (2025-06-18 and
   *  later): the outcome as data too, in `structuredContent` (what
   *  `kb <tool> --format json` prints, its tool's `outputSchema`). */
  async callTool(name: string, args: unknown, signal?: AbortSignal, structured = false): Promise<ToolResult> {
    const served = this.served();
    const tool = served.find((t) => t.name === name);
    if (tool === undefined) {
      const hint = toolNamed(name)?.access === 'write' ? ' (writing is off: start the server with kb mcp --write TOPIC)' : '';
      throw new RequestError(INVALID_PARAMS, `unknown tool ${jsonQuoted(clipName(name))}${hint}; the tools are ${served.map((t) => `"${t.name}"`).join(', ')}`);
    }
    const result = (text: string, isError: boolean) => ({ content: [{ type: 'text' as const, text }], isError });
    let kb: KnowledgeBase;
    try {
      kb = await this.open();
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      return result(`The knowledge base cannot be used right now: ${err.message}\n`, true);
    }
    const out = new BoundedText(this.room);
    const [forms] = await Promise.all([formsOf(tool.name), tool.load()]);
    const text = forms.text((chunk) => out.add(chunk as string));
    const data = structured ? forms.data() : undefined;
    const form = data === undefined ? text : both(text, data);
    const outcome = await runTool(
      kb,
      tool,
      args ?? {},
      { as: 'text', event: form.event, problem: (p) => this.note(p), full: () => out.cut },
      { source: 'model', writable: this.writable, ...(signal !== undefined ? { signal } : {}) },
    );
    if (isRefused(outcome)) form.refused(outcome, tool);
    else form.end(outcome);
    const c = this.cache;
    void debug(`kb mcp: topic indexes kept between requests: ${c.hits} reused, ${c.misses} walked (${c.sharedChecks} reused on a check begun after their request arrived, ${c.watchedChecks} on the file events told since); search indexes: ${c.keptHits} reused, ${c.keptMisses} read; configuration loads shared: ${this.shared.configs.shared}`);
    if (out.cut) this.noteCut('tools/call');
    const isError = isRefused(outcome) || outcome.isError;
    if (data === undefined) return result(out.text(tool.whenCut), isError);
    if (!out.cut) return { content: [{ type: 'text', text: out.text(tool.whenCut) }], structuredContent: data.value(), isError };
    return this.withoutData(out.text(tool.whenCut));
  }

  /** A result whose text was cut: the call stopped there, so its data
   *  would miss what followed, unsaid. The data (`structuredContent`)
   *  is left out and the result is an error, since a client holds the
   *  data of a successful call to its tool's `outputSchema`: the model
   *  reads why, and so does stderr. The data is as large as the text, so
   *  it stays within the same bound. */
  private withoutData(text: string): ToolResult {
    const why = '[The structured result (structuredContent) was left out: the result was cut. Ask for less.]';
    void warn(`kb mcp: the structured result of request ${this.request} (tools/call) was left out: its text was cut; the model was told`);
    return { content: [{ type: 'text', text: `${text}${why}\n` }], isError: true };
  }

  /** Set by the server before each request: names it in warnings. */
  request = '';
  /** Set by the server before each request: what its result may hold. */
  room: Room = ONE_RESULT;
  /** Set by the server before each request: when it arrived
   *  (performance.now()); a check of the kept indexes begun since is as
   *  good as its own (kb/index/cache.ts `get`). */
  since: number | undefined;

  private noteCut(method: string): void {
    const room = this.room;
    const limit = room.batchUsed === undefined ? 'the limit of one result' : `what was left of the limit of ${humanSize(BATCH_LIMIT)} for the replies of one batch`;
    void warn(`kb mcp: the result of request ${this.request} (${method}) was cut at ${humanSize(room.limit)}, ${limit}; the model was told`);
  }

  // --- prompts -------------------------------------------------------------

  prompts() {
    return [
      {
        name: PROMPT_NAME,
        title: 'Knowledge',
        description: 'The <knowledge> system-prompt section: the topics available to learn and any pre-loaded subjects.',
        arguments: [
          {
            name: PROMPT_ARGUMENT,
            description: 'Subjects to pre-load, like kb -k: TOPIC/PATTERN (e.g. project/maintainers/*); several separated by commas or new lines.',
            required: false,
          },
        ],
      },
    ];
  }

  /** `prompts/get knowledge`: exactly what `kb prompt` prints (with the
   *  argument's values as `-k`); no message when it prints nothing. */
  async getPrompt(name: string, args: Record<string, string> | undefined) {
    if (name !== PROMPT_NAME) throw new RequestError(INVALID_PARAMS, `unknown prompt ${jsonQuoted(clipName(name))}; the only prompt is "${PROMPT_NAME}"`);
    const knowledge = knowledgeArgument(args?.[PROMPT_ARGUMENT] ?? '');
    const kb = await this.open(knowledge);
    let section = await prompt(kb, this.room.limit);
    // The server's --list or KB_PROMPT_LIST topics; the listings' module
    // is loaded only when there are some.
    const list = this.listed;
    if (list.names.length > 0) section = await (await import('../app/prompt-list.ts')).withListings(kb, section, list.names, list.from);
    for (const p of section.problems) this.note(p);
    const out = new BoundedText(this.room);
    out.add(renderPrompt(section.prompt));
    if (section.stopped && !out.cut) out.cut = true;
    if (out.cut) this.noteCut('prompts/get');
    const text = out.text('The pre-loaded subjects that followed were not loaded; pre-load fewer subjects.');
    return {
      description: text === '' ? 'The knowledge base has nothing to show.' : 'The <knowledge> system-prompt section.',
      messages: text === '' ? [] : [{ role: 'user' as const, content: { type: 'text' as const, text } }],
    };
  }

  // --- resources -----------------------------------------------------------

  /** Every visible subject of every enabled topic: hidden, disabled, binary
   *  and unreadable ones are never listed. Pre-loaded subjects are listed:
   *  resources are for people and clients to pick from, not the model's
   *  learn listing. */
  async resources(cursor?: string, details = false) {
    const kb = await this.open();
    this.noteTopics(kb);
    // What each says, and its details, are asked for the page alone.
    const all = await subjects(kb, { about: false });
    let from = 0;
    if (cursor !== undefined) {
      const after = this.cursors.parse(cursor);
      if (after === undefined) throw new RequestError(INVALID_PARAMS, `invalid cursor: ${cursorShown(cursor)} is not one this server issued; list again without a cursor`);
      // The first subject after the cursor's, so that a page is neither
      // repeated nor skipped when files come and go between requests. A
      // topic that is gone (or disabled) has no place to go on from.
      const order = (topic: string) => kb.topics.findIndex((t) => t.id === topic && t.enable);
      const at = order(after.topic);
      if (at < 0) throw new RequestError(INVALID_PARAMS, `invalid cursor: its topic ${cursorShown(after.topic)} is no longer served; list again without a cursor`);
      from = all.findIndex((e) => {
        const t = order(e.topic.id);
        return t > at || (t === at && compareCodeUnits(e.slug, after.slug) > 0);
      });
      if (from < 0) from = all.length;
    }
    const page = all.slice(from, from + RESOURCES_PAGE);
    await describeSubjects(kb, page, { details });
    const resources = page.map(({ topic, slug, mimeType, about, title, size, modified }) => ({
      uri: subjectUri(topic.id, slug),
      name: `${topic.id}/${slug}`,
      // The legacy revisions' title is the slug, as it always was; from
      // 2026-07-28 on, the document's title where it has one.
      title: details && title !== undefined ? oneLine(title) : slug,
      // (From 2026-07-28 on, a description that only says the title again
      // gives way to the plain one.)
      description: about !== undefined && !(details && about === title) ? oneLine(about) : `Subject "${slug}" of topic ${labelOf(topic)}`,
      mimeType,
      ...(size !== undefined ? { size } : {}),
      ...(modified !== undefined ? { annotations: { lastModified: modified } } : {}),
    }));
    const last = page.at(-1);
    return from + RESOURCES_PAGE < all.length && last !== undefined ? { resources, nextCursor: this.cursors.make(last.topic.id, last.slug) } : { resources };
  }

  /** The URIs `resources/list` lists now, in order (its pages together). */
  async resourceUris(): Promise<string[]> {
    const kb = await this.open();
    return (await subjects(kb, { about: false })).map((e) => subjectUri(e.topic.id, e.slug));
  }

  resourceTemplates() {
    return [
      {
        uriTemplate: SUBJECT_TEMPLATE,
        name: 'subject',
        title: 'Knowledge-base subject',
        description: 'A subject by topic ID and slug. Hidden subjects are not listed but can be read by their exact slug.',
      },
      {
        uriTemplate: SUBJECT_LINES_TEMPLATE,
        name: 'subject-lines',
        title: 'Lines of a knowledge-base subject',
        description: 'Lines of a subject: lines=120-160, lines=120- (to the end) or lines=120, numbered from 1 as search shows them.',
      },
    ];
  }

  /** `resources/read kb://<topic>/<slug>`: the formatted content, exactly
   *  what `kb learn <topic> <slug>` prints. Hidden subjects are readable by
   *  their exact URI; disabled ones, disabled topics and binary files are
   *  not found. */
  async readResource(uri: string, signal?: AbortSignal) {
    const parsed = parseSubjectUri(uri);
    if (!parsed) throw new RequestError(INVALID_PARAMS, `not a knowledge-base URI: ${uri} (expected ${URI_SCHEME}<topic>/<slug>)`);
    const kb = await this.open();
    const topic = kb.topics.find((t) => t.enable && t.id === parsed.topic);
    if (topic) for (const p of kb.topicProblems(topic)) this.note(p);
    if (parsed.lines !== undefined) return this.readLines(kb, uri, parsed.topic, parsed.slug, parsed.lines, signal);
    const result = read(kb, parsed.topic, parsed.slug, signal !== undefined ? { signal } : {});
    if (result.kind === 'not-found') throw new RequestError(RESOURCE_NOT_FOUND, `resource not found: ${uri} (${result.why})`);
    if (result.kind === 'error') throw new RequestError(INTERNAL_ERROR, `cannot read ${uri}: ${result.message}`);
    for (const p of result.problems) this.note(p);
    const out = new BoundedText(this.room);
    out.add(resourceText(result.content, result.skill));
    if (out.cut) this.noteCut('resources/read');
    return { contents: [{ uri, mimeType: result.mimeType, text: out.text('The rest of the subject is not shown.') }] };
  }

  /** `resources/read kb://<topic>/<slug>?lines=120-160`: what `kb learn
   *  <topic> <slug>:120-160` prints (the lines in their subject block, the
   *  note saying which). */
  private readLines(kb: KnowledgeBase, uri: string, topic: string, slug: string, lines: string, signal?: AbortSignal) {
    const result = readLines(kb, topic, slug, lines, signal !== undefined ? { signal } : {});
    if (result.kind === 'bad-lines') throw new RequestError(INVALID_PARAMS, `invalid lines in ${uri}: ${result.problem} (lines are FIRST-LAST, FIRST- or LINE, numbered from 1)`);
    if (result.kind === 'not-found') throw new RequestError(RESOURCE_NOT_FOUND, `resource not found: ${uri} (${result.why})`);
    if (result.kind === 'error') throw new RequestError(INTERNAL_ERROR, `cannot read ${uri}: ${result.message}`);
    if (result.kind === 'past-end') throw new RequestError(RESOURCE_NOT_FOUND, `resource not found: ${uri} (subject "${slug}" has ${result.lines} line${result.lines === 1 ? '' : 's'})`);
    for (const p of result.problems) this.note(p);
    const out = new BoundedText(this.room);
    out.add(linesText(result));
    if (out.cut) this.noteCut('resources/read');
    return { contents: [{ uri, mimeType: result.mimeType, text: out.text('The rest of the lines are not shown.') }] };
  }

  // --- completions ---------------------------------------------------------

  /** `completion/complete` (complete.ts): the prompt's argument, and the
   *  subject template's topic and slug. */
  async complete(ref: CompleteRef, argument: { name: string; value: string }, context: Readonly<Record<string, string>>) {
    const kb = await this.open();
    return complete(kb, { prompt: PROMPT_NAME, argument: PROMPT_ARGUMENT, template: SUBJECT_TEMPLATE }, ref, argument, context);
  }
}

/** Resources per `resources/list` page: about 120 KB of JSON. A topic of
 *  9,000 subjects (2.5 MB in one reply before) comes in 18 pages, and one
 *  reply never holds a large topic whole. */
export const RESOURCES_PAGE = 500;

/** Opaque `resources/list` cursors: the last subject of a page, signed
 *  with a key of this server's own, so that a cursor it did not issue (made
 *  up, or from an earlier run) is refused rather than read as a place in
 *  the list. */
export class Cursors {
  constructor(private readonly key: Uint8Array = randomBytes(32)) {}

  make(topic: string, slug: string): string {
    const body = JSON.stringify([topic, slug]);
    return Buffer.from(JSON.stringify([topic, slug, this.mac(body)])).toString('base64url');
  }

  parse(cursor: string): { topic: string; slug: string } | undefined {
    if (cursor.length > 8192) return undefined;
    try {
      const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'string')) return undefined;
      const [topic, slug, mac] = v as string[];
      return mac === this.mac(JSON.stringify([topic, slug])) ? { topic, slug } : undefined;
    } catch {
      // Not one of ours.
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, 22);
  }
}

/** A name a client sent, for a message: at most 80 characters. */
function clipName(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

/** A cursor (or its topic) in a message: quoted, escaped, cut. */
function cursorShown(s: string): string {
  return jsonQuoted(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** `kb://<topic>/<slug>`, each path component percent-encoded. */
export function subjectUri(topic: string, slug: string): string {
  return `${URI_SCHEME}${encodeURIComponent(topic)}/${slug.split('/').map(encodeURIComponent).join('/')}`;
}

/** A subject URI's topic and slug, and its `lines` query
 *  (`?lines=120-160`), if any. */
export function parseSubjectUri(uri: string): { topic: string; slug: string; lines?: string } | undefined {
  if (!uri.startsWith(URI_SCHEME)) return undefined;
  const q = uri.indexOf('?');
  let lines: string | undefined;
  if (q >= 0) {
    const m = /^lines=([^&#]*)$/.exec(uri.slice(q + 1));
    if (m === null) return undefined;
    lines = m[1];
  }
  const parts = uri.slice(URI_SCHEME.length, q >= 0 ? q : uri.length).split('/');
  if (parts.length < 2) return undefined;
  try {
    const [topic, ...slug] = parts.map((p) => decodeURIComponent(p));
    if (topic === '' || slug.some((c) => c === '')) return undefined;
    return lines === undefined ? { topic, slug: slug.join('/') } : { topic, slug: slug.join('/'), lines };
  } catch {
    return undefined;
  }
}

/** The prompt argument's values, within the limits of the learn tool's
 *  patterns (app/args.ts): a longer argument is refused before it is
 *  split. */
export function knowledgeArgument(value: string): string[] {
  const bad = (why: string) => new RequestError(INVALID_PARAMS, `invalid "${PROMPT_ARGUMENT}" argument: ${why}`);
  if (value.length > LIMITS.jsonBytes) throw bad(`it is ${value.length} characters long; at most ${LIMITS.jsonBytes} are accepted`);
  const values = splitKnowledge(value);
  const problem = patternsProblem(values, 'it has', (i) => `value ${i + 1}`);
  if (problem !== undefined) throw bad(problem);
  return values;
}

/** The prompt argument: TOPIC/PATTERN values separated by commas or new
 *  lines outside braces (`{a,b}` is one brace pattern), as the learn
 *  tool's near misses split a list (shared/text.ts). */
export function splitKnowledge(value: string): string[] {
  return splitOutsideBraces(value, ',\n\r')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
