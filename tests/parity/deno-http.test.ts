// Deno parity of `kb mcp --http`: node:http under `deno run src/cli.ts`
// serves as the compiled binary does: the same answers, the same refusals
// (a foreign Origin, a missing token, headers over the limit), and SIGTERM
// ends it with exit 0.
import { expect, test } from 'bun:test';
import { BINARY, DENO_RUNNER, fixture, isolatedEnv as env, RFD_CONFIG, RFD_FILES, run } from '../e2e/harness.ts';
import { post, raw, startHttp, TOKEN } from '../support/mcp-http.ts';

test('kb mcp --http under deno: answers as dist/kb does, refuses as it does', async () => {
  const root = fixture(RFD_FILES, RFD_CONFIG);
  const server = await startHttp(DENO_RUNNER.argv, root, [], env(root, { KB_MCP_TOKEN: TOKEN }));
  try {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const learn = await post(server.url, 1, 'tools/call', { name: 'learn', arguments: { topic: 'project', subjects: ['**'] } }, auth);
    expect(learn.status).toBe(200);
    expect(learn.json.result.content[0].text).toBe(run(BINARY, root, ['learn', 'project', '**']).out);
    expect((await post(server.url, 2, 'tools/list', {}, {})).status).toBe(401);
    expect((await post(server.url, 3, 'tools/list', {}, { ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(server.url, 4, 'tools/list', {}, { ...auth, 'mcp-method': 'prompts/list' })).status).toBe(400);
    const big = await raw(server.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    expect(big.text).toMatch(/^HTTP\/1\.1 431/);
  } finally {
    expect(await server.stop()).toBe(0);
  }
}, 60_000);
