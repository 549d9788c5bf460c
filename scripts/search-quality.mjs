#!/usr/bin/env node
// Measures kb search on a real docs folder against a grep baseline, in one
// run: recall@5 and MRR (over the top 10) on a labelled question set, plus
// index build time, warm query latency and the cache's size. Fetches
// nothing: the folder is given as an argument (docs/search-and-memory.md, "Search and recall").
//
//   node scripts/search-quality.mjs PATH/TO/docs [--kb dist/kb] [--questions FILE] [--json FILE] [--verbose]
//
// The folder is one topic, `docs`, of a workspace made in a temporary
// directory (the folder itself is not written to); the search cache goes
// to a temporary XDG_CACHE_HOME. The grep baseline ranks the same subjects
// (`kb list --format json`: no hidden, ignored or binary files) by how many
// of the question's words (lower-cased, function words dropped, as kb
// drops them) they contain as case-insensitive substrings, ties broken by
// how often they occur, then by path (grep -ril's order).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function usage(code) {
  process.stderr.write('usage: node scripts/search-quality.mjs DOCS_DIR [--kb PATH] [--questions FILE] [--json FILE] [--verbose]\n');
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

const { questions } = JSON.parse(readFileSync(questionsFile, 'utf8'));
const ws = mkdtempSync(join(tmpdir(), 'kb-quality-'));
const cache = join(ws, 'cache');
mkdirSync(join(ws, '.jp'));
writeFileSync(join(ws, '.jp/config.toml'), `[kb.topic.docs]\nsubjects = ${JSON.stringify(docs)}\n`);
const env = { ...process.env, XDG_CACHE_HOME: cache, HOME: ws, NO_COLOR: '1' };

function kbRun(args) {
  const t = performance.now();
  const r = spawnSync(kb, ['-q', ...args], { cwd: ws, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`kb ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { out: r.stdout, ms };
}

// --- the subjects (the baseline's candidates) ------------------------------
const listed = JSON.parse(kbRun(['list', '--format', 'json']).out);
const topic = (Array.isArray(listed) ? listed : listed.topics).find((t) => t.id === 'docs');
const subjects = topic.rows.filter((r) => !r.marks.some((m) => ['hidden', 'bundled', 'binary', 'disabled'].includes(m))).map((r) => r.slug);
const files = new Map(); // slug -> lower-cased text
{
  const byPath = new Map();
  (function walk(dir, rel) {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
      else if (e.isFile()) byPath.set(`${rel}${e.name}`, p);
    }
  })(docs, '');
  for (const [path, abs] of byPath) {
    const dot = path.lastIndexOf('.');
    const slash = path.lastIndexOf('/');
    const slug = dot > slash + 1 ? path.slice(0, dot) : path;
    if (subjects.includes(slug) && !files.has(slug)) files.set(slug, readFileSync(abs, 'utf8').toLowerCase());
  }
}

// The function words kb's tokenizer drops (src/kb/search/tokenize.ts), so
// that grep is given the same words.
const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this those to too was we were what when ' +
    'where which while who whom why will with would you your yours about should shall also just not no nor very any ' +
    'some such only own same both each few more most other up down out off over under again further once here all'
  ).split(' '),
);

function grepRank(q) {
  const words = [...new Set(q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '' && !STOP.has(w)))];
  const scored = [];
  for (const [slug, text] of files) {
    let has = 0;
    let count = 0;
    for (const w of words) {
      let i = text.indexOf(w);
      if (i >= 0) has++;
      while (i >= 0) {
        count++;
        i = text.indexOf(w, i + w.length);
      }
    }
    if (has > 0) scored.push({ slug, has, count });
  }
  scored.sort((a, b) => b.has - a.has || b.count - a.count || (a.slug < b.slug ? -1 : 1));
  return scored.map((s) => s.slug);
}

function metrics(rankings, only = () => true) {
  let hit5 = 0;
  let rr = 0;
  let n = 0;
  questions.forEach((q, i) => {
    if (!only(q)) return;
    n++;
    const ranks = q.expect.map((s) => rankings[i].indexOf(s)).filter((r) => r >= 0);
    const first = ranks.length === 0 ? -1 : Math.min(...ranks);
    if (first >= 0 && first < 5) hit5++;
    if (first >= 0 && first < 10) rr += 1 / (first + 1);
  });
  return { recallAt5: hit5 / n, mrr: rr / n };
}

// --- index build (no cache), then the cache ------------------------------
const cold = [];
for (let i = 0; i < 3; i++) cold.push(kbRun(['search', '--no-cache', '--format', 'json', '-t', 'docs', questions[i].q]).ms);
rmSync(cache, { recursive: true, force: true });
const first = kbRun(['search', '--format', 'json', '-t', 'docs', questions[0].q]);
const cacheBytes = readdirSync(join(cache, 'kb/search')).reduce((n, f) => n + statSync(join(cache, 'kb/search', f)).size, 0);

// --- quality and warm latency -----------------------------------------------
const kbRankings = [];
const warm = [];
for (const q of questions) {
  const r = kbRun(['search', '--format', 'json', '-t', 'docs', '--limit', '10', q.q]);
  warm.push(r.ms);
  kbRankings.push(JSON.parse(r.out).results.map((x) => x.slug));
}
const grepStart = performance.now();
const grepRankings = questions.map((q) => grepRank(q.q));
const grepMs = (performance.now() - grepStart) / questions.length;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const k = metrics(kbRankings);
const g = metrics(grepRankings);
const clean = (q) => !q.typo;
const typos = questions.filter((q) => q.typo).length;
const kClean = metrics(kbRankings, clean);
const gClean = metrics(grepRankings, clean);
const report = {
  corpus: { dir: docs, subjects: files.size, bytes: [...files.values()].reduce((n, t) => n + t.length, 0) },
  questions: questions.length,
  kb: k,
  grep: g,
  withoutTypos: { questions: questions.length - typos, kb: kClean, grep: gClean },
  buildMs: median(cold),
  firstSearchMs: first.ms,
  warmSearchP50Ms: median(warm),
  grepBaselineMsPerQuery: grepMs,
  cacheBytes,
};
if (verbose) {
  questions.forEach((q, i) => {
    const at = (r) => Math.min(...q.expect.map((s) => (r.indexOf(s) < 0 ? 99 : r.indexOf(s) + 1)));
    process.stdout.write(`${String(at(kbRankings[i])).padStart(2)} ${String(at(grepRankings[i])).padStart(2)}  ${q.q}\n`);
    if (at(kbRankings[i]) > 5) process.stdout.write(`      kb: ${kbRankings[i].slice(0, 5).join(', ')}\n`);
  });
}
const pct = (x) => x.toFixed(2);
process.stdout.write(
  [
    `corpus: ${report.corpus.subjects} subjects, ${(report.corpus.bytes / 1024).toFixed(0)} KiB; ${questions.length} questions`,
    `kb search: recall@5 ${pct(k.recallAt5)}, MRR ${pct(k.mrr)}`,
    `grep     : recall@5 ${pct(g.recallAt5)}, MRR ${pct(g.mrr)}`,
    `without the ${typos} misspelt questions: kb recall@5 ${pct(kClean.recallAt5)}, MRR ${pct(kClean.mrr)}; grep recall@5 ${pct(gClean.recallAt5)}, MRR ${pct(gClean.mrr)}`,
    `index build (--no-cache, whole search): ${report.buildMs.toFixed(0)} ms; first search writing the cache: ${first.ms.toFixed(0)} ms`,
    `warm search p50: ${report.warmSearchP50Ms.toFixed(1)} ms per process; cache on disk: ${(cacheBytes / 1024).toFixed(0)} KiB`,
    '',
  ].join('\n'),
);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(report, null, 2)}\n`);
rmSync(ws, { recursive: true, force: true });
const ok = k.recallAt5 >= 0.85 && k.recallAt5 - g.recallAt5 >= 0.2;
process.stdout.write(`goal (recall@5 >= 0.85, and >= 0.2 above grep): ${ok ? 'PASS' : 'FAIL'}\n`);
process.exit(ok ? 0 : 1);
