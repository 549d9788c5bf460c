// `kb mcp`: a Model Context Protocol server on stdio, built on the official
// TypeScript SDK. This is the only module that imports the SDK, and it is
// itself imported only when `kb mcp` runs (the entry module, src/cli.ts,
// hands it to the mcp command), so the other commands never load it.
//
// The low-level `Server` is used rather than `McpServer`: the `learn` tool's
// input schema must be the RFD's JSON Schema exactly, and McpServer derives
// tool schemas from zod types.
//
// stdout carries protocol messages only: everything else goes to stderr.
// The server stops cleanly, exit 0, when stdin closes (the client went away)
// or on SIGINT / SIGTERM, after answering the requests already received.
import { setImmediate } from 'node:timers';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { KnowledgeBase, type WorkspaceOptions } from '../app/knowledge-base.ts';
import { debug } from '../shared/log.ts';
import { UsageError } from '../shared/errors.ts';
import { VERSION } from '../shared/version.ts';
import { INTERNAL_ERROR, KbSession, RequestError } from './session.ts';

const INSTRUCTIONS =
  'A file-based knowledge base of topics and subjects. The `knowledge` prompt is the system-prompt section that lists the topics; ' +
  'the `learn` tool lists a topic (topic only) or loads subjects by slug or glob; every listed subject is also a kb://<topic>/<slug> resource.';

const WRITE_INSTRUCTIONS = 'The `remember` tool saves a new subject to a writable topic (never a duplicate); `forget` removes one.';

export async function serve(options: WorkspaceOptions, serving: { write: readonly string[] } = { write: [] }): Promise<number> {
  // Library code must not reach stdout through console.log either.
  console.log = console.info = console.debug = console.error;

  // Fail fast on what a restart would not fix by itself: no workspace, a bad
  // --cfg or -k. Problems inside the configuration files are reported per
  // request instead, so that fixing them needs no restart.
  const kb = await KnowledgeBase.open(options);
  await debug(`kb mcp: serving workspace ${kb.config.root} on stdio`);
  // Writing is opt-in, per topic: the --write topics, checked now.
  const writable = new Set<string>();
  for (const name of serving.write) {
    const t = kb.resolveTopic(name);
    if (t === undefined) throw new UsageError(`--write: unknown topic "${name}"; the topics are ${kb.topics.map((x) => x.id).join(', ') || '(none)'}`, '--write');
    if (!t.enable) throw new UsageError(`--write: topic "${t.id}" is disabled`, '--write');
    writable.add(t.id);
  }
  if (writable.size > 0) await debug(`kb mcp: remember and forget may write to ${[...writable].join(', ')}`);

  const session = new KbSession(options, writable);
  const server = new Server(
    { name: 'kb', version: VERSION },
    {
      capabilities: { tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false, subscribe: false } },
      instructions: writable.size > 0 ? `${INSTRUCTIONS} ${WRITE_INSTRUCTIONS}` : INSTRUCTIONS,
    },
  );

  let inFlight = 0;
  let idle: (() => void) | undefined;
  // Each request runs against the files as they are now; kb errors become
  // JSON-RPC errors with the same message kb would print.
  // Requests run one at a time, in the order they arrive, each to its end
  // (opening the knowledge base awaits its loaders): answers come in order,
  // and a client that floods the server holds one request's work in
  // memory, not one per request.
  let previous: Promise<unknown> = Promise.resolve();
  function handle<T>(work: () => T | Promise<T>): Promise<T> {
    inFlight++;
    const run = previous.then(work);
    previous = run.catch(() => undefined);
    return run
      .catch((err: unknown) => {
        // The SDK answers with the error's `code` and `message` as they are.
        if (err instanceof RequestError) throw err;
        throw new RequestError(INTERNAL_ERROR, err instanceof Error ? err.message : String(err));
      })
      .finally(() => {
        inFlight--;
        if (inFlight === 0) idle?.();
      });
  }

  server.setRequestHandler(ListToolsRequestSchema, () => handle(async () => ({ tools: await session.tools() })));
  server.setRequestHandler(CallToolRequestSchema, (req) => handle(() => session.callTool(req.params.name, req.params.arguments)));
  server.setRequestHandler(ListPromptsRequestSchema, () => handle(() => ({ prompts: session.prompts() })));
  server.setRequestHandler(GetPromptRequestSchema, (req) => handle(() => session.getPrompt(req.params.name, req.params.arguments)));
  server.setRequestHandler(ListResourcesRequestSchema, () => handle(async () => ({ resources: await session.resources() })));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => handle(() => ({ resourceTemplates: session.resourceTemplates() })));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => handle(() => session.readResource(req.params.uri)));
  server.onerror = (err) => process.stderr.write(`kb mcp: ${err.message}\n`);

  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  process.stdout.once('error', stop); // the client closed our stdout
  server.onclose = stop;
  const onSignal = () => stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  await server.connect(new StdioServerTransport());
  await stopped;
  // Answer what was already received: requests read just before the end of
  // stdin start on a later tick, and their responses are written a few
  // microtasks after their handlers finish.
  await nextTurn();
  if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
  await nextTurn();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await server.close();
  process.stdin.destroy();
  await debug('kb mcp: stopped');
  return 0;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
