// Calibrates kb remember's near-duplicate threshold (src/kb/write/similar.ts)
// on facts written about a real docs folder (scripts/dedup-calibration.json):
// duplicates are a fact and its paraphrase; not-duplicates are the
// hand-written hard pairs (two facts about the same thing) and every fact
// against every other fact's paraphrase. Prints, for several measures, the
// ROC AUC and the threshold with the best F1, and for the measure kb uses,
// precision and recall at a few thresholds.
//
//   npx bun scripts/dedup-calibration.ts [--json]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { terms } from '../src/kb/search/tokenize.ts';
import { NEAR_THRESHOLD, profile, similarity } from '../src/kb/write/similar.ts';

const here = dirname(fileURLToPath(import.meta.url));
const data = JSON.parse(readFileSync(join(here, 'dedup-calibration.json'), 'utf8')) as { pairs: { a: string; b: string }[]; hard: { a: string; b: string }[] };

type Measure = (a: string, b: string) => number;
const jaccard: Measure = (a, b) => {
  const x = new Set(terms(a));
  const y = new Set(terms(b));
  let i = 0;
  for (const t of x) if (y.has(t)) i++;
  return i / (x.size + y.size - i || 1);
};
const cosinePairs: Measure = (a, b) => {
  const v = (s: string) => {
    const m = new Map<string, number>();
    const ts = terms(s);
    ts.forEach((t, i) => {
      m.set(t, (m.get(t) ?? 0) + 1);
      if (i > 0) m.set(`${ts[i - 1]} ${t}`, (m.get(`${ts[i - 1]} ${t}`) ?? 0) + 1);
    });
    let n = 0;
    for (const [k, c] of m) {
      const w = (1 + Math.log(c)) * (k.includes(' ') ? 0.5 : 1);
      m.set(k, w);
      n += w * w;
    }
    n = Math.sqrt(n);
    for (const [k, w] of m) m.set(k, w / n);
    return m;
  };
  const x = v(a);
  const y = v(b);
  let d = 0;
  for (const [k, w] of x) d += w * (y.get(k) ?? 0);
  return d;
};
const containment: Measure = (a, b) => {
  const x = new Set(terms(a));
  const y = new Set(terms(b));
  let i = 0;
  for (const t of x) if (y.has(t)) i++;
  return i / (Math.min(x.size, y.size) || 1);
};
const kb: Measure = (a, b) => similarity(profile(a), profile(b));

const measures: [string, Measure][] = [
  ['kb: cosine of term vectors, 1 + ln(count)', kb],
  ['cosine with adjacent term pairs at half weight', cosinePairs],
  ['jaccard of term sets', jaccard],
  ['containment (shared / smaller set)', containment],
];

const positives = data.pairs.map((p) => [p.a, p.b] as const);
const negatives = [...data.hard.map((p) => [p.a, p.b] as const)];
for (let i = 0; i < data.pairs.length; i++) for (let j = 0; j < data.pairs.length; j++) if (i !== j) negatives.push([data.pairs[i].a, data.pairs[j].b]);

function evaluate(m: Measure) {
  const pos = positives.map(([a, b]) => m(a, b));
  const hard = data.hard.map((p) => m(p.a, p.b));
  const neg = negatives.map(([a, b]) => m(a, b));
  let auc = 0;
  for (const p of pos) for (const n of neg) auc += p > n ? 1 : p === n ? 0.5 : 0;
  auc /= pos.length * neg.length;
  const at = (t: number) => {
    const tp = pos.filter((s) => s >= t).length;
    const fp = neg.filter((s) => s >= t).length;
    const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
    const recall = tp / pos.length;
    return { t, precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall), fp, hardFp: hard.filter((s) => s >= t).length };
  };
  let best = at(0.05);
  for (let t = 0.05; t <= 0.95; t += 0.01) {
    const r = at(Math.round(t * 100) / 100);
    if (r.f1 > best.f1) best = r;
  }
  return { auc, best, at, pos, hard };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
console.log(`${positives.length} duplicate pairs; ${negatives.length} not-duplicate pairs (${data.hard.length} hard, written; the rest every fact against other facts' paraphrases)\n`);
for (const [name, m] of measures) {
  const r = evaluate(m);
  console.log(`${name}: AUC ${r.auc.toFixed(3)}; best F1 ${r.best.f1.toFixed(3)} at ${r.best.t.toFixed(2)} (precision ${pct(r.best.precision)}, recall ${pct(r.best.recall)}, hard pairs flagged ${r.best.hardFp}/${data.hard.length})`);
}
const r = evaluate(kb);
console.log(`\nkb's measure, by threshold (kb uses ${NEAR_THRESHOLD}):`);
for (const t of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8]) {
  const x = r.at(t);
  console.log(`  ${t.toFixed(2)}: precision ${pct(x.precision)}, recall ${pct(x.recall)}, F1 ${x.f1.toFixed(3)}, false alarms ${x.fp} (hard ${x.hardFp})`);
}
const sorted = [...r.pos].sort((a, b) => a - b);
console.log(`duplicates' similarity: min ${sorted[0].toFixed(2)}, median ${sorted[sorted.length >> 1].toFixed(2)}; hard not-duplicates: max ${Math.max(...r.hard).toFixed(2)}`);
