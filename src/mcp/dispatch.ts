// The dispatcher of `kb mcp`: what to do with each message a transport
// reads. A request is answered by its revision (revisions.ts: the version
// its `_meta` names, else the one `initialize` agreed on), checked against
// its method's params (methods.ts) and queued (queue.ts), or answered at
// once (ping) or with its error; `subscriptions/listen` is kept open
// (subscriptions.ts); a notification is taken (`notifications/cancelled`
// aborts its request, or ends its subscription); a JSON-RPC batch is taken
// entry by entry where the protocol agreed on has batches (2025-03-26),
// its replies sent back together as one array. Under 2026-07-28 a result
// carries what that revision adds (modern.ts). Replies go where the
// transport said the message's replies go.
import { debug, warn } from '../shared/log.ts';
import { stepsTaken } from '../shared/pace.ts';
import { humanSize, utf8Length } from '../shared/text.ts';
import { errorLine, INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, NO_BATCHES, parseMessage, resultLine, topLevelId, type Incoming } from './jsonrpc.ts';
import { methodOf, paramsProblem } from './methods.ts';
import { modernCode, modernResult } from './modern.ts';
import { type Queued, RequestQueue, type QueueHooks } from './queue.ts';
import { isProblem, legacy, type Revision, revisionOf } from './revisions.ts';
import { type KbSession, RequestError, roomFor } from './session.ts';
import { type Filter, Subscriptions } from './subscriptions.ts';
import type { Line, Reply } from './transport.ts';

/** The versions that have JSON-RPC batches: 2025-03-26 requires servers to
 *  take them; 2025-06-18 dropped them. */
const BATCH_VERSIONS = new Set(['2025-03-26']);

/** The most entries one batch may hold: as many requests as may wait. */
export const MAX_BATCH = 32;

/** From this version on, an error whose id could not be read has no id
 *  (rather than JSON-RPC's null). */
const NO_NULL_ID = '2025-11-25';

/** A batch being answered: the replies so far, by entry, how many
 *  entries are not done, and the bytes the replies so far hold (their
 *  results share one batch's room, session.ts BATCH_LIMIT). */
interface Batch {
  parts: (string | undefined)[];
  open: number;
  bytes: number;
  reply: Reply;
}

/** Where a queued request's reply goes, and the revision that answers
 *  it; or, for `job`, work of kb's own that takes its turn (a look of the
 *  subscriptions), with no reply. */
interface To {
  reply: Reply;
  batch?: Batch;
  slot: number;
  /** When its message arrived (performance.now()). */
  at?: number;
  revision?: Revision;
  job?: () => Promise<void>;
}

/** A job's id: NaN equals no id, so that no `notifications/cancelled`
 *  reaches it. */
const JOB_ID = Number.NaN;

type One = Exclude<Incoming, { kind: 'batch' }>;

export class Dispatcher {
  readonly queue: RequestQueue<To>;
  readonly subscriptions: Subscriptions;
  /** Messages read (a message's place in stderr's lines). */
  private lineNo = 0;
  /** A request of 2026-07-28 was read: the client opened with that
   *  revision (basic/versioning, "a dual-era server selects its behavior
   *  from how the client opens"); what cannot be read then has its error
   *  without an id, as in 2025-11-25. */
  private openedModern = false;

  /** `hooks`: the transport's side of the queue (when a request may
   *  start, and what its turns change); `maxMessage`: the largest message
   *  read, for the error a larger one gets. */
  constructor(
    private readonly session: KbSession,
    hooks: Pick<QueueHooks<To>, 'ready' | 'changed' | 'idle'>,
    private readonly maxMessage: number,
  ) {
    this.queue = new RequestQueue<To>({ ...hooks, run: (req) => this.answer(req), deliver: (req, reply) => this.deliver(req.to, reply) });
    const noReply: Reply = () => {};
    this.subscriptions = new Subscriptions(session, (job) => this.queue.push({ id: JOB_ID, idText: 'job', method: '', params: {}, bytes: 0, to: { reply: noReply, slot: 0, job } }));
  }

  /** One message as a transport read it. */
  message(line: Line, reply: Reply): void {
    const lineNo = ++this.lineNo;
    if (line.tooLarge) {
      const idText = topLevelId(line.head) ?? 'null';
      const message = `the message is ${humanSize(line.bytes)}, larger than the limit of ${humanSize(this.maxMessage)}; it was not read`;
      complain(lineNo, `${message}${idText === 'null' ? '' : ` (id ${idText})`}`);
      reply(this.errorReply(idText, INVALID_REQUEST, message));
      return;
    }
    if (line.text.trim() === '') return;
    const msg = parseMessage(line.text);
    const at = line.at ?? performance.now();
    if (msg.kind === 'batch') this.batch(msg.entries, line.bytes, lineNo, reply, at);
    else this.take(msg, line.bytes, lineNo, { reply, slot: 0, at });
  }

  /** An error reply. One to a message whose id could not be read has id
   *  null (JSON-RPC 2.0), or no id once 2025-11-25 or later is agreed (its
   *  schema has no null id). */
  private errorReply(idText: string, code: number, message: string, data?: unknown): string {
    const protocol = this.session.protocol;
    const noId = protocol !== undefined ? protocol >= NO_NULL_ID : this.openedModern;
    return errorLine(idText === 'null' && noId ? undefined : idText, code, message, data);
  }

  /** One message, on its own or as an entry of a batch (its reply then
   *  goes into the batch's reply). */
  private take(msg: One, bytes: number, where: string | number, to: To): void {
    const send = (text: string | undefined): void => this.deliver(to, text);
    switch (msg.kind) {
      case 'invalid':
        complain(where, msg.message);
        return send(this.errorReply(msg.idText, msg.code, msg.message));
      case 'response':
        complain(where, `a response (id ${msg.idText}) to a request kb never sent; ignored`);
        return send(undefined);
      case 'notification':
        if (msg.method === 'notifications/cancelled') this.cancel(msg.params.requestId);
        // initialized, progress, roots...: nothing to do
        return send(undefined);
      case 'request':
        return this.request(msg, bytes, where, to);
    }
  }

  /** `notifications/cancelled`: the request of that id stops, or the
   *  subscription of that id ends. */
  private cancel(id: unknown): void {
    this.queue.cancel(id);
    if (typeof id === 'string' || typeof id === 'number') this.subscriptions.cancel(typeof id === 'string' ? JSON.stringify(id) : String(id));
  }

  /** A request: queued, answered at once (ping), kept open
   *  (subscriptions/listen), or answered with its error. */
  private request(msg: Extract<One, { kind: 'request' }>, bytes: number, where: string | number, to: To): void {
    const send = (text: string | undefined): void => this.deliver(to, text);
    const revision = revisionOf(msg.params, this.session.protocol);
    const refuse = (problem: { code: number; message: string; data?: unknown }) => {
      complain(where, problem.message);
      send(this.errorReply(msg.idText, problem.code, problem.message, problem.data));
    };
    if (isProblem(revision)) return refuse(revision);
    if (revision.modern) this.openedModern = true;
    const method = methodOf(msg.method, revision);
    if (method?.immediate) return send(resultLine(msg.idText, JSON.stringify(method.handle(this.session, msg.params))));
    let problem = paramsProblem(method, msg.method, msg.params);
    if (method === undefined && revision.modern && methodOf(msg.method) !== undefined) problem = { code: problem!.code, message: `${problem!.message} (not part of protocol ${revision.version})` };
    else if (to.batch !== undefined && method?.alone) problem = { code: INVALID_REQUEST, message: `invalid request: ${msg.method} cannot be part of a batch` };
    else if (to.batch !== undefined && revision.modern) problem = { code: INVALID_REQUEST, message: `invalid request: protocol ${revision.version} has no batches` };
    if (problem !== undefined) return refuse(problem);
    if (method!.listen) {
      const refused = this.subscriptions.listen(msg.idText, (msg.params.notifications ?? {}) as Filter, to.reply);
      if (refused !== undefined) refuse(refused);
      return;
    }
    method!.onRead?.(this.session, msg.params);
    this.queue.push({ id: msg.id, idText: msg.idText, method: msg.method, params: msg.params, bytes, to: { ...to, revision }, ...(method!.uncancellable ? { uncancellable: true } : {}) });
  }

  /** A JSON-RPC batch: taken where the protocol agreed on has batches
   *  (2025-03-26); refused otherwise (before initialize, and in 2024-11-05
   *  and 2025-06-18 on, which have none). */
  private batch(entries: string[], bytes: number, lineNo: number, reply: Reply, at: number): void {
    let refusal: string | undefined;
    const protocol = this.session.protocol;
    if (!protocol || !BATCH_VERSIONS.has(protocol)) refusal = NO_BATCHES;
    else if (entries.length === 0) refusal = 'invalid request: an empty batch';
    else if (entries.length > MAX_BATCH) refusal = `invalid request: a batch of ${entries.length} messages, more than the limit of ${MAX_BATCH}; none was read`;
    if (refusal !== undefined) {
      complain(lineNo, refusal);
      reply(this.errorReply('null', INVALID_REQUEST, refusal));
      return;
    }
    const batch: Batch = { parts: [], open: entries.length, bytes: 0, reply };
    const share = Math.ceil(bytes / entries.length);
    entries.forEach((text, i) => {
      const msg = parseMessage(text);
      // A batch inside a batch is not a message.
      const one: One = msg.kind === 'batch' ? { kind: 'invalid', code: INVALID_REQUEST, idText: 'null', message: 'invalid request: a message must be an object, not array' } : msg;
      this.take(one, share, `${lineNo}, entry ${i + 1}`, { reply, batch, slot: i, at });
    });
  }

  /** A message's reply (undefined: none). An entry of a batch is done
   *  with it; the batch's reply goes out with the last entry. A batch of
   *  notifications has none. */
  private deliver(to: To, text: string | undefined): void {
    const batch = to.batch;
    if (batch === undefined) {
      if (text !== undefined) to.reply(text);
      return;
    }
    if (text !== undefined) {
      batch.parts[to.slot] = text.endsWith('\n') ? text.slice(0, -1) : text;
      batch.bytes += utf8Length(text);
    }
    batch.open--;
    if (batch.open > 0) return;
    const replies = batch.parts.filter((p) => p !== undefined);
    if (replies.length > 0) batch.reply(`[${replies.join(',')}]\n`);
  }

  /** A queued request's reply: its result, or its error. */
  private async answer(req: Queued<To>): Promise<string | undefined> {
    const session = this.session;
    session.request = req.idText;
    session.room = roomFor(req.to.batch?.bytes);
    session.since = req.to.at;
    if (req.to.job !== undefined) {
      await req.to.job();
      return undefined;
    }
    const signal = req.control.signal;
    const started = performance.now();
    const revision = req.to.revision ?? legacy(session.protocol);
    void debug(() => `kb mcp: request ${req.idText} (${req.method}) started`);
    try {
      const method = methodOf(req.method, revision);
      if (method === undefined) throw new RequestError(METHOD_NOT_FOUND, `method not found: ${req.method}`);
      const result = await method.handle(session, req.params, signal, { revision });
      if (signal.aborted) void debug(`kb mcp: request ${req.idText} (${req.method}) was cancelled after it finished its work; no reply`);
      return resultLine(req.idText, JSON.stringify(revision.modern ? modernResult(req.method, result) : result));
    } catch (err) {
      if (err instanceof RequestError) return this.errorReply(req.idText, revision.modern ? modernCode(err.code) : err.code, err.message);
      if (signal.aborted && err === signal.reason) {
        // Its reply is dropped (the queue sends none for a cancelled request).
        // Its steps: files read or indexed, topics and terms ranked (shared/pace.ts).
        void debug(`kb mcp: request ${req.idText} (${req.method}) was cancelled; its work stopped after ${Math.round(performance.now() - started)} ms and ${stepsTaken(signal)} steps; no reply`);
        return '';
      }
      const message = err instanceof Error ? err.message : String(err);
      void warn(`kb mcp: request ${req.idText} (${req.method}) failed: ${message}`);
      return this.errorReply(req.idText, INTERNAL_ERROR, message);
    }
  }
}

/** One short line on stderr about a message kb could not take. */
function complain(line: number | string, what: string): void {
  void warn(`kb mcp: line ${line}: ${what}`);
}
