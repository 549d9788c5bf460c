// An HTML page as text (content/html.ts), character references
// (content/entities.ts) and the head the probe reads of a page
// (content/html-head.ts).

import { describe, expect, test } from 'bun:test';
import { decodeEntities } from '../../../src/kb/content/entities.ts';
import { htmlText, htmlTextLines, htmlTextView, isHtmlExt, textViewNote } from '../../../src/kb/content/html.ts';
import { compactHtml, htmlDrops, HTML_HEAD_BYTES } from '../../../src/kb/content/html-head.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

describe('character references (decodeEntities)', () => {
  test.each([
    ['the basic five', '&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos;', '<a> & "b" \'c\''],
    ['HTML 4 names, case kept', '&eacute; &Eacute; &mdash; &hellip; &nbsp; &copy; &Omega; &rarr;', 'é É — … \u00a0 © Ω →'],
    ['decimal and hexadecimal', '&#8217; &#x2014; &#X41; &#0065;', '\u2019 — A A'],
    ['a numeric one without its semicolon', '&#65b &#x41g', 'Ab Ag'],
    ['a name without its semicolon: kept', '&amp &copy2020', '&amp &copy2020'],
    ['an unknown name: kept', '&bogus; &NewLine; &ampx;', '&bogus; &NewLine; &ampx;'],
    ['a name past the longest: kept', '&abcdefghijk;', '&abcdefghijk;'],
    ['no digits: kept', '&#; &#x; &#xg;', '&#; &#x; &#xg;'],
    ['out of range, NUL and surrogates: U+FFFD', '&#0; &#x110000; &#xD800; &#99999999999999999999;', '\ufffd \ufffd \ufffd \ufffd'],
    ['leading zeros are not too many digits', '&#x000000000041;', 'A'],
    ['C1 as Windows-1252', '&#150; &#128; &#x9f; &#129;', '– € Ÿ \u0081'],
    ['a lone ampersand', 'a & b &', 'a & b &'],
    ['one after another', '&lt;&lt;&#65;&amp;amp;', '<<A&amp;'],
  ])('%s', (_name, input, output) => {
    expect(decodeEntities(input)).toBe(output);
  });

  test('text without a reference is returned as it is', () => {
    const s = 'plain text';
    expect(decodeEntities(s)).toBe(s);
  });
});

/** The text of a page whose body is `body`. */
const text = (body: string) => htmlText(`<!DOCTYPE html><html><head><title>T</title></head><body>${body}</body></html>`);

describe('an HTML page as text (htmlText)', () => {
  test('an Asciidoctor man page: no style sheet, headings, paragraphs, a fenced synopsis, options', () => {
    const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<title>git-add(1)</title>
<link rel="stylesheet" href="https://fonts.example/css">
<style>
/*! Asciidoctor default stylesheet */
html{font-family:sans-serif;-webkit-user-select:none;user-select:none}
</style>
</head>
<body class="manpage">
<div id="header">
<h1>git-add(1) Manual Page</h1>
<h2 id="_name">NAME</h2>
<div class="sectionbody">
<p>git-add - Add file contents to the index</p>
</div>
</div>
<div id="content">
<div class="sect1">
<h2 id="_synopsis">SYNOPSIS</h2>
<div class="sectionbody">
<div class="verseblock">
<pre class="content"><code>git</code> <code>add</code> [<code>--verbose</code> | <code>-v</code>]
	[<code>--</code>] [<em>&lt;pathspec&gt;</em>&#8230;&#8203;]</pre>
</div>
</div>
</div>
<div class="sect1">
<h2 id="_options">OPTIONS</h2>
<div class="sectionbody">
<div class="dlist">
<dl>
<dt class="hdlist1"><code>-n</code></dt>
<dt class="hdlist1"><code>--dry-run</code></dt>
<dd>
<p>Don&#8217;t actually add the file(s).</p>
</dd>
<dt class="hdlist1"><code>-v</code></dt>
<dd>
<p>Be verbose.</p>
</dd>
</dl>
</div>
</div>
</div>
</div>
<div id="footer">
<div id="footer-text">
Last updated 2025-01-01
</div>
</div>
<script>if (x < 1) { document.write("</p>") }</script>
</body>
</html>
`;
    expect(htmlText(page)).toBe(
      [
        '# git-add(1) Manual Page',
        '',
        '## NAME',
        '',
        'git-add - Add file contents to the index',
        '',
        '## SYNOPSIS',
        '',
        '```',
        'git add [--verbose | -v]',
        '\t[--] [<pathspec>…\u200b]',
        '```',
        '',
        '## OPTIONS',
        '',
        '-n',
        '--dry-run',
        '  Don\u2019t actually add the file(s).',
        '-v',
        '  Be verbose.',
        '',
        'Last updated 2025-01-01',
        '',
      ].join('\n'),
    );
  });

  test.each([
    ['style, script, noscript, iframe, template, svg: left out', '<p>a</p><style>p{b:c}</style><script>d()</script><noscript>e</noscript><iframe>f</iframe><template><p>g</p><template>h</template>i</template><svg><title>j</title><text>k</text><svg>l</svg>m</svg><p>n</p>', 'a\n\nn\n'],
    ['navigation: left out, nested elements of its kind counted', '<nav><ul><li>Home</li></ul></nav><div role="navigation"><div>menu</div>more menu</div><p>text</p>', 'text\n'],
    ['an end tag in a script that is not its own', '<script>var s = "</scripts>"; </SCRIPT ><p>a</p>', 'a\n'],
    ['comments, the short forms too', 'a<!-- b -->c<!-->d<!--->e<!-- f', 'acde\n'],
    ['doctype, processing instructions, CDATA, a bogus end tag', '<?xml x?>a<![CDATA[b]]>c</ d>e</>f', 'acef\n'],
    ['a `<` that starts no tag is text', '<p>1 < 2 <= 3 <3</p>', '1 < 2 <= 3 <3\n'],
    ['white space collapsed, no-break spaces too', '<p>  a \n\t b&nbsp;&nbsp;c  </p>', 'a b c\n'],
    ['inline elements keep the words apart or together as written', '<p><b>bold</b> and <i>it</i>alic, <a href="x">link</a>.</p>', 'bold and italic, link.\n'],
    ['headings of every level; a line break inside one is a space', '<h3>a<br>b</h3><h6>c</h6><h7>d</h7>', '### a b\n\n###### c\n\nd\n'],
    ['nested lists, numbered lists, items holding paragraphs', '<ul><li>a<ul><li>b</li></ul></li><li><p>c</p><p>d</p></li></ul><ol><li>e</li><li>f</li></ol>', '- a\n  - b\n- c\n\n  d\n\n1. e\n2. f\n'],
    ['a table: a row a line, cells between bars, paragraphs in cells on the line', '<table><caption>Cap</caption><tr><th>A</th><th>B</th></tr><tr><td><p>1</p><p>2</p></td><td>3</td></tr></table>', 'Cap\n\nA | B\n1 2 | 3\n'],
    ['preformatted text: as written, in a fence longer than its backticks', '<pre>\n  a  b\n````\n<b>c</b>&amp;<br>d\n\n</pre>', '`````\n  a  b\n````\nc&\nd\n`````\n'],
    ['a preformatted block in a list is indented', '<ul><li>run:<pre>a\nb</pre></li></ul>', '- run:\n\n  ```\n  a\n  b\n  ```\n'],
    ['an image: its alt text', '<p>see <img src="x.png" alt="a &amp; b"> here <img src=y></p>', 'see a & b here\n'],
    ['attributes: quoted `>`, unquoted values, no value', '<p title="a>b" data-x=\'>\' hidden class=c>text</p>', 'text\n'],
    ['tags in any case', '<H2>A</H2><P>b</p><STYLE>c</style>', '## A\n\nb\n'],
    ['line breaks', '<p>a<br>b<br/>c</p>', 'a\nb\nc\n'],
    ['a page that ends inside a tag', '<p>a</p><p class="x', 'a\n'],
    ['a page that ends inside an unclosed quote', '<p>a</p><p class="x>b</p>', 'a\n'],
    ['an empty page', '', ''],
  ])('%s', (_name, body, expected) => {
    expect(htmlText(body)).toBe(expected);
  });

  test('the title comes first when the page has no <h1>; else the <h1> names it', () => {
    expect(text('<p>body</p>')).toBe('# T\n\nbody\n');
    expect(text('<h1>H</h1><p>body</p>')).toBe('# H\n\nbody\n');
    expect(htmlText('<title>A &amp; B</title>')).toBe('# A & B\n');
  });

  test('deep nesting indents eight levels at most: the text stays linear in the page', () => {
    const depth = 2000;
    const page = '<ul><li>x'.repeat(depth);
    const out = htmlText(page);
    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(depth);
    expect(Math.max(...lines.map((l) => l.length))).toBe(7 * 2 + 3);
    expect(out.length).toBeLessThan(page.length * 3);
  });

  test('the text view: a note saying so, and how to get the page as written', () => {
    const view = htmlTextView(enc.encode('<p>a</p>'));
    expect(view).toEqual({ head: textViewNote(false), body: 'a\n', tail: '' });
    expect(textViewNote(false)).toContain('kb --html raw');
    expect(textViewNote(true)).toContain('the learn tool loads it as written');
    expect(isHtmlExt('html') && isHtmlExt('HTM') && isHtmlExt('xhtml')).toBe(true);
    expect(isHtmlExt('md') || isHtmlExt('xml')).toBe(false);
  });
});

describe('the line of the page each line of its text comes from (htmlTextLines)', () => {
  const PAGE = [
    '<!DOCTYPE html>',
    '<html><head>',
    '<title>Git</title>',
    '<style>p { color: red }</style>',
    '</head><body>',
    '<h1>git(1) Manual Page</h1>',
    '<p>git - the stupid',
    'content tracker</p>',
    '<ul>',
    '<li><p>first item</p></li>',
    '<li>second <em>item</em> here</li>',
    '</ul>',
    '<pre><code>git add .',
    'git commit',
    '</code></pre>',
    '<table><tr><td>a</td><td>b</td></tr>',
    '<tr><td>c</td></tr></table>',
    '<p><img alt="A diagram"> Last words.</p>',
    '</body></html>',
    '',
  ].join('\n');
  /** Each line of the text with words, and the page's line it is given. */
  const pairs = (page: string): [string, string][] => {
    const r = htmlTextLines(page);
    const lines = page.split('\n');
    return r.text.split('\n').flatMap((l, k) => (l.trim() === '' ? [] : [[l, lines[r.pageLine(k + 1) - 1]] as [string, string]]));
  };

  test('the line its first words are on; a preformatted block line for line', () => {
    expect(pairs(PAGE)).toEqual([
      ['# git(1) Manual Page', '<h1>git(1) Manual Page</h1>'],
      ['git - the stupid content tracker', '<p>git - the stupid'],
      ['- first item', '<li><p>first item</p></li>'],
      ['- second item here', '<li>second <em>item</em> here</li>'],
      ['```', '<pre><code>git add .'],
      ['git add .', '<pre><code>git add .'],
      ['git commit', 'git commit'],
      ['```', '</code></pre>'],
      ['a | b', '<table><tr><td>a</td><td>b</td></tr>'],
      ['c', '<tr><td>c</td></tr></table>'],
      ['A diagram Last words.', '<p><img alt="A diagram"> Last words.</p>'],
    ]);
    expect(htmlTextLines(PAGE).text).toBe(htmlText(PAGE));
  });

  test("a page without <h1>: its title, put first, is given the title's line; CRLF line ends", () => {
    const page = '<html>\r\n<head>\r\n<title>The page</title></head>\r\n<body>\r\n<p>Body text.</p>\r\n</body></html>';
    expect(pairs(page)).toEqual([
      ['# The page', '<title>The page</title></head>\r'],
      ['Body text.', '<p>Body text.</p>\r'],
    ]);
  });

  test('a page written on one line: every line of its text is on line 1, a preformatted block line for line', () => {
    const page = `<p>${'<b>word</b> '.repeat(50)}</p><ul><li>a</li><li>b</li></ul><pre>x\ny</pre>`;
    const r = htmlTextLines(page);
    const lines = r.text.split('\n');
    const numbered = lines.flatMap((l, k) => (l.trim() === '' || l === '```' ? [] : [`${r.pageLine(k + 1)}: ${l.slice(0, 12)}`]));
    expect(numbered).toEqual(['1: word word wo', '1: - a', '1: - b', '1: x', '2: y']);
  });
});

describe("a page's head as the probe reads it (compactHtml)", () => {
  const compact = (s: string, from = 0, cap = 8192) => {
    const b = enc.encode(s);
    const out = new Uint8Array(cap);
    return dec.decode(out.subarray(0, compactHtml(b, from, b.length, out)));
  };

  test('comments and the elements whose content is not markup are left out, tags and all', () => {
    expect(compact('<head><title>T</title><STYLE type="a">x{}</style ><script>if (a<b) {}</script><!-- c --></head><h1>H</h1>')).toBe('<head><title>T</title></head><h1>H</h1>');
    expect(compact('a<!-->b<!--->c<scripts>d</scripts>')).toBe('abc<scripts>d</scripts>');
    expect(compact('a<style>unclosed')).toBe('a');
    expect(compact('a<!-- unclosed')).toBe('a');
  });

  test('the bytes before `from` (frontmatter) are kept as they are; the output stops at its size', () => {
    expect(compact('<!--a-->\n<!--b-->c', 9)).toBe('<!--a-->\nc');
    expect(compact('abcdef<!--x-->ghij', 0, 8)).toBe('abcdefgh');
  });

  test('in place: the output may be the input', () => {
    const b = enc.encode('<p>a</p><style>x</style><p>b</p><!--c--><p>d</p>');
    const n = compactHtml(b, 0, b.length, b);
    expect(dec.decode(b.subarray(0, n))).toBe('<p>a</p><p>b</p><p>d</p>');
  });

  test('htmlDrops tells whether anything would be left out', () => {
    expect(htmlDrops(enc.encode('<p>a</p><!--'), 0, 12)).toBe(true);
    expect(htmlDrops(enc.encode('<p>a</p><Script>'), 0, 16)).toBe(true);
    expect(htmlDrops(enc.encode('<p>a</p><scripts>'), 0, 17)).toBe(false);
    expect(htmlDrops(enc.encode('<p>a</p><style>'), 0, 8)).toBe(false);
    expect(HTML_HEAD_BYTES).toBe(256 * 1024);
  });
});
