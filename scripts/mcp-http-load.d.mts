// Types of scripts/mcp-http-load.mjs, for the tests (tests/e2e/http-load.test.ts).

export interface LoadStats {
  n: number;
  p50: number;
  p99: number;
}

export interface LoadResult {
  subjects: number;
  clients: number;
  calls: number;
  seconds: number;
  exact: LoadStats;
  listing: LoadStats;
  search: LoadStats;
  serverCpuMs: number | null;
  clientCpuMs: number;
  errors: number;
  firstErrors: string[];
  peakKiB: number | null;
  socketsAfter: number | null;
  listening: number | null;
  exitCode: number | null;
}

/** C clients x N calls on `bin mcp --http 127.0.0.1:0` (`bin`: a program,
 *  or a command's words), started in `workspace` with `env` added. */
export function mcpHttpLoad(options: { bin: string | string[]; workspace: string; topic: string; clients?: number; calls?: number; env?: Record<string, string> }): Promise<LoadResult>;
