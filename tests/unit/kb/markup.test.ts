// Lines of markup alone (content/markup.ts): shortcodes, includes, Org
// keywords and drawers are never a snippet, a title or a description.

import { describe, expect, test } from 'bun:test';
import { descriptionValue } from '../../../src/kb/content/frontmatter.ts';
import { markupOnly } from '../../../src/kb/content/markup.ts';
import { snippetOf } from '../../../src/kb/search/snippet.ts';
import { terms } from '../../../src/kb/search/tokenize.ts';

describe('markupOnly', () => {
  test.each([
    // Hugo shortcodes and includes, alone or several, their closing tags,
    // a multi-line one's first and last lines.
    '{{% include "/_common/functions/images/apply-image-filter.md" %}}',
    '{{< new-in 0.153.0 />}}',
    '{{< code-toggle file=hugo >}}',
    '{{< /code-toggle >}}',
    '{{</ code-toggle >}}',
    '  {{< a >}} {{% b %}}  ',
    '{{< img',
    '>}}',
    // Liquid and Jinja tags and comments, Org macros.
    '{% include note.html %}',
    '{%- endif -%}',
    '{# a comment #}',
    '{{{title}}}',
    // Org keywords and blocks, drawers and properties; fields of the same
    // form (AsciiDoc attributes, reStructuredText fields).
    '#+STARTUP: align fold nodlcheck',
    '#+OPTIONS: H:3 num:nil toc:t',
    '#+title: Hello',
    '  #+begin_src emacs-lisp',
    ':PROPERTIES:',
    ':END:',
    ':CUSTOM_ID: install',
    ':toc: left',
  ])('markup: %p', (line) => {
    expect(markupOnly(line)).toBe(true);
  });

  test.each([
    '',
    'plain text',
    '# A heading',
    '#+ not a keyword',
    'See {{< ref "install" >}} for details.',
    '{{% /tab %}} and text after it',
    '{{ .Title }}',
    '{{ $filter := images.Brightness 12 }}',
    'A line with braces { and } in it',
    ':ref:`install` is a role',
    ': a definition',
    'a: b',
    'Étude {{< x >}}',
    '  src="images/examples/zion-national-park.jpg"',
  ])('not markup: %p', (line) => {
    expect(markupOnly(line)).toBe(false);
  });
});

describe('never a snippet', () => {
  const matched = (q: string) => new Set(terms(q));

  test('a Hugo page: the include line holding the query is passed over for prose', () => {
    const page = '{{% include "/_common/filter.md" %}}\n\nApply it with images.Brightness.\n\n{{< img src="filter.jpg" >}}\n';
    expect(snippetOf(page, matched('filter'))).toBe('Apply it with images.Brightness.');
    expect(snippetOf(page.replace('Apply it', 'Filter it'), matched('filter'))).toBe('Filter it with images.Brightness.');
  });

  test('an Org page: keywords and drawers are passed over, the first prose line is the fallback', () => {
    const page = '#+TITLE: Worg\n#+OPTIONS: toc:t\n#+STARTUP: fold\n\n* Heading\n:PROPERTIES:\n:CUSTOM_ID: heading\n:END:\n\nThe first words.\n';
    expect(snippetOf(page, matched('nothing-here'))).toBe('* Heading');
    expect(snippetOf(page, matched('heading'))).toBe('* Heading');
    expect(snippetOf(page, matched('toc'))).toBe('* Heading');
    expect(snippetOf(page.replace('* Heading\n', ''), matched('startup'))).toBe('The first words.');
  });

  test('a text that only has markup lines has an empty snippet', () => {
    expect(snippetOf('{{< a >}}\n#+TITLE: x\n', matched('title'))).toBe('');
  });
});

describe('never a description', () => {
  test('a description of markup alone is none', () => {
    expect(descriptionValue('{{< param "description" >}}')).toBeUndefined();
    expect(descriptionValue('Returns an image filter.')).toBe('Returns an image filter.');
  });
});
