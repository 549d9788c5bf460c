// The official MCP conformance suite directly against `kb mcp --http`
// (dist/kb), with no bridge: the suite drives Streamable HTTP servers, and
// kb is one (tests/support/conformance.ts says which scenarios apply and
// what kb answers to the others). The SDK 2.x e2e tests,
// tests/e2e/mcp-http.test.ts, cover 2026-07-28, which the suite does not.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { REFUSED, runConformance, suiteTests, type SuiteRun } from '../support/conformance.ts';
import { type HttpServer, startHttp } from '../support/mcp-http.ts';
import { BIN, fixture, isolatedEnv, RFD_CONFIG, RFD_FILES } from '../e2e/harness.ts';

/** What kb says on stderr during the run: where it listens, and one line
 *  for each request of a method it does not serve. */
const STDERR = [/^kb mcp: serving the workspace on http:\/\/127\.0\.0\.1:\d+\/mcp \(no token\)$/, REFUSED];

describe('the MCP conformance suite against kb mcp --http', () => {
  let server: HttpServer;
  let run: SuiteRun;

  beforeAll(async () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    server = await startHttp([BIN], root, [], isolatedEnv(root));
    run = await runConformance(server.url);
  }, 300_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  suiteTests(() => run);

  test('kb said on stderr where it listens and what it refused, and nothing else', () => {
    const lines = server.stderr().split('\n').filter((l) => l !== '');
    expect(lines.filter((l) => !STDERR.some((re) => re.test(l)))).toEqual([]);
  });
});
