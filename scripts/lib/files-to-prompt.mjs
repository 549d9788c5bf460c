#!/usr/bin/env node
// A files-to-prompt-style packer, used as a peer reference by scripts/bench.
//
// files-to-prompt (Simon Willison's Python tool) cannot be installed here,
// so this reimplements its default behaviour faithfully, in Node:
// - walk each directory top-down (os.walk order: directory entries as the
//   file system returns them, files of a directory sorted by name);
// - skip hidden directories and files (a name starting with `.`);
// - read each file whole and decode it as UTF-8; a file that does not
//   decode is skipped with a warning on stderr, as files-to-prompt does on
//   UnicodeDecodeError (so binaries are read whole before being skipped);
// - print `path`, `---`, the content, an empty line, `---`, each followed by
//   a newline (click.echo).
// .gitignore handling is left out: the benchmark tree has no .gitignore.
//
// Usage: node scripts/lib/files-to-prompt.mjs DIR... > out.txt

import { readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const decoder = new TextDecoder('utf-8', { fatal: true });
const CHUNK = 1 << 16;
let parts = [];
let size = 0;

function write(s) {
  parts.push(s);
  size += s.length;
  if (size >= CHUNK) flush();
}

function flush() {
  if (size === 0) return;
  const data = Buffer.from(parts.join(''), 'utf8');
  parts = [];
  size = 0;
  for (let off = 0; off < data.length; ) off += writeSync(1, data, off, data.length - off);
}

function emit(path) {
  let text;
  try {
    text = decoder.decode(readFileSync(path));
  } catch {
    process.stderr.write(`Warning: Skipping file ${path} due to UnicodeDecodeError\n`);
    return;
  }
  write(`${path}\n---\n${text}\n\n---\n`);
}

function walk(dir) {
  const entries = readdirSync(dir, { withFileTypes: true });
  const files = [];
  const dirs = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    if (e.isDirectory()) dirs.push(e.name);
    else if (e.isFile()) files.push(e.name);
  }
  files.sort();
  for (const f of files) emit(join(dir, f));
  for (const d of dirs) walk(join(dir, d));
}

for (const dir of process.argv.slice(2)) walk(dir);
flush();
