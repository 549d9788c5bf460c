// The benchmark's duplicates section (scripts/bench.mjs): how well kb tells
// a duplicate from an update or another fact, on the labelled pairs
// (scripts/dedup-pairs.json, scored in process by scripts/dedup-pairs.ts
// and on dist/kb by `kb check`), and what `kb check --duplicates` costs on
// a topic of 20,000 short notes (scripts/lib/notes-corpus.mjs).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeNotesWorkspace } from './notes-corpus.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Notes in the topic `kb check --duplicates` is timed on, and their
 *  length in words. */
export const NOTES = 20_000;
export const NOTE_WORDS = 40;

/** Runs `argv` in `cwd` under GNU time when there is one: wall seconds,
 *  peak RSS (KiB, NaN without GNU time), exit status and stderr. */
function timed(argv, cwd) {
  const out = join(tmpdir(), `kb-dup-bench-${process.pid}`);
  const gnu = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  const t = process.hrtime.bigint();
  const r = gnu
    ? spawnSync(gnu, ['-f', '%M', '-o', out, ...argv], { cwd, encoding: 'utf8', maxBuffer: 256 << 20 })
    : spawnSync(argv[0], argv.slice(1), { cwd, encoding: 'utf8', maxBuffer: 256 << 20 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  let kib = NaN;
  if (gnu && existsSync(out)) {
    kib = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
    rmSync(out, { force: true });
  }
  return { ms, kib, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The labelled pairs as a workspace: one topic per pair (`p000`...), its
 *  two texts `a.md` and `b.md`, written by kb (frontmatter `source: user`)
 *  or not. */
function pairsWorkspace(root, pairs, ours) {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, '.jp'), { recursive: true });
  const tables = [];
  pairs.forEach((p, i) => {
    const id = `p${String(i).padStart(3, '0')}`;
    tables.push(`[kb.topic.${id}]\nsubjects = "${id}"\n`);
    mkdirSync(join(root, id));
    const file = (text) => (ours ? `---\ndescription: ${JSON.stringify(text)}\ncreated: 2025-01-01T00:00:00.000Z\nsource: user\n---\n${text}\n` : `${text}\n`);
    writeFileSync(join(root, id, 'a.md'), file(p.a));
    writeFileSync(join(root, id, 'b.md'), file(p.b));
  });
  writeFileSync(join(root, '.jp', 'config.toml'), tables.join('\n'));
}

/** Precision and recall of what `kb check` reports on the labelled pairs,
 *  run on the binary: `near-duplicate` (a duplicate) and `two-versions`
 *  (an update), per kind of pair. */
function checkOnPairs(kb, dir, pairs, ours) {
  const root = join(dir, ours ? 'pairs-kb' : 'pairs-other');
  pairsWorkspace(root, pairs, ours);
  const r = timed([kb, 'check', '--format', 'json', ...(ours ? [] : ['--duplicates'])], root);
  const report = JSON.parse(r.stdout);
  const said = new Map();
  for (const d of report.diagnostics) if (d.code === 'near-duplicate' || d.code === 'two-versions') said.set(d.topic, d.code);
  const score = (wanted, code) => {
    let tp = 0;
    let fp = 0;
    pairs.forEach((p, i) => {
      if (said.get(`p${String(i).padStart(3, '0')}`) !== code) return;
      if (p.kind === wanted) tp++;
      else fp++;
    });
    const all = pairs.filter((p) => p.kind === wanted).length;
    return { precision: tp + fp === 0 ? NaN : tp / (tp + fp), recall: tp / all };
  };
  rmSync(root, { recursive: true, force: true });
  return { duplicate: score('reworded', 'near-duplicate'), update: score('update', 'two-versions') };
}

/** The section's figures: `rows` for the benchmark's table (with targets),
 *  `lines` to print after it. `baseline`: an older kb to time too. */
export function measureDuplicates({ kb, dir, bun, baseline, log }) {
  const rows = [];
  const lines = [];
  // 1. The rule, in process, before and now, per half.
  log('measuring: duplicates on the labelled pairs ...');
  const r = spawnSync(bun, [join(REPO, 'scripts/dedup-pairs.ts'), '--json'], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`scripts/dedup-pairs.ts failed: ${r.stderr.slice(0, 500)}`);
  const scored = JSON.parse(r.stdout);
  const f = (x) => (Number.isNaN(x) ? '-' : x.toFixed(2));
  lines.push(`labelled pairs (scripts/dedup-pairs.json, ${scored.pairs} pairs): duplicate and update, precision / recall`);
  lines.push('');
  lines.push('| rule | held-out half: duplicate | update | all pairs: duplicate | update |');
  lines.push('|---|---|---|---|---|');
  for (const res of scored.results) {
    const t = res.splits['test (held out)'];
    const a = res.splits.all;
    const upd = (m) => (m.update.flagged === 0 ? '-' : `${f(m.update.precision)} / ${f(m.update.recall)}`);
    lines.push(`| ${res.rule} | ${f(t.duplicate.precision)} / ${f(t.duplicate.recall)} | ${upd(t)} | ${f(a.duplicate.precision)} / ${f(a.duplicate.recall)} | ${upd(a)} |`);
  }
  const now = scored.results.find((x) => x.rule === 'kb remember, now').splits['test (held out)'];
  rows.push({ id: 'dupPrecision', what: 'labelled pairs, held-out half: precision of "duplicate" (kb remember)', kbValue: now.duplicate.precision, unit: 'share', target: 0.95, cmp: '>=' });
  rows.push({ id: 'dupRecall', what: 'labelled pairs, held-out half: recall of "duplicate" (kb remember)', kbValue: now.duplicate.recall, unit: 'share', target: 0.8, cmp: '>=' });

  // 2. The same pairs through dist/kb's check: subjects kb wrote (`kb
  // check`), and documents it did not (`kb check --duplicates`).
  log('measuring: kb check on the labelled pairs ...');
  const pairs = JSON.parse(readFileSync(join(REPO, 'scripts/dedup-pairs.json'), 'utf8')).pairs;
  for (const ours of [true, false]) {
    const m = checkOnPairs(kb, dir, pairs, ours);
    lines.push(
      `dist/kb \`kb check${ours ? '' : ' --duplicates'}\` on the ${pairs.length} pairs ${ours ? 'as subjects kb wrote' : 'as documents kb did not write'}: ` +
        `duplicate ${f(m.duplicate.precision)} / ${f(m.duplicate.recall)}, update ${f(m.update.precision)} / ${f(m.update.recall)}`,
    );
  }

  // 3. kb check --duplicates on many short notes: time, peak memory, and
  // whether a bound cut the comparison (said on stderr).
  const root = join(dir, `notes-${NOTES}-${NOTE_WORDS}`);
  if (!existsSync(join(root, 'notes'))) {
    log(`generating ${NOTES} notes of ${NOTE_WORDS} words ...`);
    writeNotesWorkspace(root, NOTES, NOTE_WORDS);
  }
  log(`measuring: kb check --duplicates on ${NOTES} notes of ${NOTE_WORDS} words ...`);
  const runs = [timed([kb, 'check', '--duplicates'], root), timed([kb, 'check', '--duplicates'], root), timed([kb, 'check', '--duplicates'], root)];
  runs.sort((x, y) => x.ms - y.ms);
  const mid = runs[1];
  const peak = Math.max(...runs.map((x) => x.kib));
  const cut = mid.stderr
    .split('\n')
    .filter((l) => l.includes('near-duplicate comparison'))
    .map((l) => l.replace(/^warning: /, ''));
  rows.push({ id: 'dupCheckTime', what: `\`kb check --duplicates\`, ${NOTES.toLocaleString('en')} notes of ${NOTE_WORDS} words: time (median of 3)`, kbValue: mid.ms, unit: 'ms', target: 10_000, cmp: '<=' });
  rows.push({ id: 'dupCheckRss', what: `\`kb check --duplicates\`, ${NOTES.toLocaleString('en')} notes of ${NOTE_WORDS} words: peak RSS`, kbValue: peak, unit: 'KiB', target: 500 * 1024, cmp: '<=' });
  lines.push('');
  lines.push(`kb check --duplicates on ${NOTES} notes: ${runs.map((x) => `${(x.ms / 1000).toFixed(2)} s`).join(', ')}; peak RSS ${(peak / 1024).toFixed(0)} MiB`);
  lines.push(cut.length > 0 ? `  a bound cut the comparison, said on stderr: ${cut.join('; ')}` : '  no bound cut the comparison');
  if (baseline) {
    log(`measuring: the baseline's kb check --duplicates (slow) ...`);
    const b = timed(['timeout', '120', baseline.path, 'check', '--duplicates'], root);
    lines.push(`  ${baseline.label}: ${b.status === 124 ? 'over 120 s (stopped)' : `${(b.ms / 1000).toFixed(2)} s`}; peak RSS ${(b.kib / 1024).toFixed(0)} MiB`);
  }
  return { rows, lines, scored };
}
