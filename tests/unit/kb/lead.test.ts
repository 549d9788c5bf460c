// The lead sentence of a document (kb/content/lead.ts), as kb init drafts
// a topic's introduction from a folder's index or README page.
import { describe, expect, test } from 'bun:test';
import { firstSentenceOf, LEAD_CHARS, leadSentence, opensWithTitle } from '../../../src/kb/content/lead.ts';

describe('leadSentence', () => {
  test('Org: keywords, comments, headings, lead-ins to a command are passed over; links become their text', () => {
    const org = [
      '#+title:      Hello Worg, the Org-Mode Community!',
      '#+startup:    align fold',
      '',
      '# This file is released under the GNU FDL. Comments are no prose.',
      '',
      '* Worg documentation on your machine',
      '',
      'Download Worg =.org= files on your machine:',
      '',
      ': git clone https://example.org/worg',
      '',
      '* Introduction',
      ':PROPERTIES:',
      ':CUSTOM_ID: intro',
      ':END:',
      '',
      '[[https://orgmode.org][Org-mode]] is a powerful system for organizing your complex life with',
      'simple plain-text files.  It integrates notes (e.g. by grep) and more.',
    ].join('\n');
    expect(leadSentence(org, 'org')).toBe('Org-mode is a powerful system for organizing your complex life with simple plain-text files.');
  });

  test('Markdown: front matter, HTML, badges, headings and code skipped; reference links become their text', () => {
    const md = [
      '---',
      'title: X',
      '---',
      '<a href="/"><img src="logo.svg"></a>',
      '',
      '[![Status](https://x/badge.svg)](https://x)',
      '',
      '# Docs',
      '',
      '```sh',
      'npm i',
      '```',
      '',
      'A fast and *flexible* site generator built by [bep] and [friends][f] in `Go`. It is fun.',
    ].join('\n');
    expect(leadSentence(md, 'md')).toBe('A fast and flexible site generator built by bep and friends in Go.');
  });

  test("a page's style sheet and script are no prose (a docs site hiding its own heading)", () => {
    const page = '# FastAPI { #fastapi }\n\n<style>\n.md-content .md-typeset h1 { display: none; }\n</style>\n\n<script type="module">\nconsole.log("x");\n</script>\n\nFastAPI is a modern, fast web framework for building APIs.\n';
    expect(leadSentence(page, 'md')).toBe('FastAPI is a modern, fast web framework for building APIs.');
    expect(leadSentence('<style>p{}</style>\n\nThe text after it.\n', 'md')).toBe('The text after it.');
  });

  test('a line opening with a link goes on the paragraph; link definitions after it end it', () => {
    const readme = '# Braindump\n\nThis braindump is generated via [ox-hugo][ox-hugo] and uses the\n[cortex][cortex] theme.\n[ox-hugo]: https://ox-hugo.scripter.co/\n[cortex]: https://github.com/jethrokuan/cortex\n';
    expect(leadSentence(readme, 'md')).toBe('This braindump is generated via ox-hugo and uses the cortex theme.');
    expect(leadSentence('Read the\n[guide](guide.md) first. Then build.\n', 'md')).toBe('Read the guide first.');
    expect(leadSentence('[![CI](https://x/b.svg)](https://x)\n\nThe tool reads your notes and answers.\n', 'md')).toBe('The tool reads your notes and answers.');
  });

  test('HTML: the first paragraph of the body with some words, tags dropped, entities decoded', () => {
    const html = '<html><head><title>git(1)</title><style>p { x: y }</style></head><body><h1>git(1)</h1><p>NAME</p><p>git &#8211; the stupid <em>content</em> tracker</p><pre>git [-v]</pre><p>Git is fast.</p></body></html>';
    expect(leadSentence(html, 'html')).toBe('git – the stupid content tracker');
  });

  test('reStructuredText and AsciiDoc: titles, directives, attributes and blocks skipped', () => {
    expect(leadSentence('=====\nTitle\n=====\n\n.. note:: x\n\n:Author: me\n\nThis guide explains `the API <https://x>`_ well. More.\n', 'rst')).toBe('This guide explains the API well.');
    expect(leadSentence('= Git User Manual\n:doctype: book\n\n[preface]\n----\ncode here.\n----\n\nGit is a fast distributed revision control system. More.\n', 'adoc')).toBe(
      'Git is a fast distributed revision control system.',
    );
  });

  test("AsciiDoc: the document header (author, revision, attributes, conditionals) is not the lead", () => {
    const readme = [
      '// a comment before the title',
      '= Asciidoctor',
      'Dan Allen <https://github.com/mojavelinux[@mojavelinux]>; Sarah White <https://github.com/graphitefriction[@graphitefriction]>',
      'v2.0.22, 2024-03-08',
      '// settings:',
      ':idprefix:',
      'ifdef::env-github[]',
      ':tip-caption: :bulb:',
      'endif::[]',
      ':url-project: https://asciidoctor.org',
      '',
      '{url-project}[Asciidoctor] is a fast, open source text processor for AsciiDoc. It converts it to HTML.',
    ].join('\n');
    expect(leadSentence(readme, 'adoc')).toBe('Asciidoctor is a fast, open source text processor for AsciiDoc.');
    // Without a document title there is no header: the first paragraph is the lead.
    expect(leadSentence('Dan Allen wrote this page about the tool.\n\n== Usage\n', 'adoc')).toBe('Dan Allen wrote this page about the tool.');
  });

  test('no prose: undefined', () => {
    expect(leadSentence('# Title\n\n- a list\n- of items\n', 'md')).toBeUndefined();
    expect(leadSentence('', 'org')).toBeUndefined();
    expect(leadSentence('<html><body><p>Hi</p></body></html>', 'html')).toBeUndefined();
  });

  test(`cut at a word past ${LEAD_CHARS} characters`, () => {
    const lead = leadSentence(`${'word '.repeat(100)}end.`, 'txt')!;
    expect(lead.length).toBeLessThanOrEqual(LEAD_CHARS);
    expect(lead).toEndWith('word…');
  });

  test('linear: hostile text of 1 MiB in well under a second', () => {
    for (const s of ['*a '.repeat(350_000), '[['.repeat(500_000), '<p'.repeat(500_000), '. A'.repeat(350_000), '`x'.repeat(500_000), ' '.repeat(1 << 20)]) {
      for (const ext of ['md', 'org', 'html', 'adoc', 'rst']) {
        const t = performance.now();
        leadSentence(s, ext);
        expect(performance.now() - t).toBeLessThan(1000);
      }
    }
  });
});

describe('opensWithTitle, firstSentenceOf', () => {
  test("a README whose first heading comes after its lead has no title of its own", () => {
    expect(opensWithTitle('<a><img></a>\n\nA generator.\n\n# Install\n', 'md')).toBe(false);
    expect(opensWithTitle('---\nx: 1\n---\n\n[![b](c)](d)\n# Hugo Docs\n\nText.\n', 'md')).toBe(true);
    expect(opensWithTitle('Hugo Docs\n=========\n', 'md')).toBe(true);
    expect(opensWithTitle('#+TITLE: x\n', 'org')).toBe(true);
  });

  test('a description: its first sentence, on one line', () => {
    expect(firstSentenceOf('Hugo is one of the most popular\nopen-source static site generators. With its amazing speed...')).toBe(
      'Hugo is one of the most popular open-source static site generators.',
    );
    expect(firstSentenceOf('  ')).toBeUndefined();
  });
});
