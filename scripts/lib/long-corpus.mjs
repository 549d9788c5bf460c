// A deterministic corpus of long documents for the search benchmark
// (scripts/search-bench.mjs): by default 784 reStructuredText files with a
// median of about 23 KB, shaped like a collection of design proposals (a
// header, titled sections, wrapped paragraphs, literal blocks). Seeded: the
// same (files, seed) always gives the same bytes.
//
// Words follow a Zipf-Mandelbrot law over a vocabulary of common English
// words followed by a long tail of made-up technical words, and each
// document leans on a few words of its own (its subject), as real
// documents do: a query's words are frequent in some documents and absent
// from most, or common everywhere.

import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from './bench-workspace.mjs';

/** Bump when the generator's output changes. */
export const LONG_CORPUS_VERSION = 1;

const COMMON = (
  'the of and to a in is that for it as be on with this by are not or which from an at can should will would ' +
  'have has if but one all was there these may more when their also other such than some only new used into ' +
  'them no any way use each must so like then what its first two been could both how however would does where ' +
  'because many most same time between without while through now need case both well even make rather since ' +
  'proposal python language function module object type value class method name code library standard syntax ' +
  'change implementation specification example interpreter reference support current existing feature user ' +
  'behavior behaviour attribute argument keyword expression statement operator return exception error import ' +
  'package version release compatibility backwards backward default option string bytes integer float list dict ' +
  'tuple set iterator generator decorator annotation typing protocol interface instance parameter variable scope ' +
  'global local closure frame stack memory garbage collection reference counting thread lock async await ' +
  'coroutine event loop task future callback context manager resource file path encoding unicode ascii text ' +
  'binary buffer stream input output format parser grammar token ast compiler bytecode optimizer performance ' +
  'benchmark test suite documentation tutorial discussion mailing list steering council core developer author ' +
  'status draft accepted rejected final deferred withdrawn superseded motivation rationale abstract open issue ' +
  'alternative considered security consideration copyright public domain appendix footnote link discussion ' +
  'runtime static dynamic check warning deprecation removal migration tool install distribution wheel build ' +
  'dependency environment platform windows linux macos configuration extension api abi header signature'
).split(' ');

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'qu', 'r', 's', 't', 'v', 'w', 'z', 'br', 'cl', 'dr', 'fl', 'gr', 'pl', 'pr', 'sc', 'sp', 'st', 'tr', 'th', 'sh', 'ch'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou', 'y'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'x', 'nd', 'rt', 'st', 'ng', 'ck', 'm'];
const SUFFIXES = ['', '', '', 'er', 'ing', 'ed', 'tion', 'able', 'ize', 'ment', 'ity', 'or', 'ic', 'al'];

/** The vocabulary, most frequent first: the common words, then `tail`
 *  made-up words (distinct, 4 to 14 letters). */
function vocabulary(r, tail) {
  const words = [...new Set(COMMON)];
  const seen = new Set(words);
  while (words.length < COMMON.length + tail) {
    let w = '';
    const syllables = 1 + r.int(3);
    for (let i = 0; i < syllables; i++) w += r.pick(ONSETS) + r.pick(NUCLEI) + r.pick(CODAS);
    w += r.pick(SUFFIXES);
    if (w.length < 4 || w.length > 14 || seen.has(w)) continue;
    seen.add(w);
    words.push(w);
  }
  return words;
}

/** A sampler of ranks 0..n-1 with P(rank) proportional to 1 / (rank + q)^s. */
function zipf(r, n, s = 1.05, q = 2.7) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / (i + q) ** s;
  return () => {
    const u = r.next() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Wraps words into lines of at most 72 characters. */
function wrap(words, indent = '') {
  const lines = [];
  let line = indent;
  for (const w of words) {
    if (line.length > indent.length && line.length + 1 + w.length > 72) {
      lines.push(line);
      line = indent;
    }
    line += (line.length > indent.length ? ' ' : '') + w;
  }
  if (line.length > indent.length) lines.push(line);
  return lines.join('\n');
}

/** The corpus's folder (created on first use): { dir, files, bytes, words }
 *  where `words` is the vocabulary, most frequent first (queries are drawn
 *  from it). */
export function ensureLongCorpus(baseDir, files = 784, seed = 1, log = () => {}) {
  const r = prng(seed * 7919 + 17);
  const words = vocabulary(r, 30000);
  const root = join(baseDir, `long-${files}-s${seed}-v${LONG_CORPUS_VERSION}`);
  const dir = join(root, 'docs');
  const done = join(root, '.done');
  if (existsSync(done)) return { root, dir, files, words };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`generating ${files} long documents in ${root} ...`);
  const rank = zipf(r, words.length);
  let bytes = 0;
  for (let n = 0; n < files; n++) {
    // Log-normal sizes, median 23 KB: a few short notes, a few long specs.
    const size = Math.round(Math.min(300_000, Math.max(1500, 23_000 * Math.exp(0.75 * r.normal()))));
    // The document's own words: mid-frequency ones it uses often.
    const own = Array.from({ length: 12 + r.int(20) }, () => words[150 + r.int(6000)]);
    const word = () => (r.next() < 0.12 ? r.pick(own) : words[rank()]);
    const sentence = () => {
      const k = 6 + r.int(22);
      const ws = Array.from({ length: k }, word);
      ws[0] = ws[0][0].toUpperCase() + ws[0].slice(1);
      if (k > 10 && r.next() < 0.3) ws[4 + r.int(k - 6)] += ',';
      ws[k - 1] += r.next() < 0.05 ? '?' : '.';
      return ws;
    };
    const title = Array.from({ length: 3 + r.int(5) }, word).join(' ');
    const parts = [
      `PEP: ${1000 + n}`,
      `Title: ${title[0].toUpperCase()}${title.slice(1)}`,
      `Author: ${words[300 + r.int(2000)]} ${words[300 + r.int(2000)]} <${words[300 + r.int(2000)]}@example.org>`,
      `Status: ${r.pick(['Draft', 'Accepted', 'Final', 'Rejected', 'Withdrawn', 'Deferred', 'Superseded'])}`,
      `Type: ${r.pick(['Standards Track', 'Informational', 'Process'])}`,
      `Created: ${1 + r.int(28)}-${r.pick(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'])}-${2000 + r.int(25)}`,
      '',
    ];
    let length = parts.join('\n').length;
    while (length < size) {
      const heading = Array.from({ length: 1 + r.int(4) }, word).join(' ');
      const h = heading[0].toUpperCase() + heading.slice(1);
      const block = [h, '='.repeat(h.length), ''];
      const paragraphs = 1 + r.int(6);
      for (let p = 0; p < paragraphs; p++) {
        if (r.next() < 0.15) {
          block.push('::', '');
          const lines = 2 + r.int(10);
          for (let l = 0; l < lines; l++) block.push(`    ${word()} = ${word()}(${word()}, ${r.int(1000)})`);
          block.push('');
        }
        const sentences = 2 + r.int(7);
        const ws = [];
        for (let s = 0; s < sentences; s++) ws.push(...sentence());
        block.push(wrap(ws), '');
      }
      const text = block.join('\n');
      parts.push(text);
      length += text.length + 1;
    }
    parts.push('Copyright', '=========', '', 'This document is placed in the public domain.', '');
    const text = parts.join('\n');
    bytes += Buffer.byteLength(text);
    writeFileSync(join(dir, `pep-${String(1000 + n).padStart(4, '0')}.rst`), text);
  }
  writeFileSync(done, `${files} files, ${bytes} bytes\n`);
  return { root, dir, files, words };
}
