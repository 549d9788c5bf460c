// The seam between `kb mcp`'s protocol (dispatch.ts, queue.ts) and how
// messages travel. A transport hands each message it reads to the
// dispatcher with a `Reply`, where that message's replies go, and reports
// how much output its client has not taken yet, so that the server stops
// reading and starting work while a client does not read. stdio.ts is the
// one transport today (newline-delimited messages, one client for the
// server's life). A transport of one request per exchange (HTTP) gives
// each message a `Reply` of its own, and its own protocol version.
/** A message as read: its text, or only its head when it was too large
 *  to be read (its size, to answer it). */
export type Line = ({ text: string; bytes: number; tooLarge?: undefined } | { tooLarge: true; head: string; bytes: number }) & {
  /** When it arrived (performance.now()), if before it is handed over. */
  at?: number;
};

/** Where the replies to one message go: a whole JSON-RPC message (or
 *  batch), ending in a newline. */
export type Reply = (text: string) => void;

/** What a transport tells the server. */
export interface TransportEvents {
  /** A message read (or too large to be read), and where its replies go. */
  message(line: Line, reply: Reply): void;
  /** No more messages: the client went away (or reading failed). */
  end(error?: Error): void;
  /** A reply was taken by the client: waiting work may go on. */
  drained(): void;
  /** Writing failed: nowhere to answer. */
  failed(error: Error): void;
}

export interface Transport {
  start(events: TransportEvents): void;
  /** Stops and starts reading (the queue's bounds). */
  pause(): void;
  resume(): void;
  /** Stops reading for good. */
  close(): void;
  /** Replies handed over and not yet taken by the client. */
  readonly unreadReplies: number;
  /** Resolves once at most `bytes` of output are not yet taken. */
  below(bytes: number): Promise<void>;
  /** The first failed write, if any. */
  readonly failure: Error | undefined;
}
