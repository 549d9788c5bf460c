// `kb mcp --http`: the flags checked, the server started (http.ts), and its
// life until a signal: the first stops taking connections and lets every
// request read finish (open streams are answered and ended); a second
// exits at once, exit 1.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { KnowledgeBase, WorkspaceOptions } from '../app/knowledge-base.ts';
import { KbError, UsageError } from '../shared/errors.ts';
import { debug } from '../shared/log.ts';
import { printError } from '../shared/stdio.ts';
import { HttpTransportServer, type HttpOptions } from './http.ts';
import { isLoopback, parseListen, tokenProblem } from './http-rules.ts';
import { KbSession, SessionShared } from './session.ts';
import type { HttpFlags } from '../shared/serve-options.ts';

/** The flags checked: where to listen, the token, the limits of time.
 *  A non-loopback address without a token is refused unless --insecure. */
export function httpSettings(flags: HttpFlags): HttpOptions {
  const { host, port, hostGiven } = parseListen(flags.listen);
  let token: string | undefined;
  let from = 'KB_MCP_TOKEN';
  if (flags.tokenFile !== undefined) {
    from = '--token-file';
    try {
      token = readFileSync(flags.tokenFile, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw new UsageError(`--token-file: cannot read it: ${(err as { code?: string }).code ?? (err as Error).message}`, '--token-file');
    }
  } else if (flags.tokenEnv !== undefined && flags.tokenEnv !== '') token = flags.tokenEnv;
  if (token !== undefined) {
    const problem = tokenProblem(token);
    if (problem !== undefined) throw new UsageError(`${from}: ${problem}`, from);
  }
  if (hostGiven && !isLoopback(host) && token === undefined && !flags.insecure) {
    throw new UsageError(`--http: ${host} is not a loopback address, and no token is set: anyone who reaches it could read the knowledge base; set KB_MCP_TOKEN or --token-file (or name --insecure, behind a proxy that authenticates)`, '--http');
  }
  for (const o of flags.allowOrigins) if (!/^https?:\/\/[^/\s]+$/.test(o)) throw new UsageError(`--allow-origin: "${o.slice(0, 60)}" is not an origin (scheme://host[:port])`, '--allow-origin');
  return { host, port, token, allowOrigins: flags.allowOrigins, timeout: seconds(flags.timeout, 10, '--timeout'), idle: seconds(flags.idle, 1800, '--idle') };
}

function seconds(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n <= 0 || n > 86400) throw new UsageError(`${flag}: "${value.slice(0, 20)}" is not a number of seconds (more than 0, at most 86400)`, flag);
  return n;
}

export async function serveHttp(kb: KnowledgeBase, options: WorkspaceOptions, writable: ReadonlySet<string>, list: { names: string[]; from: string } | undefined, settings: HttpOptions): Promise<number> {
  // Replicas given one token sign their cursors alike: a page listed by
  // one goes on at another.
  const key = settings.token === undefined ? undefined : createHash('sha256').update('kb mcp cursors\0').update(settings.token).digest();
  const root = new KbSession(options, writable, list, new SessionShared(key));
  const server = new HttpTransportServer(root, settings);
  let bound: { host: string; port: number };
  try {
    bound = await server.listen();
  } catch (err) {
    const code = (err as { code?: string }).code;
    const why = code === 'EADDRINUSE' ? 'the address is in use' : code === 'EACCES' ? 'permission denied' : code === 'EADDRNOTAVAIL' ? 'no such address here' : (err as Error).message;
    throw new KbError(`cannot listen on ${settings.host}:${settings.port}: ${why}`, '--http');
  }
  const shown = bound.host.includes(':') ? `[${bound.host}]` : bound.host;
  printError(`kb mcp: serving the workspace on http://${shown}:${bound.port}/mcp (${settings.token === undefined ? 'no token' : 'bearer token required'}${writable.size > 0 ? `; writes to ${[...writable].join(', ')}` : ''})\n`);
  await untilSignal(root);
  await debug('kb mcp: stopping: answering the requests already read');
  await server.stop();
  root.cache.close();
  await debug('kb mcp: stopped');
  return 0;
}

/** Resolves at the first SIGINT or SIGTERM; a second exits at once. */
function untilSignal(root: KbSession): Promise<void> {
  return new Promise((resolve) => {
    let signals = 0;
    const on = () => {
      if (++signals === 1) return resolve();
      printError('error: stopped by a second signal; requests in flight were left unanswered (kb mcp)\n');
      root.cache.close();
      process.exit(1);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
