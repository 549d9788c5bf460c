// The MCP server's one method table (mcp/server.ts METHODS): each method
// checks its params and answers, in-process, on a small workspace.
import { describe, expect, test } from 'bun:test';
import { INVALID_PARAMS, METHOD_NOT_FOUND } from '../../src/mcp/jsonrpc.ts';
import { METHODS, paramsProblem } from '../../src/mcp/server.ts';
import { KbSession } from '../../src/mcp/session.ts';
import { ALL_VERSIONS, MODERN, skillsValidatorOf, validatorOf } from '../support/mcp-schema.ts';
import { makeTempDir, tempWorkspace } from '../support/temp.ts';

const root = tempWorkspace(
  'kb-methods-',
  { 'notes/a.md': '---\ndescription: A note\n---\nAbout releases.\n', 'notes/review/SKILL.md': '---\nname: review\ndescription: Review a change\n---\nRead the diff.\n' },
  '[kb.topic.notes]\nsubjects = "notes"\n',
);
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
  'skills/list': [{}, 'skills'],
  'skills/get': [{ uri: 'skill://notes/review/SKILL.md' }, 'skill'],
  'server/discover': [{}, 'supportedVersions'],
  'completion/complete': [{ ref: { type: 'ref/resource', uri: 'kb://{topic}/{+slug}' }, argument: { name: 'slug', value: '' }, context: { arguments: { topic: 'notes' } } }, 'completion'],
  // Answered by the dispatcher (subscriptions.ts), not by the table.
  'subscriptions/listen': [{ notifications: { resourcesListChanged: true } }, '-'],
};

/** The `_meta` every 2026-07-28 request carries. */
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

describe('METHODS', () => {
  test('the methods kb serves, each answered', async () => {
    expect(Object.keys(METHODS).sort()).toEqual(Object.keys(CALLS).sort());
    const session = new KbSession(options, new Set(['notes']));
    for (const [name, [params, key]] of Object.entries(CALLS)) {
      expect([name, paramsProblem(METHODS[name], name, params)]).toEqual([name, undefined]);
      const answer = (await METHODS[name].handle(session, params)) as Record<string, unknown>;
      if (key === '-') expect({ name, answer }).toEqual({ name, answer: undefined as never });
      else if (key !== '') expect([name, key in answer]).toEqual([name, true]);
    }
    const listed = (await METHODS['tools/list'].handle(session, {})) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(['learn', 'search', 'remember', 'revise', 'forget']);
    const called = (await METHODS['tools/call'].handle(session, CALLS['tools/call'][0])) as { content: { type: string; text: string }[]; isError: boolean };
    expect(called).toEqual({ content: [{ type: 'text', text: '---\ndescription: A note\n---\nAbout releases.\n' }], isError: false });
    // As the server does when it ends: its watchers and the event barrier's
    // temporary folder go.
    session.cache.close();
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

  test('params of the wrong shape inside an object are named by their path; a long or odd key is quoted and cut', () => {
    const bad = (params: Record<string, unknown>) => paramsProblem(METHODS['prompts/get'], 'prompts/get', params)?.message;
    expect(bad({ name: 'knowledge', arguments: { knowledge: 'a', other: null } })).toBe('invalid params: "arguments"."other" must be a string, not null');
    expect(bad({ name: 'knowledge', arguments: { [`a"\n${'x'.repeat(60)}`]: [] } })).toBe(`invalid params: "arguments"."a\\"\\n${'x'.repeat(37)}…" must be a string, not array`);
    expect(bad({ name: null })).toBe('invalid params: "name" must be a string, not null');
    // What the schema does not name is not looked at (_meta, a later
    // revision's fields).
    expect(bad({ name: 'knowledge', _meta: 5, task: [] })).toBeUndefined();
  });

  // Each method's params schema (methods.ts) against the official MCP
  // schema of every revision kb speaks (tests/data/mcp-schema): params
  // that differ from valid ones in one property, by type or by leaving it
  // out, are refused by kb exactly when the official schema refuses them,
  // except where kb is knowingly lenient: it reads neither `capabilities`
  // nor `clientInfo`, and asks of them only that they be objects, if sent.
  const LENIENT: Record<string, string[]> = { initialize: ['capabilities', 'clientInfo'] };
  const REQUEST_TYPE: Record<string, string> = {
    initialize: 'InitializeRequest',
    'tools/list': 'ListToolsRequest',
    'tools/call': 'CallToolRequest',
    'prompts/list': 'ListPromptsRequest',
    'prompts/get': 'GetPromptRequest',
    'resources/list': 'ListResourcesRequest',
    'resources/templates/list': 'ListResourceTemplatesRequest',
    'resources/read': 'ReadResourceRequest',
    'server/discover': 'DiscoverRequest',
    'completion/complete': 'CompleteRequest',
    'subscriptions/listen': 'SubscriptionsListenRequest',
  };
  // The Skills extension's methods, against its own schema (the same
  // under every revision: tests/data/mcp-skills-schema).
  const SKILLS_REQUEST_TYPE: Record<string, string> = { 'skills/list': 'ListSkillsRequest', 'skills/get': 'GetSkillRequest' };
  const SAMPLES: unknown[] = ['kb://notes/a', 1, 2.5, true, null, [], {}, ['x']];
  for (const version of ALL_VERSIONS) {
    test(`${version}: each method's params are checked as the official schema has them`, () => {
      const disagreements: string[] = [];
      const modern = version === MODERN;
      for (const [name, method] of Object.entries(METHODS)) {
        if (method.params === undefined || (method.era !== undefined && method.era !== (modern ? 'modern' : 'legacy'))) continue;
        const official = SKILLS_REQUEST_TYPE[name] !== undefined ? skillsValidatorOf(SKILLS_REQUEST_TYPE[name]) : validatorOf(version, REQUEST_TYPE[name]);
        const base = modern ? { ...CALLS[name][0], _meta: META } : CALLS[name][0];
        const judge = (params: Record<string, unknown>, what: string, lenient = false) => {
          const theirs = official({ jsonrpc: '2.0', id: 1, method: name, params }) as boolean;
          const ours = paramsProblem(method, name, params) === undefined;
          if (ours !== theirs && !(lenient && ours)) disagreements.push(`${name} ${what}: kb ${ours ? 'accepts' : 'refuses'}, the schema ${theirs ? 'accepts' : 'refuses'}`);
        };
        judge(base, 'valid params');
        for (const key of Object.keys(method.params.properties ?? {})) {
          const lenient = LENIENT[name]?.includes(key);
          for (const v of SAMPLES) judge({ ...base, [key]: v }, `${key}: ${JSON.stringify(v)}`, lenient);
          const { [key]: _, ...without } = base;
          judge(without, `without ${key}`, lenient);
        }
        if (method.params.properties?.arguments?.additionalProperties !== undefined) {
          for (const v of SAMPLES) judge({ ...base, arguments: { any: v } }, `arguments.any: ${JSON.stringify(v)}`);
        }
      }
      expect(disagreements).toEqual([]);
    });
  }

  test('a write tool without --write is an unknown tool, with the hint', async () => {
    const session = new KbSession(options);
    await expect(METHODS['tools/call'].handle(session, { name: 'remember', arguments: {} }) as Promise<unknown>).rejects.toThrow(
      'unknown tool "remember" (writing is off: start the server with kb mcp --write TOPIC); the tools are "learn", "search"',
    );
  });
});

describe('initialize: the instructions come from the registry', () => {
  const instructionsOf = async (writable: Set<string>) =>
    ((await METHODS.initialize.handle(new KbSession(options, writable), CALLS.initialize[0])) as { instructions: string }).instructions;

  test('each tool served says what it does, in its own words; the write tools only with --write', async () => {
    const { TOOLS, servedTools } = await import('../../src/app/tools.ts');
    const reading = await instructionsOf(new Set());
    const writing = await instructionsOf(new Set(['notes']));
    for (const tool of TOOLS) {
      const sentence = `the \`${tool.name}\` tool ${tool.instruction}`.toLowerCase();
      expect([tool.name, reading.toLowerCase().includes(sentence)]).toEqual([tool.name, servedTools(new Set()).includes(tool)]);
      expect([tool.name, writing.toLowerCase().includes(sentence)]).toEqual([tool.name, true]);
    }
    expect(reading).toBe(
      'A file-based knowledge base of topics and subjects. The `knowledge` prompt is the system-prompt section that lists the topics; ' +
        'the `learn` tool lists a topic (topic only) or loads subjects by slug or glob; the `search` tool finds subjects by what they say; every listed subject is also a kb://<topic>/<slug> resource.',
    );
    expect(writing).toStartWith(`${reading} The \`remember\` tool saves a new subject`);
    expect(writing).toEndWith('.');
  });
});
