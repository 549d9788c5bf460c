// `kb mcp`: a Model Context Protocol server on stdio (newline-delimited
// JSON-RPC 2.0). It is imported only when `kb mcp` runs (the entry module,
// src/cli.ts, hands it to the mcp command).
//
// kb speaks the protocol itself rather than through the MCP SDK: the few
// methods it serves are below, and what the SDK's stdio transport and
// protocol layer did not bound or answer is what this module exists for:
// - memory: a message over 2 MiB is answered with an error, never held
//   (stdio.ts); at most 32 requests (4 MiB) wait; reading stops while they do,
//   and no new work starts while stdout holds more than 1 MiB the client has
//   not read; one result holds at most 4 MiB of text, and so do the
//   replies of one batch together (session.ts);
// - replies go out as each request completes; a ping is answered at once
//   and a cancelled request that has not started is dropped;
// - bad input gets its JSON-RPC error (-32700, -32600, -32601, -32602) and
//   one short line on stderr; ids are echoed as sent, 2^53 and above too;
// - params are JSON as sent: a `"__proto__"` key in learn arguments reaches
//   the same check as `kb learn --args`;
// - JSON-RPC batches are taken when 2025-03-26 is agreed (at most 32
//   entries, replies as one array) and refused for the other versions;
// - a failed write to stdout ends the server, exit 1.
//
// stdout carries protocol messages only: everything else goes to stderr.
// The server stops, exit 0, when stdin closes (the client went away) or on
// SIGINT / SIGTERM, after answering the requests it has read; a second
// signal exits at once, exit 1.
import { setImmediate } from 'node:timers';
import { COSTS } from '../render/costs.ts';
import { KnowledgeBase, type WorkspaceOptions } from '../app/knowledge-base.ts';
import { KbError, UsageError } from '../shared/errors.ts';
import { debug, warn } from '../shared/log.ts';
import { printError } from '../shared/stdio.ts';
import { humanSize, typeName, utf8Length } from '../shared/text.ts';
import { VERSION } from '../shared/version.ts';
import { errorLine, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, NO_BATCHES, parseMessage, resultLine, topLevelId, type Id, type Incoming } from './jsonrpc.ts';
import { KbSession, RequestError, roomFor } from './session.ts';
import { LineReader, Writer, type Line } from './stdio.ts';

const INSTRUCTIONS =
  'A file-based knowledge base of topics and subjects. The `knowledge` prompt is the system-prompt section that lists the topics; ' +
  'the `learn` tool lists a topic (topic only) or loads subjects by slug or glob; the `search` tool finds subjects by what they say; ' +
  'every listed subject is also a kb://<topic>/<slug> resource.';

const WRITE_INSTRUCTIONS = 'The `remember` tool saves a new subject to a writable topic (never a duplicate); `revise` replaces a subject\'s text when a fact changed (its earlier text is kept); `forget` removes one.';

/** Protocol versions kb speaks, newest first: a client asking for another
 *  gets the newest (MCP lifecycle, version negotiation). */
const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** The version kb answers a client asking for `asked` with. */
function negotiate(asked: string): string {
  return PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0];
}

/** The versions that have JSON-RPC batches: 2025-03-26 requires servers to
 *  take them; 2025-06-18 dropped them. */
const BATCH_VERSIONS = new Set(['2025-03-26']);

/** The most entries one batch may hold: as many requests as may wait. */
const MAX_BATCH = 32;

/** From this version on, an error whose id could not be read has no id
 *  (rather than JSON-RPC's null). */
const NO_NULL_ID = '2025-11-25';

const CAPABILITIES = { tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false, subscribe: false } };

const MiB = 1024 * 1024;
/** The longest message read (a learn call's arguments are refused past
 *  1 MiB anyway). */
export const MAX_MESSAGE = 2 * MiB;
/** Requests read and waiting their turn: reading stops at either bound. */
const MAX_QUEUED = 32;
const MAX_QUEUED_BYTES = 4 * MiB;
/** Output the client has not read: no new work starts past it. */
const MAX_UNREAD = MiB;
/** Replies the client has not read (pings, errors): reading stops past it. */
const MAX_UNREAD_REPLIES = 64;

interface Request {
  id: Id;
  idText: string;
  method: string;
  params: Record<string, unknown>;
  bytes: number;
  line: number;
  cancelled: boolean;
  /** The batch it came in, and its place there. */
  batch?: Batch;
  slot: number;
}

/** A batch being answered: the replies so far, by entry, how many
 *  entries are not done, and the bytes the replies so far hold (their
 *  results share one batch's room, session.ts BATCH_LIMIT). */
interface Batch {
  parts: (string | undefined)[];
  open: number;
  bytes: number;
}

export async function serve(options: WorkspaceOptions, serving: { write: readonly string[]; list?: { names: string[]; from: string } } = { write: [] }): Promise<number> {
  // Library code must not reach stdout through console.log either.
  console.log = console.info = console.debug = console.error;

  // Fail fast on what a restart would not fix by itself: no workspace, a bad
  // --cfg or -k. Problems inside the configuration files are reported per
  // request instead, so that fixing them needs no restart.
  const kb = await KnowledgeBase.open(options, { costs: COSTS });
  await debug(`kb mcp: serving workspace ${kb.config.root} on stdio`);

  // Writing is opt-in, per topic: the --write topics, checked now.
  const writable = new Set<string>();
  for (const name of serving.write) {
    const t = kb.resolveTopic(name);
    if (t === undefined) throw new UsageError(`--write: unknown topic "${name}"; the topics are ${kb.topics.map((x) => x.id).join(', ') || '(none)'}`, '--write');
    if (!t.enable) throw new UsageError(`--write: topic "${t.id}" is disabled`, '--write');
    writable.add(t.id);
  }
  if (writable.size > 0) await debug(`kb mcp: remember, revise and forget may write to ${[...writable].join(', ')}`);

  const session = new KbSession(options, writable, serving.list);
  const queue: Request[] = [];
  let queuedBytes = 0;
  let running: Request | undefined;
  let pumping = false;
  let lineNo = 0;
  let inputDone = false;
  let stopping = false;

  let finish!: (failure?: Error) => void;
  const finished = new Promise<Error | undefined>((resolve) => (finish = resolve));

  const writer = new Writer(process.stdout, () => {
    // Nowhere to answer: stop reading and drop what waits.
    reader.close();
    queue.length = 0;
    settle();
  }, () => {
    flow();
    settle();
  });

  const reader = new LineReader(process.stdin, MAX_MESSAGE, (line) => onLine(line), (err) => {
    if (err) void warn(`kb mcp: cannot read stdin: ${err.message}`);
    inputDone = true;
    settle();
  });

  /** An error reply. One to a message whose id could not be read has id
   *  null (JSON-RPC 2.0), or no id once 2025-11-25 or later is agreed (its
   *  schema has no null id). */
  function errorReply(idText: string, code: number, message: string): string {
    return errorLine(idText === 'null' && session.protocol !== undefined && session.protocol >= NO_NULL_ID ? undefined : idText, code, message);
  }

  /** One short line on stderr about a message kb could not take. */
  function complain(line: number | string, what: string): void {
    void warn(`kb mcp: line ${line}: ${what}`);
  }

  function onLine(line: Line): void {
    lineNo++;
    if (line.tooLarge) {
      const idText = topLevelId(line.head) ?? 'null';
      const message = `the message is ${humanSize(line.bytes)}, larger than the limit of ${humanSize(MAX_MESSAGE)}; it was not read`;
      complain(lineNo, `${message}${idText === 'null' ? '' : ` (id ${idText})`}`);
      writer.write(errorReply(idText, INVALID_REQUEST, message));
      flow();
      return;
    }
    if (line.text.trim() === '') return;
    const msg = parseMessage(line.text);
    if (msg.kind === 'batch') onBatch(msg.entries, line.bytes);
    else take(msg, line.bytes, lineNo);
    flow();
  }

  /** One message, on its own or as an entry of a batch (its reply then
   *  goes into the batch's reply). */
  function take(msg: Exclude<Incoming, { kind: 'batch' }>, bytes: number, where: string | number, batch?: Batch, slot = 0): void {
    const send = (text: string | undefined): void => {
      if (batch !== undefined) settleSlot(batch, slot, text);
      else if (text !== undefined) writer.write(text);
    };
    switch (msg.kind) {
      case 'invalid':
        complain(where, msg.message);
        return send(errorReply(msg.idText, msg.code, msg.message));
      case 'response':
        complain(where, `a response (id ${msg.idText}) to a request kb never sent; ignored`);
        return send(undefined);
      case 'notification':
        onNotification(msg.method, msg.params);
        return send(undefined);
      case 'request': {
        const method = methodOf(msg.method);
        if (method?.immediate) return send(resultLine(msg.idText, JSON.stringify(method.handle(session, msg.params))));
        const problem = batch !== undefined && msg.method === 'initialize' ? { code: INVALID_REQUEST, message: 'invalid request: initialize cannot be part of a batch' } : paramsProblem(method, msg.method, msg.params);
        if (problem !== undefined) {
          complain(where, problem.message);
          return send(errorReply(msg.idText, problem.code, problem.message));
        }
        // The version is agreed as initialize is read: what follows it in
        // the same chunk (a batch, an unreadable id) is read by it.
        if (msg.method === 'initialize') session.protocol = negotiate(msg.params.protocolVersion as string);
        queue.push({ id: msg.id, idText: msg.idText, method: msg.method, params: msg.params, bytes, line: lineNo, cancelled: false, batch, slot });
        queuedBytes += bytes;
        void pump();
        return;
      }
    }
  }

  /** A JSON-RPC batch: taken entry by entry where the protocol agreed on
   *  has batches (2025-03-26), its replies sent back together as one array
   *  once all are answered; refused otherwise (before initialize, and in
   *  2024-11-05 and 2025-06-18 on, which have none). */
  function onBatch(entries: string[], bytes: number): void {
    let refusal: string | undefined;
    if (!session.protocol || !BATCH_VERSIONS.has(session.protocol)) refusal = NO_BATCHES;
    else if (entries.length === 0) refusal = 'invalid request: an empty batch';
    else if (entries.length > MAX_BATCH) refusal = `invalid request: a batch of ${entries.length} messages, more than the limit of ${MAX_BATCH}; none was read`;
    if (refusal !== undefined) {
      complain(lineNo, refusal);
      writer.write(errorReply('null', INVALID_REQUEST, refusal));
      return;
    }
    const batch: Batch = { parts: [], open: entries.length, bytes: 0 };
    const share = Math.ceil(bytes / entries.length);
    entries.forEach((text, i) => {
      const msg = parseMessage(text);
      // A batch inside a batch is not a message.
      const one: Exclude<Incoming, { kind: 'batch' }> = msg.kind === 'batch' ? { kind: 'invalid', code: INVALID_REQUEST, idText: 'null', message: 'invalid request: a message must be an object, not array' } : msg;
      take(one, share, `${lineNo}, entry ${i + 1}`, batch, i);
    });
  }

  /** One entry of a batch is done (with its reply, or none); the batch's
   *  reply goes out with the last. A batch of notifications has none. */
  function settleSlot(batch: Batch, slot: number, text: string | undefined): void {
    if (text !== undefined) {
      batch.parts[slot] = text.endsWith('\n') ? text.slice(0, -1) : text;
      batch.bytes += utf8Length(text);
    }
    batch.open--;
    if (batch.open > 0) return;
    const replies = batch.parts.filter((p) => p !== undefined);
    if (replies.length > 0) writer.write(`[${replies.join(',')}]\n`);
  }

  function onNotification(method: string, params: Record<string, unknown>): void {
    if (method !== 'notifications/cancelled') return; // initialized, progress, roots...: nothing to do
    const id = params.requestId;
    for (const r of queue) if (r.id === id) r.cancelled = true;
    if (running && running.id === id && running.method !== 'initialize') running.cancelled = true;
  }

  /** Reading stops while too much waits, and starts again once it drained. */
  function flow(): void {
    if (stopping || inputDone) return;
    if (queue.length >= MAX_QUEUED || queuedBytes >= MAX_QUEUED_BYTES || writer.pendingWrites >= MAX_UNREAD_REPLIES) reader.pause();
    else reader.resume();
  }

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    // Start on a later turn: the rest of the chunk at hand is read first,
    // so cancellations and pings in it get through.
    await nextTurn();
    while (queue.length > 0 && !writer.failure) {
      await writer.below(MAX_UNREAD);
      const req = queue.shift();
      if (!req || writer.failure) break;
      queuedBytes -= req.bytes;
      flow();
      if (req.cancelled) {
        if (req.batch) settleSlot(req.batch, req.slot, undefined);
        continue;
      }
      running = req;
      session.request = req.idText;
      session.room = roomFor(req.batch?.bytes);
      const line = await answer(req);
      running = undefined;
      const reply = req.cancelled ? undefined : line;
      if (req.batch) settleSlot(req.batch, req.slot, reply);
      else if (reply !== undefined) writer.write(reply);
      // A turn of the event loop between requests: the reply is written,
      // and pings and cancellations read meanwhile are seen.
      await nextTurn();
      flow();
    }
    pumping = false;
    settle();
  }

  async function answer(req: Request): Promise<string> {
    try {
      const method = methodOf(req.method);
      if (method === undefined) throw new RequestError(METHOD_NOT_FOUND, `method not found: ${req.method}`);
      return resultLine(req.idText, JSON.stringify(await method.handle(session, req.params)));
    } catch (err) {
      if (err instanceof RequestError) return errorReply(req.idText, err.code, err.message);
      const message = err instanceof Error ? err.message : String(err);
      void warn(`kb mcp: request ${req.idText} (${req.method}) failed: ${message}`);
      return errorReply(req.idText, INTERNAL_ERROR, message);
    }
  }

  /** Done when the input ended (or a signal came) and everything read is
   *  answered and written, or when stdout failed. */
  function settle(): void {
    if (writer.failure) return finish(writer.failure);
    if ((inputDone || stopping) && queue.length === 0 && !running && !pumping && writer.pendingWrites === 0) finish();
  }

  let signals = 0;
  const onSignal = () => {
    signals++;
    if (signals === 1) {
      stopping = true;
      reader.close();
      void debug('kb mcp: stopping: answering the requests already read');
      settle();
      return;
    }
    const left = queue.filter((r) => !r.cancelled).length + (running ? 1 : 0);
    printError(`error: stopped by a second signal; ${left} request${left === 1 ? '' : 's'} left unanswered (kb mcp)\n`);
    // The watchers, and the file-event barrier's folder (kb/index/cache.ts).
    session.cache.close();
    process.exit(1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  reader.start();
  const failure = await finished;
  session.cache.close();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  reader.close();
  process.stdin.destroy();
  if (failure) {
    const code = (failure as { code?: string }).code;
    const what = code === 'ENOSPC' ? 'no space left on device' : code === 'EPIPE' ? 'broken pipe (the client closed it)' : failure.message;
    throw new KbError(`cannot write to stdout: ${what}`, 'stdout');
  }
  await debug('kb mcp: stopped');
  return 0;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// --- methods ---------------------------------------------------------------

type Params = Record<string, unknown>;

/** One method kb serves: what its params must hold (the MCP schema's
 *  shapes), and how it is answered. */
interface Method {
  /** The problem with the params (answered -32602), or undefined. */
  params?(p: Params): string | undefined;
  /** Answered as soon as it is read, never queued (ping). */
  immediate?: boolean;
  handle(session: KbSession, p: Params): unknown;
}

const string = (p: Params, key: string) => (typeof p[key] === 'string' ? undefined : `"${key}" must be a string, not ${p[key] === undefined ? 'missing' : typeName(p[key])}`);
const object = (p: Params, key: string) => (p[key] === undefined || typeName(p[key]) === 'object' ? undefined : `"${key}" must be an object, not ${typeName(p[key])}`);
const cursor = (p: Params) => (p.cursor === undefined || typeof p.cursor === 'string' ? undefined : `"cursor" must be a string, not ${typeName(p.cursor)}`);

/** A list kb serves in one page issues no cursor: any cursor is one it did
 *  not issue, -32602 (MCP pagination: an invalid cursor). Returns nothing
 *  otherwise. */
function onePage(method: string, p: Params): undefined {
  if (p.cursor === undefined) return undefined;
  throw new RequestError(INVALID_PARAMS, `invalid cursor: ${method} has one page and issues no cursor; list again without one`);
}

/** Every method kb serves: one table (the protocol's dispatch, like the
 *  MCP SDK's handler map). A method that is not here is answered -32601. */
export const METHODS: Readonly<Record<string, Method>> = {
  ping: { immediate: true, handle: () => ({}) },
  initialize: {
    params: (p) => string(p, 'protocolVersion') ?? object(p, 'capabilities') ?? object(p, 'clientInfo'),
    handle: (session, p) => {
      const asked = p.protocolVersion as string;
      session.protocol = negotiate(asked);
      return {
        protocolVersion: session.protocol,
        capabilities: CAPABILITIES,
        serverInfo: { name: 'kb', version: VERSION },
        instructions: session.writes ? `${INSTRUCTIONS} ${WRITE_INSTRUCTIONS}` : INSTRUCTIONS,
      };
    },
  },
  'tools/list': { params: cursor, handle: async (session, p) => onePage('tools/list', p) ?? { tools: await session.tools() } },
  'tools/call': {
    params: (p) => string(p, 'name') ?? object(p, 'arguments'),
    handle: (session, p) => session.callTool(p.name as string, p.arguments),
  },
  'prompts/list': { params: cursor, handle: (session, p) => onePage('prompts/list', p) ?? { prompts: session.prompts() } },
  'prompts/get': {
    params: (p) => {
      const problem = string(p, 'name') ?? object(p, 'arguments');
      if (problem) return problem;
      const args = (p.arguments ?? {}) as Params;
      for (const [k, v] of Object.entries(args)) if (typeof v !== 'string') return `"arguments"."${k.slice(0, 40)}" must be a string, not ${typeName(v)}`;
      return undefined;
    },
    handle: (session, p) => session.getPrompt(p.name as string, p.arguments as Record<string, string> | undefined),
  },
  'resources/list': { params: cursor, handle: (session, p) => session.resources(typeof p.cursor === 'string' ? p.cursor : undefined) },
  'resources/templates/list': { params: cursor, handle: (session, p) => onePage('resources/templates/list', p) ?? { resourceTemplates: session.resourceTemplates() } },
  'resources/read': { params: (p) => string(p, 'uri'), handle: (session, p) => session.readResource(p.uri as string) },
};

/** The method of that name, if kb serves it. */
function methodOf(name: string): Method | undefined {
  return Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
}

/** A request kb cannot take as sent: a -32601 (no such method) or -32602
 *  (params of the wrong shape) error, or undefined. */
export function paramsProblem(method: Method | undefined, name: string, p: Params): { code: number; message: string } | undefined {
  if (method === undefined) return { code: METHOD_NOT_FOUND, message: `method not found: ${name.length > 60 ? `${name.slice(0, 60)}…` : name}` };
  const problem = method.params?.(p);
  return problem === undefined ? undefined : { code: INVALID_PARAMS, message: `invalid params: ${problem}` };
}
