// Precision and recall of kb's duplicate and update rules on labelled
// pairs of short facts (scripts/dedup-pairs.json: written and labelled by
// hand before any rule ran on them; the rules were written on the `dev`
// half, `test` is the held-out half). For each of:
//
// - `kb remember` before the labelled pairs: a near duplicate at a cosine
//   of 0.5 or more (no updates);
// - `kb remember` now (src/kb/write/facts.ts);
// - `kb check --duplicates` on documents kb did not write, before and now:
//   the same rule, and a text with fewer terms than the minimum (8 before,
//   MIN_COMPARED_TERMS now) is not compared (so never reported);
//
// it prints precision and recall of "duplicate" (the `reworded` pairs are
// the duplicates) and of "update" (the `update` pairs), per half, and the
// verdicts per kind of pair. `--json` prints the figures as JSON (the
// benchmark's), `--verbose` every pair the rule gets wrong.
//
//   npx bun scripts/dedup-pairs.ts [--json] [--verbose]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compared, judge, MIN_COMPARED_TERMS, NEAR_THRESHOLD, profile, similarity, termCount } from '../src/kb/write/similar.ts';

interface Pair {
  kind: 'reworded' | 'update' | 'shared-frame' | 'shared-words';
  split: 'dev' | 'test';
  a: string;
  b: string;
}
type Verdict = 'duplicate' | 'update' | 'distinct';
type Rule = (a: string, b: string) => Verdict;

const here = dirname(fileURLToPath(import.meta.url));
const pairs = (JSON.parse(readFileSync(join(here, 'dedup-pairs.json'), 'utf8')) as { pairs: Pair[] }).pairs;
const json = process.argv.includes('--json');
const verbose = process.argv.includes('--verbose');

const before: Rule = (a, b) => (similarity(profile(a), profile(b)) >= NEAR_THRESHOLD ? 'duplicate' : 'distinct');
const now: Rule = (a, b) => {
  const j = judge(compared(a), compared(b));
  return j.kind === 'exact' ? 'duplicate' : j.kind;
};
/** kb check --duplicates on two documents kb did not write, texts of
 *  fewer than `min` terms left out; two versions of one fact are reported
 *  for subjects kb wrote only. */
const checked = (rule: Rule, min: number): Rule => (a, b) => {
  if (termCount(a) < min || termCount(b) < min) return 'distinct';
  const v = rule(a, b);
  return v === 'update' ? 'distinct' : v;
};
/** The minimum before the labelled pairs. */
const MIN_BEFORE = 8;

const RULES: [string, Rule][] = [
  ['kb remember, before (cosine >= 0.5)', before],
  ['kb remember, now', now],
  [`kb check --duplicates, before (cosine >= 0.5, texts of ${MIN_BEFORE}+ terms)`, checked(before, MIN_BEFORE)],
  [`kb check --duplicates, now (texts of ${MIN_COMPARED_TERMS}+ terms)`, checked(now, MIN_COMPARED_TERMS)],
];

interface Figures {
  pairs: number;
  duplicate: { precision: number; recall: number; flagged: number };
  update: { precision: number; recall: number; flagged: number };
  byKind: Record<string, Record<Verdict, number>>;
}

function measure(rule: Rule, list: Pair[], name: string): Figures {
  const byKind: Figures['byKind'] = {};
  let dtp = 0;
  let dfp = 0;
  let utp = 0;
  let ufp = 0;
  for (const p of list) {
    const v = rule(p.a, p.b);
    (byKind[p.kind] ??= { duplicate: 0, update: 0, distinct: 0 })[v]++;
    if (v === 'duplicate') p.kind === 'reworded' ? dtp++ : dfp++;
    if (v === 'update') p.kind === 'update' ? utp++ : ufp++;
    const right = p.kind === 'reworded' ? 'duplicate' : p.kind === 'update' ? 'update' : 'distinct';
    if (verbose && v !== right && name === 'kb remember, now') process.stderr.write(`${p.split} ${p.kind} -> ${v}: ${p.a} | ${p.b}\n`);
  }
  const dup = list.filter((p) => p.kind === 'reworded').length;
  const upd = list.filter((p) => p.kind === 'update').length;
  const ratio = (x: number, y: number) => (y === 0 ? NaN : x / y);
  return {
    pairs: list.length,
    duplicate: { precision: ratio(dtp, dtp + dfp), recall: ratio(dtp, dup), flagged: dtp + dfp },
    update: { precision: ratio(utp, utp + ufp), recall: ratio(utp, upd), flagged: utp + ufp },
    byKind,
  };
}

const SPLITS: [string, Pair[]][] = [
  ['test (held out)', pairs.filter((p) => p.split === 'test')],
  ['dev', pairs.filter((p) => p.split === 'dev')],
  ['all', pairs],
];
const results = RULES.map(([name, rule]) => ({ rule: name, splits: Object.fromEntries(SPLITS.map(([s, list]) => [s, measure(rule, list, s === 'all' ? '' : name)])) }));

if (json) {
  process.stdout.write(`${JSON.stringify({ pairs: pairs.length, results }, null, 2)}\n`);
} else {
  const f = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(2));
  const count = (k: string) => pairs.filter((p) => p.kind === k).length;
  console.log(`${pairs.length} labelled pairs: ${count('reworded')} reworded (duplicates), ${count('update')} updates, ${count('shared-frame')} sharing a frame, ${count('shared-words')} sharing words; half dev, half test`);
  console.log('');
  console.log('| rule | half | duplicate: precision / recall | update: precision / recall |');
  console.log('| --- | --- | --- | --- |');
  for (const r of results) {
    for (const [s] of SPLITS) {
      const m = r.splits[s];
      const upd = m.update.flagged === 0 && m.update.recall === 0 ? 'never says update' : `${f(m.update.precision)} / ${f(m.update.recall)}`;
      console.log(`| ${r.rule} | ${s} | ${f(m.duplicate.precision)} / ${f(m.duplicate.recall)} | ${upd} |`);
    }
  }
  console.log('');
  console.log('kb remember now, verdicts per kind of pair (all 248):');
  for (const [kind, v] of Object.entries(results[1].splits.all.byKind)) console.log(`  ${kind}: ${v.duplicate} duplicate, ${v.update} update, ${v.distinct} distinct`);
}
