// The title rules (content/title.ts): one test per format and rule, on the
// bytes the probe hands them, and through the probe itself (both threads).
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { headingsIn, headTitleOf, informativeTitle, looseName, subjectTitle } from '../../../src/kb/content/title.ts';
import { probeBytes, probeFile } from '../../../src/kb/fs/probe-titles.ts';
import { readerThread } from '../../../src/kb/fs/probe-thread.ts';
import { makeTempDir } from '../../support/temp.ts';

const enc = new TextEncoder();

/** An HTML man page as Asciidoctor writes one: a style sheet of about
 *  `style` bytes in its head, then its header, NAME and text. */
function asciidoctorPage(name: string, purpose: string, style: number): string {
  const rule = 'html{font-family:sans-serif;-webkit-user-select:none;user-select:none}\n';
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="UTF-8">\n<meta name="generator" content="Asciidoctor 2.0.26">\n<title>${name}(1)</title>\n<style>\n${rule.repeat(Math.ceil(style / rule.length))}</style>\n</head>\n<body class="manpage">\n<div id="header">\n<h1>${name}(1) Manual Page</h1>\n<h2 id="_name">NAME</h2>\n<div class="sectionbody">\n<p>${name} - ${purpose}</p>\n</div>\n</div>\n<div id="content">\n<p>Text.</p>\n</div>\n</body>\n</html>\n`;
}
const titleOf = (text: string, ext: string) => headTitleOf(enc.encode(text), ext).title;
const summaryOf = (text: string, ext: string) => headTitleOf(enc.encode(text), ext).summary;

describe('Markdown titles', () => {
  test('the first level-1 heading, ATX or setext, its closing #s dropped', () => {
    expect(titleOf('# What Is Ownership?\n\nText.\n', 'md')).toBe('What Is Ownership?');
    expect(titleOf('# Title #\n', 'md')).toBe('Title');
    expect(titleOf('Intro text.\n\n# Later Title\n', 'md')).toBe('Later Title');
    expect(titleOf('Setext Title\n============\n\nText\n', 'mdx')).toBe('Setext Title');
    expect(titleOf('   # Indented three\n', 'markdown')).toBe('Indented three');
    expect(titleOf('    # Indented four: code\n', 'md')).toBeUndefined();
    expect(titleOf('#NoSpace\n', 'md')).toBeUndefined();
  });

  test('not inside fenced code', () => {
    expect(titleOf('Text\n\n```sh\n# a comment\n```\n\n# Real\n', 'md')).toBe('Real');
    expect(titleOf('~~~~\n# no\n~~~\n# still code\n~~~~\n', 'md')).toBeUndefined();
  });

  test('without a level-1 heading, a heading that opens the document (after comments, HTML lines, MDX imports)', () => {
    expect(titleOf('## What Is Ownership?\n\n_Ownership_ is...\n\n### The Stack\n', 'md')).toBe('What Is Ownership?');
    expect(titleOf('<!-- Old headings. -->\n\n<a id="streams"></a>\n\n## Streams: Futures in Sequence\n\nText\n', 'md')).toBe('Streams: Futures in Sequence');
    expect(titleOf("import X from './x'\n\n## From MDX\n", 'mdx')).toBe('From MDX');
    expect(titleOf('Opening\n-------\n\ntext\n', 'md')).toBe('Opening');
    expect(titleOf('Some text first.\n\n## Section\n', 'md')).toBeUndefined();
  });

  test("Logseq's page properties: `title::` is the title, `description::` the description", () => {
    const head = (text: string, name = 'pages/x.md') => headTitleOf(enc.encode(text), 'md', 0, name);
    const adv = head('type:: [[Feature]]\nplatforms:: [[All Platforms]]\ndescription:: Advanced queries are written with [Datalog](https://x) and query the database.\n\n- ## Intro\n\t- text\n');
    expect(adv.title).toBeUndefined();
    expect(adv.summary).toBe('Advanced queries are written with Datalog and query the database.');
    const ns = head('title:: Community/Query Learning Sprint (Summer 2022)\n\n- A sprint.\n', 'pages/Community___Query Learning Sprint (Summer 2022).md');
    expect(ns.title).toBe('Community/Query Learning Sprint (Summer 2022)');
    // Without a `#` or `=` in the head (the quick path), and in any case.
    expect(head('Title:: Local Http server\n- text\n').title).toBe('Local Http server');
    // A property without a value opens the block as well as any.
    expect(head('public::\ntitle:: Local Http server\n- text\n').title).toBe('Local Http server');
    // The properties must open the text: later, or without the space, they are text.
    expect(head('- A block\ntitle:: Not the title\n').title).toBeUndefined();
    expect(head('title::NoSpace\n\n# Real\n').title).toBe('Real');
    // A title heading the page otherwise still counts when no `title::` is given.
    expect(head('alias:: adv\n\n# Advanced\n').title).toBe('Advanced');
  });

  test("a list item over a `-` or `=` line is an outline's item, never a setext heading", () => {
    // Logseq's pages: an outline of `- ` blocks, an empty one among them
    // (a `#` later in the head makes the rules run).
    expect(titleOf('- Logseq lets you embed media.\n-\n- Three ways, with `#` tags:\n', 'md')).toBeUndefined();
    expect(titleOf('* Item\n---\n\nSee #tag.\n', 'md')).toBeUndefined();
    expect(titleOf('1. Intro\n---\n\nSee #tag.\n', 'md')).toBeUndefined();
    expect(titleOf('- Item\n===\n', 'md')).toBeUndefined();
    // Text that only starts like one is a heading's.
    expect(titleOf('2024 plans\n---\n\nSee #tag.\n', 'md')).toBe('2024 plans');
    expect(titleOf('-5 degrees outside\n---\n\nSee #tag.\n', 'md')).toBe('-5 degrees outside');
    expect(titleOf('Title\n=====\n', 'md')).toBe('Title');
  });

  test('an opening heading followed at once by its sibling is an outline, not a title', () => {
    expect(titleOf('## Added\n\n## Changed\n\n## Fixed\n', 'md')).toBeUndefined();
    expect(titleOf('## Part\n\n### Sub\n\ntext\n', 'md')).toBe('Part');
  });

  test('an opening section heading is no title unless it names the file: another of its level or above later in the head, or none at all, and no word shared with the name', () => {
    const of = (text: string, name?: string) => headTitleOf(enc.encode(text), 'md', 0, name).title;
    // A note's first section (Obsidian's help, a vault's notes).
    expect(of('## Prerequisites\n\nYou need [[Custom domains]].\n\n## Enable analytics\n\nText.\n', 'Analytics.md')).toBeUndefined();
    expect(of('---\nrating: 7\n---\n## Trips\n\n![[Trips.base]]\n\n## Places\n', 'References/Kyoto.md')).toBeUndefined();
    expect(of('### Sub\n\ntext\n\n## Upper\n', 'notes.md')).toBeUndefined();
    // A chapter's title with a section of its level later: it names the file.
    expect(of('## Separating Modules into Different Files\n\nText.\n\n## Summary\n', 'src/ch07-05-separating-modules-into-different-files.md')).toBe('Separating Modules into Different Files');
    expect(of('## Concise Control Flow with `if let`\n\nText.\n\n## Summary\n', 'C:\\book\\ch06-03-if-let.md')).toBe('Concise Control Flow with `if let`');
    // Scripts without spaces: two characters in a row shared.
    expect(of('## 同步安全\n\n文字\n\n## 元数据\n', '同步安全和隐私.md')).toBe('同步安全');
    expect(of('## 端到端加密\n\n文字\n\n## 元数据\n', '同步安全和隐私.md')).toBeUndefined();
    // Short words (`a`, `to`, `of`) are not shared words; headings in fenced code do not count.
    expect(of('## A Guide to It\n\ntext\n\n## Next\n', 'a-to-of.md')).toBeUndefined();
    expect(of('## Part\n\n```md\n## not a heading\n```\n\n### Sub\n', 'zzz.md')).toBe('Part');
    expect(of('## Part\n\n~~~~\n## not one\n~~~\n## still code\n~~~~\n### Sub\n', 'zzz.md')).toBe('Part');
    expect(of('## Part\n\n```md\n## not a heading\n```\n\ntext\n', 'zzz.md')).toBeUndefined();
    // The next heading a part of it: a chapter's title, whatever the name.
    expect(of('## Redirecting Errors to Standard Error\n\nText.\n\n### Checking Where Errors Are Written\n\n### Printing\n\n## Summary\n', 'ch12-06-writing-to-stderr-instead-of-stdout.md')).toBe('Redirecting Errors to Standard Error');
    expect(of('# Red-Black Tree\n\n## Colours\n\n# Operations\n', 'trees.md')).toBe('Red-Black Tree');
    // Parts after it: the opening heading is the title, whatever the name.
    expect(of('## What Is Ownership?\n\nText.\n\n### The Stack\n', 'x.md')).toBe('What Is Ownership?');
    // No heading after it: a note's only section (a vault's daily note, a
    // person's albums) names the file only by a shared word.
    expect(of('## Notes\n\n![[Daily.base]]\n', 'Daily/2023-09-12.md')).toBeUndefined();
    expect(of('---\ntags:\n  - people\n---\n\n## Albums\n\n![[Albums.base]]\n', 'References/Paul Chambers.md')).toBeUndefined();
    expect(of('## Installation\n\nText only.\n', 'src/ch01-01-installation.md')).toBe('Installation');
    // A level-1 heading with none after it is the title, whatever the name;
    // so is a heading that is all the file holds.
    expect(of('# Writing Automated Tests\n\nText.\n', 'ch11-00-testing.md')).toBe('Writing Automated Tests');
    expect(of('## Notes\n', 'Daily/2023-09-12.md')).toBe('Notes');
    // Without a name, such a heading is no title.
    expect(of('## Separating Modules\n\nText.\n\n## Summary\n')).toBeUndefined();
    // Level 1 too: a note of `#` sections (an Obsidian vault's), where a book's `# Title` has none after it.
    expect(of('# Definition\n\nA form.\n\n# Example\n', 'Math/Quadratic Form.md')).toBeUndefined();
    expect(of('Intro.\n\n# Definition\n\nA.\n\n# Example\n', 'Form.md')).toBeUndefined();
    expect(of('# Red-Black Tree\n\nA tree.\n\n# Operations\n', 'Red-Black Tree.md')).toBe('Red-Black Tree');
    expect(of('# Title\n\ntext\n\n## Sub\n\n```\n# not a heading\n```\n', 'x.md')).toBe('Title');
  });

  test('the probe applies the rule with the file\'s own name', () => {
    const dir = makeTempDir('kb-title-');
    writeFileSync(join(dir, 'Analytics.md'), '## Prerequisites\n\nText.\n\n## Enable analytics\n');
    writeFileSync(join(dir, 'analytics-prerequisites.md'), '## Prerequisites\n\nText.\n\n## Enable analytics\n');
    expect(probeFile(join(dir, 'Analytics.md')).title).toBeUndefined();
    expect(probeFile(join(dir, 'analytics-prerequisites.md')).title).toBe('Prerequisites');
    expect(probeBytes(enc.encode('## Prerequisites\n\nText.\n\n## Enable\n'), 'x/Analytics.md').title).toBeUndefined();
  });

  test("a site template's title of template expressions alone is none; one with words keeps them", () => {
    expect(titleOf('<html><head><title>{{ docstitle|e }}{{ titlesuffix }}</title></head></html>\n', 'html')).toBeUndefined();
    expect(titleOf('# {{ .Title }}\n', 'md')).toBeUndefined();
    expect(titleOf('# Using {{ .Title }} in templates\n', 'md')).toBe('Using {{ .Title }} in templates');
  });

  test("a heading's attribute block is not part of its title (Pandoc, kramdown, Hugo, VitePress, Docusaurus)", () => {
    expect(titleOf('# 组件注册 {#component-registration}\n', 'md')).toBe('组件注册');
    expect(titleOf('# Usage {#usage .wide}\n', 'md')).toBe('Usage');
    expect(titleOf('# Appendix {.unnumbered}\n', 'md')).toBe('Appendix');
    expect(titleOf('## Part {#part}\n\n### Sub\n\ntext\n', 'md')).toBe('Part');
    // Braces that are no attribute block stay.
    expect(titleOf('# Sets {a, b}\n', 'md')).toBe('Sets {a, b}');
    expect(titleOf('# A {#b} c\n', 'md')).toBe('A {#b} c');
    expect(titleOf('# Template{#x y}\n', 'md')).toBe('Template{#x y}');
    // Quarto's and R Markdown's pages are Markdown.
    expect(titleOf('---\nformat: html\n---\n\n# Markdown Basics\n\n## Text Formatting\n', 'qmd')).toBe('Markdown Basics');
    expect(titleOf('# Custom notebook formats and Jupytext\n\nText.\n', 'Rmd')).toBe('Custom notebook formats and Jupytext');
    // Python-Markdown's padded block (FastAPI's docs).
    expect(titleOf('# First Steps { #first-steps }\n', 'md')).toBe('First Steps');
    expect(titleOf('# Bearer with JWT tokens { .wide #jwt }\n', 'md')).toBe('Bearer with JWT tokens');
    // Docusaurus: an id right after the text, and MDX's escaped brace.
    expect(titleOf('## Choosing a hosting provider{#choosing-a-hosting-provider}\n', 'md')).toBe('Choosing a hosting provider');
    expect(titleOf('### Ejecting \\{#ejecting}\n', 'md')).toBe('Ejecting');
    expect(headingsIn('## Wrapping your site with `<Root>` \\{#wrapper-your-site-with-root}\n', 'mdx').map((h) => h.text)).toEqual(['Wrapping your site with `<Root>`']);
  });

  test('frontmatter is skipped; links keep their text', () => {
    expect(headTitleOf(enc.encode('---\ntitle: x\n---\n# After [the link](x.md)\n'), 'md', 17).title).toBe('After the link');
  });
});

describe('Markdown titles: inline HTML and HTML comments', () => {
  test("a heading's tags are dropped (a README's logo); a `<` that opens none is text", () => {
    expect(titleOf('# <img src="https://example.com/logo.svg" width="64" alt=""> Starlight\n\nText.\n', 'md')).toBe('Starlight');
    expect(titleOf('# The <code>learn</code> tool\n', 'md')).toBe('The learn tool');
    expect(titleOf('# When a < b and c > d\n', 'md')).toBe('When a < b and c > d');
    // Generics are no tags, in a code span or out of one.
    expect(titleOf('# Using `Box<T>` to Point to Data\n', 'md')).toBe('Using `Box<T>` to Point to Data');
    expect(titleOf('# Option<u32> and `<code>`\n', 'md')).toBe('Option<u32> and `<code>`');
  });

  test('a heading inside an HTML comment is no heading: it neither titles the page nor makes its title a section', () => {
    const page = '# *attrs*: Classes Without Boilerplate\n\n<!-- [[[cog\n# This is called from a build job!\nimport cog\n]]] -->\nText.\n<!-- [[[end]]] -->\n\n## Getting Started\n';
    expect(headTitleOf(enc.encode(page), 'md', 0, 'index').title).toBe('*attrs*: Classes Without Boilerplate');
    expect(titleOf('<!--\n# Draft title\n-->\n\n# The title\n', 'md')).toBe('The title');
  });
});

describe('reStructuredText titles', () => {
  test('RFC 2822 header fields at the top: Title, folded lines joined', () => {
    const pep = 'PEP: 484\nTitle: Type Hints\nAuthor: Guido\nStatus: Final\n\n\nAbstract\n========\n';
    expect(titleOf(pep, 'rst')).toBe('Type Hints');
    expect(titleOf('PEP: 1\nTitle: A long title\n    that wraps\nStatus: Active\n', 'rst')).toBe('A long title that wraps');
  });

  test('the document title: over- and underlined, or underlined, opening the document', () => {
    expect(titleOf('=====\nTitle\n=====\n\nText\n', 'rst')).toBe('Title');
    expect(titleOf('.. _label:\n\n:orphan:\n\nThe Title\n---------\n\nText\n', 'rst')).toBe('The Title');
    expect(titleOf('.. comment\n   continued\n\nAfter\n*****\n', 'rst')).toBe('After');
    expect(titleOf('A paragraph first.\n\nSection\n=======\n', 'rst')).toBeUndefined();
  });

  test("one of several sections of the same style is no title, as docutils reads it (a changelog's versions), unless it names the file", () => {
    const changes = 'Version 3.2.0\n-------------\n\nUnreleased\n\n-   Drop Python 3.9.\n\nVersion 3.1.1\n-------------\n\nReleased 2025-05-13\n';
    const rst = (text: string, name?: string) => headTitleOf(enc.encode(text), 'rst', 0, name).title;
    expect(rst(changes, 'CHANGES')).toBeUndefined();
    expect(rst(`=====\nV 1\n=====\n\nx\n\n=====\nV 2\n=====\n`, 'CHANGES')).toBeUndefined();
    // The title, then sections of another style; one over- and underlined
    // beside one underlined alone; a section that names the file.
    expect(rst('Flask\n=====\n\nIntro.\n\nInstall\n-------\n\nUse\n---\n', 'index')).toBe('Flask');
    expect(rst('=====\nFlask\n=====\n\nIntro\n=====\n', 'index')).toBe('Flask');
    expect(rst(changes, 'version-notes')).toBe('Version 3.2.0');
  });

  test("inline literals as Markdown's code spans", () => {
    expect(titleOf('Using ``async`` and ``await``\n=============================\n', 'rst')).toBe('Using `async` and `await`');
    expect(titleOf('The ````` run and ``a`b`` stay\n=================\n', 'rst')).toBe('The ````` run and ``a`b`` stay');
  });
});

describe('AsciiDoc titles', () => {
  test('= Title, after comments and attributes; the two-line form with =', () => {
    expect(titleOf('// a comment\n:toc:\n= Git User Manual\n\ntext\n', 'adoc')).toBe('Git User Manual');
    expect(titleOf('gitworkflows(7)\n===============\n\nNAME\n----\ngitworkflows - An overview of recommended workflows with Git\n', 'adoc')).toBe('gitworkflows(7)');
    expect(titleOf('GIT URLS[[URLS]]\n================\n', 'adoc')).toBe('GIT URLS');
  });

  test('modular docs (Antora): block attribute lines over the title; the :description: attribute, over or under it, is the description', () => {
    const page = ':_content-type: CONCEPT\n:description: Configuring user namespace provisioning\n:navtitle: Namespaces\n\n[id="configuring-user-namespace"]\n= Configuring user {orch-namespace} provisioning\n\nFor each user...\n';
    expect(headTitleOf(enc.encode(page), 'adoc')).toEqual({ title: 'Configuring user {orch-namespace} provisioning', summary: 'Configuring user namespace provisioning' });
    expect(headTitleOf(enc.encode('= Git User Manual\nA. Author\n:description: A guide to Git.\n:toc:\n\nText.\n'), 'adoc')).toEqual({ title: 'Git User Manual', summary: 'A guide to Git.' });
    expect(titleOf('[[top]]\n[role="wide"]\n= Anchored\n', 'adoc')).toBe('Anchored');
    // Past the header (after its first blank line), an attribute is no description.
    expect(headTitleOf(enc.encode('= Title\n\n:description: not in the header\n'), 'adoc')).toEqual({ title: 'Title' });
    // A NAME section does not replace it.
    expect(summaryOf(':description: Explicit.\n= x(1)\n\nNAME\n----\nx - from the NAME line\n', 'adoc')).toBe('Explicit.');
    // Elsewhere a `[x]` line is content.
    expect(titleOf('[draft]\nTitle\n=====\n', 'rst')).toBeUndefined();
  });

  test("a book's section file opening with `== Title` or `=== Title`: its title, unless it heads a section beside others and names nothing of the file", () => {
    const of = (text: string, name?: string) => headTitleOf(enc.encode(text), 'asc', 0, name).title;
    expect(of('[[_git_branches_overview]]\n=== Branches in a Nutshell\n\nText.\n\n==== Creating a New Branch\n', 'sections/nutshell.asc')).toBe('Branches in a Nutshell');
    expect(of('=== Rerere\n\nText.\n', 'rerere.asc')).toBe('Rerere');
    expect(of('== Prerequisites\n\ntext\n\n== Install\n', 'setup.adoc')).toBeUndefined();
    expect(of('== Setup steps\n\ntext\n\n== Install\n', 'setup.adoc')).toBe('Setup steps');
    // A delimited block's lines are no section titles.
    expect(of('== Part\n\n----\n== not a title\n----\n\n=== Sub\n', 'x.adoc')).toBe('Part');
    expect(of('== Part\n\n====\nAn example.\n====\n\n== Other\n', 'x.adoc')).toBeUndefined();
    // The document's own title stays the title.
    expect(of('= Doc\n\n== Sec\n\n== Sec 2\n', 'x.adoc')).toBe('Doc');
  });

  test('a section underline (-, ^) opening an included fragment is no title', () => {
    expect(titleOf('SECURITY\n--------\ntext\n', 'adoc')).toBeUndefined();
    expect(titleOf('Description\n^^^^^^^^^^^\n', 'adoc')).toBeUndefined();
  });
});

describe('the man-page convention', () => {
  test('NAME, then `name - summary`: the summary', () => {
    const page = 'git-add(1)\n==========\n\nNAME\n----\ngit-add - Add file contents to the index\n\nSYNOPSIS\n--------\n';
    expect(summaryOf(page, 'adoc')).toBe('Add file contents to the index');
    expect(summaryOf('# NAME\n\nkb \\- a knowledge base\n', 'md')).toBe('a knowledge base');
    expect(summaryOf('== NAME\n\ntool — does things\n', 'txt')).toBe('does things');
    expect(summaryOf('# Title\n\nNAME is a word here - not a heading\n', 'md')).toBeUndefined();
  });

  test('HTML: a heading whose text is NAME, then `name - summary` in its paragraph or section', () => {
    // Asciidoctor; AsciiDoc (a line break after the dash); mandoc (an
    // anchor in the heading, a numeric dash, no paragraph); groff.
    expect(summaryOf('<h1>git-add(1) Manual Page</h1>\n<h2 id="_name">NAME</h2>\n<div class="sectionbody">\n<p>git-add - Add file contents to the index</p>\n</div>', 'html')).toBe('Add file contents to the index');
    expect(summaryOf('<h2>NAME</h2>\n<div class="sectionbody">\n<p>git-add -\n   Add file contents to the index\n</p>\n</div>', 'html')).toBe('Add file contents to the index');
    expect(summaryOf('<section class="Sh"><h1 class="Sh" id="NAME"><a class="permalink" href="#NAME">NAME</a></h1>\n<code class="Nm">ls</code> &#x2014;\n  <span class="Nd">list directory contents</span>\n</section>', 'html')).toBe('list directory contents');
    expect(summaryOf('<h2>NAME<a name="NAME"></a></h2>\n<p style="margin-left:11%">ls &minus; list &amp; sort</p>', 'html')).toBe('list & sort');
    // Not NAME, no dash, or past the end of the section.
    expect(summaryOf('<h2>Names</h2><p>a - b</p>', 'html')).toBeUndefined();
    expect(summaryOf('<h2>NAME</h2><p>just words</p><p>a - b</p>', 'html')).toBeUndefined();
    expect(summaryOf('<p>NAME</p><p>a - b</p>', 'html')).toBeUndefined();
    expect(summaryOf('<h2>NAME</h2><p>a-b - </p>', 'html')).toBeUndefined();
  });
});

describe('markup alone is never a title', () => {
  test('a shortcode or an Org macro as the heading or the keyword\'s value; frontmatter of markup alone', () => {
    expect(titleOf('# {{< param "title" >}}\n\ntext\n', 'md')).toBeUndefined();
    expect(titleOf('# {{% include "x.md" %}}\n', 'md')).toBeUndefined();
    expect(titleOf('# Install {{< badge "new" >}}\n', 'md')).toBe('Install {{< badge "new" >}}');
    expect(titleOf('#+TITLE: {{{title}}}\n', 'org')).toBeUndefined();
    expect(titleOf('#+TITLE: :PROPERTIES:\n', 'org')).toBeUndefined();
    expect(subjectTitle({ title: '{{< param "title" >}}' }, 'Heading')).toBe('Heading');
    expect(subjectTitle({ title: '{{< x >}}', name: 'Name' }, 'Heading')).toBe('Name');
  });
});

describe('heads told untitled from a few bytes (prose and notes, most heads)', () => {
  test('no title where the marks a title needs are missing, but the rules still decide at their edges', () => {
    expect(titleOf('plain words only.\nmore words.\n', 'md')).toBeUndefined();
    expect(titleOf('plain words only.\nmore words.\n', 'txt')).toBeUndefined();
    expect(titleOf('Hyphen-ated first line\n---\n', 'md')).toBe('Hyphen-ated first line');
    expect(titleOf('import x\nOpening\n---\n', 'mdx')).toBe('Opening');
    expect(titleOf('Title: One Line', 'txt')).toBe('One Line');
    expect(titleOf('Hi\n--\n', 'txt')).toBe('Hi');
    expect(titleOf('Long enough title\n~~~~~~~~~~~~~~~~~\n', 'rst')).toBe('Long enough title');
  });

  test('a man page\'s summary without any title mark', () => {
    expect(summaryOf('NAME\n\ntool \u2014 does things\n', 'md')).toBe('does things');
    expect(summaryOf('NAME\n\ntool \u2014 does things\n', '')).toBe('does things');
  });
});

describe('Org and HTML titles', () => {
  test('Org: #+TITLE: in the preamble', () => {
    expect(titleOf('#+AUTHOR: me\n#+title: Org Notes\n\n* Heading\n', 'org')).toBe('Org Notes');
    expect(titleOf('* Heading\n#+TITLE: too late\n', 'org')).toBeUndefined();
  });

  test('HTML: <title>, else the first <h1>; tags dropped, entities decoded', () => {
    expect(titleOf('<!doctype html><html><head><TITLE>Fish &amp; Chips</TITLE></head><body><h1>Other</h1>', 'html')).toBe('Fish & Chips');
    expect(titleOf('<body>\n<h1 class="x">The <em>Big</em>\n  Page</h1>', 'htm')).toBe('The Big Page');
    expect(titleOf('<p>no heading</p>', 'html')).toBeUndefined();
  });
});

describe('plain text and other formats', () => {
  test('.txt: header fields, = Title, an underline, # Title', () => {
    expect(titleOf('Title: From Fields\n\nbody\n', 'txt')).toBe('From Fields');
    expect(titleOf('= AsciiDoc In Txt\n', 'txt')).toBe('AsciiDoc In Txt');
    expect(titleOf('git-add(1)\n==========\n', 'txt')).toBe('git-add(1)');
    expect(titleOf('# Markdown In Txt\n', 'txt')).toBe('Markdown In Txt');
    // An AsciiDoc anchor after the title, as git's sources write them.
    expect(titleOf('GIT URLS[[URLS]]\n----------------\n\nText.\n', 'txt')).toBe('GIT URLS');
  });

  test('no extension: `#` lines are comments (a Makefile, a script), underlines and header fields count', () => {
    expect(titleOf('# The default target of this Makefile is...\nall:\n', '')).toBeUndefined();
    expect(titleOf('Submitting Patches\n==================\n', '')).toBe('Submitting Patches');
  });

  test('code and data formats have no title of their own', () => {
    expect(titleOf('# a comment\n', 'py')).toBeUndefined();
    expect(titleOf('<title>x</title>', 'xml')).toBeUndefined();
  });
});

describe('which title a subject has, and when a listing shows it', () => {
  test('frontmatter title, else name, else the document\'s own', () => {
    expect(subjectTitle({ title: 'T', name: 'n' }, 'H')).toBe('T');
    expect(subjectTitle({ name: 'n' }, 'H')).toBe('n');
    expect(subjectTitle({ title: 3 }, 'H')).toBe('H');
    expect(subjectTitle(undefined, undefined)).toBeUndefined();
  });

  test('a title that only repeats the slug\'s last segment (case, separators, punctuation, a man section) is not shown', () => {
    expect(informativeTitle('Jean', 'maintainers/jean')).toBeUndefined();
    expect(informativeTitle('Hello, World!', 'hello-world')).toBeUndefined();
    expect(informativeTitle('git-add(1)', 'git-add')).toBeUndefined();
    expect(informativeTitle('What Is Ownership?', 'ch04-01-what-is-ownership')).toBe('What Is Ownership?');
    expect(informativeTitle('Type Hints', 'pep-0484')).toBe('Type Hints');
    expect(looseName('Ré-sumé')).toBe(looseName('re\u0301-sume\u0301'.normalize('NFD')).normalize('NFKC'));
  });
});

describe('headings of every format (recall\'s sections)', () => {
  const texts = (t: string, ext: string) => headingsIn(t, ext).map((h) => `${h.line}:${h.level}:${h.text}`);
  test('Markdown ATX and setext, not in code', () => {
    expect(texts('# A\ntext\n```\n# no\n```\n\nB\n---\n', 'md')).toEqual(['1:1:A', '7:2:B']);
  });
  test('reStructuredText: levels by order of adornment styles', () => {
    expect(texts('=====\nTitle\n=====\n\nIntro\n=====\n\nSub\n---\n\nNext\n=====\n', 'rst')).toEqual(['1:1:Title', '5:2:Intro', '8:3:Sub', '11:2:Next']);
  });
  test('AsciiDoc ==, not inside delimited blocks', () => {
    expect(texts('= Doc\n\n== One\n\n----\n== not\n----\n\nNAME\n----\nx - y\n', 'adoc')).toEqual(['1:1:Doc', '3:2:One', '9:2:NAME']);
  });
  test('Org * and HTML h1-h6', () => {
    expect(texts('#+TITLE: x\n* One :tag:\n** Two\n', 'org')).toEqual(['2:1:One', '3:2:Two']);
    expect(texts('<h1>A</h1>\n<p>x</p>\n<h3 id="b">B &amp; C</h3>\n', 'html')).toEqual(['1:1:A', '3:3:B & C']);
  });
  test('none for plain text', () => {
    expect(headingsIn('Title\n=====\n', 'txt')).toEqual([]);
  });
});

describe('the probe reads titles from the head it reads anyway', () => {
  const dir = makeTempDir('kb-title-');
  const files: [string, string, string | undefined, string | undefined][] = [
    ['a.md', '---\ndescription: d\n---\n# Heading After Front\n', 'Heading After Front', undefined],
    ['pep-0008.rst', 'PEP: 8\nTitle: Style Guide for Python Code\n\nIntro\n=====\n', 'Style Guide for Python Code', undefined],
    ['git-add.adoc', 'git-add(1)\n==========\n\nNAME\n----\ngit-add - Add file contents to the index\n', 'git-add(1)', 'Add file contents to the index'],
    ['n.org', '#+TITLE: Org Title\n', 'Org Title', undefined],
    ['p.html', '<title>Page</title>', 'Page', undefined],
    ['u.md', '\ufeff# With BOM\n', 'With BOM', undefined],
    ['x.py', '# comment\n', undefined, undefined],
    ['open.md', '---\ntitle: never closed\n# Heading\n', undefined, undefined],
    // An Asciidoctor man page: its NAME section past a 29 KB style sheet.
    ['git-add.html', asciidoctorPage('git-add', 'Add file contents to the index', 29_000), 'git-add(1)', 'Add file contents to the index'],
    ['small.html', asciidoctorPage('small', 'A page shorter than the head', 2_000), 'small(1)', 'A page shorter than the head'],
    // Its text past the first 256 KiB: only what the head holds.
    ['far.html', asciidoctorPage('far', 'Never seen', 300_000), 'far(1)', undefined],
    // Comments and scripts before the body.
    ['commented.html', `<title>C</title><!--${'x'.repeat(9000)}--><script>${'y'.repeat(9000)}</script><h2>NAME</h2><p>c - commented page</p>`, 'C', 'commented page'],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), text);

  test('probeFile, and probeBytes on the same bytes', () => {
    for (const [name, text, title, summary] of files) {
      const r = probeFile(join(dir, name));
      expect({ name, title: r.title, summary: r.summary }).toEqual({ name, title, summary });
      expect(probeBytes(enc.encode(text), name)).toEqual(r);
    }
    expect(probeFile(join(dir, 'a.md')).front).toBe('description: d\n');
  });

  test('the reader thread gives the same results', () => {
    const paths: string[] = [];
    for (let i = 0; i < 300; i++) paths.push(join(dir, files[i % files.length][0]));
    const thread = readerThread(new URL('../../../src/reader-thread.ts', import.meta.url).href, 1);
    try {
      const got = thread.probe(paths);
      expect(got).toEqual(paths.map(probeFile));
    } finally {
      thread.close();
    }
  });
});

describe('recall sections start at the headings of every format', () => {
  test('reStructuredText, AsciiDoc: sections named by their headings, covering the text', async () => {
    const { sectionsOf } = await import('../../../src/kb/search/snippet.ts');
    const rst = 'PEP: 1\nTitle: T\n\nAbstract\n========\n\nText.\n\nRationale\n=========\n\nMore.\n';
    const s = sectionsOf(rst, 'rst');
    expect(s.map((x) => [x.heading, x.line])).toEqual([['T', 1], ['Abstract', 4], ['Rationale', 9]]);
    expect(s.map((x) => rst.slice(x.start, x.end)).join('')).toBe(rst);
    expect(sectionsOf('= Doc\n\n== Usage\n\nx\n', 'adoc').map((x) => x.heading)).toEqual(['Doc', 'Usage']);
  });
});
