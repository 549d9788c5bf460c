// Deterministic synthetic knowledge base for the benchmark (scripts/bench).
//
// For N subjects: N text files (md/txt/toml/json/ts/rs) in nested folders,
// about 3.6 KB each on average (about 36 MB for 10,000), 3% of them hidden
// (dot-files, and files inside dot-directories), plus 20 small binaries and
// one 64 MiB binary. Everything comes from a seeded PRNG: the same
// (subjects, seed) always gives the same bytes. The workspace is
// `<root>/.jp/config.toml` with one topic `docs` whose subjects are in
// `<root>/docs`.

import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from './mulberry32.mjs';

/** Bump when the generator's output changes (invalidates cached trees). */
export const GENERATOR_VERSION = 3;

/** Text file extensions generated, with their share of the subjects. */
export const TEXT_EXTS = [
  ['md', 0.4],
  ['txt', 0.15],
  ['toml', 0.1],
  ['json', 0.1],
  ['ts', 0.15],
  ['rs', 0.1],
];
export const BINARY_EXTS = ['png', 'bin', 'pdf', 'gz'];
export const BIG_BINARY_BYTES = 64 * 1024 * 1024;
const SMALL_BINARIES = 20;
const HIDDEN_SHARE = 0.03;
const MEAN_BYTES = 3600;

/** mulberry32: a small, fast, seeded 32-bit PRNG. */
export function prng(seed) {
  const next = mulberry32(seed);
  const int = (n) => Math.floor(next() * n);
  const pick = (arr) => arr[int(arr.length)];
  const normal = () => {
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  return { next, int, pick, normal };
}

const WORDS = (
  'the of and to in is for on with as by that this from at be are it an or was use can each file topic subject ' +
  'knowledge base model prompt tool learn load list glob pattern slug hidden binary text config workspace root ' +
  'layer merge value table array string number boolean error warning notice index walk read write output stream ' +
  'buffer memory time start cost build test check release version change issue review code quality maintainer ' +
  'owner module function method class struct trait enum match return async await promise future thread lock ' +
  'channel queue cache store fetch parse render format fence block heading section paragraph example note ' +
  'always never should must may only when while after before between within across every some none first last ' +
  'small large fast slow simple clear stable safe deterministic portable linear constant bounded exact'
).split(' ');
// A little non-ASCII text, as real notes have.
const RARE = ['naïve', 'café', 'über', 'façade', 'São Paulo', '東京', 'データ', 'Ωmega', '→', '✓', 'ß', 'ñandú'];
const IDENTS = ['config', 'topic', 'subject', 'index', 'slug', 'result', 'value', 'items', 'count', 'path', 'buf', 'node'];

function sentence(r, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(r.next() < 0.01 ? r.pick(RARE) : r.pick(WORDS));
  const s = out.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

function paragraph(r) {
  const n = 2 + r.int(5);
  const out = [];
  for (let i = 0; i < n; i++) out.push(sentence(r, 5 + r.int(14)));
  return out.join(' ');
}

/** Generates about `size` bytes of content for extension `ext`. */
function content(r, ext, size, title) {
  const lines = [];
  let bytes = 0;
  const push = (s) => {
    lines.push(s);
    bytes += Buffer.byteLength(s) + 1;
  };
  switch (ext) {
    case 'md':
      push(`# ${title}`);
      push('');
      while (bytes < size) {
        const k = r.next();
        if (k < 0.15) push(`## ${sentence(r, 3 + r.int(4)).slice(0, -1)}`);
        else if (k < 0.3) for (let i = 0, n = 2 + r.int(4); i < n; i++) push(`- ${sentence(r, 4 + r.int(8))}`);
        else if (k < 0.38) {
          push('```sh');
          push(`kb learn ${r.pick(IDENTS)} '${r.pick(WORDS)}/**'`);
          push('```');
        } else push(paragraph(r) + (r.next() < 0.2 ? ` Use \`${r.pick(IDENTS)}\` here.` : ''));
        push('');
      }
      break;
    case 'txt':
      while (bytes < size) {
        push(paragraph(r));
        push('');
      }
      break;
    case 'toml':
      push(`# ${title}`);
      while (bytes < size) {
        push('');
        push(`[${r.pick(IDENTS)}_${r.int(1000)}]`);
        for (let i = 0, n = 2 + r.int(6); i < n; i++) {
          const k = r.next();
          const key = `${r.pick(IDENTS)}_${r.int(100)}`;
          if (k < 0.4) push(`${key} = "${sentence(r, 3 + r.int(8))}"`);
          else if (k < 0.7) push(`${key} = ${r.int(100000)}`);
          else if (k < 0.85) push(`${key} = ${r.next() < 0.5}`);
          else push(`${key} = [${Array.from({ length: 1 + r.int(4) }, () => `"${r.pick(WORDS)}"`).join(', ')}]`);
        }
      }
      break;
    case 'json': {
      push('{');
      push(`  "title": ${JSON.stringify(title)},`);
      push('  "entries": [');
      let first = true;
      while (bytes < size) {
        const e = { id: r.int(1e6), name: `${r.pick(IDENTS)}-${r.int(1000)}`, text: sentence(r, 4 + r.int(12)), tags: [r.pick(WORDS), r.pick(WORDS)], ok: r.next() < 0.5 };
        push(`${first ? '' : ','}    ${JSON.stringify(e)}`);
        first = false;
      }
      push('  ]');
      push('}');
      break;
    }
    case 'ts':
      push(`// ${title}`);
      push(`import { ${r.pick(IDENTS)} } from './${r.pick(IDENTS)}.ts';`);
      push('');
      while (bytes < size) {
        const fn = `${r.pick(IDENTS)}${r.int(1000)}`;
        push(`/** ${sentence(r, 5 + r.int(10))} */`);
        push(`export function ${fn}(${r.pick(IDENTS)}: string, ${r.pick(IDENTS)}: number): string {`);
        for (let i = 0, n = 2 + r.int(6); i < n; i++) {
          const k = r.next();
          if (k < 0.3) push(`  const ${r.pick(IDENTS)}${i} = \`${r.pick(WORDS)} \${${r.pick(IDENTS)}}\`;`);
          else if (k < 0.6) push(`  if (${r.pick(IDENTS)}.length > ${r.int(100)}) return '${r.pick(WORDS)}';`);
          else push(`  // ${sentence(r, 4 + r.int(10))}`);
        }
        push(`  return ${r.pick(IDENTS)}.toString();`);
        push('}');
        push('');
      }
      break;
    case 'rs':
      push(`//! ${title}`);
      push(`use std::collections::HashMap;`);
      push('');
      while (bytes < size) {
        const fn = `${r.pick(IDENTS)}_${r.int(1000)}`;
        push(`/// ${sentence(r, 5 + r.int(10))}`);
        push(`pub fn ${fn}(${r.pick(IDENTS)}: &str, n: usize) -> Option<String> {`);
        for (let i = 0, n = 2 + r.int(6); i < n; i++) {
          const k = r.next();
          if (k < 0.3) push(`    let ${r.pick(IDENTS)}_${i}: HashMap<String, usize> = HashMap::with_capacity(${r.int(64)});`);
          else if (k < 0.6) push(`    if n > ${r.int(100)} { return None; }`);
          else push(`    // ${sentence(r, 4 + r.int(10))}`);
        }
        push(`    Some(format!("{}", n))`);
        push('}');
        push('');
      }
      break;
  }
  return lines.join('\n') + '\n';
}

function weightedExt(r) {
  let x = r.next();
  for (const [ext, w] of TEXT_EXTS) {
    if (x < w) return ext;
    x -= w;
  }
  return TEXT_EXTS[0][0];
}

/** Where the workspace for (subjects, seed) lives under `baseDir`. */
export function workspacePath(baseDir, subjects, seed) {
  return join(baseDir, `ws-${subjects}-s${seed}`);
}

/** A one-subject workspace for start-up measurements. */
export function ensureTinyWorkspace(baseDir) {
  const root = join(baseDir, 'ws-startup');
  const stamp = join(root, '.generated');
  if (existsSync(stamp)) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, '.jp'), { recursive: true });
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(join(root, '.jp', 'config.toml'), '[kb.topic.docs]\ntitle = "Docs"\nsubjects = "docs"\n');
  writeFileSync(join(root, 'docs', 'readme.md'), '# Readme\n\nOne subject.\n');
  writeFileSync(stamp, `${GENERATOR_VERSION}\n`);
  return root;
}

/**
 * Generates (or reuses, when already generated with the same version) the
 * workspace for `subjects` text subjects. Returns its root and a summary:
 * text files, hidden files, binaries, bytes of visible text.
 */
export function ensureWorkspace(baseDir, subjects, seed, log = () => {}) {
  const root = workspacePath(baseDir, subjects, seed);
  const stamp = join(root, '.generated');
  if (existsSync(stamp)) {
    try {
      const meta = JSON.parse(readFileSync(stamp, 'utf8'));
      if (meta.version === GENERATOR_VERSION) return { root, ...meta };
    } catch {
      // Regenerate below.
    }
  }
  log(`generating ${subjects} subjects in ${root} ...`);
  rmSync(root, { recursive: true, force: true });
  const docs = join(root, 'docs');
  mkdirSync(join(root, '.jp'), { recursive: true });
  writeFileSync(
    join(root, '.jp', 'config.toml'),
    '[kb.topic.docs]\ntitle = "Benchmark Docs"\nintroduction = "Synthetic subjects for the benchmark."\nsubjects = "docs"\n',
  );

  const r = prng(seed);
  // A tree of directories: each new one under a random earlier one (or the
  // root), so depths vary from 1 to about 6. A few are hidden.
  const dirCount = Math.max(8, Math.round(subjects / 25));
  const dirs = [''];
  const hiddenDirs = [];
  for (let i = 0; i < dirCount; i++) {
    const parent = dirs[r.int(Math.min(dirs.length, 1 + Math.floor(dirs.length * 0.7)))];
    const name = `${r.pick(WORDS)}-${r.pick(WORDS)}-${i}`;
    dirs.push(parent === '' ? name : `${parent}/${name}`);
  }
  const hiddenDirCount = Math.max(1, Math.round(dirCount / 150));
  for (let i = 0; i < hiddenDirCount; i++) {
    const parent = dirs[r.int(dirs.length)];
    const name = `.${r.pick(['drafts', 'internal', 'archive', 'private'])}-${i}`;
    hiddenDirs.push(parent === '' ? name : `${parent}/${name}`);
  }
  for (const d of [...dirs, ...hiddenDirs]) mkdirSync(join(docs, d), { recursive: true });

  const hiddenTotal = Math.round(subjects * HIDDEN_SHARE);
  const inHiddenDirs = Math.round(hiddenTotal / 3);
  const sigma = 0.8;
  const median = MEAN_BYTES / Math.exp((sigma * sigma) / 2);
  let textBytes = 0;
  let visibleBytes = 0;
  let visibleFiles = 0;
  const counts = {};
  for (let i = 0; i < subjects; i++) {
    const ext = weightedExt(r);
    const size = Math.min(256 * 1024, Math.max(40, Math.round(median * Math.exp(sigma * r.normal()))));
    // Spread hidden files evenly: exactly `hiddenTotal` of them.
    const slot = Math.floor((i * hiddenTotal) / subjects);
    const hiddenIdx = Math.floor(((i + 1) * hiddenTotal) / subjects) > slot ? slot : -1;
    let dir;
    let base = `${r.pick(WORDS)}-${r.pick(IDENTS)}-${i}`;
    if (hiddenIdx >= 0 && hiddenIdx < inHiddenDirs) dir = hiddenDirs[hiddenIdx % hiddenDirs.length];
    else {
      dir = dirs[r.int(dirs.length)];
      if (hiddenIdx >= 0) base = `.${base}`;
    }
    const title = sentence(r, 3 + r.int(4)).slice(0, -1);
    const text = content(r, ext, size, title);
    const rel = dir === '' ? `${base}.${ext}` : `${dir}/${base}.${ext}`;
    writeFileSync(join(docs, rel), text);
    const n = Buffer.byteLength(text);
    textBytes += n;
    counts[ext] = (counts[ext] ?? 0) + 1;
    if (hiddenIdx < 0) {
      visibleBytes += n;
      visibleFiles++;
    }
  }

  // 20 small binaries (a NUL early on, as real images have) and one 64 MiB
  // binary whose NUL bytes are all past the first 4 KiB (a sniffer must
  // still stop at 8192 bytes).
  for (let i = 0; i < SMALL_BINARIES; i++) {
    const size = 1024 + r.int(31 * 1024);
    const b = Buffer.alloc(size);
    for (let j = 0; j < size; j++) b[j] = r.int(256);
    b[4 + r.int(64)] = 0;
    const dir = dirs[r.int(dirs.length)];
    const name = `image-${i}.${BINARY_EXTS[i % BINARY_EXTS.length]}`;
    writeFileSync(join(docs, dir === '' ? name : `${dir}/${name}`), b);
  }
  mkdirSync(join(docs, 'assets'), { recursive: true });
  const fd = openSync(join(docs, 'assets', 'dataset.bin'), 'w');
  const chunk = Buffer.alloc(1024 * 1024);
  const words = new Uint32Array(chunk.buffer, chunk.byteOffset, chunk.length / 4);
  for (let written = 0; written < BIG_BINARY_BYTES; written += chunk.length) {
    for (let j = 0; j < words.length; j++) words[j] = (r.next() * 4294967296) >>> 0;
    if (written === 0) {
      for (let j = 0; j < 4096; j++) if (chunk[j] === 0) chunk[j] = 1;
      chunk[6000] = 0;
    }
    writeSync(fd, chunk);
  }
  closeSync(fd);

  const meta = {
    version: GENERATOR_VERSION,
    subjects,
    seed,
    visibleFiles,
    hiddenFiles: subjects - visibleFiles,
    binaries: SMALL_BINARIES + 1,
    textBytes,
    visibleBytes,
    counts,
    dirs: dirs.length - 1 + hiddenDirs.length,
  };
  writeFileSync(stamp, JSON.stringify(meta, null, 2));
  return { root, ...meta };
}

/**
 * The same workspace with a description in every Markdown subject: YAML
 * frontmatter before its content, two thirds plain `description: ...`
 * lines (read without the YAML package), one third quoted (read with it).
 * What listing with descriptions costs is this workspace's listing against
 * the plain one's. The big binary is linked, not copied.
 */
export function ensureDescribedWorkspace(ws, log = () => {}) {
  const root = `${ws.root}-described`;
  const stamp = join(root, '.generated');
  if (existsSync(stamp)) {
    try {
      const meta = JSON.parse(readFileSync(stamp, 'utf8'));
      if (meta.version === GENERATOR_VERSION && meta.from === ws.root) return { root, ...meta };
    } catch {
      // Regenerate below.
    }
  }
  log(`describing the subjects in ${root} ...`);
  rmSync(root, { recursive: true, force: true });
  let described = 0;
  const copy = (from, to) => {
    mkdirSync(to, { recursive: true });
    for (const e of readdirSync(from, { withFileTypes: true })) {
      const a = join(from, e.name);
      const b = join(to, e.name);
      if (e.isDirectory()) copy(a, b);
      else if (e.name === 'dataset.bin') symlinkSync(a, b);
      else if (e.name.endsWith('.md')) {
        const text = readFileSync(a, 'utf8');
        const title = /^# (.*)$/m.exec(text)?.[1] ?? e.name;
        const description = described % 3 === 2 ? `"${title}: what it covers, and when to read it."` : `${title}, what it covers and when to read it.`;
        writeFileSync(b, `---\ndescription: ${description}\n---\n${text}`);
        described++;
      } else writeFileSync(b, readFileSync(a));
    }
  };
  copy(ws.root, root);
  const meta = { ...ws, root: undefined, version: GENERATOR_VERSION, from: ws.root, described };
  writeFileSync(stamp, JSON.stringify(meta, null, 2));
  return { ...meta, root };
}
