// A warm search reads the postings of its own terms from the search
// cache, not the whole postings section (issue: warm search at the floor):
// counted on dist/kb under strace. The cache file stays open only while a
// search runs: an MCP server answering many searches holds no more files
// than it did after the first.
import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, readlinkSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, BINARY, fixture, isolatedEnv, run } from './harness.ts';
import { connect, text } from './mcp-client.ts';
import { bytesRead, STRACE } from '../support/strace.ts';
import { rng } from '../support/rng.ts';

/** 1,600 documents of 400 words from a vocabulary of 20,000: a postings
 *  section of well over 1 MiB (lazily read from there on). Two words are
 *  known: `zebra` in one document, `okapi` in every tenth. */
function topic(): Record<string, string> {
  const next = rng(21);
  const files: Record<string, string> = {};
  for (let d = 0; d < 1600; d++) {
    const words: string[] = [];
    for (let w = 0; w < 400; w++) words.push(`w${Math.floor(next() * 20000).toString(36)}`);
    if (d === 7) words.push('zebra');
    if (d % 10 === 3) words.push('okapi');
    files[`docs/part-${d % 12}/doc-${d}.md`] = `# Document ${d}\n\n${words.join(' ')}\n`;
  }
  return files;
}

const root = fixture(topic(), '[kb.topic.docs]\nsubjects = "docs"\n');
// Files and folders a minute old: times this recent are not trusted by
// the cache (a change in the same tick could go unseen), and every search
// would index again.
const past = new Date(Date.now() - 60_000);
for (const f of readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })) utimesSync(join(root, 'docs', f), past, past);
utimesSync(join(root, 'docs'), past, past);
const cacheDir = join(root, '.xdg-cache', 'kb', 'search');

function cacheFile(): string {
  const files = readdirSync(cacheDir).filter((f) => f.endsWith('.idx'));
  expect(files).toHaveLength(1);
  return join(cacheDir, files[0]);
}

describe('a warm search and the search cache', () => {
  // The first search builds the index and writes the cache.
  const cold = run(BINARY, root, ['search', 'zebra']);

  test.skipIf(!STRACE)('reads a small part of a large cache file: its terms\' postings, not all of them', () => {
    expect(cold.code).toBe(0);
    expect(cold.out).toContain('docs: part-7/doc-7');
    const file = cacheFile();
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(2 * 1024 * 1024);
    expect(run(BINARY, root, ['--verbose', 'search', 'zebra']).err).toContain('index hit');
    const bytes = bytesRead([BIN, 'search', 'zebra'], root, isolatedEnv(root), [file], root).get(file) ?? 0;
    expect(bytes).toBeGreaterThan(0);
    // The postings are most of the file; one rare word's are a few bytes.
    expect(bytes).toBeLessThan(size / 2);
    // The same answer as the search that built the index.
    expect(run(BINARY, root, ['search', 'zebra']).out).toBe(cold.out);
  });

  test('an index read lazily answers as the one built: a common word, and after an edit (the index patched)', () => {
    const built = run(BINARY, root, ['search', '--no-cache', 'okapi document']);
    const warm = run(BINARY, root, ['search', 'okapi document']);
    expect(warm.code).toBe(0);
    expect(warm.out).toBe(built.out);
    expect(warm.out).toContain('docs: part-3/doc-');
    // One file edited: the cached index is patched, every posting read.
    const edited = join(root, 'docs', 'part-4', 'doc-100.md');
    writeFileSync(edited, `${readFileSync(edited, 'utf8')}zebra zebra\n`);
    const patched = run(BINARY, root, ['--verbose', 'search', 'zebra']);
    expect(patched.code).toBe(0);
    expect(patched.err).toContain('index updated');
    expect(patched.out).toContain('docs: part-4/doc-100');
    expect(patched.out).toContain('docs: part-7/doc-7');
    expect(patched.out).toBe(run(BINARY, root, ['search', '--no-cache', 'zebra']).out);
    // And the index written back answers the same.
    expect(run(BINARY, root, ['search', 'zebra']).out).toBe(patched.out);
  });

  describe('over MCP', () => {
    let conn: Awaited<ReturnType<typeof connect>> | undefined;
    afterAll(async () => {
      await conn?.client.close();
    });

    test('the cache file is let go after each search: no descriptor is left open', async () => {
      conn = await connect(root);
      const pid = conn.transport.pid;
      expect(pid).toBeNumber();
      const fds = () => readdirSync(`/proc/${pid}/fd`).map((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          return '';
        }
      });
      const first = text(await conn.client.callTool({ name: 'search', arguments: { query: 'zebra' } }));
      expect(first).toContain('part-7/doc-7');
      const after = fds().length;
      for (let i = 0; i < 40; i++) {
        const r = text(await conn.client.callTool({ name: 'search', arguments: { query: i % 2 ? 'okapi' : 'zebra' } }));
        expect(r).toContain(i % 2 ? 'part-3/doc-' : 'part-7/doc-7');
      }
      const open = fds();
      expect(open.filter((p) => p.endsWith('.idx'))).toEqual([]);
      expect(open.length).toBeLessThanOrEqual(after);
    });
  });
});
