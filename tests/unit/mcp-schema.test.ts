// The checker the MCP tests run every reply through (tests/support/
// mcp-schema.ts): it accepts what the MCP schema of the negotiated version
// accepts, and nothing else.
import { describe, expect, test } from 'bun:test';
import { MCP_VERSIONS, ReplyChecker } from '../support/mcp-schema.ts';

const init = (v: string) => ({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const initialized = (v: string) => ({ jsonrpc: '2.0', id: 0, result: { protocolVersion: v, capabilities: { tools: {} }, serverInfo: { name: 'kb', version: '1' } } });

function session(v: string): ReplyChecker {
  const c = new ReplyChecker();
  c.sent(init(v));
  expect(c.received(initialized(v))).toBe('');
  expect(c.version).toBe(v as never);
  return c;
}

describe('ReplyChecker', () => {
  for (const v of MCP_VERSIONS) {
    test(`${v}: results validate against the method's result type; what the schema refuses is a problem`, () => {
      const c = session(v);
      c.sent({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'learn', arguments: {} } });
      expect(c.received({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }], isError: false } })).toBe('');
      c.sent({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'learn', arguments: {} } });
      expect(c.received({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 5 }] } })).toContain(`does not validate against the MCP ${v} schema`);
      c.sent({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      expect(c.received({ jsonrpc: '2.0', id: 3, result: {} })).toContain("must have required property 'tools'");
      expect(c.received({ jsonrpc: '2.0', id: 99, result: {} })).toContain('no request sent is waiting for');
      c.sent({ jsonrpc: '2.0', id: 4, method: 'ping' });
      expect(c.received({ jsonrpc: '2.0', id: 4, error: { code: 'x', message: 'm' } })).toContain('does not validate');
      expect(c.received({ jsonrpc: '2.0', id: null, error: { code: -32601, message: 'm' } })).not.toBe('');
      expect(c.received([{ jsonrpc: '2.0', id: 5, result: {} }])).not.toBe('');
    });
  }

  test('an error whose id could not be read: id null before 2025-11-25 (JSON-RPC), no id in 2025-11-25', () => {
    const parse = { code: -32700, message: 'parse error' };
    expect(session('2025-06-18').received({ jsonrpc: '2.0', id: null, error: parse })).toBe('');
    expect(session('2025-11-25').received({ jsonrpc: '2.0', id: null, error: parse })).toContain('does not validate');
    expect(session('2025-11-25').received({ jsonrpc: '2.0', error: parse })).toBe('');
  });

  test('a batch response only in 2025-03-26', () => {
    const c = session('2025-03-26');
    c.sent([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(c.received([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, result: {} }])).toBe('');
    const d = session('2025-06-18');
    d.sent([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(d.received([{ jsonrpc: '2.0', id: 1, result: {} }])).toContain('a batch response, which protocol 2025-06-18 does not have');
  });
});

describe('ReplyChecker under 2026-07-28 (no handshake)', () => {
  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const info = { 'io.modelcontextprotocol/serverInfo': { name: 'kb', version: '1' } };

  test('a request naming 2026-07-28 has its reply checked against that schema: resultType and cache hints required', () => {
    const c = new ReplyChecker();
    c.sent({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
    expect(c.received({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'private', _meta: info } })).toBe('');
    c.sent({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
    expect(c.received({ jsonrpc: '2.0', id: 2, result: { tools: [] } })).toContain('does not validate against the MCP 2026-07-28 schema');
    c.sent({ jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: META } });
    expect(c.received({ jsonrpc: '2.0', id: 3, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} } })).toContain("must have required property 'ttlMs'");
  });

  test('beside an initialize session: each reply by the version its request named', () => {
    const c = session('2025-06-18');
    c.sent({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
    c.sent({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(c.received({ jsonrpc: '2.0', id: 2, result: { tools: [] } })).toBe('');
    expect(c.received({ jsonrpc: '2.0', id: 1, result: { tools: [] } })).toContain('2026-07-28 schema');
  });

  test('-32022 has its own type; a version kb does not speak is checked as 2026-07-28', () => {
    const c = new ReplyChecker();
    c.sent({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
    expect(c.received({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'm', data: { supported: ['2026-07-28'], requested: '2099-01-01' } } })).toBe('');
    c.sent({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
    expect(c.received({ jsonrpc: '2.0', id: 2, error: { code: -32022, message: 'm' } })).toContain("must have required property 'data'");
  });

  test('notifications: only those of a subscription, with its id, of their type', () => {
    const c = new ReplyChecker();
    const tag = { 'io.modelcontextprotocol/subscriptionId': 1 };
    expect(c.received({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { _meta: tag, uri: 'kb://t/a' } })).toBe('');
    expect(c.received({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { _meta: tag } })).toContain("must have required property 'uri'");
    expect(c.received({ jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: {} })).toContain("without its subscription's id");
    expect(c.received({ jsonrpc: '2.0', method: 'notifications/message', params: { _meta: tag, level: 'info', data: 'x' } })).toContain('which kb does not send');
  });
});
