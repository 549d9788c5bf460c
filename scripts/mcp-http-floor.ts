// The floor of the HTTP load (scripts/mcp-http-load.mjs, npm run bench):
// the least latency the same clients can see from a server on kb's own
// runtime. A Bun program, compiled with kb's flags, that serves node:http
// as `kb mcp --http` does and answers every call at once: it reads the
// body, parses it and replies with a fixed result (no token check, no
// knowledge base, no file read). Whatever latency it shows is the clients',
// the loopback's and the runtime's HTTP server's, on this machine, under
// this load; kb cannot answer faster than it.
//
//   mcp-http-floor mcp --http 127.0.0.1:0
//
// Started as the load starts kb: it prints `on http://127.0.0.1:PORT/mcp`
// on stderr. `resources/list` answers FLOOR_SUBJECTS subjects of topic
// `docs` (so the clients have slugs to ask for); every other call, a text
// result of FLOOR_REPLY_BYTES characters (about an exact load's reply on
// the bench's workspace: its text, and the same text as structured data).
//
// Bench scripts only: kb's own code is in src/.

import { createServer } from 'node:http';

const FLOOR_SUBJECTS = 100;
const FLOOR_REPLY_BYTES = 8_000;

const [command, flag, address] = process.argv.slice(2);
if (command !== 'mcp' || flag !== '--http' || address === undefined) {
  process.stderr.write('usage: mcp-http-floor mcp --http HOST:PORT\n');
  process.exit(2);
}
const colon = address.lastIndexOf(':');
const host = address.slice(0, colon);
const port = Number(address.slice(colon + 1));

const text = 'floor '.repeat(Math.ceil(FLOOR_REPLY_BYTES / 6)).slice(0, FLOOR_REPLY_BYTES);
const resources = Array.from({ length: FLOOR_SUBJECTS }, (_, i) => ({ uri: `kb://docs/floor-${i}`, name: `docs/floor-${i}` }));

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (d: Buffer) => parts.push(d));
  req.on('end', () => {
    let msg: { id?: unknown; method?: string };
    try {
      msg = JSON.parse(Buffer.concat(parts).toString());
    } catch {
      res.writeHead(400).end();
      return;
    }
    const result = msg.method === 'resources/list' ? { resources } : { content: [{ type: 'text', text }], isError: false };
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
});
server.listen(port, host, () => {
  const a = server.address();
  process.stderr.write(`mcp-http-floor: on http://${host}:${typeof a === 'object' && a !== null ? a.port : port}/mcp\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
