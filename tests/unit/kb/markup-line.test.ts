// Lines of markup alone (content/markup-line.ts): never a snippet, nor a
// line of a snippet's window.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { commentBlocks, commentLines, frontmatterEnd, isMarkupIn, isMarkupLine, isTextLine } from '../../../src/kb/content/markup-line.ts';
import { hasWord } from '../../../src/kb/content/markup.ts';

describe('a line of markup alone', () => {
  test.each([
    ['an HTML anchor', '<a id="what-is-ownership"></a>'],
    ['a lone tag with attributes', '<Listing number="1-1" file-name="src/main.rs" caption="Hello, world">'],
    ['a closing tag, indented', '  </Listing>'],
    ['a tag the line ends inside', '<Listing number="4-1" file-name="src/main.rs"'],
    ['an image tag', '<img src="x.png" alt="A diagram of the stack">'],
    ['an HTML comment', '<!-- TODO: say more about the heap -->'],
    ['the end of an HTML comment', 'more words of the comment -->'],
    ['a link reference definition', '[ch04-02]: ch04-02-references-and-borrowing.html#references'],
    ['a link reference definition with a title', '[docs]: https://example.com/docs "The docs"'],
    ['an image', '![The stack and the heap](img/trpl04-01.svg)'],
    ['a row of badges', '[![CI](https://x/badge.svg)](https://x/actions) [![Docs](https://y.svg)](https://y)'],
    ['an RST label', '.. _cache-design-philosophy:'],
    ['an RST directive', '.. code-block:: python'],
    ['an RST include', '.. include:: ../refs.rst'],
    ['an RST substitution', '.. |version| replace:: 3.12'],
    ['an RST comment', '.. this is a comment, not shown'],
    ['a fence with its language', '```rust,ignore'],
    ['a tilde fence', '~~~'],
    ['a VitePress container', '::: tip NOTE'],
    ['a Docusaurus admonition', ':::note Use the proxy'],
    ['a Pandoc fenced div', '::: {.aside #proxy}'],
    ['a MyST directive fence', ':::{warning}'],
    ['an mdBook include', '{{#include ../listings/ch04-understanding-ownership/listing-04-01/src/main.rs:here}}'],
    ['an mdBook rustdoc include', '{{#rustdoc_include ../listings/ch02/src/main.rs:all}}'],
    ['an AsciiDoc image', 'image::diagram.png[The stack,300]'],
    ['an AsciiDoc include', 'include::partial$intro.adoc[]'],
    ['an AsciiDoc block attribute line', '[source,rust]'],
    ['an AsciiDoc anchor', '[[ownership-rules]]'],
    ['a tag\'s attributes on a line of their own', '  src="images/examples/zion.jpg"'],
    ['attributes closing a shortcode', 'filter="Brightness" alt=\'A canyon\' >}}'],
    ['a Hugo shortcode', '{{< figure src="x.png" >}}'],
    ['an Org keyword line', '#+OPTIONS: H:3 num:nil toc:t'],
    ['an Org property drawer', ':PROPERTIES:'],
    ["an MDX page's import", "import Tabs from '@theme/Tabs';"],
    ['an import of several names', "import { Tabs, TabItem, Steps } from '@astrojs/starlight/components';"],
    ['an import without a semicolon, double quotes', 'import ShowcaseSites from "~/components/showcase-sites.astro"'],
    ['an import for its effect', "import './custom.css';"],
    ['an import of everything', "import * as Icons from 'lucide-react'"],
    ['a MyST target', '(private-attributes)='],
    ["an image with Pandoc's attributes", '![](images/code-tools-01.png){.border fig-alt="A screen shot of the code tools menu"}'],
    ["FastAPI's docs' code include", '{* ../../docs_src/path_operation_configuration/tutorial004_py310.py hl[17:25] *}'],
  ])('%s', (_what, line) => {
    expect(isMarkupLine(line)).toBe(true);
    expect(isTextLine(line)).toBe(false);
  });

  test.each([
    ['prose', 'Each value in Rust has an owner.'],
    ['a heading', '## Ownership Rules'],
    ['prose that starts with a tag', '<strong>Note:</strong> the owner is dropped.'],
    ['a footnote definition', '[^1]: The owner goes out of scope here.'],
    ['an RST footnote', '.. [1] The reference manual, chapter 4.'],
    ['a wikilink with text after it', '[[ownership]] explains the rules.'],
    ['a link in prose', '[The book](https://doc.rust-lang.org/book/) explains it.'],
    ['a line of code', 'let s = String::from("hello");'],
    ['prose that imports', "Import your data from 'the file' first;"],
    ['prose quoting a module with spaces', "import the data from 'the old file';"],
    ['a statement ending in a semicolon', 'Run the build; then run the tests;'],
    ['prose in parentheses then =', '(a b)='],
    ['a Go template expression (code shown)', '{{ .Title }}'],
    ['a table row', '| owner | one at a time |'],
    ['prose about a fence', 'Use ``` to open a code block.'],
    ['prose that quotes', 'The filter is called "Brightness"'],
    ['prose ending in a quoted word', 'Set it with name="value"; then run it again "now"'],
  ])('not %s', (_what, line) => {
    expect(isMarkupLine(line)).toBe(false);
    expect(isTextLine(line)).toBe(true);
  });

  test('a line without a letter or digit is not text', () => {
    for (const line of ['---', '***', '====', '|---|---|', '', '   ', '::']) expect(isTextLine(line)).toBe(false);
  });
});

describe('frontmatter', () => {
  test('YAML between --- lines (closed by --- or ...), TOML between +++ lines: where it ends', () => {
    expect(frontmatterEnd('---\ntitle: x\n---\nbody\n')).toBe('---\ntitle: x\n---\n'.length);
    expect(frontmatterEnd('---\ntitle: x\n...\nbody')).toBe('---\ntitle: x\n...\n'.length);
    expect(frontmatterEnd('+++\ntitle = "x"\n+++\nbody')).toBe('+++\ntitle = "x"\n+++\n'.length);
    expect(frontmatterEnd('---\r\ntitle: x\r\n---\r\nbody')).toBe('---\r\ntitle: x\r\n---\r\n'.length);
    expect(frontmatterEnd('---\ntitle: x\n---')).toBe('---\ntitle: x\n---'.length);
  });

  test("Logseq's page properties are frontmatter too: the `key:: value` lines opening the text, after a fenced block or alone", () => {
    const props = 'type:: [[Feature]]\ndescription:: Advanced queries with Datalog.\n';
    expect(frontmatterEnd(`${props}\n- ## Intro\n`)).toBe(props.length);
    expect(frontmatterEnd(`---\ntitle: x\n---\n${props}- body\n`)).toBe(`---\ntitle: x\n---\n${props}`.length);
    expect(frontmatterEnd('alias:: adv\r\nbody\n')).toBe('alias:: adv\r\n'.length);
    expect(frontmatterEnd('public::\n- body')).toBe('public::\n'.length);
    // Not one: later in the text, without the space, or a key that is no word.
    expect(frontmatterEnd('- body\ntype:: x\n')).toBe(0);
    expect(frontmatterEnd('type::x\n')).toBe(0);
    expect(frontmatterEnd('1st:: x\n')).toBe(0);
    expect(frontmatterEnd('std::vector is a template.\n')).toBe(0);
  });

  test('none: no opening line, an unclosed block, a rule that is not the first line', () => {
    expect(frontmatterEnd('body\n---\nx\n---\n')).toBe(0);
    expect(frontmatterEnd('---\ntitle: x\nbody\n')).toBe(0);
    expect(frontmatterEnd('--- not frontmatter\nx\n---\n')).toBe(0);
    expect(frontmatterEnd('')).toBe(0);
  });
});

describe('HTML comments written over several lines', () => {
  const starts = (text: string): number[] => {
    const out: number[] = [];
    for (let at = 0; at <= text.length; at = text.indexOf('\n', at) + 1 || text.length + 1) out.push(at);
    return out;
  };
  /** The numbers (1-based) of the lines commentLines hides. */
  const hiddenLines = (text: string): number[] => {
    const hidden = commentLines(text);
    return starts(text).flatMap((at, k) => (hidden(at) ? [k + 1] : []));
  };

  test('from the line that opens one to the line that closes it, both included', () => {
    const text = 'Intro.\n<!--\nA licence.\nA note.\n-->\nText.\n  <!-- TODO: the gear\nratio -->\nMore.\n';
    expect(hiddenLines(text)).toEqual([2, 3, 4, 5, 7, 8]);
    expect(commentBlocks(text)).toEqual([7, 34, 41, 72]);
    expect(hiddenLines('a\r\n<!--\r\nb\r\n-->\r\nc')).toEqual([2, 3, 4]);
  });

  test('none: a comment closed on its line, one opened after text, one never closed, a text without one', () => {
    expect(hiddenLines('<!-- one line -->\nText.\n')).toEqual([]);
    expect(hiddenLines('Use <!-- to open a comment\nand --> to close it.\n')).toEqual([]);
    expect(hiddenLines('Text.\n<!--\nnever closed\n')).toEqual([]);
    expect(hiddenLines('Text.\n')).toEqual([]);
    // A comment closed on its line, then one over several lines.
    expect(hiddenLines('<!-- a -->\nb\n<!--\nc\n-->\n')).toEqual([3, 4, 5]);
  });

  test('one pass: linear on texts built to search back and forth', () => {
    // Every line opens a comment mid-line; every line opens one at its
    // start and closes it; one opening and no close in a long text.
    for (const make of [(n: number) => 'x <!--\n'.repeat(n), (n: number) => '<!-- a -->\n'.repeat(n), (n: number) => `<!--\n${'x\n'.repeat(n)}`, (n: number) => '<!--'.repeat(n)]) {
      const small = make(20_000);
      const big = make(320_000);
      const time = (t: string): number => {
        let best = Infinity;
        for (let k = 0; k < 3; k++) {
          const t0 = performance.now();
          commentBlocks(t);
          best = Math.min(best, performance.now() - t0);
        }
        return best;
      };
      time(small);
      expect(time(big)).toBeLessThan(Math.max(1, time(small)) * 16 * 4);
    }
  });
});

describe('prose told by its two ends', () => {
  // A line read whole (isMarkupIn answers most lines of prose from their
  // first and last characters) and the same line after a space (which
  // that quick answer never takes: the space is trimmed and the line read
  // as it is) get the same answer; so does a line within a text.
  test('the quick answer is the answer the whole reading gives', () => {
    const piece = fc.constantFrom('a', 'Z', '7', 'x', ' ', '\t', '\r', '.', '..', ':', '#', '[', ']', '<', '>', '"', "'", '{', '}', '`', '~', '!', '-', '=', '/', 'é', '\u00a0', '::', '![', 'include::x[]', 'src="y"', '{{< a >}}', '{% b %}', '-->', '<!--', 'key: v', '#+title: t', ':END:', '.. note::', '[x]: y');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }).map((ps) => ps.join('')), fc.string({ maxLength: 3 }), (line, around) => {
        const want = isMarkupLine(` ${line}`);
        expect(isMarkupLine(line)).toBe(want);
        const text = `${around}\n${line}\n${around}`;
        expect(isMarkupIn(text, around.length + 1, around.length + 1 + line.length)).toBe(want);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('hasWord: a letter or a digit, in any script', () => {
  test.each([
    ['prose', 'The owner of it', true],
    ['a digit alone', '----- 1 -----', true],
    ['a rule', '-------', false],
    ['white space', ' \t ', false],
    ['empty', '', false],
    ['Greek', '— ωμέγα —', true],
    ['Han', '「所有者」', true],
    ['a full-width digit', '（１）', true],
    ['punctuation outside ASCII', '— … — «»', false],
    ['the characters next to ASCII letters', '@[`{', false],
  ])('%s', (_name, line, want) => {
    expect(hasWord(line)).toBe(want);
  });
  test('the same as the pattern /[\\p{L}\\p{N}]/u, on any text', () => {
    const WORDY = /[\p{L}\p{N}]/u;
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.string({ unit: fc.constantFrom(' ', '-', '@', '[', '`', '{', '—', 'é', '1', 'Z', '\u0300', '\u{1d7ce}'), maxLength: 12 }));
    fc.assert(fc.property(text, (s) => hasWord(s) === WORDY.test(s)), { numRuns: 5000 });
  });
});
