// An MCP client for the e2e tests: the MCP SDK's own Client over stdio,
// spawning kb mcp with a runner (dist/kb, or deno in tests/parity).
import { expect } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BINARY, isolatedEnv as env, type Runner } from './harness.ts';

export interface Connection {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** Errors the client saw: a non-protocol line on stdout would be one. */
  errors: Error[];
}

export async function connect(root: string, runner: Runner = BINARY, args: string[] = []): Promise<Connection> {
  const [command, ...pre] = runner.argv;
  const transport = new StdioClientTransport({ command, args: [...pre, 'mcp', ...args], cwd: root, env: env(root), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d.toString()));
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
