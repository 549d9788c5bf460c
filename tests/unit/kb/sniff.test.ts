// The markup of a `.txt`, `.text` or extensionless file, told from its head
// (content/sniff.ts), and what it changes: its sections (recall's labels)
// and lines of block markup that are never a snippet, a title or a
// description (content/markup.ts).

import { describe, expect, test } from 'bun:test';
import { markupOnly } from '../../../src/kb/content/markup.ts';
import { HEAD_CHARS, markupExt, sniffMarkup } from '../../../src/kb/content/sniff.ts';
import { sectionsOf, snippetOf } from '../../../src/kb/search/snippet.ts';
import { terms } from '../../../src/kb/search/tokenize.ts';

/** A Sphinx source as Django names it (`.txt`): a label, an overlined
 *  title, directives, sections underlined with `=` and `-`. */
const SPHINX = `.. _cache-design-philosophy:

========================
Django's cache framework
========================

.. versionadded:: 5.0

A fundamental trade-off in dynamic websites is, well, they're dynamic.

Setting up the cache
====================

The cache system requires a small amount of setup.

.. _memcached:

Memcached
---------

Memcached is an entirely memory-based cache server.
`;

/** A git manual page source (AsciiDoc, `.txt`): two-line titles, a block
 *  attribute, inline macros. */
const GIT = `git-add(1)
==========

NAME
----
git-add - Add file contents to the index

SYNOPSIS
--------
[verse]
'git add' [--verbose | -v] [--dry-run | -n]

DESCRIPTION
-----------
This command updates the index, see linkgit:git-commit[1].
`;

const MARKDOWN = `# Notes

Some words.

## Install

\`\`\`sh
npm ci
\`\`\`

See [the guide](guide.md).
`;

describe('sniffMarkup', () => {
  test.each([
    ['a Sphinx source', SPHINX, 'rst'],
    ['reStructuredText with only a target', 'Words.\n\n.. _x:\n\nMore words.\n', 'rst'],
    ['reStructuredText with only a directive', 'Words.\n\n.. note::\n\n   Careful.\n', 'rst'],
    ['a title underlined with `*` (reStructuredText alone uses it so)', 'Words\n\nTitle\n*****\n\nText.\n', 'rst'],
    ['a title underlined with `=` alone (read as reStructuredText)', 'Title\n=====\n\nText.\n', 'rst'],
    ['a git manual page', GIT, 'adoc'],
    ['AsciiDoc with a document title', '= The Title\n:toc:\n\nText.\n\n== Section\n\nMore.\n', 'adoc'],
    ['AsciiDoc with an include', 'Text.\n\ninclude::options.txt[]\n', 'adoc'],
    ['Markdown', MARKDOWN, 'md'],
    ['Markdown with only a link', 'Read [the guide](guide.md) first.\n', 'md'],
    ['prose', 'Dear reader,\n\nthis is a letter. It has no markup at all.\n', undefined],
    ['a paragraph over a rule', 'A paragraph\nof two lines\n-------------\n\nMore.\n', undefined],
    ['an INI file', '[core]\n\teditor = vim\n[user]\n\tname = A\n', undefined],
    ['a table border of `=`', 'Text.\n\n=== ===\na   b\n=== ===\n', undefined],
    ['an empty text', '', undefined],
  ])('%s', (_name, text, format) => {
    expect(sniffMarkup(text)).toBe(format as ReturnType<typeof sniffMarkup>);
  });

  test('in an extensionless file, `#` starts a comment and `#!` a script', () => {
    expect(sniffMarkup('# Makefile\n## targets\nall:\n\tcc a.c\n', true)).toBeUndefined();
    expect(sniffMarkup('# Build\nall:\n\tcc a.c\n\n# Clean\nclean:\n\trm a.o\n', true)).toBeUndefined();
    // A heading with a blank line before and after it: a README.
    expect(sniffMarkup('# Notes\n\nWords.\n\n## Install\n\nMore.\n', true)).toBe('md');
    expect(sniffMarkup('Words.\n\n# Last', true)).toBe('md');
    expect(sniffMarkup('# Notes\n\n## Install\n\nWords.\n', false)).toBe('md');
    expect(sniffMarkup('#!/bin/sh\n# [x](y)\n```\n', true)).toBeUndefined();
    expect(sniffMarkup('Read [the guide](guide.md).\n', true)).toBe('md');
  });

  test('only the head counts', () => {
    const prose = 'plain words here\n'.repeat(Math.ceil(HEAD_CHARS / 17));
    expect(sniffMarkup(`${prose}\n.. note::\n`)).toBeUndefined();
    expect(sniffMarkup(`.. note::\n\n${prose}`)).toBe('rst');
  });

  test('the most signs win', () => {
    // One target, two AsciiDoc section titles.
    expect(sniffMarkup('.. _x:\n\n== One\n\n== Two\n')).toBe('adoc');
    expect(sniffMarkup('.. _x:\n\n.. note::\n\n== One\n')).toBe('rst');
  });
});

describe('markupExt', () => {
  test('a .txt, .text or extensionless file is read as the markup of its head; other extensions as they are', () => {
    expect(markupExt('txt', SPHINX)).toBe('rst');
    expect(markupExt('text', GIT)).toBe('adoc');
    expect(markupExt('', MARKDOWN)).toBe('md');
    expect(markupExt('txt', 'plain words\n')).toBe('txt');
    expect(markupExt('md', SPHINX)).toBe('md');
    expect(markupExt('py', SPHINX)).toBe('py');
  });
});

describe('sections of a .txt file written in a markup', () => {
  test('a Sphinx source: its titles are sections, recall names them', () => {
    const s = sectionsOf(SPHINX, 'txt');
    expect(s.map((x) => x.heading)).toEqual([undefined, "Django's cache framework", 'Setting up the cache', 'Memcached']);
    expect(s.map((x) => SPHINX.slice(x.start, x.end)).join('')).toBe(SPHINX);
  });

  test('a git manual page: its two-line titles are sections', () => {
    expect(sectionsOf(GIT, 'txt').map((x) => x.heading)).toEqual(['git-add(1)', 'NAME', 'SYNOPSIS', 'DESCRIPTION']);
  });

  test('an extensionless Markdown file: its headings are sections', () => {
    expect(sectionsOf(MARKDOWN, '').map((x) => x.heading)).toEqual(['Notes', 'Install']);
  });

  test('plain text stays in blocks', () => {
    expect(sectionsOf('Dear reader,\n\nwords.\n', 'txt').every((x) => x.heading === undefined)).toBe(true);
  });
});

describe('block markup lines', () => {
  test.each([
    '.. _cache-design-philosophy:',
    '.. _`a quoted target`: https://example.com',
    '.. versionadded:: 5.0',
    '   .. note::',
    '.. |today| date::',
    '.. code-block:: python',
    '[verse]',
    '[source,shell]',
    '[[git-add-options]]',
    'include::options.txt[]',
    'ifdef::git-pull[]',
    'endif::[]',
    'image::diagram.png[The cache]',
  ])('%s is markup only', (line) => {
    expect(markupOnly(line)).toBe(true);
  });

  test.each([
    '.. [#note] A footnote says something.',
    '.. a comment that says something',
    'See linkgit:git-commit[1] for more.',
    '[Draft] The plan',
    'Perl::Module is a name',
    'Note:: not a macro',
    '[x]: https://example.com',
  ])('%s is not', (line) => {
    expect(markupOnly(line)).toBe(false);
  });

  test('a snippet skips a target that holds the words', () => {
    const text = '.. _cache-design-philosophy:\n\nThe cache design follows a philosophy.\n';
    expect(snippetOf(text, new Set(terms('cache design philosophy')))).toBe('The cache design follows a philosophy.');
  });
});
