// What protocol 2026-07-28 adds to every answer, in one place (the
// dispatcher applies it to a request that revision answers; the legacy
// revisions' answers are not touched):
// - every result carries `resultType: "complete"` and kb's identity in its
//   `_meta` (`io.modelcontextprotocol/serverInfo`);
// - lists and reads carry cache hints, `ttlMs` and `cacheScope` (server/
//   utilities/caching), chosen below;
// - a resource not found is -32602 (it was -32002).
import { VERSION } from '../shared/version.ts';
import { INVALID_PARAMS } from './jsonrpc.ts';
import { META } from './revisions.ts';
import { RESOURCE_NOT_FOUND } from './errors.ts';

/** kb's identity under 2026-07-28 (an `Implementation`). No `websiteUrl`:
 *  kb has no website of its own, and a URL it cannot vouch for would be
 *  worse than none. The legacy `initialize` answer keeps its name and
 *  version alone, as before. */
export const SERVER_INFO = {
  name: 'kb',
  title: 'kb knowledge base',
  version: VERSION,
  description: 'A file-based knowledge base for LLM assistants: topics of text files to list, learn, search and remember.',
};

/** The capabilities kb declares under 2026-07-28: resource list changes
 *  and per-resource updates on a `subscriptions/listen` stream (kb
 *  watches its topics' files), completions, and the Skills extension
 *  (mcp/skills.ts), as under the older revisions. The tool and prompt lists
 *  send no change notification. */
export const MODERN_CAPABILITIES = {
  tools: { listChanged: false },
  prompts: { listChanged: false },
  resources: { listChanged: true, subscribe: true },
  completions: {},
  extensions: { 'io.modelcontextprotocol/skills': {} },
};

const HOUR = 60 * 60 * 1000;

/** The cache hints of each cacheable method (server/utilities/caching).
 *  What kb reads from files changes whenever a file does, and kb reads
 *  the files again for every request: those results are fresh only when
 *  they are made (`ttlMs` 0), and a client that wants to keep them keeps
 *  them until a `subscriptions/listen` notification says they changed.
 *  They are the contents of the user's own files (a tool's description
 *  names the topics): `private`. What never changes while the server runs
 *  (the prompt, the template, the server itself) is fresh for an hour and
 *  holds nothing of the user's: `public`. */
export const CACHE_HINTS: Readonly<Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }>> = {
  'server/discover': { ttlMs: HOUR, cacheScope: 'public' },
  'tools/list': { ttlMs: 0, cacheScope: 'private' },
  'prompts/list': { ttlMs: HOUR, cacheScope: 'public' },
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: HOUR, cacheScope: 'public' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
};

/** A method's result as 2026-07-28 has it: `resultType`, the method's
 *  own fields, its cache hints, and kb's identity in `_meta` (beside what
 *  the result's own `_meta` holds). */
export function modernResult(method: string, result: unknown): Record<string, unknown> {
  const own = (result ?? {}) as Record<string, unknown>;
  const meta = own._meta !== null && typeof own._meta === 'object' ? (own._meta as Record<string, unknown>) : {};
  return { resultType: 'complete', ...own, ...CACHE_HINTS[method], _meta: { ...meta, [META.serverInfo]: SERVER_INFO } };
}

/** An error code as 2026-07-28 has it: a resource not found is -32602
 *  (Invalid Params); it must not be -32002. */
export function modernCode(code: number): number {
  return code === RESOURCE_NOT_FOUND ? INVALID_PARAMS : code;
}
