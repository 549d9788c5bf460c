// The errors `kb mcp` answers a request with (beside JSON-RPC's own codes,
// jsonrpc.ts).

/** MCP (2025-11-25 and earlier): a resource that does not exist. Under
 *  2026-07-28 it is -32602 (modern.ts). */
export const RESOURCE_NOT_FOUND = -32002;

/** A request that fails as a whole (a JSON-RPC error, not a tool result). */
export class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
