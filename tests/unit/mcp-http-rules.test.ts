// The rules of `kb mcp --http` that need no socket (src/mcp/http-rules.ts).
import { describe, expect, test } from 'bun:test';
import { accepts, bearerOf, decodeHeaderValue, headerMismatch, isLoopback, originAllowed, parseListen, tokenMatches, tokenProblem } from '../../src/mcp/http-rules.ts';

describe('where to listen', () => {
  test('[HOST:]PORT; the host defaults to 127.0.0.1', () => {
    expect(parseListen('8080')).toEqual({ host: '127.0.0.1', port: 8080, hostGiven: false });
    expect(parseListen('0.0.0.0:80')).toEqual({ host: '0.0.0.0', port: 80, hostGiven: true });
    expect(parseListen('[::1]:9')).toEqual({ host: '::1', port: 9, hostGiven: true });
    for (const bad of ['', 'x', ':80', '70000', 'a b:1', 'h:-1', 'h:1.5']) expect(() => parseListen(bad)).toThrow('--http');
  });
  test('loopback names and addresses', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '::1', 'LOCALHOST', 'a.localhost']) expect(isLoopback(h)).toBe(true);
    for (const h of ['0.0.0.0', '10.0.0.1', 'example.com', '::', 'localhost.example.com', '127.0.0.1.nip.io']) expect(isLoopback(h)).toBe(false);
  });
});

describe('who may come in', () => {
  test('Origin: none, loopback pages and the allowed ones', () => {
    expect(originAllowed(undefined, [])).toBe(true);
    expect(originAllowed('http://localhost:6274', [])).toBe(true);
    expect(originAllowed('https://[::1]', [])).toBe(true);
    expect(originAllowed('https://app.example', ['https://app.example'])).toBe(true);
    for (const o of ['http://evil.example', 'null', 'file:///x', 'http://127.0.0.1.evil.example', 'chrome-extension://abc', '']) expect(originAllowed(o, [])).toBe(false);
  });
  test('bearer tokens, compared whole', () => {
    expect(bearerOf('Bearer abc')).toBe('abc');
    expect(bearerOf('bearer   abc ')).toBe('abc');
    expect(bearerOf('Basic abc')).toBeUndefined();
    expect(bearerOf(`Bearer ${'a'.repeat(5000)}`)).toBeUndefined();
    expect(tokenMatches('0123456789abcdef', '0123456789abcdef')).toBe(true);
    expect(tokenMatches('0123456789abcdeF', '0123456789abcdef')).toBe(false);
    expect(tokenMatches('0123456789abcde', '0123456789abcdef')).toBe(false);
    expect(tokenMatches(undefined, '0123456789abcdef')).toBe(false);
    expect(tokenProblem('short')).toContain('at least 16');
    expect(tokenProblem('0123456789abcdef 0')).toContain('printable ASCII');
    expect(tokenProblem('0123456789abcdef')).toBeUndefined();
  });
});

describe('headers against the body (2026-07-28)', () => {
  const body = { method: 'tools/call', params: { name: 'learn' }, version: '2026-07-28' };
  const ok = { version: '2026-07-28', method: 'tools/call', name: 'learn' };
  test('agreeing headers pass; each missing or different one is named', () => {
    expect(headerMismatch(ok, body)).toBeUndefined();
    expect(headerMismatch({ ...ok, name: '=?base64?bGVhcm4=?=' }, body)).toBeUndefined();
    expect(headerMismatch({ ...ok, version: undefined }, body)).toContain('MCP-Protocol-Version header is missing');
    expect(headerMismatch({ ...ok, version: '2025-11-25' }, body)).toContain('does not match body value "2026-07-28"');
    expect(headerMismatch({ ...ok, method: undefined }, body)).toContain('Mcp-Method header is missing');
    expect(headerMismatch({ ...ok, method: 'tools/list' }, body)).toContain('Mcp-Method header value "tools/list"');
    expect(headerMismatch({ ...ok, name: undefined }, body)).toContain('Mcp-Name header is missing');
    expect(headerMismatch({ ...ok, name: 'search' }, body)).toContain('Mcp-Name header value "search"');
    expect(headerMismatch({ version: '2026-07-28', method: 'tools/list' }, { method: 'tools/list', params: {}, version: '2026-07-28' })).toBeUndefined();
  });
  test('header values: plain visible ASCII, or the base64 sentinel decoded as UTF-8', () => {
    expect(decodeHeaderValue('kb://a/b')).toBe('kb://a/b');
    expect(decodeHeaderValue(`=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`)).toBe('Hello, 世界');
    expect(decodeHeaderValue('=?base64?***?=')).toBeUndefined();
    expect(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`)).toBeUndefined();
    expect(decodeHeaderValue('caf\u00e9')).toBeUndefined();
  });
  test('Accept', () => {
    expect(accepts(undefined)).toEqual({ json: true, sse: true });
    expect(accepts('application/json, text/event-stream')).toEqual({ json: true, sse: true });
    expect(accepts('text/event-stream')).toEqual({ json: false, sse: true });
    expect(accepts('text/html')).toEqual({ json: false, sse: false });
    expect(accepts('*/*;q=0.1')).toEqual({ json: true, sse: true });
  });
});
