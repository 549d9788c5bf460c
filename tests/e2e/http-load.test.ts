// The benchmark's HTTP load (scripts/mcp-http-load.mjs, `npm run bench --
// --http-only`) on dist/kb and on its floor (scripts/mcp-http-floor.ts, a
// server on kb's runtime that answers at once): a few clients and calls,
// so that the figures the benchmark reports come from calls that were
// answered, on both servers, and neither leaves a connection open.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { mcpHttpLoad } from '../../scripts/mcp-http-load.mjs';
import { BIN, fixture, isolatedEnv, REPO } from './harness.ts';

const CLIENTS = 3;
const CALLS = 20;

function workspace(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`docs/part-${i}/note-${i}.md`] = `# Note ${i}\n\nAbout widgets and gadgets, part ${i}.\n`;
  return fixture(files, '[kb.topic.docs]\nsubjects = "docs"\n');
}

describe('the HTTP load of the benchmark', () => {
  test('on kb: every call of each kind answered, no socket left open', async () => {
    const root = workspace();
    const r = await mcpHttpLoad({ bin: BIN, workspace: root, topic: 'docs', clients: CLIENTS, calls: CALLS, env: isolatedEnv(root) });
    expect(r.firstErrors).toEqual([]);
    expect(r.subjects).toBe(12);
    // Of every 20 calls, 18 exact loads, one listing, one search.
    expect([r.exact.n, r.listing.n, r.search.n]).toEqual([CLIENTS * 18, CLIENTS, CLIENTS]);
    expect(r.exact.p50).toBeGreaterThan(0);
    expect(r.exitCode).toBe(0);
    if (process.platform === 'linux') expect([r.socketsAfter, r.listening]).toEqual([0, 1]);
  }, 30_000);

  test('on the floor: the same clients answered by a server that does nothing else', async () => {
    const root = workspace();
    const floor = [process.execPath, join(REPO, 'scripts/mcp-http-floor.ts')];
    const r = await mcpHttpLoad({ bin: floor, workspace: root, topic: 'docs', clients: CLIENTS, calls: CALLS, env: isolatedEnv(root) });
    expect(r.firstErrors).toEqual([]);
    // Its own subjects, not the workspace's: it reads no file.
    expect(r.subjects).toBe(100);
    expect([r.exact.n, r.listing.n, r.search.n]).toEqual([CLIENTS * 18, CLIENTS, CLIENTS]);
    expect(r.exitCode).toBe(0);
    if (process.platform === 'linux') expect([r.socketsAfter, r.listening]).toEqual([0, 1]);
  }, 30_000);
});
