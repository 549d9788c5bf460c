// Search quality on a real folder: kb search, a grep baseline and SQLite
// FTS5 bm25() (two tokenizers) ranked on the same subjects, scored against
// a labelled question set (recall@5, MRR over the top 10). Used by
// scripts/search-quality.mjs (one set, verbose per question) and
// scripts/search-bench.mjs (every set whose folder is given).
//
// The folder is one topic, `docs`, of a workspace made in a temporary
// directory (the folder itself is not written to); the search cache goes to
// a temporary XDG_CACHE_HOME. Every engine ranks the subjects `kb list`
// lists (no hidden, ignored, bundled or binary files):
// - grep: by how many of the question's words (lower-cased, function words
//   dropped, as kb drops them) a subject contains as case-insensitive
//   substrings, ties broken by how often they occur, then by path; a run of
//   a script written without spaces (Han, Kana, Hangul, Thai) counts as its
//   overlapping character pairs (a count of shared character bigrams);
// - FTS5: one row per subject (its slug and its text), the `porter
//   unicode61` tokenizer (stemming, as kb stems), the question's words
//   (function words dropped) OR-ed, ranked by bm25() (the `sqlite3` shell);
// - FTS5 trigram: the same rows with the `trigram` tokenizer (any substring
//   of three characters or more), the question's words of three characters
//   or more OR-ed, each run of a script without spaces as its overlapping
//   three-character pieces, ranked by bm25().

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The labelled sets, each for one folder (named in its file). */
export const SETS = [
  { name: 'jp-docs', file: join(REPO, 'scripts/search-quality.json') },
  { name: 'git-docs', file: join(REPO, 'scripts/search-quality-git.json') },
  { name: 'peps', file: join(REPO, 'scripts/search-quality-peps.json') },
  { name: 'django-docs', file: join(REPO, 'scripts/search-quality-django.json') },
  { name: 'man-pages', file: join(REPO, 'scripts/search-quality-man.json') },
  { name: 'vue-zh', file: join(REPO, 'scripts/search-quality-vue-zh.json'), goal: 'spaceless' },
  { name: 'react-ja', file: join(REPO, 'scripts/search-quality-react-ja.json'), goal: 'spaceless' },
  { name: 'react-ko', file: join(REPO, 'scripts/search-quality-react-ko.json'), goal: 'spaceless' },
];

/** Whether kb meets a set's goal: on questions in a language written
 *  without spaces, recall@5 at least 0.8 and at least FTS5 trigram's; on
 *  the others, recall@5 at least 0.08 above FTS5 bm25's. */
export function meetsGoal(set, r) {
  if (set.goal === 'spaceless') return r.fts5tri !== undefined && r.kb.recallAt5 >= 0.8 && r.kb.recallAt5 >= r.fts5tri.recallAt5;
  return r.fts5 !== undefined && r.kb.recallAt5 - r.fts5.recallAt5 >= 0.08;
}

/** A set's goal, in words. */
export function goalWords(set) {
  return set.goal === 'spaceless' ? 'recall@5 at least 0.8 and at least FTS5 trigram' : 'recall@5 at least 0.08 above FTS5 bm25';
}

/** The engines measured beside kb, in the order reports show them. */
export const ENGINES = ['kb', 'fts5', 'fts5tri', 'grep'];

/** Where a set's folder comes from, in words. */
export function corpusWords(set) {
  const c = set.corpus;
  if (c === undefined) return 'its folder';
  return `the ${c.folder}/ folder of ${c.repository} at commit ${c.commit.slice(0, 12)}`;
}

export function loadSet(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

// The function words kb's tokenizer drops (src/kb/search/tokenize.ts).
const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this those to too was we were what when ' +
    'where which while who whom why will with would you your yours about should shall also just not no nor very any ' +
    'some such only own same both each few more most other up down out off over under again further once here all'
  ).split(' '),
);

const wordsOf = (q) => [...new Set(q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '' && !STOP.has(w)))];

/** Runs of the scripts written without spaces, and the rest. */
const SPACELESS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\u30fc]+)/u;

/** The pieces of `n` characters of each run of a script without spaces in
 *  `words` (a shorter run as it is, when `short`), the other words as they
 *  are (those shorter than `min` dropped). */
function piecesOf(words, n, short, min = 1) {
  const out = new Set();
  for (const w of words) {
    for (const part of w.split(SPACELESS)) {
      if (part === '') continue;
      if (!SPACELESS.test(part)) {
        if (part.length >= min && !STOP.has(part)) out.add(part);
        continue;
      }
      const cs = [...part];
      if (cs.length < n) {
        if (short) out.add(part);
        continue;
      }
      for (let i = 0; i + n <= cs.length; i++) out.add(cs.slice(i, i + n).join(''));
    }
  }
  return [...out];
}

/** recall@5 and MRR over the top 10 of `rankings` (per question). */
export function metrics(questions, rankings, only = () => true) {
  let hit5 = 0;
  let rr = 0;
  let n = 0;
  questions.forEach((q, i) => {
    if (!only(q)) return;
    n++;
    const at = rankOf(q, rankings[i]);
    if (at <= 5) hit5++;
    if (at <= 10) rr += 1 / at;
  });
  return { recallAt5: n === 0 ? 0 : hit5 / n, mrr: n === 0 ? 0 : rr / n, questions: n };
}

/** The 1-based rank of a question's first expected answer (99: none). */
export function rankOf(q, ranking) {
  let best = 99;
  for (const s of q.expect) {
    const i = ranking.indexOf(s);
    if (i >= 0 && i + 1 < best) best = i + 1;
  }
  return best;
}

/**
 * Measures one labelled set on `docs` with the binary `kb`. Returns the
 * rankings and metrics of every engine, and kb's timings.
 */
export function measure({ kb, docs, questions }) {
  const ws = mkdtempSync(join(tmpdir(), 'kb-quality-'));
  try {
    const cache = join(ws, 'cache');
    mkdirSync(join(ws, '.jp'));
    writeFileSync(join(ws, '.jp/config.toml'), `[kb.topic.docs]\nsubjects = ${JSON.stringify(docs)}\n`);
    const env = { ...process.env, XDG_CACHE_HOME: cache, HOME: ws, NO_COLOR: '1' };
    const kbRun = (args) => {
      const t = performance.now();
      const r = spawnSync(kb, ['-q', ...args], { cwd: ws, env, encoding: 'utf8', maxBuffer: 1 << 28 });
      const ms = performance.now() - t;
      if (r.status !== 0 && r.status !== 1) throw new Error(`kb ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
      return { out: r.stdout, ms };
    };

    // --- the subjects ----------------------------------------------------
    const listed = JSON.parse(kbRun(['list', '--format', 'json']).out);
    const topic = (Array.isArray(listed) ? listed : listed.topics).find((t) => t.id === 'docs');
    const subjects = new Set(topic.rows.filter((r) => !r.marks.some((m) => ['hidden', 'bundled', 'binary', 'disabled'].includes(m))).map((r) => r.slug));
    const files = new Map(); // slug -> { abs, text (lower-cased) }
    const byPath = [];
    (function walk(dir, rel) {
      for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
        else if (e.isFile()) byPath.push([`${rel}${e.name}`, p]);
      }
    })(docs, '');
    for (const [path, abs] of byPath) {
      const dot = path.lastIndexOf('.');
      const slash = path.lastIndexOf('/');
      const slug = dot > slash + 1 ? path.slice(0, dot) : path;
      if (subjects.has(slug) && !files.has(slug)) files.set(slug, { abs, text: readFileSync(abs, 'utf8').toLowerCase() });
    }

    // --- kb: build, cache, warm queries ------------------------------------
    const cold = kbRun(['search', '--no-cache', '--format', 'json', '-t', 'docs', questions[0].q]).ms;
    const first = kbRun(['search', '--format', 'json', '-t', 'docs', questions[0].q]).ms;
    const cacheBytes = readdirSync(join(cache, 'kb/search')).reduce((n, f) => n + statSync(join(cache, 'kb/search', f)).size, 0);
    const warm = [];
    const kbRankings = questions.map((q) => {
      const r = kbRun(['search', '--format', 'json', '-t', 'docs', '--limit', '10', q.q]);
      warm.push(r.ms);
      return JSON.parse(r.out).results.map((x) => x.slug);
    });

    // --- grep --------------------------------------------------------------
    const grepRankings = questions.map((q) => {
      const words = piecesOf(wordsOf(q.q), 2, true);
      const scored = [];
      for (const [slug, { text }] of files) {
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
      return scored.slice(0, 10).map((s) => s.slug);
    });

    // --- SQLite FTS5 bm25(), two tokenizers ---------------------------------------
    const fts = fts5Rankings(ws, files, questions, 'porter unicode61', wordsOf);
    const tri = fts5Rankings(ws, files, questions, 'trigram', (q) => piecesOf(wordsOf(q), 3, false, 3));

    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const typo = (q) => !q.typo;
    return {
      subjects: files.size,
      bytes: [...files.values()].reduce((n, f) => n + f.text.length, 0),
      rankings: { kb: kbRankings, grep: grepRankings, fts5: fts.rankings, fts5tri: tri.rankings },
      kb: metrics(questions, kbRankings),
      grep: metrics(questions, grepRankings),
      fts5: fts.rankings === undefined ? undefined : metrics(questions, fts.rankings),
      fts5tri: tri.rankings === undefined ? undefined : metrics(questions, tri.rankings),
      fts5Problem: fts.problem ?? tri.problem,
      withoutTypos: {
        kb: metrics(questions, kbRankings, typo),
        grep: metrics(questions, grepRankings, typo),
        fts5: fts.rankings === undefined ? undefined : metrics(questions, fts.rankings, typo),
        fts5tri: tri.rankings === undefined ? undefined : metrics(questions, tri.rankings, typo),
      },
      buildMs: cold,
      firstSearchMs: first,
      warmSearchP50Ms: median(warm),
      cacheBytes,
    };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

/** The top 10 per question from an FTS5 index of `files` made with
 *  `tokenizer`, by bm25(), the words `wordsFor` gives a question OR-ed. */
function fts5Rankings(ws, files, questions, tokenizer, wordsFor) {
  const sql = [
    `CREATE VIRTUAL TABLE docs USING fts5(slug, body, tokenize = '${tokenizer}');`,
    'BEGIN;',
    ...[...files].map(([slug, { abs }]) => `INSERT INTO docs VALUES (${sqlString(slug)}, CAST(readfile(${sqlString(abs)}) AS TEXT));`),
    'COMMIT;',
    '.mode list',
    '.separator "\\t"',
  ];
  questions.forEach((q, i) => {
    const words = wordsFor(q.q);
    sql.push(`SELECT 'Q', ${i};`);
    if (words.length === 0) return;
    const match = words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ');
    sql.push(`SELECT slug FROM docs WHERE docs MATCH ${sqlString(match)} ORDER BY bm25(docs) LIMIT 10;`);
  });
  const name = tokenizer.replace(/\W+/g, '-');
  const file = join(ws, `fts5-${name}.sql`);
  writeFileSync(file, `${sql.join('\n')}\n`);
  const r = spawnSync('sqlite3', [join(ws, `fts5-${name}.db`), `.read ${file}`], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.error !== undefined || r.status !== 0) return { problem: `sqlite3 could not run (${r.error?.message ?? r.stderr.trim()}); FTS5 not measured` };
  const rankings = questions.map(() => []);
  let at = -1;
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('Q\t')) at = Number(line.slice(2));
    else if (line !== '' && at >= 0) rankings[at].push(line);
  }
  return { rankings };
}

/** Whether `dir` is a readable folder. */
export function isFolder(dir) {
  return existsSync(dir) && statSync(dir).isDirectory();
}
