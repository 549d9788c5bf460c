// The links between the docs (README.md and docs/**/*.md): every relative
// link names a file or folder of the repository, and every `#anchor` a
// heading of the page it points into, so a page moved or a heading
// renamed cannot leave a link behind (tests/unit/doc-links.test.ts).
//
// Links are CommonMark inline links and images, `[text](target)` and
// `![alt](target "title")`, and reference definitions `[label]: target`,
// outside fenced code blocks and code spans. A link with a scheme
// (https:, mailto:) is not checked: the tests need no network. Anchors are
// GitHub's: a heading's text, lower-cased, with its punctuation dropped and
// its spaces made hyphens; a repeated one gets -1, -2, ...
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';

export interface Link {
  /** The file the link is written in, relative to the repository. */
  file: string;
  line: number;
  target: string;
}

/** README.md and every Markdown file under docs/, relative to `repo`, in order. */
export function markdownFiles(repo: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(repo, dir), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : e.isFile() && e.name.endsWith('.md') ? [`${dir}/${e.name}`] : []));
  return ['README.md', ...walk('docs')];
}

/** Each line of a Markdown text outside fenced code blocks, with its code
 *  spans blanked; lines inside a fence come back as ''. */
function proseLines(text: string): string[] {
  const lines = text.split('\n');
  let fence = '';
  return lines.map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length && line.trim() === open[1]) fence = '';
      return '';
    }
    if (open) {
      fence = open[1];
      return '';
    }
    return line.replace(/(`+)(?:(?!\1).)+?\1/g, (m) => ' '.repeat(m.length));
  });
}

const INLINE = /!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^\s()<>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const DEFINITION = /^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;

/** The links written in a Markdown text. */
export function links(file: string, text: string): Link[] {
  const out: Link[] = [];
  const prose = proseLines(text);
  // A link's text may run over several lines: match the whole prose, and
  // count the line of each link's target.
  const joined = prose.join('\n');
  const starts = [0, ...[...joined.matchAll(/\n/g)].map((m) => (m.index ?? 0) + 1)];
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  for (const m of joined.matchAll(INLINE)) out.push({ file, line: lineAt((m.index ?? 0) + m[0].lastIndexOf('](')), target: m[1] });
  prose.forEach((line, i) => {
    const d = DEFINITION.exec(line);
    if (d) out.push({ file, line: i + 1, target: d[1] });
  });
  return out.sort((a, b) => a.line - b.line);
}

/** A heading's anchor as GitHub makes it (before -1, -2 for repeats). */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown text: its ATX headings' (outside code
 *  blocks), and any `id="..."` or `name="..."` written in HTML. */
export function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const raw = text.split('\n');
  proseLines(text).forEach((line, i) => {
    const h = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (h) {
      // The slug comes from the heading as written, code spans included.
      const written = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(raw[i])?.[1] ?? h[1];
      const base = slug(written);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n ? `${base}-${n}` : base);
    }
    for (const m of line.matchAll(/\b(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  });
  return out;
}

/** What is wrong with one link, or undefined when it resolves. */
export function broken(repo: string, link: Link, read = (path: string) => readFileSync(path, 'utf8')): string | undefined {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const where = `${link.file}:${link.line}: ${target}`;
  if (path.startsWith('/')) return `${where}: an absolute path (write it relative to the page)`;
  const rel = path === '' ? link.file : posix.normalize(posix.join(posix.dirname(link.file), path));
  if (rel.startsWith('../')) return `${where}: outside the repository`;
  const full = resolve(repo, rel);
  if (!existsSync(full)) return `${where}: no such file`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(full).isDirectory() || !rel.endsWith('.md')) return `${where}: an anchor into something that is not a Markdown page`;
  return anchors(read(full)).has(anchor) ? undefined : `${where}: no heading makes #${anchor} in ${rel}`;
}

/** Every link of the docs that does not resolve, as `file:line: target: why`. */
export function brokenLinks(repo: string): string[] {
  const cache = new Map<string, string>();
  const read = (path: string) => {
    if (!cache.has(path)) cache.set(path, readFileSync(path, 'utf8'));
    return cache.get(path) as string;
  };
  return markdownFiles(repo).flatMap((file) => links(file, read(join(repo, file))).map((l) => broken(repo, l, read)).filter((p): p is string => p !== undefined));
}
