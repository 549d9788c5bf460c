// The protocol revisions `kb mcp` speaks, and which one answers a request.
//
// Legacy revisions (2024-11-05 to 2025-11-25) open with `initialize`: the
// version it agrees on holds for the server's life (stdio), as it always
// has. The modern revision (2026-07-28) is stateless: every request names
// its version and the client's capabilities in its `_meta`, and is
// answered by that alone, never by what an earlier request said (MCP
// 2026-07-28, basic/index "Statelessness", basic/versioning). So the
// revision is worked out per request (`revisionOf`) and travels with it
// (methods.ts `Context`): nothing of it is kept in the session, and a
// transport of one request per exchange (HTTP) needs nothing more.
//
// A dual-era server (basic/versioning, "Backward Compatibility"): a request
// whose `_meta` names a version is answered by that version; one that names
// none is answered by the version `initialize` agreed on, or, before any
// `initialize`, as kb always answered such a request. A client that probes
// with `server/discover` gets the modern path; one that sends `initialize`
// gets the legacy one, unchanged.
import { escapeControls, jsonQuoted } from '../shared/controls.ts';
import { INVALID_PARAMS } from './jsonrpc.ts';

/** Legacy protocol versions kb speaks, newest first: a client asking for
 *  another in `initialize` gets the newest (MCP lifecycle, version
 *  negotiation). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** The modern versions kb speaks (no `initialize`), newest first. */
export const MODERN_VERSIONS = ['2026-07-28'];

/** Every version kb speaks, newest first: `server/discover`'s
 *  `supportedVersions`, and the list an unsupported version is answered
 *  with. A legacy version is spoken after `initialize`. */
export const SUPPORTED_VERSIONS = [...MODERN_VERSIONS, ...PROTOCOL_VERSIONS];

/** The `_meta` keys of 2026-07-28 (basic/index, `_meta`). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** 2026-07-28: the version a request names is not one kb speaks. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** The revision a request is answered by. */
export interface Revision {
  /** Its version, or undefined: no `_meta` version and no `initialize`
   *  yet (answered as a legacy request, as kb always did). */
  readonly version: string | undefined;
  /** 2026-07-28 or later: no handshake, a `resultType` and kb's identity
   *  on every result, cache hints on lists and reads. */
  readonly modern: boolean;
}

/** Why a request cannot be answered by any revision: its JSON-RPC error. */
export interface RevisionProblem {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The legacy revision of a request that names no version. */
export function legacy(agreed: string | undefined): Revision {
  return { version: agreed, modern: false };
}

/** The revision that answers a request with these params, given the
 *  version `initialize` agreed on (if any); or the error it gets: a
 *  version kb does not speak (-32022, with the versions it does), or a
 *  modern request without the client's capabilities (-32602). */
export function revisionOf(params: Record<string, unknown>, agreed: string | undefined): Revision | RevisionProblem {
  const meta = params._meta;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta) || !Object.hasOwn(meta, META.protocolVersion)) return legacy(agreed);
  const asked = (meta as Record<string, unknown>)[META.protocolVersion];
  if (typeof asked !== 'string') return { code: INVALID_PARAMS, message: `invalid params: "_meta"."${META.protocolVersion}" must be a string` };
  if (PROTOCOL_VERSIONS.includes(asked)) return { version: asked, modern: false };
  if (!MODERN_VERSIONS.includes(asked)) {
    // What is echoed of it is cut and escaped, as every echo (controls.ts).
    const requested = escapeControls(asked.length > 100 ? `${asked.slice(0, 100)}…` : asked);
    return { code: UNSUPPORTED_PROTOCOL_VERSION, message: `Unsupported protocol version: ${jsonQuoted(requested)}; kb speaks ${SUPPORTED_VERSIONS.join(', ')}`, data: { supported: SUPPORTED_VERSIONS, requested } };
  }
  const caps = (meta as Record<string, unknown>)[META.clientCapabilities];
  if (caps === null || typeof caps !== 'object' || Array.isArray(caps)) {
    return { code: INVALID_PARAMS, message: `invalid params: "_meta"."${META.clientCapabilities}" must be an object (protocol ${asked} requires it on every request)` };
  }
  return { version: asked, modern: true };
}

export function isProblem(r: Revision | RevisionProblem): r is RevisionProblem {
  return 'code' in r;
}

/** The first version whose tools declare an `outputSchema` and return
 *  `structuredContent`. */
const STRUCTURED_FROM = '2025-06-18';

/** Whether tool results carry their data (`structuredContent`) and tools
 *  their `outputSchema` under `revision`: 2025-06-18 and later. A request
 *  with no version (before `initialize`) is answered as kb always did. */
export function hasStructuredResults(revision: Revision | undefined): boolean {
  return revision !== undefined && (revision.modern || (revision.version !== undefined && revision.version >= STRUCTURED_FROM));
}
