// The MCP server's helpers (URIs, the prompt argument, JSON-RPC ids) and the
// rule that only `kb mcp` loads the server.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { mimeTypeOf } from '../../src/app/resources.ts';
import { arrayEntries, parseMessage } from '../../src/mcp/jsonrpc.ts';
import { parseSubjectUri, splitKnowledge, subjectUri } from '../../src/mcp/session.ts';

describe('kb:// URIs', () => {
  test('each component is percent-encoded; parsing inverts it', () => {
    const cases: [string, string, string][] = [
      ['project', 'maintainers/jean', 'kb://project/maintainers/jean'],
      ['my topic', 'notes (draft)', 'kb://my%20topic/notes%20(draft)'],
      ['t', 'a%b/c#d?e', 'kb://t/a%25b/c%23d%3Fe'],
      ['t', 'ünï/cödé', 'kb://t/%C3%BCn%C3%AF/c%C3%B6d%C3%A9'],
    ];
    for (const [topic, slug, uri] of cases) {
      expect(subjectUri(topic, slug)).toBe(uri);
      expect(parseSubjectUri(uri)).toEqual({ topic, slug });
    }
  });

  test('anything else is not a subject URI', () => {
    for (const uri of ['file:///etc/passwd', 'kb://project', 'kb://project/', 'kb:///x', 'kb://t/a//b', 'kb://t/%E0%A4%A', 'KB://t/a']) {
      expect([uri, parseSubjectUri(uri)]).toEqual([uri, undefined]);
    }
  });

  test('.. is only a slug to look up, never a path', () => {
    expect(parseSubjectUri('kb://t/../../etc/passwd')).toEqual({ topic: 't', slug: '../../etc/passwd' });
  });

  test('MIME types: Markdown and fenced formats are Markdown; plain text is plain', () => {
    expect(['md', 'MD', 'toml', 'json', 'rs', 'txt', 'text', ''].map(mimeTypeOf)).toEqual([
      'text/markdown', 'text/markdown', 'text/markdown', 'text/markdown', 'text/markdown', 'text/plain', 'text/plain', 'text/plain',
    ]);
  });
});

describe('the knowledge prompt argument', () => {
  test('values separated by commas or new lines; commas inside braces belong to the pattern', () => {
    expect(splitKnowledge('')).toEqual([]);
    expect(splitKnowledge('project/maintainers/*')).toEqual(['project/maintainers/*']);
    expect(splitKnowledge(' a/x , b/y\nc/z\r\n\n')).toEqual(['a/x', 'b/y', 'c/z']);
    expect(splitKnowledge('skills/{ast-grep,cargo},project/*')).toEqual(['skills/{ast-grep,cargo}', 'project/*']);
  });
});

describe('kb mcp speaks the protocol itself; its server is loaded only by kb mcp', () => {
  const SRC = join(import.meta.dir, '../../src');
  function files(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  }
  const sources = files(SRC).map((f) => ({ path: relative(SRC, f), text: readFileSync(f, 'utf8') }));

  test('no source imports the MCP SDK (tests use its client)', () => {
    const importers = sources.filter((s) => /from '@modelcontextprotocol\/sdk|import\('@modelcontextprotocol\/sdk/.test(s.text)).map((s) => s.path);
    expect(importers).toEqual([]);
  });

  test('src/mcp/server.ts is imported only dynamically, by the entry module, when kb mcp runs', () => {
    const importers = sources.filter((s) => /(from |import\()'[./]*(mcp\/)?server\.ts'/.test(s.text)).map((s) => s.path);
    expect(importers).toEqual(['cli.ts']);
    const entry = sources.find((s) => s.path === 'cli.ts')!.text;
    // Inside the function the mcp command calls, not when the command loads.
    expect(entry).toContain("mcpCommand(async (options, serving) => (await import('./mcp/server.ts')).serve(options, serving))");
    expect(entry).not.toMatch(/^import .*mcp\/server/m);
  });
});

describe('JSON-RPC batches', () => {
  test('a batch is read entry by entry, each entry as the text it was sent as (large ids keep their digits)', () => {
    const line = ' [ {"jsonrpc":"2.0","id":9007199254740993,"method":"ping"} , 7,"a,]b",[1,[2]],{"x":{"y":"}"}} ] ';
    const msg = parseMessage(line);
    expect(msg.kind).toBe('batch');
    const entries = (msg as { entries: string[] }).entries;
    expect(entries.map((e) => e.trim())).toEqual(['{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', '7', '"a,]b"', '[1,[2]]', '{"x":{"y":"}"}}']);
    expect(parseMessage(entries[0])).toMatchObject({ kind: 'request', idText: '9007199254740993', method: 'ping' });
    expect(arrayEntries('[]')).toEqual([]);
    expect(parseMessage('[]')).toEqual({ kind: 'batch', entries: [] });
  });
});
