// The dispatcher of `kb mcp`: what to do with each message a transport
// reads. A request is checked against its method's params (methods.ts)
// and queued (queue.ts), or answered at once (ping) or with its error; a
// notification is taken (`notifications/cancelled` aborts its request); a
// JSON-RPC batch is taken entry by entry where the protocol agreed on has
// batches (2025-03-26), its replies sent back together as one array.
// Replies go where the transport said the message's replies go.
import { debug, warn } from '../shared/log.ts';
import { stepsTaken } from '../shared/pace.ts';
import { humanSize, utf8Length } from '../shared/text.ts';
import { errorLine, INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, NO_BATCHES, parseMessage, resultLine, topLevelId, type Incoming } from './jsonrpc.ts';
import { methodOf, paramsProblem } from './methods.ts';
import { type Queued, RequestQueue, type QueueHooks } from './queue.ts';
import { type KbSession, RequestError, roomFor } from './session.ts';
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

/** Where a queued request's reply goes. */
interface To {
  reply: Reply;
  batch?: Batch;
  slot: number;
}

type One = Exclude<Incoming, { kind: 'batch' }>;

export class Dispatcher {
  readonly queue: RequestQueue<To>;
  /** Messages read (a message's place in stderr's lines). */
  private lineNo = 0;

  /** `hooks`: the transport's side of the queue (when a request may
   *  start, and what its turns change); `maxMessage`: the largest message
   *  read, for the error a larger one gets. */
  constructor(
    private readonly session: KbSession,
    hooks: Pick<QueueHooks<To>, 'ready' | 'changed' | 'idle'>,
    private readonly maxMessage: number,
  ) {
    this.queue = new RequestQueue<To>({ ...hooks, run: (req) => this.answer(req), deliver: (req, reply) => this.deliver(req.to, reply) });
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
    if (msg.kind === 'batch') this.batch(msg.entries, line.bytes, lineNo, reply);
    else this.take(msg, line.bytes, lineNo, { reply, slot: 0 });
  }

  /** An error reply. One to a message whose id could not be read has id
   *  null (JSON-RPC 2.0), or no id once 2025-11-25 or later is agreed (its
   *  schema has no null id). */
  private errorReply(idText: string, code: number, message: string): string {
    const protocol = this.session.protocol;
    return errorLine(idText === 'null' && protocol !== undefined && protocol >= NO_NULL_ID ? undefined : idText, code, message);
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
        if (msg.method === 'notifications/cancelled') this.queue.cancel(msg.params.requestId);
        // initialized, progress, roots...: nothing to do
        return send(undefined);
      case 'request': {
        const method = methodOf(msg.method);
        if (method?.immediate) return send(resultLine(msg.idText, JSON.stringify(method.handle(this.session, msg.params))));
        const problem = to.batch !== undefined && method?.alone ? { code: INVALID_REQUEST, message: `invalid request: ${msg.method} cannot be part of a batch` } : paramsProblem(method, msg.method, msg.params);
        if (problem !== undefined) {
          complain(where, problem.message);
          return send(this.errorReply(msg.idText, problem.code, problem.message));
        }
        method!.onRead?.(this.session, msg.params);
        this.queue.push({ id: msg.id, idText: msg.idText, method: msg.method, params: msg.params, bytes, to, ...(method!.uncancellable ? { uncancellable: true } : {}) });
        return;
      }
    }
  }

  /** A JSON-RPC batch: taken where the protocol agreed on has batches
   *  (2025-03-26); refused otherwise (before initialize, and in 2024-11-05
   *  and 2025-06-18 on, which have none). */
  private batch(entries: string[], bytes: number, lineNo: number, reply: Reply): void {
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
      this.take(one, share, `${lineNo}, entry ${i + 1}`, { reply, batch, slot: i });
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
  private async answer(req: Queued<To>): Promise<string> {
    const session = this.session;
    session.request = req.idText;
    session.room = roomFor(req.to.batch?.bytes);
    const signal = req.control.signal;
    const started = performance.now();
    void debug(() => `kb mcp: request ${req.idText} (${req.method}) started`);
    try {
      const method = methodOf(req.method);
      if (method === undefined) throw new RequestError(METHOD_NOT_FOUND, `method not found: ${req.method}`);
      const result = await method.handle(session, req.params, signal);
      if (signal.aborted) void debug(`kb mcp: request ${req.idText} (${req.method}) was cancelled after it finished its work; no reply`);
      return resultLine(req.idText, JSON.stringify(result));
    } catch (err) {
      if (err instanceof RequestError) return this.errorReply(req.idText, err.code, err.message);
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
