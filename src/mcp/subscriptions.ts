// `subscriptions/listen` (MCP 2026-07-28, basic/patterns/subscriptions): a
// long-lived request whose answer is a stream of change notifications, on
// stdio the same channel as every reply, each tagged with the request's id
// (`io.modelcontextprotocol/subscriptionId`).
//
// What kb can honestly tell: it watches its topics' files (kb/index/cache.ts
// IndexCache), so a file event has it look again, once the events stop for
// CHECK_DELAY_MS, at
// - the resources it lists (their URIs): `notifications/resources/list_changed`
//   when subjects appeared or went (`resourcesListChanged`);
// - each resource a subscription names (`resourceSubscriptions`): what
//   `resources/read` answers for it, by a digest of its text;
//   `notifications/resources/updated` when that changed (or it is gone).
// The tool and prompt lists send no notification: those filter fields are
// left out of the acknowledgement, as are URIs that are not kb:// URIs.
// What no watcher sees sends nothing (a configuration edit, a file reached
// through a symbolic link, a platform without file watching): every such
// result has `ttlMs` 0 (modern.ts), so a client reads it again anyway.
//
// Each look is a job in the request queue (one at a time with the requests,
// on the same cache), and the acknowledgement goes out from the first, once
// what later looks compare with is known. A subscription ends when the
// client cancels it (`notifications/cancelled`: no reply), or when the
// server stops (stdin closed, a signal): then it is answered, gracefully.
import { createHash } from 'node:crypto';
import { debug, warn } from '../shared/log.ts';
import { INVALID_REQUEST, resultLine } from './jsonrpc.ts';
import { SERVER_INFO } from './modern.ts';
import { META, type RevisionProblem } from './revisions.ts';
import { type KbSession, parseSubjectUri, RequestError } from './session.ts';
import type { Reply } from './transport.ts';

/** Subscriptions open at once. */
export const MAX_SUBSCRIPTIONS = 16;
/** Resources watched for updates, over all subscriptions: each look reads
 *  each of them (as `resources/read` does), so they are bounded. */
export const MAX_WATCHED_URIS = 256;
/** How long after the last file event a look waits (a save is often
 *  several events). */
export const CHECK_DELAY_MS = 150;

/** What a client asks to be told of (the protocol's SubscriptionFilter). */
export interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

interface Subscription {
  idText: string;
  reply: Reply;
  listChanged: boolean;
  uris: string[];
  acked: boolean;
}

export class Subscriptions {
  private readonly open = new Map<string, Subscription>();
  /** The resources listed at the last look (their URIs, in order, joined). */
  private listed: string | undefined;
  /** The digest of each watched resource at the last look. */
  private prints = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A look is queued or running; `again`: events came since it began. */
  private looking = false;
  private again = false;

  /** `schedule`: runs a job in the request queue, in turn. */
  constructor(
    private readonly session: KbSession,
    private readonly schedule: (job: () => Promise<void>) => void,
  ) {}

  /** What the cache tells of each file event (one function, so that it
   *  can be taken back). */
  private readonly onEvent = (): void => this.changed();

  get size(): number {
    return this.open.size;
  }

  /** A `subscriptions/listen` request: its error, or undefined (it is
   *  acknowledged from the queue, and answered when it ends). */
  listen(idText: string, filter: Filter, reply: Reply): RevisionProblem | undefined {
    if (this.open.has(idText)) return { code: INVALID_REQUEST, message: `invalid request: a subscription with id ${idText} is open already` };
    if (this.open.size >= MAX_SUBSCRIPTIONS) return { code: INVALID_REQUEST, message: `invalid request: ${MAX_SUBSCRIPTIONS} subscriptions are open, the most kb keeps at once; cancel one first` };
    const watched = new Set<string>();
    for (const s of this.open.values()) for (const u of s.uris) watched.add(u);
    const uris: string[] = [];
    const left: string[] = [];
    for (const uri of new Set(filter.resourceSubscriptions ?? [])) {
      if (parseSubjectUri(uri) === undefined) left.push(`${uri.slice(0, 80)} (not a kb:// subject URI)`);
      else if (!watched.has(uri) && watched.size >= MAX_WATCHED_URIS) left.push(`${uri.slice(0, 80)} (${MAX_WATCHED_URIS} resources are watched, the most kb watches)`);
      else {
        watched.add(uri);
        uris.push(uri);
      }
    }
    if (left.length > 0) void warn(`kb mcp: subscription ${idText} is not told of ${left.length} of the resources it named (left out of its acknowledgement): ${left.slice(0, 3).join('; ')}${left.length > 3 ? '; …' : ''}`);
    const ignored = (['toolsListChanged', 'promptsListChanged'] as const).filter((k) => filter[k] === true);
    if (ignored.length > 0) void debug(`kb mcp: subscription ${idText}: ${ignored.join(', ')} left out of its acknowledgement (kb sends no such notification)`);
    this.open.set(idText, { idText, reply, listChanged: filter.resourcesListChanged === true, uris, acked: false });
    this.session.cache.eventListeners.add(this.onEvent);
    this.queueLook();
    return undefined;
  }

  /** `notifications/cancelled` for `idText`: it ends, with no reply. */
  cancel(idText: string): void {
    if (!this.open.delete(idText)) return;
    void debug(`kb mcp: subscription ${idText} cancelled`);
    this.tidy();
  }

  /** The server stops: each subscription is answered (it ended
   *  gracefully), and nothing more is looked at. */
  closeAll(): void {
    const info = `${JSON.stringify(META.serverInfo)}:${JSON.stringify(SERVER_INFO)}`;
    for (const s of this.open.values()) s.reply(resultLine(s.idText, `{"resultType":"complete","_meta":{${info},${JSON.stringify(META.subscriptionId)}:${s.idText}}}`));
    this.open.clear();
    this.tidy();
  }

  /** A file event: a look, once the events stop for a moment. */
  private changed(): void {
    if (this.open.size === 0) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.queueLook(), CHECK_DELAY_MS);
  }

  private queueLook(): void {
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = true;
    this.schedule(() => this.look());
  }

  /** With no subscription left: no more looks, nothing kept. */
  private tidy(): void {
    if (this.open.size > 0) return;
    clearTimeout(this.timer);
    this.session.cache.eventListeners.delete(this.onEvent);
    this.listed = undefined;
    this.prints = new Map();
  }

  /** One look: what changed since the last, told to the subscriptions
   *  acknowledged before it; then the new ones acknowledged. */
  private async look(): Promise<void> {
    this.again = false;
    try {
      if (this.open.size === 0) return;
      const listed = await this.listing();
      const prints = new Map<string, string>();
      for (const s of this.open.values()) for (const uri of s.uris) if (!prints.has(uri)) prints.set(uri, await this.print(uri));
      for (const s of this.open.values()) {
        if (!s.acked) continue;
        if (s.listChanged && this.listed !== undefined && listed !== this.listed) s.reply(notification('notifications/resources/list_changed', s.idText, ''));
        for (const uri of s.uris) {
          const before = this.prints.get(uri);
          if (before !== undefined && before !== prints.get(uri)) s.reply(notification('notifications/resources/updated', s.idText, `,"uri":${JSON.stringify(uri)}`));
        }
      }
      for (const s of this.open.values()) {
        if (s.acked) continue;
        s.acked = true;
        const told = { ...(s.listChanged ? { resourcesListChanged: true } : {}), ...(s.uris.length > 0 ? { resourceSubscriptions: s.uris } : {}) };
        s.reply(notification('notifications/subscriptions/acknowledged', s.idText, `,"notifications":${JSON.stringify(told)}`));
      }
      this.listed = listed;
      this.prints = prints;
    } catch (err) {
      void warn(`kb mcp: subscriptions: cannot look for changes: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.looking = false;
      if (this.again && this.open.size > 0) this.changed();
    }
  }

  /** The URIs `resources/list` would list now, joined (its topics are
   *  walked, and so watched). */
  private async listing(): Promise<string> {
    return (await this.session.resourceUris()).join('\n');
  }

  /** What `resources/read` answers for `uri` now: a digest of its text, or
   *  why there is none. */
  private async print(uri: string): Promise<string> {
    try {
      const read = await this.session.readResource(uri);
      const hash = createHash('sha256');
      for (const c of read.contents) hash.update(c.text).update('\u0000');
      return hash.digest('base64');
    } catch (err) {
      if (err instanceof RequestError) return `error ${err.code}`;
      throw err;
    }
  }
}

/** A notification on subscription `idText`'s stream: `rest` is what its
 *  params hold after `_meta` (JSON text starting with a comma, or ''). */
function notification(method: string, idText: string, rest: string): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":{"_meta":{${JSON.stringify(META.subscriptionId)}:${idText}}${rest}}}\n`;
}
