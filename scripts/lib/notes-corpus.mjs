// A topic of many short notes nobody wrote with kb: the shape
// `kb check --duplicates` is bounded on (scripts/bench.mjs, "duplicates").
// Each note is one paragraph of `words` words drawn from a made-up
// vocabulary with Zipf-like frequencies (the k-th word about 1/(k + 30) as
// often, as in scripts/lib/template-vault.ts), so that notes share their
// common words as real notes do. Deterministic: the same notes for the
// same seed.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from './mulberry32.mjs';

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'pel', 'dun', 'sar', 'ith', 'bra', 'cor', 'fen', 'gal', 'hun', 'jor', 'mab', 'nix', 'qua', 'tre'];

/** `count` notes of `words` words each (strings, in order). */
export function notesCorpus(count, words = 40, seed = 7, vocabularySize = 5_000) {
  const random = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const vocabulary = [];
  const seen = new Set();
  while (vocabulary.length < vocabularySize) {
    let w = '';
    for (let n = int(2, 4); n > 0; n--) w += SYLLABLES[int(0, SYLLABLES.length - 1)];
    if (!seen.has(w)) (seen.add(w), vocabulary.push(w));
  }
  const cumulative = [];
  let total = 0;
  for (let k = 1; k <= vocabulary.length; k++) cumulative.push((total += 1 / (k + 30)));
  const word = () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo];
  };
  const notes = [];
  for (let i = 0; i < count; i++) notes.push(`${Array.from({ length: words }, word).join(' ')}.\n`);
  return notes;
}

/** A workspace at `root` with one topic, `notes`, of notesCorpus(count,
 *  words, seed), one Markdown file each. */
export function writeNotesWorkspace(root, count, words = 40, seed = 7) {
  mkdirSync(join(root, '.jp'), { recursive: true });
  writeFileSync(join(root, '.jp', 'config.toml'), '[kb.topic.notes]\nsubjects = "notes"\n');
  const dir = join(root, 'notes');
  mkdirSync(dir, { recursive: true });
  notesCorpus(count, words, seed).forEach((text, i) => writeFileSync(join(dir, `note-${String(i).padStart(5, '0')}.md`), text));
  return dir;
}
