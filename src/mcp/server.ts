// `kb mcp`: a Model Context Protocol server on stdio (newline-delimited
// JSON-RPC 2.0). It is imported only when `kb mcp` runs (the entry module,
// src/cli.ts, hands it to the mcp command). This module wires three parts:
// the transport (transport.ts; stdio.ts), the request queue (queue.ts: one
// AbortSignal per request, reaching the operation) and the dispatcher over
// the method table (dispatch.ts, methods.ts).
//
// kb speaks the protocol itself rather than through the MCP SDK: the few
// methods it serves are below, and what the SDK's stdio transport and
// protocol layer did not bound or answer is what this module exists for:
// - memory: a message over 2 MiB is answered with an error, never held
//   (stdio.ts); at most 32 requests (4 MiB) wait; reading stops while they do,
//   and no new work starts while stdout holds more than 1 MiB the client has
//   not read; one result holds at most 4 MiB of text, and so do the
//   replies of one batch together (session.ts);
// - replies go out as each request completes; a ping is answered at once,
//   also while a long index build or load runs (the operation yields to
//   the event loop every few milliseconds); a cancelled request sends no
//   reply, and a running one stops its work (it reads no further file);
// - bad input gets its JSON-RPC error (-32700, -32600, -32601, -32602) and
//   one short line on stderr; ids are echoed as sent, 2^53 and above too;
// - params are JSON as sent: a `"__proto__"` key in learn arguments reaches
//   the same check as `kb learn --args`;
// - JSON-RPC batches are taken when 2025-03-26 is agreed (at most 32
//   entries, replies as one array) and refused for the other versions;
// - protocol 2026-07-28 beside the legacy revisions: a request whose
//   `_meta` names it is answered by it alone (revisions.ts), with no
//   handshake; at most 16 `subscriptions/listen` streams are open at once,
//   watching at most 256 resources (subscriptions.ts);
// - a failed write to stdout ends the server, exit 1.
//
// stdout carries protocol messages only: everything else goes to stderr.
// The server stops, exit 0, when stdin closes (the client went away) or on
// SIGINT / SIGTERM, after answering the requests it has read; a second
// signal exits at once, exit 1.
import { COSTS } from '../render/costs.ts';
import { KnowledgeBase, type WorkspaceOptions } from '../app/knowledge-base.ts';
import { KbError, UsageError } from '../shared/errors.ts';
import { debug, warn } from '../shared/log.ts';
import { printError } from '../shared/stdio.ts';
import { Dispatcher } from './dispatch.ts';
import { KbSession } from './session.ts';
import { StdioTransport } from './stdio.ts';
import type { Transport } from './transport.ts';
import type { ServeOptions } from '../shared/serve-options.ts';

export { METHODS, paramsProblem } from './methods.ts';

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

export async function serve(options: WorkspaceOptions, serving: ServeOptions = { write: [] }): Promise<number> {
  // Library code must not reach stdout through console.log either.
  console.log = console.info = console.debug = console.error;
  // Over HTTP (http-main.ts: loaded only then).
  const http = serving.http;
  if (http !== undefined) {
    const main = await import('./http-main.ts');
    const settings = main.httpSettings(http);
    const kb = await KnowledgeBase.open(options, { costs: COSTS });
    return main.serveHttp(kb, options, writableTopics(kb, serving.write), serving.list, settings);
  }

  // Fail fast on what a restart would not fix by itself: no workspace, a bad
  // --cfg or -k. Problems inside the configuration files are reported per
  // request instead, so that fixing them needs no restart.
  const kb = await KnowledgeBase.open(options, { costs: COSTS });
  await debug(`kb mcp: serving workspace ${kb.config.root} on stdio`);
  const writable = writableTopics(kb, serving.write);
  if (writable.size > 0) await debug(`kb mcp: remember, revise and forget may write to ${[...writable].join(', ')}`);

  const session = new KbSession(options, writable, serving.list);
  const server = new Server(session, new StdioTransport(process.stdin, process.stdout, MAX_MESSAGE));
  const failure = await server.run();
  process.stdin.destroy();
  if (failure) {
    const code = (failure as { code?: string }).code;
    const what = code === 'ENOSPC' ? 'no space left on device' : code === 'EPIPE' ? 'broken pipe (the client closed it)' : failure.message;
    throw new KbError(`cannot write to stdout: ${what}`, 'stdout');
  }
  await debug('kb mcp: stopped');
  return 0;
}

/** Writing is opt-in, per topic: the --write topics, checked now. */
function writableTopics(kb: KnowledgeBase, names: readonly string[]): Set<string> {
  const writable = new Set<string>();
  for (const name of names) {
    const t = kb.resolveTopic(name);
    if (t === undefined) throw new UsageError(`--write: unknown topic "${name}"; the topics are ${kb.topics.map((x) => x.id).join(', ') || '(none)'}`, '--write');
    if (!t.enable) throw new UsageError(`--write: topic "${t.id}" is disabled`, '--write');
    writable.add(t.id);
  }
  return writable;
}

/** One server's life on one transport: reading flows while the queue's
 *  bounds allow; it ends when the input ended (or a signal came) and
 *  everything read is answered and written, or when writing failed. */
class Server {
  private readonly dispatcher: Dispatcher;
  private inputDone = false;
  private stopping = false;
  private signals = 0;
  private finish!: (failure?: Error) => void;

  constructor(
    private readonly session: KbSession,
    private readonly transport: Transport,
  ) {
    this.dispatcher = new Dispatcher(
      session,
      {
        ready: async () => {
          await transport.below(MAX_UNREAD);
          return transport.failure === undefined;
        },
        changed: () => this.flow(),
        idle: () => this.settle(),
      },
      MAX_MESSAGE,
    );
  }

  async run(): Promise<Error | undefined> {
    const finished = new Promise<Error | undefined>((resolve) => (this.finish = resolve));
    const onSignal = () => this.onSignal();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    this.transport.start({
      message: (line, reply) => {
        this.dispatcher.message(line, reply);
        this.flow();
      },
      end: (err) => {
        if (err) void warn(`kb mcp: cannot read stdin: ${err.message}`);
        this.inputDone = true;
        // Open subscriptions end with the server: each is answered.
        this.dispatcher.subscriptions.closeAll();
        this.settle();
      },
      drained: () => {
        this.flow();
        this.settle();
      },
      failed: () => {
        // Nowhere to answer: stop reading and drop what waits.
        this.transport.close();
        this.dispatcher.queue.clear();
        this.dispatcher.subscriptions.closeAll();
        this.settle();
      },
    });
    const failure = await finished;
    this.session.cache.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    this.transport.close();
    return failure;
  }

  /** Reading stops while too much waits, and starts again once it drained. */
  private flow(): void {
    if (this.stopping || this.inputDone) return;
    const queue = this.dispatcher.queue;
    if (queue.length >= MAX_QUEUED || queue.bytes >= MAX_QUEUED_BYTES || this.transport.unreadReplies >= MAX_UNREAD_REPLIES) this.transport.pause();
    else this.transport.resume();
  }

  private settle(): void {
    const failure = this.transport.failure;
    if (failure) return this.finish(failure);
    if ((this.inputDone || this.stopping) && !this.dispatcher.queue.busy && this.transport.unreadReplies === 0) this.finish();
  }

  /** The first signal stops reading and answers what was read; a second
   *  exits at once. */
  private onSignal(): void {
    this.signals++;
    if (this.signals === 1) {
      this.stopping = true;
      this.transport.close();
      this.dispatcher.subscriptions.closeAll();
      void debug('kb mcp: stopping: answering the requests already read');
      this.settle();
      return;
    }
    const left = this.dispatcher.queue.live;
    printError(`error: stopped by a second signal; ${left} request${left === 1 ? '' : 's'} left unanswered (kb mcp)\n`);
    // The watchers, and the file-event barrier's folder (kb/index/cache.ts).
    this.session.cache.close();
    process.exit(1);
  }
}
