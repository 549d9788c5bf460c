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
