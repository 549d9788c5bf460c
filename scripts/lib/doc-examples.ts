// The runnable examples of README.md and docs/**/*.md: how they are written,
// found, run and (with `npx bun scripts/docs-examples.ts --update`) rewritten.
//
// Every fenced code block in those files is one of:
//
// - a ```console block: a transcript, run. Each line starting with `$ ` is
//   a command (a line ending in ` \` continues on the next line), run by
//   `sh` in a fresh copy of examples/ (the workspace), with `kb` on PATH
//   meaning dist/kb. The lines after it, up to the next `$ ` line, are its
//   exact stdout; the one blank line before a `$ ` line only separates them.
//   A command must exit 0 (show a failure with `; echo "exit $?"`) and write
//   nothing on stderr (show it with `2>&1`, or drop it with `2>/dev/null`).
//   Every block of a file gets its own copy; the commands of one block run
//   one after another in it, so a block can write and then read.
// - `<!-- new folder: PATH... -->` on the line before a ```console block:
//   the block runs in a new, empty folder outside any workspace (no `.jp/`
//   above it) instead, holding copies of the paths of examples/ it names
//   (separated by spaces; `<!-- new folder -->` names none), and the files
//   of the file blocks before it: a first run, as on a user's own folder.
// - `<!-- file: PATH -->` on the line before the block: the block is the
//   content of PATH (relative to the workspace), written into the copy of the
//   next console block before it runs.
// - `<!-- recipe: PATH -->`: a verbatim copy of PATH
//   (tests/integrations/recipes.test.ts compares and runs it).
// - `<!-- not run: REASON -->`: shown, not run (installation, editor
//   settings, benchmarks), with the reason in the marker.
//
// Any other fenced block is an error, so no example goes untested by
// accident.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { markdownFiles } from './doc-links.ts';

export const REPO = resolve(import.meta.dir, '../..');

export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  info: string;
  /** The fence as written (```` ``` ```` or longer). */
  fence: string;
  body: string;
  /** The marker comment on the line before, if any. */
  marker?: { kind: MarkerKind; value: string };
  /** Offsets of the body in the file's text, for rewriting it. */
  start: number;
  end: number;
}

export interface Command {
  line: number;
  command: string;
  expected: string;
}

/** The Markdown files whose examples are run: README.md and every
 *  Markdown file under docs/, its sub-folders included (guide/, reference/, development/). */
export function docFiles(repo = REPO): string[] {
  return markdownFiles(repo);
}

type MarkerKind = 'file' | 'recipe' | 'not run' | 'new folder';

const MARKER = /^<!-- (?:(file|recipe|not run): (.+?)|(new folder)(?:: (.+?))?) -->$/;

/** Every fenced block of a Markdown text (CommonMark fences of backticks or
 *  tildes: a closing fence is at least as long as the opening one). */
export function blocks(file: string, text: string): Block[] {
  const out: Block[] = [];
  const lines = text.split('\n');
  let offset = 0;
  const starts = lines.map((l) => {
    const s = offset;
    offset += l.length + 1;
    return s;
  });
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    const info = open[2].trim();
    let j = i + 1;
    while (j < lines.length && !(lines[j].startsWith(fence[0].repeat(fence.length)) && lines[j].trim() === fence[0].repeat(lines[j].trim().length))) j++;
    if (j >= lines.length) throw new Error(`${file}:${i + 1}: a code block that is never closed`);
    const m = i > 0 ? MARKER.exec(lines[i - 1].trim()) : null;
    const start = starts[i + 1];
    const end = starts[j];
    out.push({
      file,
      line: i + 1,
      info,
      fence,
      body: text.slice(start, end),
      marker: m ? { kind: (m[1] ?? m[3]) as MarkerKind, value: m[2] ?? m[4] ?? '' } : undefined,
      start,
      end,
    });
    i = j;
  }
  return out;
}

/** What is wrong with a block's classification, or undefined. */
export function unclassified(b: Block): string | undefined {
  if (b.info === 'console' && (!b.marker || b.marker.kind === 'new folder')) return undefined;
  if (b.info === 'console' && b.marker) return `${b.file}:${b.line}: a console block is run; it takes no <!-- ${b.marker.kind}: --> marker`;
  if (b.marker?.kind === 'new folder') return `${b.file}:${b.line}: <!-- new folder --> goes before a console block`;
  if (b.marker) return undefined;
  return `${b.file}:${b.line}: a \`\`\`${b.info} block without a marker: make it a \`\`\`console transcript, or put <!-- file: PATH -->, <!-- recipe: PATH --> or <!-- not run: REASON --> on the line before it`;
}

/** The commands of a console block and the stdout each shows. */
export function commands(b: Block): Command[] {
  const lines = b.body.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const out: Command[] = [];
  let i = 0;
  if (lines.length && !lines[0].startsWith('$ ')) throw new Error(`${b.file}:${b.line + 1}: a console block starts with a \`$ \` command`);
  while (i < lines.length) {
    const first = i;
    let command = lines[i].slice(2);
    while (command.endsWith(' \\') && i + 1 < lines.length) command = `${command}\n${lines[++i]}`;
    i++;
    const output: string[] = [];
    while (i < lines.length && !lines[i].startsWith('$ ')) output.push(lines[i++]);
    if (i < lines.length && output.at(-1) === '') output.pop();
    out.push({ line: b.line + 1 + first, command, expected: output.length ? `${output.join('\n')}\n` : '' });
  }
  return out;
}

export interface Ran {
  out: string;
  err: string;
  code: number | null;
}

/** A fresh copy of examples/ (or, given `only`, a new folder holding
 *  copies of those paths of it) and a `kb` on PATH; HOME, caches and user
 *  configuration outside it, so that nothing from the machine leaks in and
 *  nothing is written into examples/. */
export function sandbox(kbBinary = join(REPO, 'dist/kb'), only?: readonly string[]): { root: string; run: (command: string) => Ran; cleanup: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'kb-docs-'));
  const root = join(base, only ? 'project' : 'examples');
  if (only) {
    mkdirSync(root);
    for (const path of only) cpSync(join(REPO, 'examples', path), join(root, path), { recursive: true });
  } else {
    cpSync(join(REPO, 'examples'), root, { recursive: true });
  }
  mkdirSync(join(base, 'bin'));
  symlinkSync(kbBinary, join(base, 'bin/kb'));
  const env: Record<string, string> = {
    PATH: `${join(base, 'bin')}:/usr/local/bin:/usr/bin:/bin`,
    HOME: join(base, 'home'),
    XDG_CONFIG_HOME: join(base, 'home/.config'),
    XDG_CACHE_HOME: join(base, 'home/.cache'),
    XDG_DATA_HOME: join(base, 'home/.local/share'),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    NO_COLOR: '1',
    TERM: 'dumb',
  };
  return {
    root,
    run(command) {
      const r = spawnSync('sh', ['-c', command], { cwd: root, env, encoding: 'utf8', input: '', timeout: 60_000 });
      if (r.error) throw r.error;
      return { out: r.stdout, err: r.stderr, code: r.status };
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** A file's console blocks, each with the file blocks before it. */
export function runnable(all: Block[]): { block: Block; files: Block[] }[] {
  const out: { block: Block; files: Block[] }[] = [];
  let files: Block[] = [];
  for (const b of all) {
    if (b.marker?.kind === 'file') files.push(b);
    else if (b.info === 'console' && (!b.marker || b.marker.kind === 'new folder')) {
      out.push({ block: b, files });
      files = [];
    }
  }
  return out;
}

/** Runs one console block (after writing its files) and returns what each
 *  command did. */
export function runBlock(block: Block, files: Block[], kbBinary?: string): { command: Command; ran: Ran }[] {
  const box = sandbox(kbBinary, block.marker?.kind === 'new folder' ? block.marker.value.split(' ').filter(Boolean) : undefined);
  try {
    for (const f of files) {
      const path = join(box.root, f.marker!.value);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, f.body);
    }
    return commands(block).map((command) => ({ command, ran: box.run(command.command) }));
  } finally {
    box.cleanup();
  }
}

/** The file's text with every console block's outputs replaced by what the
 *  commands print now. */
export function updated(file: string, text: string, kbBinary?: string): string {
  const all = blocks(file, text);
  let out = text;
  for (const { block, files } of runnable(all).reverse()) {
    const results = runBlock(block, files, kbBinary);
    const body = results
      .map(({ command, ran }, i) => {
        const last = i === results.length - 1;
        const shown = ran.out === '' ? '' : ran.out.endsWith('\n') ? ran.out : `${ran.out}\n`;
        return `$ ${command.command}\n${shown}${!last && shown ? '\n' : ''}`;
      })
      .join('');
    out = out.slice(0, block.start) + body + out.slice(block.end);
  }
  return out;
}

export function readDoc(file: string, repo = REPO): string {
  return readFileSync(join(repo, file), 'utf8');
}

/** The docs' list of tools: the items of the list between
 *  `<!-- tools: ... -->` and `<!-- end tools -->`, each a line
 *  `` - `name`: ... `` (continued on indented lines). Returns one list per
 *  such block, with the problems of lines that are neither. */
export function toolLists(text: string): { line: number; names: string[]; problems: string[] }[] {
  const out: { line: number; names: string[]; problems: string[] }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^<!-- tools: .+ -->$/.test(lines[i].trim())) continue;
    const list = { line: i + 1, names: [] as string[], problems: [] as string[] };
    out.push(list);
    let j = i + 1;
    for (; j < lines.length && lines[j].trim() !== '<!-- end tools -->'; j++) {
      const item = /^- `([^`]+)`: \S/.exec(lines[j]);
      if (item) list.names.push(item[1]);
      else if (!/^ {2}\S/.test(lines[j]) || list.names.length === 0) list.problems.push(`line ${j + 1}: neither \`- \\\`name\\\`: what it does\` nor its continuation`);
    }
    if (j === lines.length) list.problems.push(`line ${i + 1}: no <!-- end tools --> after it`);
    i = j;
  }
  return out;
}
