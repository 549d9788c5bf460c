// Every reply of `kb mcp` checked against the official MCP JSON schema of
// the protocol version in use (tests/data/mcp-schema, vendored from the
// specification): the envelope (JSONRPCResponse or JSONRPCError; from
// 2025-11-25, JSONRPCResultResponse or JSONRPCErrorResponse; a batch
// response in 2025-03-26) and the result against the type of the method
// asked (InitializeResult, ListToolsResult, CallToolResult...).
//
// The version in use: for a request whose `_meta` names one (2026-07-28
// has no handshake: every request names its version), that one; else the
// version `initialize` agreed on. A notification kb sends (on a
// `subscriptions/listen` stream) is checked against its type too.
//
// `ReplyChecker` follows one session: what the client sent (ids, methods
// and versions, the version asked in `initialize`) and what came back (the
// version the server chose). The MCP test clients feed it every message
// both ways (tests/e2e/mcp-client.ts for the SDK's clients, the raw clients
// of tests/hardening and tests/support/mcp-raw.ts).
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The revisions that open with `initialize`. */
export const MCP_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
/** The revision without a handshake. */
export const MODERN = '2026-07-28';
/** Every revision kb speaks. */
export const ALL_VERSIONS = [...MCP_VERSIONS, MODERN] as const;
export type McpVersion = (typeof ALL_VERSIONS)[number];
const LATEST: McpVersion = '2025-11-25';
const PROTOCOL_KEY = 'io.modelcontextprotocol/protocolVersion';

/** The result type of each method kb serves. */
const RESULT_OF: Record<string, string> = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'server/discover': 'DiscoverResult',
  'completion/complete': 'CompleteResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

/** The result type of each method of the Skills extension, in its own
 *  schema (tests/data/mcp-skills-schema), the same under every revision. */
const SKILLS_RESULT_OF: Record<string, string> = {
  'skills/list': 'ListSkillsResult',
  'skills/get': 'GetSkillResult',
};

/** The type of each notification kb sends (2026-07-28). */
const NOTIFICATION_OF: Record<string, string> = {
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
};

/** From 2025-11-25 on: JSON Schema 2020-12, and no null id. */
const isLate = (v: McpVersion) => v === '2025-11-25' || v === MODERN;

const DIR = join(import.meta.dir, '../data/mcp-schema');

let skillsAjv: Ajv | undefined;

/** The validator of one type of the Skills extension's schema. */
export function skillsValidatorOf(type: string): ValidateFunction {
  if (skillsAjv === undefined) {
    skillsAjv = new Ajv({ strict: false, allErrors: true });
    for (const [name, re] of Object.entries(FORMATS)) skillsAjv.addFormat(name, re);
    skillsAjv.addSchema(JSON.parse(readFileSync(join(DIR, '../mcp-skills-schema/schema.json'), 'utf8')), 'skills');
  }
  const v = skillsAjv.getSchema(`skills#/definitions/${type}`);
  if (v === undefined) throw new Error(`the Skills extension's schema has no type ${type}`);
  return v;
}

/** The string formats the schemas use, as their RFCs define them (closely
 *  enough for a test): a URI has a scheme and no white space; `byte` is
 *  base64. */
const FORMATS: Record<string, RegExp> = {
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  'uri-template': /^[^\s]*$/,
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
};

const schemas = new Map<McpVersion, { ajv: Ajv; defs: string }>();
const compiled = new Map<string, ValidateFunction>();

/** The validator of one type of the schema of `version`. */
export function validatorOf(version: McpVersion, type: string): ValidateFunction {
  const key = `${version}#${type}`;
  let v = compiled.get(key);
  if (v !== undefined) return v;
  let s = schemas.get(version);
  if (s === undefined) {
    const schema = JSON.parse(readFileSync(join(DIR, version, 'schema.json'), 'utf8'));
    const defs = schema.$defs !== undefined ? '$defs' : 'definitions';
    // 2025-11-25 and 2026-07-28 are JSON Schema 2020-12; the others draft-07.
    const ajv = isLate(version) ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
    for (const [name, re] of Object.entries(FORMATS)) ajv.addFormat(name, re);
    ajv.addSchema(schema, version);
    s = { ajv, defs };
    schemas.set(version, s);
    if (schema[defs][type] === undefined) throw new Error(`the ${version} schema has no type ${type}`);
  }
  v = s.ajv.getSchema(`${version}#/${s.defs}/${type}`);
  if (v === undefined) throw new Error(`the ${version} schema has no type ${type}`);
  compiled.set(key, v);
  return v;
}

function problemsOf(v: ValidateFunction, value: unknown): string | undefined {
  if (v(value)) return undefined;
  return (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}

// biome-ignore lint: JSON-RPC messages as parsed.
type Message = any;

export class ReplyChecker {
  /** Requests sent and not yet answered: id (as JSON) -> method, and the
   *  version its `_meta` names (a version kb does not speak: 2026-07-28,
   *  whose error answers it). */
  private readonly pending = new Map<string, { method: string; version?: McpVersion }>();
  private asked: string | undefined;
  /** A request of 2026-07-28 was sent (then what cannot be tied to a
   *  request is checked against its schema, before any `initialize`). */
  private modernSeen = false;
  /** The version the server chose, once it answered `initialize`. */
  version: McpVersion | undefined;
  /** What did not validate, one line each. */
  readonly problems: string[] = [];

  /** The schema replies are checked against when their request named no
   *  version: the negotiated version, or (before the answer to
   *  `initialize`) the one asked, or 2026-07-28 when only its requests
   *  were sent, or the latest legacy one. */
  get schemaVersion(): McpVersion {
    const v = this.version ?? this.asked;
    if ((MCP_VERSIONS as readonly string[]).includes(v ?? '')) return v as McpVersion;
    return this.modernSeen ? MODERN : LATEST;
  }

  /** A message the client sent (a batch too). */
  sent(m: Message): void {
    for (const one of Array.isArray(m) ? m : [m]) {
      if (one === null || typeof one !== 'object' || typeof one.method !== 'string' || !Object.hasOwn(one, 'id')) continue;
      const meta = one.params?._meta;
      let version: McpVersion | undefined;
      if (meta !== null && typeof meta === 'object' && Object.hasOwn(meta, PROTOCOL_KEY)) {
        const named = meta[PROTOCOL_KEY];
        version = (MCP_VERSIONS as readonly string[]).includes(named) ? (named as McpVersion) : MODERN;
        if (version === MODERN) this.modernSeen = true;
      }
      this.pending.set(JSON.stringify(one.id), { method: one.method, ...(version !== undefined ? { version } : {}) });
      if (one.method === 'initialize' && typeof one.params?.protocolVersion === 'string') this.asked = one.params.protocolVersion;
    }
  }

  /** A line the client sent, as text (parsed when it is JSON). */
  sentLine(line: string): void {
    try {
      // A byte-order mark before a message is dropped (RFC 8259 allows it).
      this.sent(JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line));
    } catch {
      // Not JSON: its reply is a parse error, with no id to follow.
    }
  }

  /** A message the server sent: its problems ('' when it validates). */
  received(m: Message): string {
    let version = this.schemaVersion;
    let problem: string | undefined;
    const key = m !== null && typeof m === 'object' && !Array.isArray(m) && Object.hasOwn(m, 'id') ? JSON.stringify(m.id) : undefined;
    const named = key === undefined ? undefined : this.pending.get(key)?.version;
    if (named !== undefined) version = named;
    if (m !== null && typeof m === 'object' && !Array.isArray(m) && typeof m.method === 'string' && !Object.hasOwn(m, 'id')) {
      problem = this.notification(m);
    } else if (Array.isArray(m)) {
      // Entries whose id could not be read: as for a single reply (below).
      const ids = m.map((one) => (one !== null && typeof one === 'object' && one.id === null && this.nullIdAllowed(version) ? { ...one, id: 0 } : one));
      problem = version === '2025-03-26' ? problemsOf(validatorOf(version, 'JSONRPCBatchResponse'), ids) : `a batch response, which protocol ${version} does not have`;
      if (problem === undefined) problem = m.map((one) => this.one(one, version)).filter((p) => p !== '').join('; ') || undefined;
    } else {
      problem = this.one(m, version) || undefined;
    }
    if (problem === undefined) return '';
    const line = `reply ${JSON.stringify(m).slice(0, 300)} does not validate against the MCP ${version} schema: ${problem}`;
    this.problems.push(line);
    return line;
  }

  /** Whether an error may carry JSON-RPC's id null: before 2025-11-25,
   *  and before any version is asked for (none of 2026-07-28 either). */
  private nullIdAllowed(version: McpVersion): boolean {
    return !isLate(version) || ((this.version ?? this.asked) === undefined && !this.modernSeen);
  }

  /** A notification kb sent: only on a `subscriptions/listen` stream
   *  (2026-07-28), tagged with its subscription's id. */
  private notification(m: Message): string | undefined {
    const type = NOTIFICATION_OF[m.method];
    if (type === undefined) return `a notification ${m.method}, which kb does not send`;
    const id = m.params?._meta?.['io.modelcontextprotocol/subscriptionId'];
    if (id === undefined) return `a notification ${m.method} without its subscription's id`;
    return problemsOf(validatorOf(MODERN, type), m);
  }

  private one(m: Message, version: McpVersion): string {
    const key = m !== null && typeof m === 'object' && Object.hasOwn(m, 'id') ? JSON.stringify(m.id) : undefined;
    const method = key === undefined ? undefined : this.pending.get(key)?.method;
    if (key !== undefined) this.pending.delete(key);
    if (m !== null && typeof m === 'object' && Object.hasOwn(m, 'error')) {
      const type = isLate(version) ? 'JSONRPCErrorResponse' : 'JSONRPCError';
      // 2026-07-28's errors of its own have their own type.
      if (version === MODERN && m.error?.code === -32022) return problemsOf(validatorOf(version, 'UnsupportedProtocolVersionError'), m) ?? '';
      // A reply to a message whose id could not be read (-32700, -32600):
      // JSON-RPC 2.0 answers it with id null, which the schemas before
      // 2025-11-25 cannot express (their RequestId is a string or an
      // integer; 2025-11-25 leaves the id out), nor can a reply before
      // any version is agreed. The rest must validate.
      if (m.id === null && this.nullIdAllowed(version)) {
        if (m.error?.code !== -32700 && m.error?.code !== -32600) return `id null on an error other than -32700 or -32600 (${m.error?.code})`;
        return problemsOf(validatorOf(version, type), { ...m, id: 0 }) ?? '';
      }
      return problemsOf(validatorOf(version, type), m) ?? '';
    }
    const envelope = problemsOf(validatorOf(version, isLate(version) ? 'JSONRPCResultResponse' : 'JSONRPCResponse'), m);
    if (envelope !== undefined) return envelope;
    if (method === undefined) return `a result for id ${key}, which no request sent is waiting for`;
    const skills = SKILLS_RESULT_OF[method];
    if (skills !== undefined) return problemsOf(skillsValidatorOf(skills), m.result) ?? '';
    const type = RESULT_OF[method];
    if (type === undefined) return `a result for ${method}, a method kb does not serve`;
    if (method === 'initialize' && typeof m.result?.protocolVersion === 'string') {
      const chosen = m.result.protocolVersion;
      if (!(MCP_VERSIONS as readonly string[]).includes(chosen)) return `initialize chose protocol ${chosen}, which is none of ${MCP_VERSIONS.join(', ')}`;
      this.version = chosen as McpVersion;
      return problemsOf(validatorOf(this.version, type), m.result) ?? '';
    }
    return problemsOf(validatorOf(version, type), m.result) ?? '';
  }
}

/** The problems of a whole session, checked after the fact: the messages
 *  sent (objects, or lines as written) and stdout as read. */
export function transcriptProblems(sent: readonly (object | string)[], stdout: string): string[] {
  const checker = new ReplyChecker();
  for (const m of sent) if (typeof m === 'string') checker.sentLine(m);
  else checker.sent(m);
  for (const line of stdout.split('\n')) if (line !== '') checker.received(JSON.parse(line));
  return checker.problems;
}
