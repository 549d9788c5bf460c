// The methods `kb mcp` serves, in one table (the protocol's dispatch, like
// the MCP SDK's handler map), `initialize` and `ping` included: what each
// method's params must hold (a JSON Schema of them, the MCP schema's shapes,
// checked before the request is queued), the revisions that have it, and
// how it is answered. dispatch.ts reads the table; session.ts answers. A
// method that is not here, or not in the revision of the request, is
// answered -32601.
import { checkProperties, type ValueSchema } from '../shared/json-schema.ts';
import { VERSION } from '../shared/version.ts';
import type { CompleteRef } from './complete.ts';
import { INVALID_PARAMS, METHOD_NOT_FOUND } from './jsonrpc.ts';
import { MODERN_CAPABILITIES } from './modern.ts';
import { hasStructuredResults, PROTOCOL_VERSIONS, SUPPORTED_VERSIONS, type Revision } from './revisions.ts';
import { type KbSession, RequestError } from './session.ts';

/** What the server tells a client about itself (`initialize`): the
 *  prompt, the resources, and what each tool it serves does, in the
 *  tool's own words (app/tools.ts `instruction`): the read tools, then,
 *  with `--write`, the write tools. */
export function instructions(tools: readonly { name: string; access: 'read' | 'write'; instruction: string }[]): string {
  const each = (access: 'read' | 'write') => tools.filter((t) => t.access === access).map((t) => `the \`${t.name}\` tool ${t.instruction}`);
  const read = each('read');
  const write = each('write');
  const text =
    'A file-based knowledge base of topics and subjects. The `knowledge` prompt is the system-prompt section that lists the topics; ' +
    `${read.map((s) => `${s}; `).join('')}every listed subject is also a kb://<topic>/<slug> resource.`;
  // The first write sentence opens a sentence: `The`, not `the`.
  return write.length === 0 ? text : `${text} T${write.join('; ').slice(1)}.`;
}

export { PROTOCOL_VERSIONS };

/** The version kb answers a client asking for `asked` with. */
export function negotiate(asked: string): string {
  return PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0];
}

/** What kb serves. `extensions` (SEP-2133) holds the Skills extension
 *  (mcp/skills.ts; its settings: none, no `resources/directory/read`): the
 *  older revisions' capabilities are open to fields they do not name. */
const CAPABILITIES = {
  tools: { listChanged: false },
  prompts: { listChanged: false },
  resources: { listChanged: false, subscribe: false },
  extensions: { 'io.modelcontextprotocol/skills': {} },
};

export type Params = Record<string, unknown>;

/** What a request carries besides its params: the revision that answers it
 *  (revisions.ts; per request, never kept in the session). */
export interface Context {
  readonly revision: Revision;
}

/** One method kb serves. */
export interface Method {
  /** The revisions that have it: `legacy` (2024-11-05 to 2025-11-25:
   *  initialize, ping), `modern` (2026-07-28: server/discover,
   *  subscriptions/listen, and completion/complete, which kb serves from
   *  2026-07-28 on), or both (absent). */
  era?: 'legacy' | 'modern';
  /** A long-lived request, answered when it ends (subscriptions/listen):
   *  not queued; the dispatcher keeps it (subscriptions.ts). */
  listen?: boolean;
  /** What its params must hold: a JSON Schema of the properties kb
   *  reads, as the MCP schema has them (tests/unit/mcp-methods.test.ts
   *  holds each against the official schema of every revision kb speaks).
   *  Params of another shape are answered -32602. */
  params?: ValueSchema;
  /** Answered as soon as it is read, never queued (ping). */
  immediate?: boolean;
  /** Not part of a JSON-RPC batch (initialize). */
  alone?: boolean;
  /** Not cancellable: it runs to its reply (initialize, whose answer
   *  the client waits for before anything else). */
  uncancellable?: boolean;
  /** Done as the request is read, before it is queued (its params
   *  checked): initialize agrees on the version there, so that what
   *  follows it in the same chunk (a batch, an unreadable id) is read by
   *  that version. */
  onRead?(session: KbSession, p: Params): void;
  /** The answer. `signal` aborts when the client cancels the request:
   *  the operation stops its work (app/ takes it as an option). */
  handle(session: KbSession, p: Params, signal?: AbortSignal, ctx?: Context): unknown;
}

/** The params of a list (MCP `PaginatedRequest`). */
const PAGINATED: ValueSchema = { type: 'object', properties: { cursor: { type: 'string' } } };

/** A list kb serves in one page issues no cursor: any cursor is one it did
 *  not issue, -32602 (MCP pagination: an invalid cursor). Returns nothing
 *  otherwise. */
function onePage(method: string, p: Params): undefined {
  if (p.cursor === undefined) return undefined;
  throw new RequestError(INVALID_PARAMS, `invalid cursor: ${method} has one page and issues no cursor; list again without one`);
}

/** Every method kb serves. */
export const METHODS: Readonly<Record<string, Method>> = {
  ping: { era: 'legacy', immediate: true, handle: () => ({}) },
  initialize: {
    era: 'legacy',
    // The MCP schema requires `capabilities` and `clientInfo` too; kb
    // reads neither, and serves a client that leaves them out.
    params: { type: 'object', properties: { protocolVersion: { type: 'string' }, capabilities: { type: 'object' }, clientInfo: { type: 'object' } }, required: ['protocolVersion'] },
    alone: true,
    uncancellable: true,
    onRead: (session, p) => (session.protocol = negotiate(p.protocolVersion as string)),
    handle: (session, p) => {
      session.protocol = negotiate(p.protocolVersion as string);
      return {
        protocolVersion: session.protocol,
        capabilities: CAPABILITIES,
        serverInfo: { name: 'kb', version: VERSION },
        instructions: instructions(session.served()),
      };
    },
  },
  'tools/list': { params: PAGINATED, handle: async (session, p, _signal, ctx) => onePage('tools/list', p) ?? { tools: await session.tools(hasStructuredResults(ctx?.revision)) } },
  'tools/call': {
    params: { type: 'object', properties: { name: { type: 'string' }, arguments: { type: 'object' } }, required: ['name'] },
    handle: (session, p, signal, ctx) => session.callTool(p.name as string, p.arguments, signal, hasStructuredResults(ctx?.revision)),
  },
  'prompts/list': { params: PAGINATED, handle: (session, p) => onePage('prompts/list', p) ?? { prompts: session.prompts() } },
  'prompts/get': {
    params: { type: 'object', properties: { name: { type: 'string' }, arguments: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['name'] },
    handle: (session, p) => session.getPrompt(p.name as string, p.arguments as Record<string, string> | undefined),
  },
  'resources/list': { params: PAGINATED, handle: (session, p, _signal, ctx) => session.resources(typeof p.cursor === 'string' ? p.cursor : undefined, ctx?.revision.modern === true) },
  'resources/templates/list': { params: PAGINATED, handle: (session, p) => onePage('resources/templates/list', p) ?? { resourceTemplates: session.resourceTemplates() } },
  'resources/read': {
    params: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
    handle: async (session, p, signal) => ((p.uri as string).startsWith('skill://') ? (await skills()).readSkillResource(session, p.uri as string) : session.readResource(p.uri as string, signal)),
  },
  // The Skills extension (mcp/skills.ts), loaded when first asked.
  'skills/list': { params: PAGINATED, handle: async (session, p, signal) => (await skills()).listSkills(session, typeof p.cursor === 'string' ? p.cursor : undefined, signal) },
  'skills/get': { params: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] }, handle: async (session, p, signal) => (await skills()).getSkill(session, p.uri as string, signal) },
  // 2026-07-28: what kb speaks and serves, without a handshake.
  'server/discover': {
    era: 'modern',
    handle: (session) => ({ supportedVersions: SUPPORTED_VERSIONS, capabilities: MODERN_CAPABILITIES, instructions: instructions(session.served()) }),
  },
  'subscriptions/listen': {
    era: 'modern',
    listen: true,
    params: {
      type: 'object',
      properties: {
        notifications: {
          type: 'object',
          properties: { toolsListChanged: { type: 'boolean' }, promptsListChanged: { type: 'boolean' }, resourcesListChanged: { type: 'boolean' }, resourceSubscriptions: { type: 'array', items: { type: 'string' } } },
        },
      },
      required: ['notifications'],
    },
    // Answered by the dispatcher (subscriptions.ts): never queued.
    handle: () => undefined,
  },
  'completion/complete': {
    era: 'modern',
    params: {
      type: 'object',
      properties: {
        ref: { type: 'object', properties: { type: { type: 'string' }, name: { type: 'string' }, uri: { type: 'string' } }, required: ['type'] },
        argument: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } }, required: ['name', 'value'] },
        context: { type: 'object', properties: { arguments: { type: 'object', additionalProperties: { type: 'string' } } } },
      },
      required: ['ref', 'argument'],
    },
    handle: (session, p) => session.complete(p.ref as CompleteRef, p.argument as { name: string; value: string }, (p.context as { arguments?: Record<string, string> } | undefined)?.arguments ?? {}),
  },
};

let skillsModule: Promise<typeof import('./skills.ts')> | undefined;

/** The Skills extension's module, imported once. */
function skills(): Promise<typeof import('./skills.ts')> {
  return (skillsModule ??= import('./skills.ts'));
}

/** The method of that name, if kb serves it (in `revision`, when given:
 *  a method of the other era is not served). */
export function methodOf(name: string, revision?: Revision): Method | undefined {
  const method = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
  if (method?.era === undefined || revision === undefined) return method;
  return method.era === (revision.modern ? 'modern' : 'legacy') ? method : undefined;
}

/** A request kb cannot take as sent: a -32601 (no such method) or -32602
 *  (params of the wrong shape) error, or undefined. */
export function paramsProblem(method: Method | undefined, name: string, p: Params): { code: number; message: string } | undefined {
  if (method === undefined) return { code: METHOD_NOT_FOUND, message: `method not found: ${name.length > 60 ? `${name.slice(0, 60)}…` : name}` };
  const problem = method.params === undefined ? undefined : checkProperties(method.params, p);
  return problem === undefined ? undefined : { code: INVALID_PARAMS, message: `invalid params: ${problem}` };
}
