// `kb mcp --http [HOST:]PORT`: the Streamable HTTP transport, on node:http
// (both runtimes have it; no framework), over the same dispatcher as stdio
// (dispatch.ts). Imported only when --http is given.
//
// - Protocol 2026-07-28, stateless: every POST carries one request, named
//   by its `_meta` and mirrored in the MCP-Protocol-Version, Mcp-Method
//   and Mcp-Name headers (checked against the body: HeaderMismatch,
//   http-rules.ts). Each request is answered by a session of its own
//   forked from the server's (session.ts: caches, cursors and warnings are
//   shared), so any replica answers any request. The reply is JSON, or an
//   SSE stream when the client accepts only that; `subscriptions/listen`
//   is always a stream. Closing the stream cancels the request.
// - Protocol 2025-11-25 (and 2025-03-26, 2025-06-18), for SDK 1.x clients:
//   `initialize` opens a session (Mcp-Session-Id), DELETE ends it, and it
//   expires when idle. GET (server-sent messages) is 405: kb sends none
//   under those revisions.
// - Secure by default (docs/mcp.md, "Over HTTP"): Origin checked (403),
//   bearer token (401), limits on headers, body, time, concurrency and
//   sessions, errors that say what was wrong and nothing of the server.
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { debug, isVerbose, warn } from '../shared/log.ts';
import { Dispatcher } from './dispatch.ts';
import { type Lane, Lanes, laneOf } from './lanes.ts';
import { accepts, bearerOf, headerMismatch, originAllowed, tokenMatches } from './http-rules.ts';
import { META, MODERN_VERSIONS, PROTOCOL_VERSIONS, SUPPORTED_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION } from './revisions.ts';
import type { KbSession } from './session.ts';

const MiB = 1024 * 1024;

export interface HttpOptions {
  host: string;
  port: number;
  token: string | undefined;
  allowOrigins: readonly string[];
  /** Seconds a client may take to send one request's headers, or its
   *  body, and a keep-alive connection may stay idle. */
  timeout: number;
  /** Seconds a 2025-11-25 session lives unused. */
  idle: number;
}

/** The limits (docs/mcp.md lists them). */
export const HTTP_LIMITS = {
  /** A request's headers together (431 past it). */
  headerBytes: 16 * 1024,
  /** A request's body (413 past it): as stdio's longest message. */
  bodyBytes: 2 * MiB,
  /** Requests being read or answered at once (503 past it). */
  inFlight: 64,
  /** ... of them from one address (429 past it). */
  perClient: 32,
  /** Open connections (more are closed at once). */
  connections: 1024,
  /** 2025-11-25 sessions at once (503 past it). */
  sessions: 256,
} as const;

/** A 2025-11-25 session: its own session (the version it agreed on) and
 *  dispatcher, and when it was last used. */
interface LegacySession {
  id: string;
  session: KbSession;
  dispatcher: Dispatcher;
  used: number;
}

type Json = Record<string, unknown>;

export class HttpTransportServer {
  private readonly http: HttpServer;
  private readonly sessions = new Map<string, LegacySession>();
  private readonly perClient = new Map<string, number>();
  private inFlight = 0;
  private connections = 0;
  /** Dispatchers with an open `subscriptions/listen` stream. */
  private readonly listening = new Set<Dispatcher>();
  private stopping = false;
  private readonly lanes = new Lanes();
  private idleWaiters: (() => void)[] = [];
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly root: KbSession,
    private readonly options: HttpOptions,
  ) {
    this.http = createServer({ maxHeaderSize: HTTP_LIMITS.headerBytes }, (req, res) => this.handle(req, res));
    this.http.on('connection', (socket: Socket) => this.connected(socket));
    this.http.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
      const status = err.code === 'HPE_HEADER_OVERFLOW' || /header/i.test(err.message) ? '431 Request Header Fields Too Large' : '400 Bad Request';
      if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      else socket.destroy();
    });
  }

  /** Listens; resolves with the address and port bound. */
  listen(): Promise<{ host: string; port: number }> {
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.options.host, () => {
        this.http.off('error', reject);
        const a = this.http.address();
        const port = typeof a === 'object' && a !== null ? a.port : this.options.port;
        this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, Math.max(250, (this.options.idle * 1000) / 4)));
        resolve({ host: this.options.host, port });
      });
    });
  }

  /** Stops taking connections; resolves when every request read is
   *  answered (open streams are ended, answered as stdio ends them). */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweeper);
    this.http.close();
    this.http.closeIdleConnections?.();
    for (const d of this.listening) d.subscriptions.closeAll();
    while (this.inFlight > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
    for (const s of this.sessions.values()) s.dispatcher.subscriptions.closeAll();
    this.sessions.clear();
    this.http.closeAllConnections?.();
  }

  /** Each connection must send a request's headers within the timeout,
   *  and may stay idle between requests no longer (slow headers). */
  private connected(socket: Socket): void {
    if (++this.connections > HTTP_LIMITS.connections || this.stopping) {
      socket.destroy();
      this.connections--;
      return;
    }
    const state = { busy: false, timer: undefined as ReturnType<typeof setTimeout> | undefined };
    const arm = () => {
      clearTimeout(state.timer);
      state.timer = setTimeout(() => {
        if (!state.busy) socket.destroy();
      }, this.options.timeout * 1000);
    };
    sockets.set(socket, { enter: () => ((state.busy = true), clearTimeout(state.timer)), leave: () => ((state.busy = false), arm()) });
    socket.on('close', () => {
      clearTimeout(state.timer);
      this.connections--;
    });
    arm();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const sock = sockets.get(req.socket);
    sock?.enter();
    const client = req.socket.remoteAddress ?? '?';
    let counted = false;
    res.on('close', () => {
      sock?.leave();
      if (counted) this.release(client);
      if (isVerbose()) void debug(`kb mcp: ${client} ${req.method} ${JSON.stringify(req.url?.slice(0, 100))} ${res.statusCode}${res.writableFinished ? '' : ' (closed early)'} ${(performance.now() - started).toFixed(1)} ms${methodNote(req)}`);
    });
    if (this.stopping) res.setHeader('connection', 'close');
    const path = (req.url ?? '').split('?')[0];
    if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) return plain(res, 200, this.stopping ? 'stopping\n' : 'ok\n');
    if (path !== '/mcp') return plain(res, 404, 'not found: the MCP endpoint is /mcp\n');
    if (!originAllowed(header(req, 'origin'), this.options.allowOrigins)) return rpcError(res, 403, undefined, -32600, 'forbidden: this Origin may not reach the server (kb mcp --allow-origin)');
    const token = this.options.token;
    if (token !== undefined && !tokenMatches(bearerOf(header(req, 'authorization')), token)) {
      const given = header(req, 'authorization') !== undefined;
      res.setHeader('www-authenticate', `Bearer realm="kb"${given ? ', error="invalid_token"' : ''}`);
      return rpcError(res, 401, undefined, -32600, given ? 'unauthorized: the bearer token is not the right one' : 'unauthorized: a bearer token is required (Authorization: Bearer ...)');
    }
    if (req.method === 'DELETE') return this.delete(req, res);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST, DELETE');
      return rpcError(res, 405, undefined, -32600, `method not allowed: ${String(req.method).slice(0, 20)}; the MCP endpoint takes POST (and DELETE to end a session)`);
    }
    if (this.stopping) return rpcError(res, 503, undefined, -32600, 'the server is stopping');
    if ((this.perClient.get(client) ?? 0) >= HTTP_LIMITS.perClient) return busy(res, 429, `${HTTP_LIMITS.perClient} requests from this address are being answered, the most at once`);
    if (this.inFlight >= HTTP_LIMITS.inFlight) return busy(res, 503, `${HTTP_LIMITS.inFlight} requests are being answered, the most at once`);
    counted = true;
    this.inFlight++;
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    void this.post(req, res, started);
  }

  private release(client: string): void {
    this.inFlight--;
    const n = (this.perClient.get(client) ?? 1) - 1;
    if (n <= 0) this.perClient.delete(client);
    else this.perClient.set(client, n);
    if (this.inFlight === 0) {
      const w = this.idleWaiters;
      this.idleWaiters = [];
      for (const r of w) r();
    }
  }

  private async post(req: IncomingMessage, res: ServerResponse, started: number): Promise<void> {
    const type = (header(req, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') return rpcError(res, 415, undefined, -32600, 'unsupported media type: the body must be application/json');
    const accept = accepts(header(req, 'accept'));
    if (!accept.json && !accept.sse) return rpcError(res, 406, undefined, -32600, 'not acceptable: the client must accept application/json or text/event-stream');
    const body = await readBody(req, res, this.options.timeout);
    if (body === undefined) return;
    let msg: unknown;
    try {
      msg = JSON.parse(body);
    } catch {
      return rpcError(res, 400, undefined, -32700, 'parse error: the body is not JSON');
    }
    const headerVersion = header(req, 'mcp-protocol-version');
    if (modernVersion(msg) !== undefined || (headerVersion !== undefined && !PROTOCOL_VERSIONS.includes(headerVersion) && !isLegacySession(req))) return this.modern(req, res, msg, body, accept, started);
    return this.legacy(req, res, msg, body, started);
  }

  /** A 2026-07-28 request: its headers checked, answered by a session of
   *  its own. */
  private modern(req: IncomingMessage, res: ServerResponse, msg: unknown, body: string, accept: { json: boolean; sse: boolean }, started: number): void {
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return rpcError(res, 400, undefined, -32600, 'invalid request: protocol 2026-07-28 takes one JSON-RPC request per POST');
    const m = msg as Json;
    const id = m.id;
    const idText = typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined;
    if (typeof m.method !== 'string') return rpcError(res, 400, idText, -32600, 'invalid request: a client sends requests and notifications, never responses');
    const params = m.params !== null && typeof m.params === 'object' && !Array.isArray(m.params) ? (m.params as Json) : {};
    const version = modernVersion(msg);
    const headerVersion = header(req, 'mcp-protocol-version') ?? '';
    if (idText !== undefined && version === undefined && !MODERN_VERSIONS.includes(headerVersion)) {
      const data = { supported: SUPPORTED_VERSIONS, requested: headerVersion.slice(0, 100) };
      return rpcError(res, 400, idText, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${JSON.stringify(data.requested)}; kb speaks ${SUPPORTED_VERSIONS.join(', ')}`, data);
    }
    // A version kb does not speak in the body: the dispatcher answers it.
    if (idText !== undefined && (version === undefined || MODERN_VERSIONS.includes(version))) {
      const mismatch = headerMismatch({ version: header(req, 'mcp-protocol-version'), method: header(req, 'mcp-method'), name: header(req, 'mcp-name') }, { method: m.method, params, version: version ?? '(none in _meta)' });
      if (mismatch !== undefined) return rpcError(res, 400, idText, -32020, mismatch);
    }
    if (idText === undefined) {
      // A notification: nothing of 2026-07-28 is sent by clients over HTTP
      // (closing a stream cancels); taken and dropped.
      res.writeHead(202).end();
      return;
    }
    const dispatcher = this.dispatcher(this.root.fork());
    const sse = m.method === 'subscriptions/listen' || !accept.json;
    if (sse && !accept.sse) return rpcError(res, 406, idText, -32600, 'not acceptable: subscriptions/listen answers with text/event-stream');
    const exchange = new Exchange(res, sse, true);
    if (m.method === 'subscriptions/listen') {
      this.listening.add(dispatcher);
      res.on('close', () => this.listening.delete(dispatcher));
    }
    // Closing the stream (or the connection) cancels the request.
    res.on('close', () => {
      if (!exchange.done) dispatcher.message({ text: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${idText}}}`, bytes: 0 }, () => {});
    });
    if (m.method === 'subscriptions/listen') dispatcher.message({ text: body, bytes: body.length, at: started }, (text) => exchange.reply(text));
    else void this.inTurn(laneOf(m.method, params), res, exchange, () => dispatcher.message({ text: body, bytes: body.length, at: started }, (text) => exchange.reply(text)));
  }

  /** Runs a request when its turn comes in its lane (lanes.ts): one at a
   *  time in each lane, in the order read (two building one search index
   *  at once would each hold it); a quick request never waits behind a
   *  heavy one. A request whose client went away meanwhile is not run. */
  private async inTurn(lane: Lane, res: ServerResponse, exchange: Exchange, run: () => void): Promise<void> {
    // A request that waits its turn has the file events told meanwhile:
    // its check of the topics then stats only what the watchers cannot
    // see (kb/index/cache.ts `syncSoon`).
    if (this.lanes.occupied(lane)) this.root.cache.syncSoon();
    await this.lanes.enter(lane);
    if (res.destroyed || exchange.done) return this.lanes.leave(lane);
    exchange.onDone = () => this.lanes.leave(lane);
    res.on('close', () => exchange.finished());
    run();
  }

  /** A request of the revisions before 2026-07-28: sessions. */
  private legacy(req: IncomingMessage, res: ServerResponse, msg: unknown, body: string, started: number): void {
    const headerVersion = header(req, 'mcp-protocol-version');
    if (headerVersion !== undefined && !PROTOCOL_VERSIONS.includes(headerVersion)) return rpcError(res, 400, undefined, -32600, `bad request: unsupported MCP-Protocol-Version ${JSON.stringify(headerVersion.slice(0, 40))}`);
    const sid = header(req, 'mcp-session-id');
    const initialize = !Array.isArray(msg) && msg !== null && typeof msg === 'object' && (msg as Json).method === 'initialize';
    let s: LegacySession | undefined;
    if (sid === undefined) {
      if (!initialize) return rpcError(res, 400, undefined, -32600, 'bad request: no Mcp-Session-Id; send initialize first (or name protocol 2026-07-28 in _meta)');
      if (this.sessions.size >= HTTP_LIMITS.sessions) return busy(res, 503, `${HTTP_LIMITS.sessions} sessions are open, the most at once`);
      const session = this.root.fork();
      s = { id: randomUUID(), session, dispatcher: this.dispatcher(session), used: Date.now() };
      this.sessions.set(s.id, s);
      void debug(`kb mcp: session ${s.id} opened`);
    } else {
      s = this.sessions.get(sid);
      if (s === undefined) return rpcError(res, 404, undefined, -32600, 'session not found: it ended or expired; initialize again');
      if (initialize) return rpcError(res, 400, undefined, -32600, 'bad request: this session is initialized already');
    }
    s.used = Date.now();
    res.setHeader('mcp-session-id', s.id);
    const isRequest = Array.isArray(msg) ? msg.some((e) => e !== null && typeof e === 'object' && 'method' in e && 'id' in e) : msg !== null && typeof msg === 'object' && 'method' in msg && 'id' in msg;
    const exchange = new Exchange(res, false, false);
    const dispatcher = s.dispatcher;
    if (isRequest) void this.inTurn(legacyLane(msg, dispatcher), res, exchange, () => dispatcher.message({ text: body, bytes: body.length, at: started }, (text) => exchange.reply(text)));
    else {
      // Notifications and responses: taken at once (a cancellation must
      // not wait behind what it cancels), accepted with no body.
      dispatcher.message({ text: body, bytes: body.length, at: started }, (text) => exchange.reply(text));
      if (!exchange.done) {
        exchange.done = true;
        res.writeHead(202).end();
      }
    }
    const live = s;
    res.on('close', () => (live.used = Date.now()));
  }

  private delete(req: IncomingMessage, res: ServerResponse): void {
    const sid = header(req, 'mcp-session-id');
    if (sid === undefined) return rpcError(res, 400, undefined, -32600, 'bad request: DELETE ends a session; no Mcp-Session-Id was given');
    const s = this.sessions.get(sid);
    if (s === undefined) return rpcError(res, 404, undefined, -32600, 'session not found: it ended or expired');
    this.end(s, 'ended by the client');
    res.writeHead(200).end();
  }

  private end(s: LegacySession, why: string): void {
    this.sessions.delete(s.id);
    s.dispatcher.queue.clear();
    s.dispatcher.subscriptions.closeAll();
    void debug(`kb mcp: session ${s.id} ${why}`);
  }

  /** Sessions unused for longer than the idle time end. */
  private sweep(): void {
    const limit = Date.now() - this.options.idle * 1000;
    for (const s of [...this.sessions.values()]) if (s.used < limit && !s.dispatcher.queue.busy) this.end(s, `expired after ${this.options.idle} s unused`);
  }

  private dispatcher(session: KbSession): Dispatcher {
    return new Dispatcher(session, { ready: async () => true, changed: () => {}, idle: () => {} }, HTTP_LIMITS.bodyBytes);
  }
}

/** How long a client may take to read a reply. */
const WRITE_TIMEOUT_MS = 60_000;

/** How often an open stream says it is alive (an SSE comment). */
const KEEP_ALIVE_MS = 25_000;

/** What the connection watch does as a request comes and goes. */
const sockets = new WeakMap<object, { enter(): void; leave(): void }>();

/** One POST's replies: the final response ends it (as JSON, or as the
 *  last event of its stream); notifications before it are events of the
 *  stream (a JSON reply has none to carry). */
class Exchange {
  done = false;
  /** Called once, when the exchange ends (its reply sent, or its client gone). */
  onDone: (() => void) | undefined;

  finished(): void {
    const f = this.onDone;
    this.onDone = undefined;
    f?.();
  }

  constructor(
    private readonly res: ServerResponse,
    private readonly sse: boolean,
    private readonly modern: boolean,
  ) {}

  reply(text: string): void {
    if (this.done || this.res.destroyed) return;
    text = withoutInternals(text);
    const final = !text.startsWith('{"jsonrpc":"2.0","method"');
    if (this.sse) {
      if (!this.res.headersSent) this.open();
      this.res.write(`event: message\ndata: ${text.trimEnd()}\n\n`);
      if (final) this.finish();
      return;
    }
    if (!final) return;
    this.done = true;
    this.res.writeHead(this.modern ? statusOf(text) : 200, { 'content-type': 'application/json' });
    this.res.end(text);
    this.untaken();
    this.finished();
  }

  private finish(): void {
    this.done = true;
    this.res.end();
    this.untaken();
    this.finished();
  }

  /** A reply the client does not take within WRITE_TIMEOUT_MS ends its
   *  connection: a client that never reads holds no memory for long. */
  private untaken(): void {
    const res = this.res;
    const timer = setTimeout(() => res.destroy(), WRITE_TIMEOUT_MS);
    res.on('close', () => clearTimeout(timer));
  }

  /** The stream's head, and a comment every KEEP_ALIVE_MS while it is
   *  open, so that proxies and clients do not take a quiet
   *  `subscriptions/listen` stream for a dead one. */
  private open(): void {
    this.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    const timer = setInterval(() => {
      if (!this.done && !this.res.destroyed) this.res.write(':\n\n');
    }, KEEP_ALIVE_MS);
    this.res.on('close', () => clearInterval(timer));
  }
}

/** An internal error's message names what the server holds (a path, a
 *  configuration file's line): over HTTP it stays on stderr, and the client
 *  is told only that the server cannot answer. */
function withoutInternals(text: string): string {
  const m = /^\{"jsonrpc":"2\.0",("id":(?:-?[\d.eE+]+|"(?:[^"\\]|\\.)*"),)?"error":\{"code":-32603,/.exec(text);
  if (!m) return text;
  void warn(`kb mcp: internal error answered over HTTP: ${text.trimEnd().slice(0, 2000)}`);
  return `{"jsonrpc":"2.0",${m[1] ?? ''}"error":{"code":-32603,"message":"internal error: the server cannot answer this request now; its log (stderr) says why"}}\n`;
}

/** The HTTP status of a 2026-07-28 reply: 404 for a method kb does not
 *  serve, 400 for an unsupported version, a request it cannot read or a
 *  capability missing; 200 otherwise (a result, or an error the client
 *  reads in it). */
function statusOf(text: string): number {
  const m = /^\{"jsonrpc":"2\.0",(?:"id":(?:-?[\d.eE+]+|"(?:[^"\\]|\\.)*"),)?"error":\{"code":(-?\d{1,6})/.exec(text);
  if (!m) return 200;
  const code = Number(m[1]);
  if (code === -32601) return 404;
  if (code === -32022 || code === -32700 || code === -32600 || code === -32020 || code === -32021) return 400;
  return 200;
}

/** How much of a refused body is still read, and for how long, before
 *  its connection is closed (lingerThenClose). */
const LINGER_BYTES = 8 * 1024 * 1024;
const LINGER_MS = 2_000;

/**
 * Ends the connection of a request whose body was refused while its
 * client still sends it: the reply has gone out, and what follows is read
 * and dropped until the body ends (the connection is closed then) or
 * LINGER_BYTES more arrive (then nothing more is read) and LINGER_MS pass
 * (then it is closed), as web servers' lingering close.
 * Closed at once, with bytes unread, the connection is reset, and a client
 * still writing loses the reply it had not read yet: a 64 MiB chunked body
 * got no answer about one time in three. (No `Connection: close` header:
 * with it the runtime closes the connection as the reply ends.)
 */
function lingerThenClose(req: IncomingMessage): void {
  const socket = req.socket;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
}

/** The body, within the limits of size and time; undefined when it was
 *  refused (413, 408: answered here). */
function readBody(req: IncomingMessage, res: ServerResponse, timeout: number): Promise<string | undefined> {
  const limit = HTTP_LIMITS.bodyBytes;
  const declared = Number(header(req, 'content-length') ?? '0');
  const refuse = (n: number) => rpcError(res, 413, undefined, -32600, `payload too large: the body is ${n > limit ? `over ${limit} bytes` : 'too large'}; the limit is ${limit} bytes`);
  if (declared > limit) {
    // What the client still sends is not read: the connection ends.
    res.setHeader('connection', 'close');
    refuse(declared);
    res.on('finish', () => req.socket.destroy());
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (v: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(v);
    };
    const timer = setTimeout(() => {
      res.setHeader('connection', 'close');
      rpcError(res, 408, undefined, -32600, `request timeout: the body did not arrive within ${timeout} s`);
      res.on('finish', () => req.socket.destroy());
      settle(undefined);
    }, timeout * 1000);
    let lingering = false;
    req.on('data', (chunk: Buffer) => {
      if (lingering) {
        size += chunk.length;
        // Past LINGER_BYTES, nothing more is read: the client's writes
        // wait (the connection's window fills) while it reads the reply,
        // and the timer closes the connection (closed now, with bytes
        // unread, it was reset before a client behind on its reading had
        // read the reply: 413 lost under load).
        if (size > limit + LINGER_BYTES) req.pause();
        return;
      }
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        refuse(size);
        settle(undefined);
        lingerThenClose(req);
        lingering = true;
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => (lingering ? req.socket.destroy() : settle(Buffer.concat(parts).toString('utf8'))));
    req.on('error', () => settle(undefined));
    req.on('close', () => settle(undefined));
  });
}

/** The version a request's `_meta` names, when it is not a legacy one. */
function modernVersion(msg: unknown): string | undefined {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return undefined;
  const params = (msg as Json).params;
  if (params === null || typeof params !== 'object') return undefined;
  const meta = (params as Json)._meta;
  if (meta === null || typeof meta !== 'object') return undefined;
  const v = (meta as Json)[META.protocolVersion];
  return typeof v === 'string' && !PROTOCOL_VERSIONS.includes(v) ? v : undefined;
}

/** A session's request goes in the quick lane when it is one quick
 *  request and its session has nothing waiting or running (a session's
 *  requests are answered in order: one behind its session's heavy request
 *  would hold the quick lane meanwhile). */
function legacyLane(msg: unknown, dispatcher: Dispatcher): Lane {
  if (dispatcher.queue.busy || msg === null || typeof msg !== 'object' || Array.isArray(msg)) return 'heavy';
  const m = msg as Json;
  return typeof m.method === 'string' ? laneOf(m.method, m.params) : 'heavy';
}

function isLegacySession(req: IncomingMessage): boolean {
  return header(req, 'mcp-session-id') !== undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function methodNote(req: IncomingMessage): string {
  const m = header(req, 'mcp-method');
  return m === undefined ? '' : ` ${JSON.stringify(m.slice(0, 60))}`;
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

/** An HTTP error with a JSON-RPC error body (no id where none was read):
 *  what was wrong, never a path, a stack or the configuration. */
function rpcError(res: ServerResponse, status: number, idText: string | undefined, code: number, message: string, data?: unknown): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`{"jsonrpc":"2.0",${idText === undefined ? '' : `"id":${idText},`}"error":${JSON.stringify(data === undefined ? { code, message } : { code, message, data })}}\n`);
}

function busy(res: ServerResponse, status: number, why: string): void {
  res.setHeader('retry-after', '1');
  rpcError(res, status, undefined, -32600, `${status === 429 ? 'too many requests' : 'service unavailable'}: ${why}; try again shortly`);
}
