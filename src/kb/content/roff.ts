// A manual page's source (roff, with the man or the mdoc macros) as text:
// what search indexes, its snippets and recall read of it. Line for line,
// so that a line number stays the file's (a snippet's `close:112`, a
// `learn` of `close:110-120`):
//
// - comments (`.\"`, `'\"`, `.\#`), often a page's first 2 KiB of
//   copyright and licence, and requests that lay text out and say nothing
//   (`.PP`, `.TP`, `.in +4n`, `.TH CLOSE 2 ...`, `.so man2/x.2`) are
//   empty lines;
// - a macro that carries text (`.B close`, `.BR close (2)`, mdoc's
//   `.Nd ...`) is its text, quotes dropped; a section heading (`.SH "SEE
//   ALSO"`, `.SS`) stays one, its text read (`.SH SEE ALSO`);
// - escapes (`\fB`, `\(aq`, `\-`, `\&`: `unroff`) are what they print, so
//   that `\fBclose\fP` is the word `close`, where it was `fbclose`.
//
// A file is read this way when its extension is a manual section's (`.2`,
// `.3`, `.man`...: title.ts reads them as roff) and its head looks like one
// (`looksRoff`): a `notes.1` of prose stays prose (searched.ts). One pass
// each.

/** Whether `text` looks like a manual page's source: a line of its first
 *  8 KiB starts with `.TH`, `.SH`, `.Dd`, `.Dt`, `.Sh` or `.so`. */
export function looksRoff(text: string): boolean {
  return LOOKS_ROFF.test(text.length > 8192 ? text.slice(0, 8192) : text);
}

const LOOKS_ROFF = /(?:^|\n)\.(?:TH|SH|Dd|Dt|Sh|so)[ \t\r\n]/;

/** Requests and macros that lay text out and say nothing of their own. */
const LAYOUT = new Set([
  'br', 'sp', 'in', 'ti', 'ad', 'na', 'nh', 'hy', 'ne', 'ta', 'll', 'ft', 'ps', 'vs', 'nf', 'fi', 'ce', 'bp', 'ns', 'rs', 'so', 'ds', 'de', 'ig', 'rm', 'nr', 'if', 'ie', 'el', 'tr', 'cc', 'ec', 'eo', 'mso', 'lf',
  'TH', 'PP', 'LP', 'P', 'TP', 'TQ', 'HP', 'RS', 'RE', 'PD', 'EX', 'EE', 'UR', 'UE', 'MT', 'ME', 'YS', 'IX',
  'Dd', 'Dt', 'Os', 'Pp', 'Bl', 'El', 'Bd', 'Ed', 'Bk', 'Ek', 'Sm',
]);

/** Section headings, kept as they are written (their text read). */
const HEADINGS = new Set(['SH', 'SS', 'Sh', 'Ss']);

/** A manual page's source as text (see above): as many lines as it has. */
export function roffText(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const c = line.charCodeAt(0);
    if (c !== 0x2e && c !== 0x27) {
      if (line.includes('\\')) lines[i] = unroff(line);
      continue;
    }
    lines[i] = requestText(line);
  }
  return lines.join('\n');
}

/** A request line's text: nothing for a comment or a layout request, its
 *  arguments (quotes dropped, escapes read) for the rest. */
function requestText(line: string): string {
  let i = 1;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  if (line[i] === '\\' && (line[i + 1] === '"' || line[i + 1] === '#')) return '';
  const start = i;
  while (i < line.length && line[i] !== ' ' && line[i] !== '\t' && line[i] !== '\r') i++;
  const name = line.slice(start, i);
  if (name === '' || LAYOUT.has(name)) return line.endsWith('\r') ? '\r' : '';
  // The font-alternating macros (`.BR close (2)`, `.BI "int " fd`) print
  // their arguments joined; the others, with a space between.
  let args = argumentsOf(line, i).join(ALTERNATING.has(name) ? '' : ' ');
  if (args.includes('\\')) args = unroff(args);
  // A section heading stays one (content/title.ts headingsIn).
  return HEADINGS.has(name) ? `.${name} ${args}` : args;
}

/** Macros that print their arguments in two fonts by turns, joined. */
const ALTERNATING = new Set(['BR', 'RB', 'BI', 'IB', 'IR', 'RI']);

/** A request's arguments from `i`: separated by blanks, or quoted (`""`
 *  inside a quoted one is a quote). */
function argumentsOf(line: string, i: number): string[] {
  const out: string[] = [];
  let end = line.length;
  if (line.charCodeAt(end - 1) === 0x0d) end--;
  while (i < end) {
    while (i < end && (line[i] === ' ' || line[i] === '\t')) i++;
    if (i >= end) break;
    let arg = '';
    if (line[i] === '"') {
      for (i++; i < end; i++) {
        if (line[i] !== '"') arg += line[i];
        else if (line[i + 1] === '"') arg += line[i++];
        else {
          i++;
          break;
        }
      }
    } else {
      const from = i;
      while (i < end && line[i] !== ' ' && line[i] !== '\t') i++;
      arg = line.slice(from, i);
    }
    out.push(arg);
  }
  return out;
}

/** Characters roff names (`\(aq`, `\[aq]`) that text may hold. */
const ROFF_CHARS: Readonly<Record<string, string>> = {
  aq: "'",
  dq: '"',
  lq: '\u201c',
  rq: '\u201d',
  oq: '\u2018',
  cq: '\u2019',
  em: '\u2014',
  en: '\u2013',
  hy: '-',
  mi: '-',
  bu: '\u2022',
  co: '\u00a9',
  rg: '\u00ae',
  tm: '\u2122',
  ti: '~',
  ha: '^',
  rs: '\\',
  sl: '/',
  ga: '`',
  ul: '_',
  dg: '\u2020',
  lh: '<=',
  rh: '=>',
  '->': '->',
  '<-': '<-',
};

/** roff text as it prints: font changes (`\fB`, `\f(CW`, `\f[B]`),
 *  strings (`\*x`, `\*(xx`, `\*[x]`) and zero-width marks (`\&`, `\%`)
 *  dropped, `\-` a hyphen, `\e` a backslash, `\ ` a space, named
 *  characters (`\(aq`, `\[em]`) as themselves (ROFF_CHARS; others
 *  dropped); a line end stays. One pass. */
export function unroff(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const d = s[++i];
    if (d === undefined) break;
    if (d === 'f' || d === '*') {
      // A font or a string: one character, `(` and two, or `[...]`.
      const e = s[i + 1];
      if (e === '(') i += 3;
      else if (e === '[') i = closing(s, i + 2);
      else i += 1;
    } else if (d === '(') {
      out += ROFF_CHARS[s.slice(i + 1, i + 3)] ?? '';
      i += 2;
    } else if (d === '[') {
      const end = closing(s, i + 1);
      out += ROFF_CHARS[s.slice(i + 1, end)] ?? '';
      i = end;
    } else if (d === '-') out += '-';
    else if (d === 'e' || d === '\\') out += '\\';
    else if (d === ' ' || d === '~' || d === '0') out += ' ';
    else if (d === '\n' || d === '\r') out += d;
    // `\&`, `\%`, `\:`, `\/`, `\,`, `\|`, `\^` and the rest: nothing.
  }
  return out;
}

/** Where the `]` closing a roff name that starts at `i` is (the text's end
 *  when none). */
function closing(s: string, i: number): number {
  const end = s.indexOf(']', i);
  return end < 0 ? s.length : end;
}
