// The official MCP conformance suite against `kb mcp` on stdio
// (tests/support/conformance.ts says which scenarios apply and what kb
// answers to the others). The suite drives HTTP servers and kb speaks stdio
// here, so it runs through the test-only bridge (tests/support/
// mcp-http-bridge.ts: the MCP SDK's Streamable HTTP server transport, one
// `kb mcp` per session, messages passed across unchanged).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { APPLICABLE, REFUSED, runConformance, suiteTests, type SuiteRun } from '../support/conformance.ts';
import { type Bridge, startBridge } from '../support/mcp-http-bridge.ts';
import { fixture, RFD_CONFIG, RFD_FILES } from '../e2e/harness.ts';

describe('the MCP conformance suite, through the HTTP bridge', () => {
  let bridge: Bridge;
  let run: SuiteRun;

  beforeAll(async () => {
    bridge = await startBridge(fixture(RFD_FILES, RFD_CONFIG));
    run = await runConformance(bridge.url);
  }, 300_000);
  afterAll(async () => {
    await bridge?.close();
  });

  suiteTests(() => run);

  test('kb said on stderr what it refused, and nothing else; the bridge saw no error', () => {
    const lines = bridge.stderr().split('\n').filter((l) => l !== '');
    expect(lines.filter((l) => !REFUSED.test(l))).toEqual([]);
    expect(bridge.sessions).toBeGreaterThan(APPLICABLE.length);
  });
});
