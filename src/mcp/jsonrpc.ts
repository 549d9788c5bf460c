// JSON-RPC 2.0 messages as `kb mcp` reads and writes them: one line of
// input becomes a request, a notification, something to ignore, or an error
// to answer (-32700 parse error, -32600 invalid request), with a short
// reason for stderr. Ids are echoed exactly as sent, even integers that a
// double cannot hold (2^53 and above): the reply carries the id's own text.

import { escapeControls } from '../shared/controls.ts';
import { typeName } from '../shared/text.ts';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

export type Id = string | number;

export type Incoming =
  | { kind: 'request'; id: Id; idText: string; method: string; params: Record<string, unknown> }
  | { kind: 'notification'; method: string; params: Record<string, unknown> }
  /** A response from the client: kb sends no requests, so none is expected. */
  | { kind: 'response'; idText: string }
  /** A batch (a JSON array): the text of each of its entries, in order. */
  | { kind: 'batch'; entries: string[] }
  | { kind: 'invalid'; code: number; idText: string; message: string };

/** At most `max` characters of `s`, for a message. */
export function clip(s: string, max = 80): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Reads one line (without its newline). A byte-order mark at its start is
 *  dropped, as JSON (RFC 8259) allows. */
export function parseMessage(line: string): Incoming {
  const text = line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const why = e instanceof RangeError ? 'nested too deeply' : (e as Error).message;
    return { kind: 'invalid', code: PARSE_ERROR, idText: 'null', message: `parse error: not valid JSON (${clip(why)})` };
  }
  if (Array.isArray(value)) return { kind: 'batch', entries: arrayEntries(text) };
  if (typeName(value) !== 'object') {
    return { kind: 'invalid', code: INVALID_REQUEST, idText: 'null', message: `invalid request: a message must be an object, not ${typeName(value)}` };
  }
  const msg = value as Record<string, unknown>;
  const hasId = Object.hasOwn(msg, 'id');
  const id = msg.id;
  let idText = 'null';
  if (hasId) {
    if (typeof id === 'string') idText = JSON.stringify(id);
    else if (typeof id === 'number') idText = Number.isSafeInteger(id) ? String(id) : (topLevelId(text) ?? String(id));
    else if (id !== null) {
      return { kind: 'invalid', code: INVALID_REQUEST, idText: 'null', message: `invalid request: "id" must be a string, a number or null, not ${typeName(id)}` };
    }
  }
  if (msg.jsonrpc !== '2.0') return { kind: 'invalid', code: INVALID_REQUEST, idText, message: 'invalid request: "jsonrpc" must be "2.0"' };
  if (!Object.hasOwn(msg, 'method')) {
    if (hasId && (Object.hasOwn(msg, 'result') || Object.hasOwn(msg, 'error'))) return { kind: 'response', idText };
    return { kind: 'invalid', code: INVALID_REQUEST, idText, message: 'invalid request: "method" is missing' };
  }
  if (typeof msg.method !== 'string') {
    return { kind: 'invalid', code: INVALID_REQUEST, idText, message: `invalid request: "method" must be a string, not ${typeName(msg.method)}` };
  }
  const params = msg.params;
  if (params !== undefined && typeName(params) !== 'object') {
    // By-position parameters are JSON-RPC, but no MCP method takes them.
    if (!hasId) return { kind: 'notification', method: msg.method, params: {} };
    return { kind: 'invalid', code: INVALID_PARAMS, idText, message: `invalid params: "params" must be an object, not ${typeName(params)}` };
  }
  const p = (params ?? {}) as Record<string, unknown>;
  if (!hasId) return { kind: 'notification', method: msg.method, params: p };
  // JSON-RPC allows a null id; MCP does not ("the ID MUST NOT be null").
  if (id === null) return { kind: 'invalid', code: INVALID_REQUEST, idText, message: 'invalid request: "id" must be a string or a number, not null' };
  return { kind: 'request', id: (id ?? 'null') as Id, idText, method: msg.method, params: p };
}

/** The refusal of a batch where the protocol agreed on has none. */
export const NO_BATCHES = 'invalid request: batches are not supported';

/** The text of each entry of a JSON array, given valid JSON text holding
 *  one (so that each entry is read as a message of its own: its id's own
 *  digits are kept, as for a single message). */
export function arrayEntries(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth === 1) start = i + 1;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      // `[]` has no entry; `[1]` one.
      if (depth === 0 && (out.length > 0 || text.slice(start, i).trim() !== '')) out.push(text.slice(start, i));
    } else if (c === 0x2c /* , */ && depth === 1) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}

/**
 * The text of the top-level `"id"` member of a JSON object (the last one,
 * as JSON.parse keeps), or undefined. Works on a prefix too (the head of a
 * message too large to read): a member cut off is not found.
 */
export function topLevelId(text: string): string | undefined {
  let depth = 0;
  let found: string | undefined;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (end < 0) return found;
      if (depth === 1) {
        let j = skipSpace(text, end + 1);
        if (text.charCodeAt(j) === 0x3a /* : */ && isIdKey(text.slice(i, end + 1))) {
          j = skipSpace(text, j + 1);
          const value = valueToken(text, j);
          if (value !== undefined) found = value;
        }
      }
      i = end + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    i++;
  }
  return found;
}

function isIdKey(token: string): boolean {
  if (token === '"id"') return true;
  if (!token.includes('\\')) return false;
  try {
    return JSON.parse(token) === 'id';
  } catch {
    return false;
  }
}

/** Index of the closing quote of the string starting at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return -1;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  return i;
}

/** A complete string, number or null token at `i` (an id's possible
 *  values), or undefined. */
function valueToken(text: string, i: number): string | undefined {
  if (text.charCodeAt(i) === 0x22) {
    const end = stringEnd(text, i);
    return end < 0 ? undefined : text.slice(i, end + 1);
  }
  if (text.startsWith('null', i)) return 'null';
  const m = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
  // A number running to the end of a prefix may be cut: not complete.
  if (!m || i + m[0].length >= text.length) return undefined;
  return m[0];
}

/** A reply's text (one line, with its newline). `result` is JSON text. */
export function resultLine(idText: string, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${idText},"result":${resultJson}}\n`;
}

/** An error reply's text. The message often quotes what the client sent
 *  (a method, a URI, a name): it is escaped like every echo (controls.ts),
 *  so that it never carries a raw control or bidirectional character. */
export function errorLine(idText: string | undefined, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message: escapeControls(message) } : { code, message: escapeControls(message), data };
  return `{"jsonrpc":"2.0",${idText === undefined ? '' : `"id":${idText},`}"error":${JSON.stringify(error)}}\n`;
}
