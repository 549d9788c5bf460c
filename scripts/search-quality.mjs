#!/usr/bin/env node
// Measures kb search on a real folder against a grep baseline and SQLite
// FTS5 bm25() (`porter unicode61` and `trigram` tokenizers), in one run: recall@5 and MRR (over the top 10) on a labelled
// question set, plus index build time, warm query latency and the cache's
// size. Fetches nothing: the folder is given as an argument; each set's file
// names the repository and commit it was labelled on (docs/search-and-memory.md,
// "Quality and speed, measured"). How each engine ranks: scripts/lib/search-quality.mjs.
//
//   node scripts/search-quality.mjs DIR [--questions FILE] [--kb dist/kb] [--json FILE] [--verbose]
//
// Without --questions, the jp-docs set (scripts/search-quality.json).
// `npm run bench:search -- --quality-corpus NAME=DIR` runs every set whose
// folder is given, beside the speed benchmark.

import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { corpusWords, goalWords, isFolder, loadSet, measure, meetsGoal, rankOf, REPO, SETS } from './lib/search-quality.mjs';

function usage(code) {
  process.stderr.write('usage: node scripts/search-quality.mjs DIR [--questions FILE] [--kb PATH] [--json FILE] [--verbose]\n');
  process.exit(code);
}

const argv = process.argv.slice(2);
let docs;
let kb = join(REPO, 'dist/kb');
let questionsFile = join(REPO, 'scripts/search-quality.json');
let jsonOut;
let verbose = false;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--kb') kb = resolve(argv[++i]);
  else if (a === '--questions') questionsFile = resolve(argv[++i]);
  else if (a === '--json') jsonOut = resolve(argv[++i]);
  else if (a === '--verbose') verbose = true;
  else if (a === '-h' || a === '--help') usage(0);
  else if (docs === undefined && !a.startsWith('-')) docs = resolve(a);
  else usage(2);
}
if (docs === undefined) usage(2);
const set = loadSet(questionsFile);
if (!isFolder(docs)) {
  process.stderr.write(`error: ${docs} is not a folder; this set was labelled on ${corpusWords(set)}\n`);
  process.exit(1);
}
const { questions } = set;
const r = measure({ kb, docs, questions });
if (verbose) {
  process.stdout.write('kb fts5 tri grep (rank of the first answer; 99: not in the top 10)\n');
  questions.forEach((q, i) => {
    const at = (e) => String(rankOf(q, r.rankings[e]?.[i] ?? [])).padStart(2);
    process.stdout.write(`${at('kb')} ${at('fts5')}  ${at('fts5tri')}  ${at('grep')}  ${q.q}\n`);
    if (rankOf(q, r.rankings.kb[i]) > 5) process.stdout.write(`      kb: ${r.rankings.kb[i].slice(0, 5).join(', ')}\n`);
  });
}
const pct = (x) => x.toFixed(2);
const typos = questions.filter((q) => q.typo).length;
const line = (name, m) => (m === undefined ? `${name}: not measured (${r.fts5Problem})` : `${name}: recall@5 ${pct(m.recallAt5)}, MRR@10 ${pct(m.mrr)}`);
process.stdout.write(
  [
    `corpus: ${r.subjects} subjects, ${(r.bytes / 1024).toFixed(0)} KiB; ${questions.length} questions`,
    line('kb search', r.kb),
    line('FTS5 bm25', r.fts5),
    line('FTS5 trigram', r.fts5tri),
    line('grep     ', r.grep),
    `without the ${typos} misspelt questions: ${line('kb', r.withoutTypos.kb)}; ${line('FTS5', r.withoutTypos.fts5)}; ${line('grep', r.withoutTypos.grep)}`,
    `index build (--no-cache, whole search): ${r.buildMs.toFixed(0)} ms; first search writing the cache: ${r.firstSearchMs.toFixed(0)} ms`,
    `warm search p50: ${r.warmSearchP50Ms.toFixed(1)} ms per process; cache on disk: ${(r.cacheBytes / 1024).toFixed(0)} KiB`,
    '',
  ].join('\n'),
);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ ...r, rankings: undefined }, null, 2)}\n`);
const known = SETS.find((s) => resolve(s.file) === questionsFile) ?? {};
const ok = meetsGoal(known, r);
process.stdout.write(`goal (${goalWords(known)}): ${ok ? 'PASS' : 'FAIL'}\n`);
process.exit(ok ? 0 : 1);
