// The cases of init.cases.ts on the compiled binary, dist/kb (tests/parity
// runs those marked parity under deno), and what only the binary needs to
// show: the message outside a workspace, an MCP session, the help page.
import { describe, expect, test } from 'bun:test';
import { cases, FILES, folder } from './init.cases.ts';
import { BINARY, run } from './harness.ts';
import { transcriptProblems } from '../support/mcp-schema.ts';

cases(BINARY);

describe('kb init (dist/kb): the rest of the way', () => {
  test('outside a workspace, kb list says how to make one', () => {
    const root = folder();
    const r = run(BINARY, root, ['list']);
    expect(r).toEqual({ code: 1, out: '', err: `error: no workspace found: no .jp directory in ${root} or any parent; run 'kb init' to make this directory one, or pass -w DIR\n` });
  });

  test('an MCP client sees the topics of a workspace kb init made', () => {
    const root = folder(FILES);
    expect(run(BINARY, root, ['init', 'skills', 'peps']).code).toBe(0);
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'learn', arguments: { topic: 'skills', subjects: ['xlsx'] } } },
    ];
    const r = run(BINARY, root, ['mcp'], { input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' });
    expect(r.code).toBe(0);
    const answers = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(transcriptProblems(lines, r.out)).toEqual([]);
    const learn = answers[1].result.tools.find((t: { name: string }) => t.name === 'learn');
    expect(learn.description).toContain('Available topics:\n- skills\n- peps');
    expect(answers[2].result.content[0].text).toContain('Use openpyxl.');
  });

  test('--help: the page, with examples', () => {
    const r = run(BINARY, folder(), ['init', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toStartWith('Make this directory a workspace, with a topic for each folder given (kb init)\n\nUSAGE\n  kb init [OPTIONS] [DIR...]\n');
    expect(r.out).toContain('EXAMPLES\n  kb init ');
  });
});
