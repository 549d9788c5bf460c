// The earlier texts of a revised subject (docs/guide/search-and-memory.md,
// "Revising"): a hidden Markdown file beside the subject,
// `.<name>.history.md` for `<name>.md` (slug `<name>.history`: hidden, so
// never listed, searched or matched by a glob; loadable by its exact
// slug), holding the texts `kb revise` replaced, newest first, each whole
// (frontmatter included) in a fence:
//
//     # Earlier texts of deploy-window.md
//
//     kb revise keeps here ...
//
//     ## Replaced 2026-01-02T03:04:05.000Z
//
//     ````markdown
//     ---
//     description: ...
//     ---
//     The deploy window is Tuesday 10:00-12:00 UTC.
//     ````
//
// Bounded: HISTORY_VERSIONS texts and HISTORY_BYTES at most, the latest
// always kept whole; older ones are dropped (and the revision says so).
// Pure (no I/O); read in time linear in its length.

import { escapeControls } from '../../shared/controls.ts';
import { utf8Length } from '../../shared/text.ts';

/** Earlier texts kept at most. */
export const HISTORY_VERSIONS = 10;
/** Bytes of earlier texts kept at most (the latest is always kept). */
export const HISTORY_BYTES = 1024 * 1024;

/** One earlier text: when it was replaced (ISO 8601), and the file it was. */
export interface Entry {
  replaced: string;
  text: string;
}

/** The history file of the subject file `name` (`a.md` -> `.a.history.md`). */
export function historyName(name: string): string {
  const dot = name.lastIndexOf('.');
  return `.${dot > 0 ? name.slice(0, dot) : name}.history.md`;
}

const HEADING = '## Replaced ';
const TITLE = '# Earlier texts of ';
const ABOUT = 'kb revise keeps here ';

function header(file: string): string {
  // On its lines, whatever the name holds.
  const name = escapeControls(file);
  return (
    `${TITLE}${name}\n\n${ABOUT}the texts it replaced, newest first, each the whole file it was, and the ${HISTORY_VERSIONS} latest at most ` +
    `(at most ${HISTORY_BYTES / 1048576} MiB; the latest always). To restore one, copy its block back into ${name}, or give its text ` +
    `(below its frontmatter) to kb revise.`
  );
}

/** The longest run of backticks in `text`. */
function longestBackticks(text: string): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 96) best = Math.max(best, ++run);
    else run = 0;
  }
  return best;
}

/** The history file's text for subject file `name`. */
export function renderHistory(name: string, entries: readonly Entry[]): string {
  const parts = [`${header(name)}\n`];
  for (const e of entries) {
    const fence = '`'.repeat(Math.max(3, longestBackticks(e.text) + 1));
    parts.push(`\n${HEADING}${e.replaced}\n\n${fence}markdown\n${e.text}${e.text.endsWith('\n') ? '' : '\n'}${fence}\n`);
  }
  return parts.join('');
}

/** The entries of a history file as kb writes it, or undefined when it is
 *  not one (edited by hand, or not kb's): then kb does not rewrite it. */
export function parseHistory(text: string): Entry[] | undefined {
  const lines = text.split('\n');
  const line = (i: number) => (lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i]);
  if (lines.length < 3 || !line(0).startsWith(TITLE) || line(1) !== '' || !line(2).startsWith(ABOUT)) return undefined;
  const entries: Entry[] = [];
  let i = 3;
  while (i < lines.length) {
    if (line(i) === '') {
      i++;
      continue;
    }
    const heading = line(i);
    if (!heading.startsWith(HEADING) || heading.length === HEADING.length) return undefined;
    i++;
    while (i < lines.length && line(i) === '') i++;
    if (i >= lines.length) return undefined;
    const open = line(i);
    const fence = open.endsWith('markdown') ? open.slice(0, -'markdown'.length) : '';
    if (fence.length < 3 || longestBackticks(fence) !== fence.length) return undefined;
    const from = ++i;
    while (i < lines.length && line(i) !== fence) i++;
    if (i >= lines.length) return undefined;
    entries.push({ replaced: heading.slice(HEADING.length), text: `${lines.slice(from, i).join('\n')}\n` });
    i++;
  }
  return entries;
}

/** `entries` with `latest` first, within the bounds; `dropped`: how many
 *  older entries did not fit. */
export function withLatest(latest: Entry, entries: readonly Entry[]): { entries: Entry[]; dropped: number } {
  const out = [latest];
  let bytes = utf8Length(latest.text);
  for (const e of entries) {
    const size = utf8Length(e.text);
    if (out.length >= HISTORY_VERSIONS || bytes + size > HISTORY_BYTES) break;
    out.push(e);
    bytes += size;
  }
  return { entries: out, dropped: entries.length + 1 - out.length };
}
