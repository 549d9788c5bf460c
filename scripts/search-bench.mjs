#!/usr/bin/env node
// The search benchmark: kb search on the benchmark's synthetic workspace
// (scripts/lib/bench-workspace.mjs: 10,000 subjects, about 36 MB), beside
// `grep -ril` over the same folder in the same run (docs/development/search-quality.md,
// "Speed"):
//
// - the first search with no cache (building the index), and with
//   --no-cache;
// - warm searches: p50 over 100 different queries, each a new process,
//   alternating with grep -ril for the query's first word;
// - queries whose every word is in nearly every subject (broad), p50;
// - the search after one file was edited (the index brought up to date);
// - peak RSS while indexing; the index's size on disk;
// - on a corpus of long documents (784 files, median about 23 KB: generated,
//   scripts/lib/long-corpus.mjs, or the folder given by --corpus DIR), warm
//   `kb search QUERY --limit 10` against a `sqlite3` process answering the
//   same query from an FTS5 index of the same files (`... MATCH 'w1 OR w2'
//   ORDER BY rank LIMIT 10` with snippet()), alternating; skipped with a
//   message where sqlite3 (Debian's package) is missing;
// - the speed reference, on the 10,000 subjects and on the long documents:
//   warm `kb search --limit 10` against a compiled Bun program
//   (scripts/search-reference.ts, built with kb's flags) that stats every
//   indexed file and answers from SQLite FTS5 with snippets, alternating;
//   target kb <= 1.0x; in the same rotation, kb's fixed cost (a search
//   for a word no folder holds: no ranking, no passage), with no target;
// - quality on each labelled set whose folder is given (--quality-corpus
//   NAME=DIR, NAME one of scripts/lib/search-quality.mjs SETS: jp-docs,
//   git-docs, peps, django-docs, man-pages, vue-zh, react-ja, react-ko): recall@5
//   and MRR@10 of kb, SQLite FTS5 bm25() with the `porter unicode61` and
//   the `trigram` tokenizers, and a grep baseline. A set whose folder is
//   not given is named, with the repository and commit it was labelled
//   on. --quality-only skips speed; --reference-only runs only the speed
//   reference (on both folders) and the long documents against sqlite3.
//
//   npm run bench:search [-- --subjects N --dir DIR --kb PATH --json FILE
//                            --corpus DIR --long-files N --no-long]
//   npm run bench:search -- --quality-only --quality-corpus git-docs=PATH/TO/git/Documentation
//
// Exit status: 0 when every target is met, 1 when one is missed.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { benchProgram } from './lib/bench-program.mjs';
import { ensureWorkspace, prng } from './lib/bench-workspace.mjs';
import { ensureLongCorpus } from './lib/long-corpus.mjs';
import { freshCopy } from './lib/fresh-copy.mjs';
import { corpusWords, goalWords, isFolder, loadSet, measure, meetsGoal, SETS } from './lib/search-quality.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = { subjects: 10000, dir: join(REPO, '.bench'), kb: join(REPO, 'dist/kb'), json: null, queries: 100, corpus: null, longFiles: 784, long: true, corpora: new Map(), speed: true };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--subjects') opt.subjects = Number(argv[++i]);
  else if (a === '--dir') opt.dir = resolve(argv[++i]);
  else if (a === '--kb') opt.kb = resolve(argv[++i]);
  else if (a === '--json') opt.json = resolve(argv[++i]);
  else if (a === '--queries') opt.queries = Number(argv[++i]);
  else if (a === '--corpus') opt.corpus = resolve(argv[++i]);
  else if (a === '--long-files') opt.longFiles = Number(argv[++i]);
  else if (a === '--no-long') opt.long = false;
  else if (a === '--quality-only') opt.speed = false;
  else if (a === '--reference-only') opt.referenceOnly = true;
  else if (a === '--quality-corpus' && /^[\w-]+=./.test(argv[i + 1] ?? '') && SETS.some((s) => argv[i + 1].startsWith(`${s.name}=`))) {
    const v = argv[++i];
    opt.corpora.set(v.slice(0, v.indexOf('=')), resolve(v.slice(v.indexOf('=') + 1)));
  } else {
    process.stderr.write(
      `usage: node scripts/search-bench.mjs [--subjects N] [--dir DIR] [--kb PATH] [--queries N] [--json FILE] [--corpus DIR | --long-files N | --no-long] [--quality-only | --reference-only] [--quality-corpus NAME=DIR]... (NAME: ${SETS.map((s) => s.name).join(', ')})\n`,
    );
    process.exit(2);
  }
}

/** Quality on every labelled set whose folder was given: [lines, ok]. */
function quality() {
  const lines = ['', 'quality (recall@5 / MRR@10; goal: kb at least 0.08 recall@5 above FTS5 bm25, or on a set in a language written without spaces at least 0.8 and at least FTS5 trigram)'];
  const results = {};
  let ok = true;
  for (const s of SETS) {
    const set = loadSet(s.file);
    const dir = opt.corpora.get(s.name);
    if (dir === undefined || !isFolder(dir)) {
      const why = dir === undefined ? 'not given' : `${dir} is not a folder`;
      lines.push(`  ${s.name}: skipped, its folder ${why}: pass --quality-corpus ${s.name}=DIR, DIR ${corpusWords(set)} (goal: ${goalWords(s)})`);
      continue;
    }
    const r = measure({ kb: opt.kb, docs: dir, questions: set.questions });
    const f = (m) => (m === undefined ? 'n/a' : `${m.recallAt5.toFixed(2)} / ${m.mrr.toFixed(2)}`);
    const pass = meetsGoal(s, r);
    ok &&= pass;
    lines.push(
      `  ${s.name} (${set.questions.length} questions, ${r.subjects} subjects): kb ${f(r.kb)}   FTS5 ${f(r.fts5)}   FTS5 trigram ${f(r.fts5tri)}   grep ${f(r.grep)}   ${pass ? 'PASS' : 'FAIL'}${r.fts5Problem ? ` (${r.fts5Problem})` : ''}`,
    );
    results[s.name] = { questions: set.questions.length, subjects: r.subjects, kb: r.kb, fts5: r.fts5, fts5tri: r.fts5tri, grep: r.grep };
  }
  return { lines, ok, results };
}

if (!opt.speed) {
  const q = quality();
  process.stdout.write(`${q.lines.slice(1).join('\n')}\n`);
  if (opt.json) writeFileSync(opt.json, `${JSON.stringify({ quality: q.results }, null, 2)}\n`);
  process.exit(q.ok ? 0 : 1);
}

/** A word no folder holds (three Coptic letters), too short to be looked
 *  up with a typo: kb's fixed cost is a search for it (versusReference). */
const NO_MATCH = 'ϣϥϧ';
const TARGETS = { firstSearchMs: 2000, warmP50Ms: 40, broadP50Ms: 40, peakRssMiB: 200, longVsSqlite: 1.0, vsReference: 1.0 };

mkdirSync(opt.dir, { recursive: true });
const ws = ensureWorkspace(opt.dir, opt.subjects, 1, (m) => process.stderr.write(`${m}\n`));
const root = ws.root;
const docs = join(root, 'docs');
const cacheHome = join(tmpdir(), `kb-search-bench-${process.pid}`);
const env = { ...process.env, XDG_CACHE_HOME: cacheHome, NO_COLOR: '1' };

function timed(cmd, args, extraEnv = {}, cwd = root) {
  const t = performance.now();
  const r = spawnSync(cmd, args, { cwd, env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return { ms, err: r.stderr };
}

/** Peak RSS (MiB) of one run, by GNU time. */
function peakMiB(args) {
  const out = join(tmpdir(), `kb-search-bench-time-${process.pid}`);
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', out, opt.kb, ...args], { cwd: root, env, stdio: 'ignore' });
  if (r.error || r.status > 1) return NaN;
  const kib = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
  rmSync(out, { force: true });
  return kib / 1024;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Runs each of `runs` in turn, starting from a different one each turn
 *  (two: the first first on even turns, the second on odd ones), so that
 *  none always runs on a cache another warmed. */
function alternate(turn, ...runs) {
  for (let k = 0; k < runs.length; k++) runs[(turn + k) % runs.length]();
}
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

// The generator's vocabulary (bench-workspace.mjs): queries of one to three
// words, some misspelt.
const WORDS = ('knowledge base model prompt tool learn load list glob pattern slug hidden binary text config workspace root ' +
  'layer merge value table array string number boolean error warning notice index walk read write output stream ' +
  'buffer memory time start cost build test check release version change issue review code quality maintainer ' +
  'owner module function method class struct trait enum match return async await promise future thread lock ' +
  'channel queue cache store fetch parse render format fence block heading section paragraph example note').split(' ');
const r = prng(7);
const queries = [];
for (let i = 0; i < opt.queries; i++) {
  const n = 1 + r.int(3);
  const words = Array.from({ length: n }, () => r.pick(WORDS));
  if (r.next() < 0.2) {
    const w = words[0];
    const at = 1 + r.int(w.length - 2);
    words[0] = w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2); // swapped letters
  }
  queries.push(words.join(' '));
}

const report = { subjects: opt.subjects, corpusMiB: 0 };
/** The speed reference's binary, once compiled (referenceBinary). */
let referencePath;
/** kb's binary as the speed reference runs it: a copy written with the
 *  reference's (lib/fresh-copy.mjs). */
let kbPath;
{
  let bytes = 0;
  (function walk(d) {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && !/\.(png|bin|pdf|gz)$/.test(e.name)) bytes += statSync(p).size;
    }
  })(docs);
  report.corpusMiB = bytes / 2 ** 20;
}

// --- first search: no cache ---------------------------------------------------
if (opt.referenceOnly) referenceOnly();
const cold = [];
const noCache = [];
for (let i = 0; i < 3; i++) {
  rmSync(cacheHome, { recursive: true, force: true });
  cold.push(timed(opt.kb, ['search', '-t', 'docs', queries[i]]).ms);
  noCache.push(timed(opt.kb, ['search', '--no-cache', '-t', 'docs', queries[i]]).ms);
}
let peak = 0;
for (let i = 0; i < 3; i++) {
  rmSync(cacheHome, { recursive: true, force: true });
  peak = Math.max(peak, peakMiB(['search', '-t', 'docs', queries[i]]));
}
report.firstSearchMs = median(cold);
report.noCacheSearchMs = median(noCache);
report.peakRssMiB = peak;
const cacheDir = join(cacheHome, 'kb', 'search');
report.indexBytes = readdirSync(cacheDir).reduce((n, f) => n + statSync(join(cacheDir, f)).size, 0);

// --- warm searches beside grep -ril ---------------------------------------------
timed(opt.kb, ['search', '-t', 'docs', 'warm']);
timed('grep', ['-ril', 'warm', docs]);
const warm = [];
const grep = [];
let hits = 0;
queries.forEach((q, i) => {
  const runKb = () => {
    const t = timed(opt.kb, ['--verbose', 'search', '-t', 'docs', q]);
    warm.push(t.ms);
    if (/index hit/.test(t.err)) hits++;
  };
  const runGrep = () => grep.push(timed('grep', ['-ril', q.split(' ')[0], docs]).ms);
  alternate(i, runKb, runGrep);
});
report.warmP50Ms = median(warm);
report.warmP90Ms = pct(warm, 0.9);
report.grepP50Ms = median(grep);
report.cacheHits = `${hits}/${queries.length}`;

// --- broad queries: every word in nearly every subject ------------------------------
const BROAD = ['config architecture review', 'the code review of the config', 'file topic subject'];
const broad = [];
for (let i = 0; i < 7; i++) {
  for (const q of BROAD) {
    const runKb = () => broad.push(timed(opt.kb, ['search', '-t', 'docs', q]).ms);
    const runGrep = () => timed('grep', ['-ril', q.split(' ')[0], docs]);
    alternate(i, runKb, runGrep);
  }
}
report.broadP50Ms = median(broad);
report.broadP90Ms = pct(broad, 0.9);

// --- after an edit ----------------------------------------------------------------
const edited = [];
{
  const some = readdirSync(docs).find((f) => f.endsWith('.md'));
  const file = join(docs, some);
  const text = readFileSync(file, 'utf8');
  for (let i = 0; i < 3; i++) {
    writeFileSync(file, `${text}\nedited ${i}\n`);
    const later = new Date(Date.now() + 1000 * (i + 1));
    utimesSync(file, later, later);
    const t = timed(opt.kb, ['--verbose', 'search', '-t', 'docs', 'edited']);
    if (!/index updated \(\d+ files, 1 read/.test(t.err)) throw new Error(`expected an update reading one file: ${t.err}`);
    edited.push(t.ms);
  }
  writeFileSync(file, text);
}
report.afterEditMs = median(edited);

// --- the speed reference: a compiled Bun program over SQLite FTS5 ------------------
const refLines = [];
refLines.push(...versusReference('bench', `${opt.subjects} subjects`, root, docs, (q) => ['search', '-t', 'docs', '--limit', '10', q], {}, queries.slice(0, 40)));
rmSync(cacheHome, { recursive: true, force: true });

// --- long documents against sqlite3 FTS5 ---------------------------------------------
let longLines = [];
if (opt.long) longLines = longDocuments();

function longDocuments() {
  // The workspace: a topic "long" whose folder is the corpus (a link to
  // --corpus DIR, or the generated documents).
  let wsRoot;
  let words;
  if (opt.corpus) {
    if (!existsSync(opt.corpus)) throw new Error(`--corpus ${opt.corpus}: no such folder`);
    wsRoot = join(opt.dir, `corpus-${opt.corpus.replace(/[^A-Za-z0-9]+/g, '-').slice(-60)}`);
    mkdirSync(join(wsRoot, '.jp'), { recursive: true });
    rmSync(join(wsRoot, 'docs'), { force: true });
    symlinkSync(opt.corpus, join(wsRoot, 'docs'));
    words = null;
  } else {
    const c = ensureLongCorpus(opt.dir, opt.longFiles, 1, (m) => process.stderr.write(`${m}\n`));
    wsRoot = c.root;
    mkdirSync(join(wsRoot, '.jp'), { recursive: true });
    words = c.words;
  }
  writeFileSync(join(wsRoot, '.jp', 'config.toml'), '[kb.topic.long]\nsubjects = "docs"\n');
  const files = [];
  (function walk(d) {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) files.push(statSync(p).size);
    }
  })(realpathSync(join(wsRoot, 'docs')));
  files.sort((a, b) => a - b);
  // Queries: one to three words of middling frequency (from the generated
  // vocabulary, or, for --corpus, words of the corpus's own files).
  const rq = prng(11);
  const pool = words ? words.slice(60, 4000) : longCorpusWords(join(wsRoot, 'docs'));
  const longQueries = [];
  for (let i = 0; i < 24; i++) longQueries.push(Array.from({ length: 1 + rq.int(3) }, () => rq.pick(pool)).join(' '));
  const longEnv = { XDG_CACHE_HOME: join(cacheHome, 'long') };
  const kbArgs = (q) => ['search', '-t', 'long', '--limit', '10', q];
  const corpusName = `${opt.corpus ?? 'generated reStructuredText'}: ${files.length} files, median ${(files[files.length >> 1] / 1000).toFixed(1)} KB`;
  const refLong = versusReference('long', corpusName, wsRoot, realpathSync(join(wsRoot, 'docs')), kbArgs, longEnv, longQueries);
  const sqlite = spawnSync('sh', ['-c', 'command -v sqlite3'], { encoding: 'utf8' }).stdout.trim();
  if (!sqlite) return ['long documents vs sqlite3 FTS5: skipped, sqlite3 is not installed (Debian: apt-get install sqlite3)', ...refLong];
  const fts5 = spawnSync(sqlite, [':memory:', 'CREATE VIRTUAL TABLE t USING fts5(d);'], { encoding: 'utf8' });
  if (fts5.status !== 0) return [`long documents vs sqlite3 FTS5: skipped, this sqlite3 has no FTS5 (${fts5.stderr.trim()})`, ...refLong];
  // The FTS5 index of the same files, built once (outside the corpus).
  const db = join(wsRoot, 'fts5.db');
  // A folder given by --corpus may have changed since: indexed again.
  if (opt.corpus) rmSync(db, { force: true });
  if (!existsSync(db)) {
    const build = spawnSync(sqlite, [`${db}.tmp`, "CREATE VIRTUAL TABLE docs USING fts5(path UNINDEXED, body); INSERT INTO docs SELECT name, CAST(data AS TEXT) FROM fsdir('docs/') WHERE mode & 61440 = 32768 AND name NOT LIKE '%/.%';"], { cwd: wsRoot, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`sqlite3 could not index the corpus: ${build.stderr}`);
    renameSync(`${db}.tmp`, db);
  }
  const sqlArgs = (q) => [db, `SELECT path, snippet(docs, 1, '', '', '…', 16) FROM docs WHERE docs MATCH '${q.split(' ').map((w) => `"${w}"`).join(' OR ')}' ORDER BY rank LIMIT 10;`];
  // The index is built (cold), then every search is warm.
  timed(opt.kb, kbArgs(longQueries[0]), longEnv, wsRoot);
  timed(sqlite, sqlArgs(longQueries[0]), {}, wsRoot);
  const tk = [];
  const ts = [];
  for (let pass = 0; pass < 2; pass++) {
    longQueries.forEach((q, i) => {
      const runKb = () => tk.push(timed(opt.kb, kbArgs(q), longEnv, wsRoot).ms);
      const runSql = () => ts.push(timed(sqlite, sqlArgs(q), {}, wsRoot).ms);
      alternate(i + pass, runKb, runSql);
    });
  }
  rmSync(join(cacheHome, 'long'), { recursive: true, force: true });
  report.long = {
    corpus: opt.corpus ?? 'generated',
    files: files.length,
    medianFileBytes: files[files.length >> 1],
    queries: longQueries.length * 2,
    kbP50Ms: median(tk),
    kbP10Ms: pct(tk, 0.1),
    kbP90Ms: pct(tk, 0.9),
    sqliteP50Ms: median(ts),
    sqliteP10Ms: pct(ts, 0.1),
    sqliteP90Ms: pct(ts, 0.9),
    ratio: median(tk) / median(ts),
  };
  const L = report.long;
  return [
    `long documents (${L.corpus}: ${L.files} files, median ${(L.medianFileBytes / 1000).toFixed(1)} KB), ${L.queries} warm searches --limit 10, alternating:`,
    `  kb search p50 [p10-p90]:                         ${L.kbP50Ms.toFixed(1)} ms [${L.kbP10Ms.toFixed(1)}-${L.kbP90Ms.toFixed(1)}]`,
    `  sqlite3 FTS5 MATCH ... ORDER BY rank, snippet(): ${L.sqliteP50Ms.toFixed(1)} ms [${L.sqliteP10Ms.toFixed(1)}-${L.sqliteP90Ms.toFixed(1)}]`,
    `  kb / sqlite3:                                    ${L.ratio.toFixed(2)}x   target <= ${TARGETS.longVsSqlite.toFixed(1)}x  ${L.ratio <= TARGETS.longVsSqlite ? 'PASS' : 'FAIL'}`,
    ...refLong,
  ];
}

// --- the speed reference ------------------------------------------------------------
// scripts/search-reference.ts, compiled by the Bun that builds kb with
// kb's own flags: a warm search's limit on kb's runtime. It stats every
// indexed file (an index that notices edits made in place must) and
// answers from SQLite FTS5 (bm25, a snippet each, ten results).

/** The reference program, compiled once per Bun version and source
 *  (scripts/lib/bench-program.mjs). */
function referenceBinary() {
  const bun = existsSync(join(REPO, 'node_modules/.bin/bun')) ? join(REPO, 'node_modules/.bin/bun') : 'bun';
  return benchProgram({ src: join(REPO, 'scripts/search-reference.ts'), dir: opt.dir, name: 'search-reference', bun, log: (line) => process.stderr.write(`${line}\n`) });
}

/** Warm `kb search` (`kbArgs(q)`, in `cwd`) against the reference on the
 *  same folder, query by query, alternating, two passes: medians, spread
 *  and the ratio, against TARGETS.vsReference. */
function versusReference(key, what, cwd, dir, kbArgs, kbEnv, qs) {
  if (referencePath === undefined) {
    referencePath = freshCopy(referenceBinary(), opt.dir, 'search-reference');
    kbPath = freshCopy(opt.kb, opt.dir, 'kb-search');
  }
  const db = join(opt.dir, 'reference', `${key}-${createHash('sha256').update(dir).digest('hex').slice(0, 12)}.db`);
  // A folder given by --corpus may have changed: indexed again. The
  // generated ones are the same bytes each run (the program notices any
  // file whose size or time changed, and indexes it again).
  if (opt.corpus && key === 'long') rmSync(db, { force: true });
  if (!existsSync(db)) {
    rmSync(`${db}.tmp`, { force: true });
    const r = spawnSync(referencePath, ['index', `${db}.tmp`, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`the reference could not index ${dir}`);
    renameSync(`${db}.tmp`, db);
  }
  const refArgs = (q) => ['search', db, dir, ...q.split(' ')];
  timed(kbPath, kbArgs(qs[0]), kbEnv, cwd);
  timed(referencePath, refArgs(qs[0]), {}, cwd);
  // kb's fixed cost, in the same rotation: a search for a word no file
  // holds (nor begins with), too short for a typo's lookup, does all a
  // warm search does before and after ranking (start-up, configuration,
  // the cache read, every file stat'ed, the answer written) and ranks
  // nothing, reads no passage.
  const none = spawnSync(kbPath, kbArgs(NO_MATCH), { cwd, env: { ...env, ...kbEnv }, stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' });
  const fixed = none.status === 1 && none.stdout.includes(`No subject has the word "${NO_MATCH}"`);
  const tk = [];
  const tr = [];
  const tn = [];
  for (let pass = 0; pass < 2; pass++) {
    qs.forEach((q, i) => {
      const runs = [() => tk.push(timed(kbPath, kbArgs(q), kbEnv, cwd).ms), () => tr.push(timed(referencePath, refArgs(q), {}, cwd).ms)];
      if (fixed) runs.push(() => tn.push(timed(kbPath, kbArgs(NO_MATCH), kbEnv, cwd).ms));
      alternate(i + pass, ...runs);
    });
  }
  const r = { corpus: what, queries: tk.length, kbP50Ms: median(tk), kbP10Ms: pct(tk, 0.1), kbP90Ms: pct(tk, 0.9), refP50Ms: median(tr), refP10Ms: pct(tr, 0.1), refP90Ms: pct(tr, 0.9) };
  r.ratio = r.kbP50Ms / r.refP50Ms;
  if (fixed) Object.assign(r, { noMatchP50Ms: median(tn), noMatchP10Ms: pct(tn, 0.1), noMatchP90Ms: pct(tn, 0.9), noMatchRatio: median(tn) / r.refP50Ms });
  (report.reference ??= {})[key] = r;
  const pass = r.ratio <= TARGETS.vsReference;
  return [
    `speed reference (${what}), ${r.queries} warm searches --limit 10, alternating:`,
    `  kb search p50 [p10-p90]:                         ${r.kbP50Ms.toFixed(1)} ms [${r.kbP10Ms.toFixed(1)}-${r.kbP90Ms.toFixed(1)}]`,
    `  compiled Bun + SQLite FTS5, every file stat'ed:  ${r.refP50Ms.toFixed(1)} ms [${r.refP10Ms.toFixed(1)}-${r.refP90Ms.toFixed(1)}]`,
    `  kb / reference:                                  ${r.ratio.toFixed(2)}x   target <= ${TARGETS.vsReference.toFixed(1)}x  ${pass ? 'PASS' : 'FAIL'}`,
    fixed
      ? `  kb's fixed cost (\`kb search ${NO_MATCH}\`: nothing ranked, no passage): ${r.noMatchP50Ms.toFixed(1)} ms [${r.noMatchP10Ms.toFixed(1)}-${r.noMatchP90Ms.toFixed(1)}], ${r.noMatchRatio.toFixed(2)}x the reference's whole search (no target)`
      : `  kb's fixed cost: not measured, \`kb search ${NO_MATCH}\` matched something in this folder`,
  ];
}

/** Words of a corpus for queries: alphabetic words of 4 to 12 letters from
 *  its first files, those in between 1% and 30% of them. */
function longCorpusWords(dir) {
  const seen = new Map();
  const names = readdirSync(dir).filter((n) => !n.startsWith('.')).slice(0, 200);
  for (const n of names) {
    const p = join(dir, n);
    if (!statSync(p).isFile()) continue;
    const text = readFileSync(p, 'utf8').toLowerCase();
    for (const w of new Set(text.match(/\b[a-z]{4,12}\b/g) ?? [])) seen.set(w, (seen.get(w) ?? 0) + 1);
  }
  const pool = [...seen].filter(([, k]) => k >= names.length * 0.01 && k <= names.length * 0.3).map(([w]) => w).sort();
  return pool.length > 0 ? pool : [...seen.keys()].sort();
}


/** --reference-only: the speed reference on both folders, the long
 *  documents against sqlite3, and nothing else; exits. */
function referenceOnly() {
  const lines = versusReference('bench', `${opt.subjects} subjects`, root, docs, (q) => ['search', '-t', 'docs', '--limit', '10', q], {}, queries.slice(0, 40));
  if (opt.long) lines.push(...longDocuments());
  rmSync(cacheHome, { recursive: true, force: true });
  process.stdout.write(`${lines.join('\n')}\n`);
  if (opt.json) writeFileSync(opt.json, `${JSON.stringify(report, null, 2)}\n`);
  process.exit(Object.values(report.reference).every((r) => r.ratio <= TARGETS.vsReference) ? 0 : 1);
}

const q = quality();
const ok = {
  quality: q.ok,
  firstSearchMs: report.firstSearchMs <= TARGETS.firstSearchMs,
  warmP50Ms: report.warmP50Ms <= TARGETS.warmP50Ms,
  broadP50Ms: report.broadP50Ms <= TARGETS.broadP50Ms,
  peakRssMiB: report.peakRssMiB <= TARGETS.peakRssMiB,
};
if (report.long) ok.longVsSqlite = report.long.ratio <= TARGETS.longVsSqlite;
for (const [k, r] of Object.entries(report.reference ?? {})) ok[`vsReference.${k}`] = r.ratio <= TARGETS.vsReference;
const mark = (k) => (ok[k] ? 'PASS' : 'FAIL');
process.stdout.write(
  [
    `search on ${report.subjects} subjects (${report.corpusMiB.toFixed(1)} MiB of text), ${queries.length} queries`,
    `first search, no cache (index built, cache written): ${report.firstSearchMs.toFixed(0)} ms   target <= ${TARGETS.firstSearchMs} ms  ${mark('firstSearchMs')}`,
    `  with --no-cache (built in memory only):           ${report.noCacheSearchMs.toFixed(0)} ms`,
    `peak RSS while indexing:                           ${report.peakRssMiB.toFixed(0)} MiB   target <= ${TARGETS.peakRssMiB} MiB  ${mark('peakRssMiB')}`,
    `index on disk:                                     ${(report.indexBytes / 2 ** 20).toFixed(1)} MiB`,
    `warm search p50 (p90):                             ${report.warmP50Ms.toFixed(1)} ms (${report.warmP90Ms.toFixed(1)} ms)   target <= ${TARGETS.warmP50Ms} ms  ${mark('warmP50Ms')}`,
    `grep -ril p50, same folder, same run:              ${report.grepP50Ms.toFixed(1)} ms (warm search / grep: ${(report.warmP50Ms / report.grepP50Ms).toFixed(2)}x)`,
    `broad queries p50 (p90) (${BROAD.map((q) => `"${q}"`).join(', ')}): ${report.broadP50Ms.toFixed(1)} ms (${report.broadP90Ms.toFixed(1)} ms)   target <= ${TARGETS.broadP50Ms} ms  ${mark('broadP50Ms')}`,
    `cache hits:                                        ${report.cacheHits}`,
    `search after editing one file (index updated):     ${report.afterEditMs.toFixed(0)} ms`,
    ...refLines,
    ...longLines,
    ...q.lines,
    '',
  ].join('\n'),
);
if (opt.json) writeFileSync(opt.json, `${JSON.stringify({ ...report, quality: q.results, targets: TARGETS, ok }, null, 2)}\n`);
process.exit(Object.values(ok).every(Boolean) ? 0 : 1);
