// An MCP client for the e2e tests: the MCP SDK's own Client over stdio,
// spawning kb mcp with a runner (dist/kb, or deno in tests/parity). Every
// reply is checked against the MCP schema of the negotiated version
// (tests/support/mcp-schema.ts).
import { expect } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ReplyChecker } from '../support/mcp-schema.ts';
import { BINARY, isolatedEnv as env, type Runner } from './harness.ts';

export interface Connection {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** Errors the client saw: a non-protocol line on stdout would be one. */
  errors: Error[];
}

export async function connect(root: string, runner: Runner = BINARY, args: string[] = [], extraEnv: Record<string, string> = {}): Promise<Connection> {
  const [command, ...pre] = runner.argv;
  const transport = new StdioClientTransport({ command, args: [...pre, 'mcp', ...args], cwd: root, env: { ...env(root), ...extraEnv }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d.toString()));
  checkReplies(transport);
  const client = new Client({ name: 'kb-e2e', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, errors };
}

export function text(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  expect(content).toHaveLength(1);
  expect(content[0].type).toBe('text');
  return content[0].text;
}

/** What `checkReplies` needs of a transport: the SDK's (v1 or v2) shape. */
interface Checked {
  send(message: JSONRPCMessage, options?: never): Promise<void>;
  onmessage?: ((message: JSONRPCMessage, extra?: never) => void) | undefined;
}

/** Checks every message the server sends on `transport` against the MCP
 *  schema (before the client connects). A reply that does not validate
 *  reaches the client as an error reply for its id, saying why, so that
 *  the request awaiting it fails; the checker keeps the problems too.
 *  Works on the transports of both SDKs (1.x and 2.x). */
export function checkReplies(transport: Transport | Checked): ReplyChecker {
  return checkAny(transport as unknown as Transport);
}

function checkAny(transport: Transport): ReplyChecker {
  const checker = new ReplyChecker();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    checker.sent(message);
    return send(message, options);
  };
  let handler: Transport['onmessage'];
  const wrapped: NonNullable<Transport['onmessage']> = (message, extra) => {
    const problem = checker.received(message);
    const id = (message as { id?: unknown }).id;
    const forwarded = problem === '' || (typeof id !== 'string' && typeof id !== 'number') ? message : ({ jsonrpc: '2.0', id, error: { code: -32603, message: problem } } as JSONRPCMessage);
    handler?.(forwarded, extra);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler === undefined ? undefined : wrapped),
    set: (h: Transport['onmessage']) => {
      handler = h;
    },
  });
  return checker;
}
