// kb export at scale, on the binary: 10,000 and 100,000 subjects of about
// 4 KB each (a folder of 1,000 per directory; every tenth with frontmatter).
// stdout is read as it comes, every line parsed as JSON; the peak memory of
// dist/kb is measured. Streaming shows in the figures: the 100,000-subject
// export writes about 385 MiB within 300 MiB of peak memory, which grows
// from the 10,000-subject one by less than half of what the output grows
// (what does grow is the subject index, as for every command).
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedEnv } from '../e2e/harness.ts';
import { BIN, cleanup, tempDir } from './helpers.ts';

afterAll(cleanup);

const MiB = 1 << 20;
const BODY = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(68);

/** A workspace of `n` subjects in topic t. */
function make(n: number): string {
  const root = tempDir('kb-export-');
  mkdirSync(join(root, '.jp'), { recursive: true });
  writeFileSync(join(root, '.jp', 'config.toml'), '[kb.topic.t]\nsubjects = "t"\n');
  for (let d = 0; d * 1000 < n; d++) {
    const dir = join(root, 't', `d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let i = d * 1000; i < Math.min(n, (d + 1) * 1000); i++) {
      const front = i % 10 === 0 ? `---\ndescription: subject ${i}\ntags: [t${i % 7}]\n---\n` : '';
      writeFileSync(join(dir, `s${i}.md`), `${front}# Subject ${i}\n\n${BODY}\n`);
    }
  }
  return root;
}

interface Exported {
  code: number | null;
  err: string;
  lines: number;
  bytes: number;
  slugs: Set<string>;
  described: number;
  maxRss: number;
}

/** Runs `kb export` under the peak-memory wrapper, parsing stdout line by
 *  line as it arrives (never holding it whole). */
async function exportOf(root: string): Promise<Exported> {
  const peakFile = join(tmpdir(), `kb-export-peak-${process.pid}-${Date.now()}`);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'peak-memory.ts'), BIN, 'export'], {
    cwd: root,
    env: { ...isolatedEnv(root), PEAK_MEMORY_OUT: peakFile },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const out: Exported = { code: null, err: '', lines: 0, bytes: 0, slugs: new Set(), described: 0, maxRss: Number.NaN };
  const decoder = new TextDecoder();
  let rest = '';
  const take = (line: string) => {
    const r = JSON.parse(line) as { slug: string; description: string | null; text: string; size: number };
    out.lines++;
    out.slugs.add(r.slug);
    if (r.description !== null) out.described++;
    if (r.text.length !== r.size) throw new Error(`${r.slug}: ${r.text.length} characters, size ${r.size}`);
  };
  for await (const chunk of proc.stdout) {
    out.bytes += chunk.length;
    const text = rest + decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    rest = lines.pop()!;
    for (const line of lines) take(line);
  }
  expect(rest).toBe(''); // the output ends in a line end
  out.err = await new Response(proc.stderr).text();
  out.code = await proc.exited;
  out.maxRss = Number(readFileSync(peakFile, 'utf8'));
  rmSync(peakFile, { force: true });
  return out;
}

describe('kb export of 10,000 and 100,000 subjects', () => {
  let small: Exported;
  test('10,000 subjects: every one a JSON line', async () => {
    const root = make(10_000);
    small = await exportOf(root);
    rmSync(join(root, 't'), { recursive: true, force: true });
    expect({ code: small.code, err: small.err, lines: small.lines, slugs: small.slugs.size, described: small.described }).toEqual({
      code: 0,
      err: 'exported 10,000 subjects from 1 topic\n',
      lines: 10_000,
      slugs: 10_000,
      described: 1_000,
    });
  }, 300_000);

  test('100,000 subjects: every one a JSON line, in bounded memory', async () => {
    const root = make(100_000);
    const big = await exportOf(root);
    rmSync(join(root, 't'), { recursive: true, force: true });
    expect({ code: big.code, err: big.err, lines: big.lines, slugs: big.slugs.size, described: big.described }).toEqual({
      code: 0,
      err: 'exported 100,000 subjects from 1 topic\n',
      lines: 100_000,
      slugs: 100_000,
      described: 10_000,
    });
    expect(big.bytes).toBeGreaterThan(380 * MiB);
    const figures = `peak ${(small.maxRss / MiB).toFixed(0)} MiB for ${(small.bytes / MiB).toFixed(0)} MiB written, ${(big.maxRss / MiB).toFixed(0)} MiB for ${(big.bytes / MiB).toFixed(0)} MiB`;
    console.log(`kb export: ${figures}`);
    expect([figures, big.maxRss < 300 * MiB]).toEqual([figures, true]);
    expect([figures, big.maxRss - small.maxRss < (big.bytes - small.bytes) / 2]).toEqual([figures, true]);
  }, 600_000);
});
