// The rules of `kb mcp --http` that need no socket (http.ts applies them):
// where to listen, which origins and tokens are let in, and whether a
// request's headers say what its body says (MCP 2026-07-28, Streamable
// HTTP, "Server Validation"). Each runs in time linear in what it reads.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { UsageError } from '../shared/errors.ts';

export interface Listen {
  host: string;
  port: number;
  /** A host was given (`HOST:PORT`), not only a port. */
  hostGiven: boolean;
}

/** `[HOST:]PORT`: `8080`, `0.0.0.0:8080`, `[::1]:8080`, `localhost:8080`. */
export function parseListen(spec: string): Listen {
  const bad = (why: string) => new UsageError(`--http: ${why}; expected [HOST:]PORT, e.g. 8080 or 127.0.0.1:8080`, '--http');
  const colon = spec.lastIndexOf(':');
  let host = colon === -1 ? '' : spec.slice(0, colon);
  const portText = colon === -1 ? spec : spec.slice(colon + 1);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw bad(`"${portText.slice(0, 40)}" is not a port number (0 to 65535)`);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (colon !== -1 && host === '') throw bad('the host is empty');
  if (host.length > 253 || /[\s/@?#]/.test(host)) throw bad(`"${host.slice(0, 40)}" is not a host name or address`);
  return { host: host === '' ? '127.0.0.1' : host, port: Number(portText), hostGiven: host !== '' };
}

/** A loopback name or address: localhost, 127.0.0.0/8, ::1. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || h === '::ffff:127.0.0.1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Whether a request's `Origin` may reach the server: none (not a
 *  browser), a page served from a loopback host, or one of the
 *  `--allow-origin` values. Anything else is a web page the user visited,
 *  reaching the server through the browser (DNS rebinding, or a page that
 *  calls a local port): 403. */
export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isLoopback(host);
}

/** The bearer token of an `Authorization` header, if it has one. */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^bearer +(\S{1,4096}) *$/i.exec(header.length > 4200 ? '' : header);
  return m?.[1];
}

/** Whether `given` is the token, in time that does not depend on where
 *  they differ (both are hashed first: equal lengths, whatever was sent). */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  if (token !== hashed.token) hashed = { token, digest: createHash('sha256').update(token).digest() };
  return timingSafeEqual(a, hashed.digest);
}

/** The server's token and its hash, made once rather than per request. */
let hashed: { token: string; digest: Buffer } = { token: '', digest: Buffer.alloc(0) };

/** The shortest token taken: a shorter one is guessable. */
export const MIN_TOKEN = 16;

/** A token as read from a file or the environment: one line, trimmed. */
export function tokenProblem(token: string): string | undefined {
  if (token.length < MIN_TOKEN) return `the token is ${token.length} characters long; use at least ${MIN_TOKEN} (e.g. openssl rand -hex 32)`;
  if (!/^[\x21-\x7e]+$/.test(token)) return 'the token must be printable ASCII without spaces';
  return undefined;
}

/** A header value as MCP mirrors it: plain visible ASCII, or
 *  `=?base64?...?=` (Value Encoding). Undefined: malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  if (value.startsWith('=?base64?') && value.endsWith('?=') && value.length >= 11) {
    const b64 = value.slice(9, -2);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return undefined;
    const bytes = Buffer.from(b64, 'base64');
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
  }
  return /^[\x20-\x7e\t]*$/.test(value) ? value : undefined;
}

/** The methods whose `Mcp-Name` is required, and the param it mirrors. */
const NAMED: Readonly<Record<string, 'name' | 'uri'>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** The headers of a 2026-07-28 request against its body: a message for
 *  the `HeaderMismatch` error (-32020), or undefined when they agree. */
export function headerMismatch(headers: { version?: string; method?: string; name?: string }, body: { method: string; params: Record<string, unknown>; version: string }): string | undefined {
  if (headers.version === undefined) return 'Header mismatch: the MCP-Protocol-Version header is missing';
  if (headers.version !== body.version) return `Header mismatch: MCP-Protocol-Version header value ${shown(headers.version)} does not match body value ${shown(body.version)}`;
  if (headers.method === undefined) return 'Header mismatch: the Mcp-Method header is missing';
  if (headers.method !== body.method) return `Header mismatch: Mcp-Method header value ${shown(headers.method)} does not match body value ${shown(body.method)}`;
  const field = NAMED[body.method];
  if (field === undefined) return undefined;
  const value = body.params[field];
  if (headers.name === undefined) return typeof value === 'string' ? 'Header mismatch: the Mcp-Name header is missing' : undefined;
  const name = decodeHeaderValue(headers.name);
  if (name === undefined) return 'Header mismatch: the Mcp-Name header value is not plain ASCII nor =?base64?...?=';
  if (name !== value) return `Header mismatch: Mcp-Name header value ${shown(name)} does not match body value ${shown(typeof value === 'string' ? value : String(value))}`;
  return undefined;
}

/** A value quoted in a message: at most 80 characters. */
function shown(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}

/** Whether an `Accept` header takes JSON or SSE replies. */
export function accepts(accept: string | undefined): { json: boolean; sse: boolean } {
  if (accept === undefined || accept.trim() === '') return { json: true, sse: true };
  const types = accept
    .slice(0, 4096)
    .split(',')
    .map((t) => t.split(';')[0].trim().toLowerCase());
  const any = types.includes('*/*');
  return { json: any || types.includes('application/json') || types.includes('application/*'), sse: any || types.includes('text/event-stream') || types.includes('text/*') };
}
