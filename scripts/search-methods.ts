#!/usr/bin/env bun
// Ranking methods measured in one process, on the labelled sets whose
// folders are given: kb's ranking as it is (`kb`) beside variants that
// reorder or widen it, each scored by recall@5 and MRR@10 against the same
// labels (scripts/lib/search-quality.mjs). Each topic is indexed once, in
// memory, as `kb search --no-cache` indexes it; a question is ranked as
// app/search.ts ranks it (prefixes, typos). docs/search-and-memory.md,
// "Ranking on the words people use", reports what was kept and why.
//
//   bun scripts/search-methods.ts --corpus peps=DIR --corpus django-docs=DIR ... [--methods a,b] [--verbose]
//
// The methods (none of them is in kb unless the docs say it was kept):
// - kb: kb's ranking;
// - bm25f: one saturation over the fields' weighted frequencies (BM25F)
//   instead of a sum of per-field BM25 scores;
// - rm3 / rocchio: pseudo-relevance feedback, the top documents' terms
//   (read from their files) added to the query;
// - prox: the top documents re-ranked by how close together the query's
//   terms are (the shortest span of text holding the most of them);
// - assoc: each query term widened by the terms that co-occur with it
//   most, by documents, in the corpus (a table built from the corpus);
// - a JSON object as a method: kb with those TUNING values (k1, b,
//   weights, prefix...), e.g. '{"k1":1.2,"b":0.75}'.
//
// --cut pairs|segmenter ranks text written without spaces another way:
// each run of such a script (in the files, a copy of them made in a
// temporary folder, and in the questions) is replaced by its pairs of
// characters only (Lucene's CJK bigrams without unigrams) or by
// Intl.Segmenter's words, each as an opaque term, instead of kb's
// characters and pairs. --cost times the cutting itself per MiB of the
// corpus's text: kb's terms, and Intl.Segmenter's words.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { metrics, rankOf, SETS } from './lib/search-quality.mjs';
import { NFIELDS, planQuery, TUNING, type QueryPlan, type SearchIndex } from '../src/kb/search/engine.ts';
import { topicIndex } from '../src/kb/search/topic.ts';
import { forEachTermOf, queryTerms, SPACELESS_CHAR } from '../src/kb/search/tokenize.ts';

interface Question {
  q: string;
  expect: string[];
  typo?: boolean;
}

const argv = process.argv.slice(2);
const corpora = new Map<string, string>();
let methods = ['kb', 'bm25f', 'rm3', 'rocchio', 'prox', 'assoc'];
let verbose = false;
let tuning: Partial<typeof TUNING> | undefined;
let cut: 'pairs' | 'segmenter' | undefined;
let cost = false;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--corpus') {
    const v = argv[++i];
    corpora.set(v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1));
  } else if (a === '--methods') methods = argv[++i].split(/,(?![^{]*})/);
  else if (a === '--tuning') tuning = JSON.parse(argv[++i]);
  else if (a === '--verbose') verbose = true;
  else if (a === '--cut' && (argv[i + 1] === 'pairs' || argv[i + 1] === 'segmenter')) cut = argv[++i] as 'pairs' | 'segmenter';
  else if (a === '--cost') cost = true;
  else {
    process.stderr.write('usage: bun scripts/search-methods.ts --corpus NAME=DIR... [--methods kb,bm25f,rm3,rocchio,prox,assoc,coord,JSON] [--tuning JSON] [--cut pairs|segmenter] [--cost] [--verbose]\n');
    process.exit(2);
  }
}

const TOP = 10;

/** The text of document `d` (its file), lower-cased, read once. */
function textOf(index: SearchIndex, dir: string, d: number, memo: Map<number, string>): string {
  let t = memo.get(d);
  if (t === undefined) {
    try {
      t = readFileSync(`${dir}/${index.pathOf(d)}`, 'utf8');
    } catch {
      t = '';
    }
    memo.set(d, t);
  }
  return t;
}

/** kb's ranking of `plan`: the best `top` documents. */
function runPlan(index: SearchIndex, plan: QueryPlan, top = TOP): { doc: number; score: number }[] {
  return index.run(plan, { prefix: true, fuzzy: true, top }).hits;
}

function basePlan(index: SearchIndex, q: string): QueryPlan {
  return planQuery([index], queryTerms(recut(q)), { prefix: true, fuzzy: true });
}

/** kb's scores computed again over every document (or, with `bm25f`, one
 *  saturation over the fields' weighted, length-normalised frequencies:
 *  BM25F), times (matched query terms / query terms)^coord: the share of
 *  the question's words a document holds (Lucene's classic coordination
 *  factor). */
function scored(index: SearchIndex, plan: QueryPlan, opts: { bm25f?: boolean; coord?: number } = {}): { doc: number; score: number }[] {
  const n = index.count;
  const total = new Float64Array(n);
  const matched = new Uint16Array(n);
  const { weights, k1, b } = TUNING;
  for (const expansions of plan.terms) {
    const best = new Map<number, number>();
    for (const [term, idf] of expansions) {
      const i = index.find(term);
      if (i < 0) continue;
      index.postings(i, (doc, tf) => {
        let s = 0;
        if (opts.bm25f) {
          let x = 0;
          for (let f = 0; f < NFIELDS; f++) if (tf[f] > 0) x += (weights[f] * tf[f]) / (1 - b + (b * index.lens[doc * NFIELDS + f]) / plan.avg[f]);
          s = (idf * (x * (k1 + 1))) / (x + k1);
        } else {
          for (let f = 0; f < NFIELDS; f++) if (tf[f] > 0) s += (weights[f] * (tf[f] * (k1 + 1))) / (tf[f] + k1 * (1 - b + (b * index.lens[doc * NFIELDS + f]) / plan.avg[f]));
          s *= idf;
        }
        if (s > (best.get(doc) ?? 0)) best.set(doc, s);
      });
    }
    for (const [doc, s] of best) {
      total[doc] += s;
      matched[doc]++;
    }
  }
  const nq = Math.max(1, plan.terms.length + plan.unknown.length);
  const hits: { doc: number; score: number }[] = [];
  for (let d = 0; d < n; d++) if (total[d] > 0 && index.kinds[d] === 0) hits.push({ doc: d, score: total[d] * (opts.coord ? (matched[d] / nq) ** opts.coord : 1) });
  hits.sort((a, c) => c.score - a.score || (index.slugOf(a.doc) < index.slugOf(c.doc) ? -1 : 1));
  return hits.slice(0, TOP);
}

/** Term frequencies of a text (kb's terms). */
function termCounts(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  forEachTermOf(text, text.toLowerCase(), (t, _a, _b, main) => {
    if (main) tf.set(t, (tf.get(t) ?? 0) + 1);
  });
  return tf;
}

/**
 * Pseudo-relevance feedback: the `k` best documents of the first ranking
 * give `m` terms (RM3: each document's term probabilities weighted by its
 * score; Rocchio: tf-idf centroid), added to the plan with weight `beta`
 * relative to the original terms.
 */
function feedback(index: SearchIndex, dir: string, memo: Map<number, string>, plan: QueryPlan, kind: 'rm3' | 'rocchio', k = 5, m = 10, beta = 0.3): { doc: number; score: number }[] {
  const first = runPlan(index, plan, k);
  if (first.length === 0) return [];
  const weight = new Map<string, number>();
  const inQuery = new Set(plan.terms.flat().map(([t]) => t));
  const norm = first.reduce((s, h) => s + h.score, 0);
  for (const h of first) {
    const tf = termCounts(textOf(index, dir, h.doc, memo));
    let len = 0;
    for (const v of tf.values()) len += v;
    for (const [t, c] of tf) {
      if (inQuery.has(t) || t.length < 3 || /^\d/.test(t)) continue;
      const idf = index.idf(t);
      if (idf < 1) continue;
      const w = kind === 'rm3' ? (c / len) * (h.score / norm) * idf : ((1 + Math.log(c)) * idf) / first.length;
      weight.set(t, (weight.get(t) ?? 0) + w);
    }
  }
  const extra = [...weight].sort((a, b) => b[1] - a[1]).slice(0, m);
  if (extra.length === 0) return runPlan(index, plan);
  const top = extra[0][1];
  const terms = plan.terms.map((e) => e.slice());
  for (const [t, w] of extra) terms.push([[t, beta * (w / top) * index.idf(t)]]);
  return runPlan(index, { ...plan, terms });
}

/** The shortest window of `text` holding the most distinct query terms:
 *  [distinct terms, window length in terms]. */
function tightest(text: string, want: Set<string>): [number, number] {
  const seq: [number, string][] = [];
  let pos = 0;
  forEachTermOf(text, text.toLowerCase(), (t, _a, _b, main) => {
    if (main) pos++;
    if (want.has(t)) seq.push([pos, t]);
  });
  const have = new Map<string, number>();
  let bestN = 0;
  let bestLen = Infinity;
  let lo = 0;
  for (let hi = 0; hi < seq.length; hi++) {
    have.set(seq[hi][1], (have.get(seq[hi][1]) ?? 0) + 1);
    while (have.get(seq[lo][1])! > 1) {
      have.set(seq[lo][1], have.get(seq[lo][1])! - 1);
      lo++;
    }
    const len = seq[hi][0] - seq[lo][0] + 1;
    if (have.size > bestN || (have.size === bestN && len < bestLen)) {
      bestN = have.size;
      bestLen = len;
    }
  }
  return [bestN, bestLen];
}

/** The first ranking's best 20, re-ranked with a bonus for the query's
 *  terms close together (Tao and Zhai's minimum-span idea). */
function proximity(index: SearchIndex, dir: string, memo: Map<number, string>, plan: QueryPlan, alpha = 0.3, depth = 20): { doc: number; score: number }[] {
  const first = runPlan(index, plan, depth);
  const want = new Set(plan.terms.map((e) => e[0][0]));
  if (want.size < 2) return first.slice(0, TOP);
  const best = first[0]?.score ?? 1;
  const out = first.map((h) => {
    const [n, len] = tightest(textOf(index, dir, h.doc, memo), want);
    const bonus = n >= 2 ? (n / want.size) * Math.log(1 + Math.exp(-(len - n) / 10)) : 0;
    return { doc: h.doc, score: h.score + alpha * best * bonus };
  });
  out.sort((a, c) => c.score - a.score);
  return out.slice(0, TOP);
}

/** Term association from the corpus: per term, the documents holding it;
 *  a query term's associates are the terms whose documents overlap its
 *  own most (Dice), among terms in 2 to 20% of documents. */
class Assoc {
  private readonly docsOf = new Map<string, Set<number>>();
  constructor(index: SearchIndex) {
    const max = Math.max(2, index.texts * 0.2);
    for (let i = 0; i < index.termCount; i++) {
      const df = index.df[i];
      if (df < 2 || df > max) continue;
      const t = index.term(i);
      if (t.length < 3 || /^\d/.test(t)) continue;
      const s = new Set<number>();
      index.postings(i, (doc, tf) => {
        if (tf[3] > 0) s.add(doc);
      });
      this.docsOf.set(t, s);
    }
  }
  near(t: string, m: number): [string, number][] {
    const a = this.docsOf.get(t);
    if (a === undefined) return [];
    const out: [string, number][] = [];
    for (const [u, b] of this.docsOf) {
      if (u === t) continue;
      let both = 0;
      for (const d of a) if (b.has(d)) both++;
      const dice = (2 * both) / (a.size + b.size);
      if (dice > 0.3) out.push([u, dice]);
    }
    return out.sort((x, y) => y[1] - x[1]).slice(0, m);
  }
}

function associated(index: SearchIndex, assoc: Assoc, plan: QueryPlan, beta = 0.3): { doc: number; score: number }[] {
  const terms = plan.terms.map((e) => e.slice());
  for (const e of plan.terms) for (const [u, dice] of assoc.near(e[0][0], 3)) terms.push([[u, beta * dice * index.idf(u)]]);
  return runPlan(index, { ...plan, terms });
}

const RUN = new RegExp(`${SPACELESS_CHAR.source}+`, 'g');
const SEGMENTER = new Intl.Segmenter('und', { granularity: 'word' });
/** A piece of a run as one opaque term kb keeps as it is (digits end it:
 *  no suffix is stripped). */
const opaque = (piece: string): string => `q${[...piece].map((c) => c.codePointAt(0)).join('q')}`;
/** `text` with every run of a script without spaces as `cut` cuts it. */
function recut(text: string): string {
  if (cut === undefined) return text;
  return text.replace(RUN, (run) => {
    const pieces: string[] = [];
    if (cut === 'segmenter') for (const s of SEGMENTER.segment(run)) if (s.isWordLike) pieces.push(s.segment);
    if (cut === 'pairs') {
      if (run.length === 1) pieces.push(run);
      for (let i = 0; i + 1 < run.length; i++) pieces.push(run.slice(i, i + 2));
    }
    return ` ${pieces.map(opaque).join(' ')} `;
  });
}

/** A copy of `dir` whose text files are `recut` (for --cut). */
function recutCopy(dir: string): string {
  const to = mkdtempSync(join(tmpdir(), 'kb-methods-'));
  (function walk(rel: string) {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) {
        mkdirSync(dirname(join(to, path)), { recursive: true });
        const bytes = readFileSync(join(dir, path));
        writeFileSync(join(to, path), bytes.includes(0) ? bytes : recut(bytes.toString('utf8')));
      }
    }
  })('');
  return to;
}

/** Milliseconds per MiB of the text files of `dir` to cut their runs
 *  without spaces into kb's terms, and into Intl.Segmenter's words (and
 *  kb's terms of the whole text, for scale). */
function cuttingCost(dir: string): string {
  const texts: string[] = [];
  (function walk(d: string) {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.isFile() && statSync(join(d, e.name)).size < 1 << 20) {
        const b = readFileSync(join(d, e.name));
        if (!b.includes(0)) texts.push(b.toString('utf8'));
      }
    }
  })(dir);
  const mib = texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 2 ** 20;
  const time = (f: () => void) => {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      f();
      runs.push(performance.now() - t);
    }
    return runs.sort((a, b) => a - b)[1] / mib;
  };
  const runs = texts.flatMap((t) => [...t.matchAll(RUN)].map((m) => m[0]));
  const whole = time(() => {
    for (const t of texts) forEachTermOf(t, t.toLowerCase(), () => {});
  });
  const pairs = time(() => {
    for (const r of runs) forEachTermOf(r, r, () => {});
  });
  const seg = time(() => {
    for (const r of runs) for (const s of SEGMENTER.segment(r)) void s.isWordLike;
  });
  return `${mib.toFixed(1)} MiB: the runs without spaces cut into kb's characters and pairs ${pairs.toFixed(0)} ms/MiB, into Intl.Segmenter's words ${seg.toFixed(0)} ms/MiB; kb's terms of the whole text ${whole.toFixed(0)} ms/MiB (medians of 3)`;
}

const results: Record<string, Record<string, ReturnType<typeof metrics>>> = {};
for (const s of SETS) {
  const given = corpora.get(s.name);
  if (given === undefined) continue;
  if (cost) {
    process.stdout.write(`${s.name.padEnd(12)} cutting: ${cuttingCost(given)}\n`);
    continue;
  }
  const dir = cut === undefined ? given : recutCopy(given);
  const set = JSON.parse(readFileSync(s.file, 'utf8')) as { questions: Question[] };
  if (tuning !== undefined) Object.assign(TUNING, tuning);
  const t0 = performance.now();
  const { index } = await topicIndex({ id: 'docs', subjectsDir: dir, disabled: [] }, {});
  const buildMs = performance.now() - t0;
  const memo = new Map<number, string>();
  let assoc: Assoc | undefined;
  results[s.name] = {};
  const perQuestion: Record<string, number[]> = {};
  for (const m of methods) {
    if (m === 'assoc') assoc ??= new Assoc(index);
    const t = performance.now();
    const saved = { ...TUNING, weights: [...TUNING.weights] };
    if (m.startsWith('{')) Object.assign(TUNING, JSON.parse(m));
    const rankings = set.questions.map((q) => {
      const plan = basePlan(index, q.q);
      const hits =
        m === 'bm25f' ? scored(index, plan, { bm25f: true })
        : m.startsWith('coord') ? scored(index, plan, { coord: Number(m.slice(5) || 1) })
        : m === 'rescore' ? scored(index, plan)
        : m === 'rm3' || m === 'rocchio' ? feedback(index, dir, memo, plan, m)
        : m.startsWith('prox') ? proximity(index, dir, memo, plan, Number(m.split(':')[1] ?? 0.3), Number(m.split(':')[2] ?? 20))
        : m === 'assoc' ? associated(index, assoc!, plan)
        : runPlan(index, plan);
      const slugs = hits.map((h) => index.slugOf(h.doc));
      if (process.env.SHOW_MISSES && rankOf(q, slugs) > 5) process.stdout.write(`  miss ${m} ${rankOf(q, slugs)} ${q.q} [${queryTerms(q.q).join(' ')}] -> ${slugs.slice(0, 5).join(', ')}\n`);
      return slugs;
    });
    Object.assign(TUNING, saved);
    const ms = (performance.now() - t) / set.questions.length;
    results[s.name][m] = metrics(set.questions, rankings);
    perQuestion[m] = set.questions.map((q, i) => rankOf(q, rankings[i]));
    process.stdout.write(`${s.name.padEnd(12)} ${m.padEnd(8)} recall@5 ${results[s.name][m].recallAt5.toFixed(2)}  MRR@10 ${results[s.name][m].mrr.toFixed(2)}  ${ms.toFixed(1)} ms/question\n`);
  }
  process.stdout.write(`${s.name.padEnd(12)} (${index.texts} documents, indexed in ${buildMs.toFixed(0)} ms${cut ? `, runs without spaces cut into ${cut}` : ''})\n`);
  if (dir !== given) rmSync(dir, { recursive: true, force: true });
  if (verbose) {
    set.questions.forEach((q, i) => {
      const ranks = methods.map((m) => String(perQuestion[m][i]).padStart(3)).join('');
      if (new Set(methods.map((m) => Math.min(perQuestion[m][i], 6))).size > 1) process.stdout.write(`  ${ranks}  ${q.q}\n`);
    });
  }
}
