// Every parser of file or client text runs in time linear in what it reads.
// Each case times one parser on one hostile shape of input (long runs of a
// repeated prefix, unclosed delimiters, many spaces, openers without
// closers, CR-only line ends, one long line...) at sizes growing by 4 up to
// the largest the parser is given (the 8 KiB head for titles and
// frontmatter, the 256 KiB ignore file, the 1 MiB configuration, long
// subjects), and fails when the time grows faster than the input
// (tests/support/growth.ts: medians of batches, each step measured again
// before it fails). These shapes made regular expressions backtrack before
// they were rewritten (issue: an 8 KiB title of `[a` took 47 ms, a Markdown
// line of spaces 10 s at 120 KB).

import { describe, expect, test } from 'bun:test';
import { parseFullToml } from '../../src/config/toml-full.ts';
import JSON5 from 'json5';
import * as YAML from 'yaml';
import { MAX_CONFIG_DEPTH } from '../../src/config/depth.ts';
import { parseJson } from '../../src/config/json.ts';
import { parseSimpleToml } from '../../src/config/toml-fast.ts';
import { topicIdFrom } from '../../src/config/topic-id.ts';
import { formatContent } from '../../src/kb/content/format.ts';
import { decodeEntities } from '../../src/kb/content/entities.ts';
import { htmlText, htmlTextLines } from '../../src/kb/content/html.ts';
import { roffText } from '../../src/kb/content/roff.ts';
import { compactHtml, HTML_HEAD_BYTES } from '../../src/kb/content/html-head.ts';
import { markupOnly } from '../../src/kb/content/markup.ts';
import { HEAD_CHARS, sniffMarkup } from '../../src/kb/content/sniff.ts';
import { parseFrontmatter, simpleFields, type YamlModule } from '../../src/kb/content/frontmatter.ts';
import { cleanTitle, headingsIn, headTitleOf, informativeTitle, looseName, type TitleFormat } from '../../src/kb/content/title.ts';
import { estimateTokens, estimateTokensOfBytes } from '../../src/kb/content/tokens.ts';
import { lineAt, windowEnd } from '../../src/kb/content/window.ts';
import { decodeText } from '../../src/kb/fs/decode.ts';
import { IgnoreRules } from '../../src/kb/fs/ignore.ts';
import { frontmatterSpan } from '../../src/kb/fs/probe.ts';
import { probeBytes } from '../../src/kb/fs/probe-titles.ts';
import { scoreText, sectionsOf, snippetOf } from '../../src/kb/search/snippet.ts';
import { queryTerms, terms } from '../../src/kb/search/tokenize.ts';
import { headingsOf } from '../../src/kb/search/topic.ts';
import { normalise, profile } from '../../src/kb/write/similar.ts';
import { slugFromText } from '../../src/kb/write/slug.ts';
import { yamlTooDeepAt } from '../../src/shared/yaml-depth.ts';
import { superlinearStep, type Superlinear } from '../support/growth.ts';
import { facetsOf } from '../../src/kb/content/facets.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../support/temp.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const enc = new TextEncoder();

/** `unit` repeated to about `n` characters, between `head` and `tail`. */
function fill(unit: string, head = '', tail = ''): (n: number) => string {
  return (n) => head + unit.repeat(Math.max(1, Math.ceil((n - head.length - tail.length) / unit.length))) + tail;
}

/** What a failed step reads as. */
function said(s: Superlinear | undefined): string {
  return s === undefined ? 'linear' : `${s.from} -> ${s.to} characters: ${s.before.toFixed(3)} -> ${s.after.toFixed(3)} ms a call (${s.ratio.toFixed(1)} times)`;
}

/** One parser on hostile shapes: [shape's name, its maker]. */
function linear(name: string, run: (input: any) => unknown, shapes: [string, (n: number) => unknown][], from: number, to: number): void {
  describe(name, () => {
    test.each(shapes)('%s', (_shape, make) => {
      expect(said(superlinearStep(make, run, { from, to }))).toBe('linear');
    }, 120_000);
  });
}

// --- Titles: the 8 KiB head every listed subject is probed for. ---

const TITLE_SHAPES: Record<TitleFormat, [string, (n: number) => string][]> = {
  md: [
    ['`# ](` then `[a`', fill('[a', '# ](')],
    ['`# ](` then `![a`', fill('![a', '# ](')],
    ['`# ` then `[a](`', fill('[a](', '# ')],
    ['`# ` then `[a]`', fill('[a]', '# ')],
    ['a heading of spaces', fill(' ', '# a', 'x')],
    ['a line of `#`', fill('#')],
    ['lines of `#`', fill('#\n')],
    ['lines of `=`', fill('=\n')],
    ['lines of `-`', fill('-\n', 'a\n')],
    ['fences', fill('```\n')],
    ['CR-only lines', fill('# a\r')],
    ['`import` lines', fill('import a\n')],
    ['spaces and a `#` at the end', fill(' ', '', '#')],
    ['a title, then `#x` lines', fill('#x\n', '# T\n')],
    ['a title, then fenced headings', fill('```\n# a\n', '# T\n')],
    ['a section heading, then `#` in prose', fill('a # b ', '## S\n\ntext\n')],
  ],
  rst: [
    ['header fields of spaces', fill(' ', 'Title:', 'x')],
    ['comments', fill('..\n')],
    ['field lists', fill(':a:\n')],
    ['adornments', fill('===\n')],
    ['overline, no underline', fill(' ', '===\n', 'x')],
  ],
  adoc: [
    ['`= ` then `[[a`', fill('[[a', '= ')],
    ['a title of spaces', fill(' ', '= a', 'x')],
    ['attribute lines', fill(':a:\n')],
    ['comment lines', fill('//\n')],
    ['underlines', fill('====\n', 'a\n')],
    ['block attribute lines', fill('[a]\n')],
    ['a section title, then section titles', fill('== a\n', '== T\n\ntext\n')],
    ['a section title, then block delimiters', fill('----\n', '=== T\n')],
    ['a description of spaces', fill(' ', ':description:', 'x')],
    ['header attribute lines under the title', fill(':a: b\n', '= T\n')],
  ],
  org: [
    ['`#+` lines', fill('#+\n')],
    ['a title of spaces', fill(' ', '#+title: a', 'x')],
  ],
  html: [
    ['`<title>` full of `<a`', fill('<a', '<title>')],
    ['`<h1>` full of `<a`', fill('<a', '<h1>')],
    ['unclosed `<title`', fill('<title ')],
    ['unclosed `<h1>`', fill('<h1>')],
    ['entities', fill('&#x', '<title>', '</title>')],
    ['`<`', fill('<')],
    ['NAME headings', fill('<h2>NAME</h2>')],
    ['a NAME section of spaces', fill(' ', '<h2>NAME</h2><p>a', '- b')],
    ['a NAME section of tags', fill('<b>', '<h2>NAME</h2><p>a ')],
    ['NAME headings full of tags', fill('<a>', '<h2>')],
    ['`<h` without a level', fill('<h')],
    ['dashes as references', fill(' &#x', '<h2>NAME</h2><p>a')],
  ],
  text: [
    ['header fields of spaces', fill(' ', 'Title:', 'x')],
    ['`NAME` sections', fill('NAME\n')],
    ['`N`', fill('N')],
    ['ATX of spaces', fill(' ', '# a', 'x')],
  ],
  plain: [
    ['`NAME` then spaces', fill(' ', 'NAME\n\nx', '- y')],
    ['lines of `-`', fill('-\n', 'a\n')],
  ],
  roff: [
    ['comment lines', fill('.\\"\n')],
    ['`.SH NAME` lines', fill('.SH NAME\n')],
    ['requests after `.SH NAME`', fill('.PP\n', '.SH NAME\n')],
    ['a NAME line of spaces', fill(' ', '.SH NAME\na', '\\- b')],
    ['dots', fill('.')],
    ['`.Nd` of spaces', fill(' ', '.Nd ', 'x')],
  ],
};
const EXT: Record<TitleFormat, string> = { md: 'md', rst: 'rst', adoc: 'adoc', org: 'org', html: 'html', text: 'txt', plain: '', roff: '2' };

for (const format of Object.keys(TITLE_SHAPES) as TitleFormat[]) {
  linear(`a ${format} head's title (content/title.ts headTitleOf)`, (b: Uint8Array) => headTitleOf(b, EXT[format]), TITLE_SHAPES[format].map(([n, make]) => [n, (k: number) => enc.encode(make(k))]), 128, 8 * KiB);
}

// A title's text as cleanTitle gets it: a head's span, and a whole HTML
// heading's content (recall's sections).
linear('a title cleaned (content/title.ts cleanTitle)', ([s, f]: [string, TitleFormat]) => cleanTitle(s, f), [
  ['Markdown `](` then `[a`', (n) => [fill('[a', '](')(n), 'md']],
  ['Markdown `![a`', (n) => [fill('![a', '](')(n), 'md']],
  ['Markdown `[a](`', (n) => [fill('[a](')(n), 'md']],
  ['HTML `<a`', (n) => [fill('<a')(n), 'html']],
  ['HTML `&a`', (n) => [fill('&a')(n), 'html']],
  ['AsciiDoc `[[a`', (n) => [fill('[[a')(n), 'adoc']],
  ['template expressions', (n) => [fill('{{ a }} ')(n), 'html']],
  ['template expressions never closed', (n) => [fill('{{ a ')(n), 'html']],
  ['roff `\\[` unclosed', (n) => [fill('\\[a')(n), 'roff']],
  ['roff `\\f[` unclosed', (n) => [fill('\\f[')(n), 'roff']],
  ['roff escapes', (n) => [fill('\\fB\\(aq\\-')(n), 'roff']],
  ['spaces', (n) => [fill(' ', 'a', 'b')(n), 'md']],
], 1 * KiB, 1 * MiB);

linear('a title told from a slug (content/title.ts informativeTitle, looseName)', (s: string) => [informativeTitle(s, 'a/b'), looseName(s)], [
  ['punctuation', fill('-')],
  ['a man page section', fill('(1', 'a', ')')],
  ['spaces', fill(' ', 'é', '(1)')],
], 1 * KiB, 1 * MiB);

// --- Sections (recall) and headings (the search index): whole subjects. ---

linear('sections (kb/search/snippet.ts sectionsOf)', ([t, ext]: [string, string]) => sectionsOf(t, ext), [
  ['Markdown: a heading of spaces', (n) => [fill(' ', '# a', 'x')(n), 'md']],
  ['Markdown: headings closed by spaces', (n) => [fill(' #', '# a')(n), 'md']],
  ['Markdown: lines of `#`', (n) => [fill('# \n')(n), 'md']],
  ['Markdown: setext lines', (n) => [fill('a\n=\n')(n), 'md']],
  ['Markdown: fences', (n) => [fill('```\n')(n), 'md']],
  ['Markdown: CR-only lines', (n) => [fill('# a  \r')(n), 'md']],
  ['HTML: unclosed `<h1>`', (n) => [fill('<h1>')(n), 'html']],
  ['HTML: headings on one line', (n) => [fill('<h1>a</h1>')(n), 'html']],
  ['HTML: `<h1` without `>`', (n) => [fill('<h1 ')(n), 'html']],
  ['HTML: closing tags of another level', (n) => [fill('</h2>', '<h1>')(n), 'html']],
  ['HTML: a closing tag of spaces', (n) => [fill(' ', '<h1>a</h1', '')(n), 'html']],
  ['Org: a heading of spaces', (n) => [fill(' ', '* a', 'x')(n), 'org']],
  ['Org: tags of spaces', (n) => [fill(' ', '* a', ':b:x')(n), 'org']],
  ['AsciiDoc: a title of spaces', (n) => [fill(' ', '== a', 'x')(n), 'adoc']],
  ['AsciiDoc: closing marks of spaces', (n) => [fill(' ', '== a', '=x')(n), 'adoc']],
  ['AsciiDoc: delimited blocks', (n) => [fill('----\n')(n), 'adoc']],
  ['reStructuredText: adornments', (n) => [fill('===\n')(n), 'rst']],
  ['reStructuredText: titles', (n) => [fill('a\n===\n\n')(n), 'rst']],
  ['plain text: blank lines', (n) => [fill('a\n\n')(n), 'txt']],
  ['a .txt file in reStructuredText: titles', (n) => [fill('a\n===\n\n', '.. _x:\n\n')(n), 'txt']],
  ['a .txt file in AsciiDoc: sections of spaces', (n) => [fill(' ', '== a', 'x')(n), 'txt']],
  ['an extensionless file in Markdown: a heading of spaces', (n) => [fill(' ', '# a\n\n[a](b)\n# a', 'x')(n), '']],
  ['plain text: one line', (n) => [fill('a ')(n), 'txt']],
  // From 16 KiB: a call on 4 KiB takes a few microseconds, where a busy
  // moment of a loaded machine once measured 11x for 4x the text (the
  // same shape measured 5x idle; a quadratic scan shows from 16 KiB on).
], 16 * KiB, 1 * MiB);

linear('headings for search (kb/search/topic.ts headingsOf)', (t: string) => headingsOf(t, 'md'), [
  ['a heading of spaces', fill(' ', '# a', 'x')],
  ['a heading of spaces and `#`', fill(' #', '# a', 'x')],
  ['a line of `#`', fill('#')],
  ['`#` after spaces', fill('   #')],
  ['lines of `# `', fill('# \n')],
  ['CR-only lines', fill('# a \r')],
], 4 * KiB, 1 * MiB);

linear('a subject\'s #tags and tags (content/facets.ts facetsOf)', (t: string) => facetsOf({ tags: t, type: t }, t, 'md'), [
  ['one tag again and again', fill('#a ')],
  ['a line of `#`', fill('#')],
  ['backticks between tags', fill('` #x ')],
  ['fences', fill('```\n#a\n')],
  ['digits after `#`', fill(' #1')],
  ['blanks and commas', fill(' ,')],
], 4 * KiB, 1 * MiB);

linear("an Org file's tags (content/facets.ts facetsOf)", (t: string) => facetsOf(undefined, t, 'org'), [
  ['filetags lines', fill('#+filetags: :a:\n')],
  ['one long filetags line', fill(':a', '#+filetags: ')],
  ['keyword lines', fill('#+x\n')],
  ['no line end', fill('#')],
], 4 * KiB, 1 * MiB);

linear('snippets (kb/search/snippet.ts snippetOf)', (t: string) => snippetOf(t, new Set(['aa', 'ab'])), [
  ['one line of the term', fill('a')],
  ['lines of the term', fill('aa\n')],
  ['camelCase words', fill('aAb ')],
  ['hyphens', fill('a-a ')],
  ['no term, no word', fill('- \n')],
], 4 * KiB, 1 * MiB);

linear('section scores (kb/search/snippet.ts scoreText)', (t: string) => scoreText(t, new Map([['aa', 1]])), [
  ['words', fill('aa ')],
  ['one word', fill('a')],
  ['punctuation', fill('-')],
], 4 * KiB, 1 * MiB);

// --- Frontmatter (in the 8 KiB head) and descriptions. ---

let yamlLib: YamlModule | undefined;
linear('frontmatter, the fast path (content/frontmatter.ts simpleFields)', (t: string) => simpleFields(t), [
  ['a value of spaces', fill(' ', 'a: b', 'x')],
  ['a key of spaces', fill(' ', 'a:')],
  ['many keys', (n) => Array.from({ length: Math.ceil(n / 8) }, (_, i) => `k${i}: v`).join('\n')],
  ['CR-only lines', fill('a: b\r')],
], 128, 8 * KiB);

linear('frontmatter, the YAML parser (content/frontmatter.ts parseFrontmatter)', (t: string) => parseFrontmatter(t, (yamlLib ??= YAML as unknown as YamlModule)), [
  ['a value of spaces', fill(' ', 'a: b', 'x')],
  ['unclosed flow sequences', fill('[')],
  ['unclosed flow mappings', fill('{')],
  ['nested block sequences', (n) => Array.from({ length: Math.ceil(n / 40) }, (_, i) => `${' '.repeat(i % 20)}- a`).join('\n')],
  ['anchors and aliases', (n) => `a: &x b\n${fill('- *x\n', 'c:\n')(n)}`],
  ['an unclosed quote', fill('\\a', 'a: "')],
  ['comments', fill('#\n')],
  ['a block scalar', fill('  x\n', 'a: |\n')],
  ['keys with `: ` in a value', fill(': ', 'a: ')],
  ['nested explicit keys', fill('? ')],
  ['explicit keys, a few a line', (n) => Array.from({ length: Math.ceil(n / 30) }, () => '? '.repeat(14)).join('\n')],
  ['compact mappings, a few a line', (n) => Array.from({ length: Math.ceil(n / 30) }, (_, i) => `k${i}: ${': '.repeat(12)}`).join('\n')],
  ['a staircase of indents', (n) => Array.from({ length: Math.ceil(n / 40) }, (_, i) => `${' '.repeat(i % 60)}?`).join('\n')],
], 128, 8 * KiB);

linear('the frontmatter fences (kb/fs/probe.ts frontmatterSpan)', (b: Uint8Array) => frontmatterSpan(b, b.length, true, 'x.md'), [
  ['no closing fence', (n) => enc.encode(fill('--\n', '---\n')(n))],
  ['dashes', (n) => enc.encode(fill('-', '---\n')(n))],
], 128, 8 * KiB);

// --- Content: token estimates, windows, decoding, fences. ---

linear('token estimates (content/tokens.ts)', (t: string) => [estimateTokens(t), estimateTokensOfBytes(enc.encode(t))], [
  ['words', fill('ab ')],
  ['digits', fill('1')],
  ['outside ASCII', fill('é')],
], 4 * KiB, 4 * MiB);

linear('windows of a long subject (content/window.ts windowEnd, lineAt)', (b: Uint8Array) => [windowEnd(b, 0, 1000), lineAt(b, b.length)], [
  ['one line', (n) => enc.encode(fill('ab ')(n))],
  ['dense, then sparse', (n) => enc.encode(fill('-', '', ' '.repeat(n))(n))],
  ['short lines', (n) => enc.encode(fill('a\n')(n))],
], 4 * KiB, 4 * MiB);

linear('decoding (kb/fs/decode.ts decodeText)', (b: Uint8Array) => decodeText(b), [
  ['invalid UTF-8', (n) => new Uint8Array(n).fill(0xff)],
  ['UTF-16, odd', (n) => Uint8Array.from({ length: n | 1 }, (_, i) => (i === 0 ? 0xff : i === 1 ? 0xfe : 0x41))],
], 4 * KiB, 4 * MiB);

linear('fences of a code subject (content/format.ts formatContent)', (t: string) => formatContent('ts', t), [
  ['backticks', fill('`')],
  ['runs of backticks', fill('`` ')],
], 4 * KiB, 4 * MiB);

// --- HTML pages: their text (search, recall, the text view), their heads
// (the probe reads up to 256 KiB of a page for its title and summary), and
// character references. ---

linear('an HTML page as text (content/html.ts htmlText)', (t: string) => htmlText(t), [
  ['unclosed tags', fill('<a ')],
  ['`<a` without `>`', fill('<a')],
  ['`<` alone', fill('< ')],
  ['`</`', fill('</')],
  ['an unclosed quote', fill('x', '<p title="')],
  ['many attributes', fill(' a=b', '<p', '>')],
  ['nested lists', fill('<ul><li>a')],
  ['list items', fill('<li>a')],
  ['definitions', fill('<dt>a<dd>b')],
  ['table cells', fill('<td>a')],
  ['nested `<pre>`', fill('<pre>`')],
  ['backticks in `<pre>`', fill('`', '<pre>')],
  ['unclosed comments', fill('<!--')],
  ['a script of almost-closing tags', fill('</scrip', '<script>')],
  ['unclosed scripts', fill('<script>')],
  ['nested navigation', fill('<nav><div>')],
  ['navigation by role', fill('<div>', '<div role="navigation">')],
  ['references', fill('&#x1;&amp')],
  ['headings', fill('<h1>a')],
  ['an unclosed title', fill('a', '<title>')],
  ['spaces', fill(' ', '<p>', 'x')],
  ['runs of white space between tags', fill(' \n\t\u00a0 <b>')],
  ['single spaces between words', fill('a ')],
  ['white space in `<pre>`', fill(' \n', '<pre>')],
], 4 * KiB, 1 * MiB);

linear('an HTML page as text, with the page line of each line (content/html.ts htmlTextLines)', (t: string) => htmlTextLines(t), [
  ['inline tags on one line', fill('<b>a</b> ')],
  ['inline tags on lines', fill('<b>a</b>\n')],
  ['list items on one line', fill('<li>a')],
  ['preformatted blocks', fill('<pre>a\nb</pre>')],
  ['a late title', fill('<p>a</p>\n', '', '<title>t</title>')],
  ['unclosed comments', fill('<!--')],
], 4 * KiB, 1 * MiB);

linear("an HTML page's head (content/html-head.ts compactHtml)", (b: Uint8Array) => compactHtml(b, 0, b.length, new Uint8Array(8 * KiB)), [
  ['unclosed comments', (n) => enc.encode(fill('<!--')(n))],
  ['comments', (n) => enc.encode(fill('<!---->')(n))],
  ['a comment of dashes', (n) => enc.encode(fill('-', '<!--')(n))],
  ['a style of almost-closing tags', (n) => enc.encode(fill('</styl', '<style>')(n))],
  ['unclosed scripts', (n) => enc.encode(fill('<script>')(n))],
  ['`<`', (n) => enc.encode(fill('<')(n))],
], 4 * KiB, HTML_HEAD_BYTES);

linear('a manual page as text (content/roff.ts roffText)', (t: string) => roffText(t), [
  ['comment lines', fill('.\\" c\n')],
  ['a quote never closed', fill(' a', '.BI "')],
  ['doubled quotes', fill('""', '.B "')],
  ['arguments of spaces', fill(' ', '.BR a', 'b')],
  ['unclosed `\\[`', fill('\\[a')],
  ['fonts', fill('\\fB')],
  ['request lines', fill('.PP\n')],
  ['CR-only lines', fill('.B a\r')],
], 1 * KiB, 1 * MiB);

linear('an HTML page probed (kb/fs/probe.ts probeBytes)', (b: Uint8Array) => probeBytes(b, 'a.html'), [
  ['a style sheet, then NAME sections', (n) => enc.encode(fill('<h2>NAME</h2><p>a - b', `<title>t</title><style>${'x'.repeat(9000)}</style>`)(n))],
  ['comments', (n) => enc.encode(fill('<!-- -->', '<title>t</title>')(n))],
], 16 * KiB, HTML_HEAD_BYTES);

linear('character references (content/entities.ts decodeEntities)', (t: string) => decodeEntities(t), [
  ['ampersands', fill('&')],
  ['numbers without an end', fill('1', '&#')],
  ['names without an end', fill('a', '&')],
  ['references', fill('&amp;&#65;&#x41;')],
  ['almost references', fill('&#;&#x;&ampx')],
], 4 * KiB, 4 * MiB);

linear('the markup of a head (content/sniff.ts sniffMarkup)', (t: string) => sniffMarkup(t), [
  ['targets without an end', fill('.. _a')],
  ['directives', fill('.. a:: ')],
  ['substitutions without a bar', fill('x', '.. |')],
  ['adornments under titles', fill('a\n===\n')],
  ['overlines', fill('===\na\n===\n')],
  ['section titles of `=`', fill('=', '== ')],
  ['block attributes', fill('[a', '[')],
  ['inline macros without a bracket', fill('ab:c')],
  ['inline macros without an end', fill('ab:c[')],
  ['links without an end', fill('[a](')],
  ['`](` alone', fill('](')],
  ['fences', fill('\n```')],
  ['lines of spaces', fill(' ', '', '\n')],
], 128, HEAD_CHARS);

linear('markup lines (content/markup.ts markupOnly)', (t: string) => markupOnly(t), [
  ['a target', fill('a', '.. _')],
  ['a directive name', fill('a', '.. ', '::')],
  ['a substitution', fill('a', '.. |', '|')],
  ['a block attribute', fill('a', '[', ']')],
  ['a block macro', fill('a', '', '::x[]')],
  ['a block macro without a bracket', fill('a', '', '::x]')],
  ['openers', fill('{{<')],
  ['closers', fill('>}}')],
  ['braces', fill('{')],
  ['tags', fill('{% a %}')],
  ['a field name', fill('a', ':')],
], 4 * KiB, 1 * MiB);

// --- Ignore files: a 256 KiB .gitignore, and what its rules are tested on. ---

// Removed after the whole run (bun test fires no process exit event).
const scratch = makeTempDir('kb-linear-');

/** The rules of one .gitignore holding `text`, applied to one entry. */
function applyIgnoreFile(text: string): boolean {
  writeFileSync(join(scratch, '.gitignore'), text);
  const rules = new IgnoreRules();
  rules.enter(scratch, '', null, [{ name: '.gitignore' }], '/');
  return rules.skip('a', 'b'.repeat(200), false);
}

linear('an ignore file (kb/fs/ignore.ts)', applyIgnoreFile, [
  ['backslashes', fill('\\')],
  ['brackets', fill('[')],
  ['ranges', fill('[a-')],
  ['stars', fill('*')],
  ['question marks', fill('?')],
  ['spaces', fill(' ', 'a', 'b')],
  ['escaped spaces', fill('\\ ', 'a')],
  ['slashes', fill('/', '', 'a')],
  ['`**` segments', fill('**/')],
  ['many rules', fill('a*b\n')],
  ['CR-only lines', fill('a\r')],
], 1 * KiB, 256 * KiB);

// --- Configuration: 1 MiB at most, in every format kb reads. ---

linear('TOML, the fast path (config/toml-fast.ts)', (t: string) => parseSimpleToml(t), [
  ['a header of dots', fill('.a', '[a', ']')],
  ['a header of spaces', fill(' ', '[a', 'b]')],
  ['an escaped string', fill('\\\\', 'a = "', '"')],
  ['an unclosed string', fill('\\"', 'a = "')],
  ['a long array', fill('"a", ', 'a = [', ']')],
  ['an unclosed array', fill('"a", ', 'a = [')],
  ['comments', fill('#\n')],
  ['spaces after a value', fill(' ', 'a = "b"', 'x')],
  ['many keys', (n) => Array.from({ length: Math.ceil(n / 12) }, (_, i) => `k${i} = "v"`).join('\n')],
  ['many tables', (n) => Array.from({ length: Math.ceil(n / 12) }, (_, i) => `[t${i}]`).join('\n')],
  ['a multi-line string', fill('a\n', 'a = """\n', '"""')],
  ['CR-only lines', fill('a = "b"\r')],
], 4 * KiB, 1 * MiB);

linear('TOML, the full parser (@iarna/toml, as kb runs it)', (t: string) => parseFullToml(t), [
  ['a header of dots', fill('.a', '[a', ']')],
  ['an escaped string', fill('\\\\', 'a = "', '"')],
  ['an unclosed string', fill('\\"', 'a = "')],
  ['a long array', fill('"a", ', 'a = [', ']')],
  ['an inline table', fill('a = 1, ', 'x = {', 'b = 1}')],
  ['many tables', (n) => Array.from({ length: Math.ceil(n / 12) }, (_, i) => `[t${i}]`).join('\n')],
  ['many array tables', fill('[[a]]\n')],
  ['dotted keys', (n) => Array.from({ length: Math.ceil(n / 12) }, (_, i) => `a.k${i} = 1`).join('\n')],
  ['spaces', fill(' ', 'a = 1', '#')],
], 4 * KiB, 1 * MiB);

linear('JSON with comments (config/json.ts parseJson)', (t: string) => parseJson(t, 'x'), [
  ['comments', fill('//\n', '{', '}')],
  ['an unclosed block comment', fill('/*', '{')],
  ['trailing commas', fill(',', '{"a": [1', ']}')],
  ['an unclosed string', fill('\\"', '{"a": "')],
  ['hashes', fill('#', '{', '\n}')],
], 4 * KiB, 1 * MiB);

linear('JSON5 (the json5 package)', (t: string) => {
  try {
    return JSON5.parse(t);
  } catch {
    return undefined;
  }
}, [
  ['comments', fill('//\n', '{', '}')],
  ['an unclosed block comment', fill('/*', '{')],
  ['a long array', fill('1,', '{a:[', ']}')],
  ['an unclosed string', fill("\\'", "{a:'")],
  ['many keys', (n) => `{${Array.from({ length: Math.ceil(n / 8) }, (_, i) => `k${i}:1`).join(',')}}`],
], 4 * KiB, 1 * MiB);

linear('YAML configuration (the yaml package, as config/formats.ts reads it)', (t: string) => {
  // config/formats.ts parseYaml, synchronous: the depth bound, then the
  // package without its own duplicate-key check.
  if (yamlTooDeepAt(t, MAX_CONFIG_DEPTH) > 0) return undefined;
  const doc = YAML.parseDocument(t, { merge: true, uniqueKeys: false, logLevel: 'error' });
  return doc.errors.length > 0 ? undefined : doc.toJS({ maxAliasCount: 100 });
}, [
  ['many keys', (n) => Array.from({ length: Math.ceil(n / 8) }, (_, i) => `k${i}: v`).join('\n')],
  ['a value of spaces', fill(' ', 'a: b', 'x')],
  ['unclosed flow sequences', fill('[')],
  ['a long flow sequence', fill('a, ', 'a: [', ']')],
  ['nested explicit keys', fill('? ')],
  ['a staircase of indents', (n) => Array.from({ length: Math.ceil(n / 40) }, (_, i) => `${' '.repeat(i % 60)}?`).join('\n')],
  ['comments', fill('#\n')],
], 4 * KiB, 1 * MiB);

// --- Model-supplied text: queries, text to remember, folder names. ---

linear('a search query (kb/search/tokenize.ts queryTerms)', (q: string) => queryTerms(q), [
  ['one word', fill('a')],
  ['words', fill('ab ')],
  ['punctuation', fill('-')],
  ['camelCase', fill('aB')],
], 256, 64 * KiB);

linear('text to remember (kb/write/slug.ts slugFromText, kb/write/similar.ts)', (t: string) => [slugFromText(t), normalise(t), profile(t), terms(t)], [
  ['a heading of spaces', fill(' ', '#', 'x')],
  ['hashes', fill('#')],
  ['punctuation', fill('-')],
  ['blank lines', fill('\n')],
], 4 * KiB, 1 * MiB);

linear('a folder name as a topic ID (config/topic-id.ts)', (s: string) => topicIdFrom(s), [
  ['underscores', fill('_', 'a', 'b')],
  ['dashes and spaces', fill('- ', 'a', 'b')],
], 256, 64 * KiB);

// --- The measure itself: it finds work that grows faster than linearly. ---

describe('the growth measure (tests/support/growth.ts)', () => {
  test('finds a quadratic scan, and passes a linear one', () => {
    const quadratic = (t: string) => {
      let n = 0;
      for (let i = 0; i < t.length; i++) n += t.lastIndexOf('x', i) === -1 ? 1 : 0;
      return n;
    };
    const found = superlinearStep(fill('a'), quadratic, { from: 1 * KiB, to: 64 * KiB });
    expect(found).toBeDefined();
    expect(found!.ratio).toBeGreaterThan(10);
    expect(said(superlinearStep(fill('a'), (t: string) => t.indexOf('x'), { from: 4 * KiB, to: 1 * MiB }))).toBe('linear');
  }, 120_000);
});
