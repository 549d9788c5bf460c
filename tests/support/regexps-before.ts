// The regular expressions kb read text with before they were rewritten as
// one-pass scanners (they took time quadratic in hostile input), kept as
// the reference the scanners are compared with (tests/unit/kb/
// rewritten-regexps.test.ts): on any text, the same answer.

import { titleFormat, type Heading } from '../../src/kb/content/title.ts';
import { NEEDS_YAML } from '../../src/kb/content/frontmatter.ts';
import { decodeEntities } from '../../src/kb/content/entities.ts';
import { markupOnly } from '../../src/kb/content/markup.ts';

/** content/title.ts `headingsIn`, as it was. */
export function headingsInBefore(text: string, ext: string): Heading[] {
  const format = titleFormat(ext);
  if (format === undefined || format === 'text' || format === 'plain') return [];
  if (format === 'html') return htmlHeadingsBefore(text);
  const out: Heading[] = [];
  const lines: { start: number; text: string }[] = [];
  for (let pos = 0; pos <= text.length; ) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    lines.push({ start: pos, text: text.charCodeAt(end - 1) === 13 ? text.slice(pos, end - 1) : text.slice(pos, end) });
    pos = end + 1;
  }
  const styles: string[] = []; // reStructuredText: adornment styles in order of appearance
  let fence: string | undefined;
  let block: string | undefined; // AsciiDoc delimited block (----, ...., ====, ****)
  const blank = (i: number) => i < 0 || i >= lines.length || lines[i].text.trim() === '';
  const adorn = (t: string) => /^([!-/:-@[-`{-~])\1{2,}\s*$/.test(t);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].text;
    const push = (at: number, level: number, t: string) => {
      const clean = cleanTitleBefore(t, format);
      if (clean !== '') out.push({ start: lines[at].start, line: at + 1, level, text: clean });
    };
    if (format === 'md') {
      const f = /^ {0,3}(`{3,}|~{3,})/.exec(l);
      if (f !== null) {
        if (fence === undefined) fence = f[1];
        else if (f[1][0] === fence[0] && f[1].length >= fence.length) fence = undefined;
        continue;
      }
      if (fence !== undefined) continue;
      const m = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(l);
      if (m !== null && (m[2] ?? '').replace(/^#+$/, '') !== '') {
        push(i, m[1].length, m[2].replace(/^#+$/, ''));
        continue;
      }
      const u = /^ {0,3}(=+|-+)[ \t]*$/.exec(l);
      if (u !== null && i > 0 && !blank(i - 1) && blank(i - 2) && !/^ {0,3}(#|>|[-*+] |\d+[.)] |`{3}|~{3})/.test(lines[i - 1].text) && (u[1][0] === '=' || u[1].length >= 2)) {
        // A paragraph line over `===` (1) or `---` (2): a setext heading.
        push(i - 1, u[1][0] === '=' ? 1 : 2, lines[i - 1].text);
      }
    } else if (format === 'rst') {
      // An overline precedes its text (and the same underline follows); an
      // underline follows its text.
      if (adorn(l) && i + 2 < lines.length && !blank(i + 1) && adorn(lines[i + 2].text) && lines[i + 2].text.trim() === l.trim() && blank(i - 1)) {
        const style = `${l.trim()[0]}${l.trim()[0]}`;
        if (!styles.includes(style)) styles.push(style);
        push(i, Math.min(6, styles.indexOf(style) + 1), lines[i + 1].text);
        i += 2;
        continue;
      }
      if (adorn(l) && i > 0 && !blank(i - 1) && blank(i - 2) && !adorn(lines[i - 1].text) && !/^\s/.test(lines[i - 1].text) && l.trimEnd().length >= Math.min(lines[i - 1].text.trimEnd().length, 4)) {
        const style = l.trim()[0];
        if (!styles.includes(style)) styles.push(style);
        push(i - 1, Math.min(6, styles.indexOf(style) + 1), lines[i - 1].text);
      }
    } else if (format === 'adoc') {
      // The two-line form first: a title over a line of `=`, `-`, `~`, `^`
      // or `+` about as long (`NAME` over `----`), which would otherwise
      // read as a delimited block.
      const u = /^([=\-~^+])\1+\s*$/.exec(l);
      if (block === undefined && u !== null && i > 0 && !blank(i - 1) && blank(i - 2) && Math.abs(l.trimEnd().length - lines[i - 1].text.trimEnd().length) <= 2 && /\w/.test(lines[i - 1].text)) {
        push(i - 1, '=-~^+'.indexOf(u[1]) + 1, lines[i - 1].text);
        continue;
      }
      const d = /^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|\/{4,})\s*$/.exec(l);
      if (d !== null) {
        block = block === undefined ? d[1] : block === d[1] ? undefined : block;
        continue;
      }
      if (block !== undefined) continue;
      const m = /^(={1,6}|#{1,6})[ \t]+(\S.*)$/.exec(l);
      if (m !== null) push(i, m[1].length, m[2].replace(/[ \t]+(=+|#+)\s*$/, ''));
    } else if (format === 'org') {
      const m = /^(\*+)[ \t]+(\S.*)$/.exec(l);
      if (m !== null) push(i, Math.min(6, m[1].length), m[2].replace(/[ \t]+:[\w@#%:]+:\s*$/, ''));
    }
  }
  out.sort((a, b) => a.start - b.start);
  return out;
}

function htmlHeadingsBefore(text: string): Heading[] {
  const out: Heading[] = [];
  const re = /<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi;
  let line = 1;
  let counted = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    for (let k = text.indexOf('\n', counted); k >= 0 && k < m.index; k = text.indexOf('\n', k + 1)) line++;
    counted = m.index;
    const t = cleanTitleBefore(m[2], 'html');
    if (t !== '') out.push({ start: text.lastIndexOf('\n', m.index) + 1, line, level: Number(m[1]), text: t });
  }
  return out;
}

/** kb/search/topic.ts `headingsOf`, as it was. */
export function headingsOfBefore(text: string): string {
  const HEADING = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm;
  const out: string[] = [];
  for (let m = HEADING.exec(text); m !== null; m = HEADING.exec(text)) out.push(m[1]);
  return out.join('\n');
}

/** content/title.ts `cleanTitle`, as it was, with the rules added since
 *  (not the regular expressions' part): character references decoded by
 *  content/entities.ts (HTML's table and rules, where a handful of names
 *  were), and markup alone (content/markup.ts) no title. */
export function cleanTitleBefore(raw: string, format: string | undefined): string {
  let s = raw;
  if (format === 'html') {
    s = decodeEntities(s.replace(/<[^>]*>/g, ''));
  } else if (format === 'md' && s.includes('](')) {
    s = s.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  } else if (format === 'adoc' && s.includes('[[')) {
    s = s.replace(/\[\[[^\]]*\]\]/g, ' ');
  }
  s = s.replace(/\s+/g, ' ').trim();
  return markupOnly(s) ? '' : s;
}

/** content/frontmatter.ts `simpleFields`, as it was. */
const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/;
const UNSAFE_START = /^[-?:,[\]{}#&*!|>'"%@`~+.0-9]/;
/** A quoted scalar with nothing to unescape: "..." without `\` or `"`,
 *  '...' without `'`. */
const QUOTED = /^(?:"([^"\\]*)"|'([^']*)')$/;
const NOT_A_STRING = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N)$/;

export function simpleFieldsBefore(front: string): Record<string, string | number | null> | typeof NEEDS_YAML {
  const out: Record<string, string | number | null> = Object.create(null);
  for (const raw of front.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const m = SIMPLE_LINE.exec(line);
    if (m === null) return NEEDS_YAML;
    const [, key, value] = m;
    if (key in out) return NEEDS_YAML; // a duplicate key: the parser's error
    if (value === undefined || value === '') {
      // `key:` alone is null, unless indented lines follow (nesting): those
      // fail SIMPLE_LINE above or below.
      out[key] = null;
      continue;
    }
    const quoted = QUOTED.exec(value);
    if (quoted !== null) {
      out[key] = quoted[1] ?? quoted[2];
      continue;
    }
    // Plain decimal numbers, read since (the rule is not a rewrite's).
    if (/^\d{1,15}(?:\.\d{0,15})?$/.test(value)) {
      out[key] = Number(value);
      continue;
    }
    if (UNSAFE_START.test(value) || value.includes(': ') || value.includes(' #') || value.includes('\t') || value.endsWith(':') || NOT_A_STRING.test(value)) {
      return NEEDS_YAML;
    }
    out[key] = value;
  }
  return out;
}
