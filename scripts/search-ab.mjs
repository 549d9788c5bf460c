#!/usr/bin/env node
// Two kb binaries' warm searches on one folder, alternating query by query
// (A then B on even queries, B then A on odd ones; a process each, each
// binary with its own search cache, built once first): medians and
// quartiles, and B's median over A's. The queries: a labelled set's
// questions (scripts/search-quality-*.json) or a JSON array of strings.
//
//   node scripts/search-ab.mjs A B DIR QUERIES.json [PASSES]
//
// e.g. A built at an earlier commit, B dist/kb: docs/search-and-memory.md,
// "Speed of these changes".

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [a, b, docs, file, passes = '2'] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: node scripts/search-ab.mjs A B DIR QUERIES.json [PASSES]\n');
  process.exit(2);
}
const data = JSON.parse(readFileSync(file, 'utf8'));
const queries = Array.isArray(data) ? data : data.questions.map((q) => q.q);
const ws = mkdtempSync(join(tmpdir(), 'kb-search-ab-'));
try {
  mkdirSync(join(ws, '.jp'));
  writeFileSync(join(ws, '.jp/config.toml'), `[kb.topic.docs]\nsubjects = ${JSON.stringify(resolve(docs))}\n`);
  const run = (bin, cache, q) => {
    const t = performance.now();
    const r = spawnSync(resolve(bin), ['search', '-t', 'docs', q], { cwd: ws, env: { ...process.env, XDG_CACHE_HOME: join(ws, cache), NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0 && r.status !== 1) throw new Error(`${bin} search ${q}: exit ${r.status}: ${r.stderr}`);
    return performance.now() - t;
  };
  run(a, 'a', queries[0]);
  run(b, 'b', queries[0]);
  const ta = [];
  const tb = [];
  for (let p = 0; p < Number(passes); p++) {
    queries.forEach((q, i) => {
      if ((i + p) % 2 === 0) {
        ta.push(run(a, 'a', q));
        tb.push(run(b, 'b', q));
      } else {
        tb.push(run(b, 'b', q));
        ta.push(run(a, 'a', q));
      }
    });
  }
  const at = (xs, f) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) * f)];
  const fmt = (xs) => `p50 ${at(xs, 0.5).toFixed(1)} ms [p25 ${at(xs, 0.25).toFixed(1)}, p75 ${at(xs, 0.75).toFixed(1)}]`;
  process.stdout.write(`${docs}: ${ta.length} searches each; A ${fmt(ta)}; B ${fmt(tb)}; B/A ${(at(tb, 0.5) / at(ta, 0.5)).toFixed(3)}\n`);
} finally {
  rmSync(ws, { recursive: true, force: true });
}
