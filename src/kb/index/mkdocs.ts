// A MkDocs site's `nav` (docs/guide/knowledge-base.md, "Docs sites"): `mkdocs.yml` lists
// the site's pages in the order it shows them, and a listing of its docs
// folder follows it (order.ts, a section where its first page is).
//
// The file is found where MkDocs keeps it: in the topic's folder (its
// pages below `docs_dir`, `docs` by default), or in the folder above it,
// when its `docs_dir` is the topic's folder. Its first 64 KiB are read, and
// only its `nav` block: the page paths it names (`- Home: index.md`,
// `- index.md`, quoted or not, at any depth), in order. mkdocs.yml often
// holds tags a YAML parser refuses (`!!python/name:...`), so it is read
// line by line, never parsed: one pass.

import { dirname, join, resolve } from 'node:path';
import { readSubjectHead } from '../fs/read.ts';

/** Bytes of mkdocs.yml read, at most. */
const MKDOCS_BYTES = 64 * 1024;
const NAMES = ['mkdocs.yml', 'mkdocs.yaml'];

/** The places of the pages the nav of the MkDocs site around the topic
 *  at `dir` lists, by path in the topic (1, 2, ...); undefined when there
 *  is no such site, or its nav lists no page. At most four opens, most
 *  often four that find nothing. */
export function mkdocsPlaces(dir: string): Map<string, number> | undefined {
  // In the topic (a subject, or left out by an ignore file: kb init's
  // .kbignore names mkdocs.yml), then above it: one open tried per name.
  for (const name of NAMES) {
    const text = headOf(join(dir, name));
    if (text === undefined) continue;
    const docs = docsDir(text);
    return places(navPages(text), docs === '.' ? '' : `${docs}/`);
  }
  const parent = dirname(dir);
  if (parent === dir) return undefined;
  for (const name of NAMES) {
    const text = headOf(join(parent, name));
    if (text === undefined) continue;
    return resolve(parent, docsDir(text)) === resolve(dir) ? places(navPages(text), '') : undefined;
  }
  return undefined;
}

function headOf(abs: string): string | undefined {
  const r = readSubjectHead(abs, MKDOCS_BYTES);
  return r.kind === 'text' ? r.text : undefined;
}

function places(pages: readonly string[], prefix: string): Map<string, number> | undefined {
  if (pages.length === 0) return undefined;
  const out = new Map<string, number>();
  for (let i = 0; i < pages.length; i++) {
    const path = prefix + pages[i];
    if (!out.has(path)) out.set(path, i + 1);
  }
  return out;
}

/** `docs_dir`, as a top-level line sets it (`docs` when none does),
 *  without quotes, `./` or a trailing `/`. */
export function docsDir(text: string): string {
  for (const line of text.split('\n')) {
    if (!line.startsWith('docs_dir:')) continue;
    const value = scalar(line.slice('docs_dir:'.length));
    let v = value.startsWith('./') ? value.slice(2) : value;
    while (v.endsWith('/')) v = v.slice(0, -1);
    return v === '' ? '.' : v;
  }
  return 'docs';
}

/** The page paths the top-level `nav` block names, in order: each
 *  value that names a Markdown file (not a link: `https://...`). */
export function navPages(text: string): string[] {
  const lines = text.split('\n');
  let i = lines.findIndex(isNavKey);
  if (i < 0) return [];
  const out: string[] = [];
  for (i++; i < lines.length; i++) {
    const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    // The block ends at the next top-level key (a list may start at the
    // left edge: `- Home: index.md`).
    if (line[0] !== ' ' && line[0] !== '\t' && line[0] !== '-') break;
    const item = t.startsWith('-') ? t.slice(1).trim() : t;
    const colon = item.lastIndexOf(': ');
    const value = scalar(colon < 0 ? item : item.slice(colon + 2));
    if (/\.(md|markdown|mdx)$/i.test(value) && !value.includes('://')) out.push(value.startsWith('./') ? value.slice(2) : value);
  }
  return out;
}

/** A top-level `nav:` line with nothing after the colon but a comment. */
function isNavKey(line: string): boolean {
  if (!line.startsWith('nav')) return false;
  const rest = line.slice(3).trim();
  if (rest[0] !== ':') return false;
  const after = rest.slice(1).trim();
  return after === '' || after[0] === '#';
}

/** A plain or quoted scalar, trimmed, a comment after it dropped. */
function scalar(raw: string): string {
  let v = raw.trim();
  const q = v[0];
  if ((q === '"' || q === "'") && v.indexOf(q, 1) > 0) return v.slice(1, v.indexOf(q, 1));
  const hash = v.indexOf(' #');
  if (hash >= 0) v = v.slice(0, hash).trim();
  return v;
}
