// How kb's token estimate compares with a real BPE tokenizer (o200k, the
// gpt-tokenizer package) on folders of text, and how fast it is.
//
//   npx bun scripts/token-accuracy.ts DIR [DIR...] [--json]
//
// Per folder: the estimate over the o200k count in aggregate, the 10th and
// 90th percentile of that ratio per file, and the estimate's speed over all
// the folder's bytes at once. Text files only (by extension); nothing is
// fetched.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokensOfBytes } from '../src/kb/content/tokens.ts';

const TEXT = /\.(md|markdown|mdx|txt|rst|adoc|ts|tsx|js|mjs|py|rs|go|java|rb|sh|toml|json|yaml|yml|html|css)$/i;

function files(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === '.git') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) files(p, out);
    else if (TEXT.test(e.name) && statSync(p).size < 1 << 20) out.push(p);
  }
  return out;
}

export interface Accuracy {
  dir: string;
  files: number;
  bytes: number;
  ratio: number;
  p10: number;
  p90: number;
  mbPerSecond: number;
}

export function accuracy(dir: string): Accuracy {
  let est = 0;
  let tok = 0;
  const per: number[] = [];
  const bufs: Buffer[] = [];
  for (const f of files(dir)) {
    const b = readFileSync(f);
    const text = b.toString('utf8');
    if (text.trim() === '') continue;
    const e = estimateTokensOfBytes(b);
    const o = encode(text).length;
    est += e;
    tok += o;
    per.push(e / o);
    bufs.push(b);
  }
  per.sort((a, b) => a - b);
  const all = Buffer.concat(bufs);
  let best = Infinity;
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    estimateTokensOfBytes(all);
    best = Math.min(best, performance.now() - t0);
  }
  return {
    dir,
    files: per.length,
    bytes: all.length,
    ratio: est / tok,
    p10: per[Math.floor(per.length * 0.1)] ?? Number.NaN,
    p90: per[Math.floor(per.length * 0.9)] ?? Number.NaN,
    mbPerSecond: all.length / 1e3 / best,
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const results = args.filter((a) => a !== '--json').map(accuracy);
  if (json) console.log(JSON.stringify(results));
  else for (const r of results) console.log(`${r.dir}: ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB; estimate / o200k ${r.ratio.toFixed(3)} (per file p10 ${r.p10.toFixed(2)}, p90 ${r.p90.toFixed(2)}); ${r.mbPerSecond.toFixed(0)} MB/s`);
}
