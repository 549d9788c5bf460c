// The MCP server's one method table (mcp/server.ts METHODS): each method
// checks its params and answers, in-process, on a small workspace.
import { describe, expect, test } from 'bun:test';
import { INVALID_PARAMS, METHOD_NOT_FOUND } from '../../src/mcp/jsonrpc.ts';
import { METHODS, paramsProblem } from '../../src/mcp/server.ts';
import { KbSession } from '../../src/mcp/session.ts';
import { makeTempDir, tempWorkspace } from '../support/temp.ts';

const root = tempWorkspace('kb-methods-', { 'notes/a.md': '---\ndescription: A note\n---\nAbout releases.\n' }, '[kb.topic.notes]\nsubjects = "notes"\n');
const options = { cwd: root, cfg: [], knowledge: [], env: {}, home: makeTempDir('kb-methods-home-') };

/** Valid params for each method, and a key of its answer. */
const CALLS: Record<string, [Record<string, unknown>, string]> = {
  ping: [{}, ''],
  initialize: [{ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }, 'protocolVersion'],
  'tools/list': [{}, 'tools'],
  'tools/call': [{ name: 'learn', arguments: { topic: 'notes', subjects: 'a' } }, 'content'],
  'prompts/list': [{}, 'prompts'],
  'prompts/get': [{ name: 'knowledge', arguments: { knowledge: 'notes/a' } }, 'messages'],
  'resources/list': [{}, 'resources'],
  'resources/templates/list': [{}, 'resourceTemplates'],
  'resources/read': [{ uri: 'kb://notes/a' }, 'contents'],
};

describe('METHODS', () => {
  test('the methods kb serves, each answered', async () => {
    expect(Object.keys(METHODS).sort()).toEqual(Object.keys(CALLS).sort());
    const session = new KbSession(options, new Set(['notes']));
    for (const [name, [params, key]] of Object.entries(CALLS)) {
      expect([name, paramsProblem(METHODS[name], name, params)]).toEqual([name, undefined]);
      const answer = (await METHODS[name].handle(session, params)) as Record<string, unknown>;
      if (key !== '') expect([name, key in answer]).toEqual([name, true]);
    }
    const listed = (await METHODS['tools/list'].handle(session, {})) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(['learn', 'search', 'remember', 'revise', 'forget']);
    const called = (await METHODS['tools/call'].handle(session, CALLS['tools/call'][0])) as { content: { type: string; text: string }[]; isError: boolean };
    expect(called).toEqual({ content: [{ type: 'text', text: '---\ndescription: A note\n---\nAbout releases.\n' }], isError: false });
  });

  test('only ping is answered as soon as it is read', () => {
    expect(Object.entries(METHODS).filter(([, m]) => m.immediate).map(([n]) => n)).toEqual(['ping']);
  });

  test('params of the wrong shape: -32602, saying which; an unknown method: -32601', () => {
    const bad = (name: string, params: Record<string, unknown>) => paramsProblem(METHODS[name], name, params);
    expect(bad('initialize', { protocolVersion: 1 })).toEqual({ code: INVALID_PARAMS, message: 'invalid params: "protocolVersion" must be a string, not number' });
    expect(bad('tools/call', {})).toEqual({ code: INVALID_PARAMS, message: 'invalid params: "name" must be a string, not missing' });
    expect(bad('tools/call', { name: 'learn', arguments: [] })).toEqual({ code: INVALID_PARAMS, message: 'invalid params: "arguments" must be an object, not array' });
    expect(bad('tools/list', { cursor: 1 })).toEqual({ code: INVALID_PARAMS, message: 'invalid params: "cursor" must be a string, not number' });
    expect(bad('prompts/get', { name: 'knowledge', arguments: { knowledge: 1 } })).toEqual({ code: INVALID_PARAMS, message: 'invalid params: "arguments"."knowledge" must be a string, not number' });
    expect(bad('resources/read', {})).toEqual({ code: INVALID_PARAMS, message: 'invalid params: "uri" must be a string, not missing' });
    expect(paramsProblem(undefined, 'nope', {})).toEqual({ code: METHOD_NOT_FOUND, message: 'method not found: nope' });
  });

  test('a write tool without --write is an unknown tool, with the hint', async () => {
    const session = new KbSession(options);
    await expect(METHODS['tools/call'].handle(session, { name: 'remember', arguments: {} }) as Promise<unknown>).rejects.toThrow(
      'unknown tool "remember" (writing is off: start the server with kb mcp --write TOPIC); the tools are "learn", "search"',
    );
  });
});
