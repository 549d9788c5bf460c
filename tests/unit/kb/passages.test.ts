// A result's passages (search/snippet.ts `passagesOf`): windows of lines
// around where a subject answers the query, with their line numbers; up
// to three where a long document answers in several places.
import { describe, expect, test } from 'bun:test';
import { PASSAGE_CHARS, PASSAGE_LINES, passagesOf, snippetOf } from '../../../src/kb/search/snippet.ts';

const BOOK = [
  '---',
  'title: Ownership',
  '---',
  '<a id="what-is-ownership"></a>',
  '# What Is Ownership?',
  '',
  '[ch04-02]: ch04-02-references.html#owner',
  '{{#include ../listings/ch04/owner.rs}}',
  '<Listing number="4-1" caption="the owner">',
  '',
  'Each value in Rust has an owner.',
  'There can only be one owner at a time.',
  'When the owner goes out of scope, the value will be dropped.',
  'A fourth line of the same paragraph.',
  '',
].join('\n');

describe('passages', () => {
  test('a window of the lines around the best line, in its block, with the number of its first line; markup and frontmatter never in it', () => {
    expect(passagesOf(BOOK, new Set(['owner']))).toEqual([{ line: 11, text: 'Each value in Rust has an owner.\nThere can only be one owner at a time.\nWhen the owner goes out of scope, the value will be dropped.' }]);
  });

  test('the line before comes in when the line after is not text; a blank line ends the block', () => {
    const text = 'Intro.\n\nFirst of the block.\nThe owner is here.\n\nAfter the block.\n';
    expect(passagesOf(text, new Set(['owner']))).toEqual([{ line: 3, text: 'First of the block.\nThe owner is here.' }]);
    expect(passagesOf('<a id="x"></a>\nThe owner alone.\n```rust\n', new Set(['owner']))).toEqual([{ line: 2, text: 'The owner alone.' }]);
  });

  test('at most three lines and 300 characters: a long neighbour is cut, or left out', () => {
    const long = 'word '.repeat(100).trim();
    const [p] = passagesOf(`${long}\nThe owner here.\n${long}\n`, new Set(['owner']));
    expect(p.line).toBe(1);
    expect(p.text.length).toBeLessThanOrEqual(PASSAGE_CHARS + 2);
    expect(p.text.split('\n')).toHaveLength(3);
    expect(p.text.split('\n')[1]).toBe('The owner here.');
    expect(p.text.split('\n')[0]).toStartWith('…');
    expect(p.text.split('\n')[2]).toEndWith('…');
    const many = Array.from({ length: 9 }, (_, i) => `line ${i} of the owner paragraph`).join('\n');
    expect(passagesOf(many, new Set(['owner']))[0].text.split('\n')).toHaveLength(PASSAGE_LINES);
  });

  test('a long document that answers in several places: up to three passages, the best first, each far from the others', () => {
    const filler = 'Some prose that says nothing of it.\n'.repeat(80);
    const text = `Intro to the owner.\n\n${filler}\nThe owner and the borrow checker.\n\n${filler}\nThe owner again.\n\n${filler}\nThe owner, a fourth time.\n`;
    const ps = passagesOf(text, new Set(['owner', 'borrow']));
    expect(ps).toHaveLength(3);
    expect(ps[0]).toEqual({ line: 84, text: 'The owner and the borrow checker.' });
    expect(ps.slice(1).map((p) => p.line)).toEqual([1, 167]);
    expect(ps[1].text).toBe('Intro to the owner.');
    // A short document: one passage, however often it holds the words.
    expect(passagesOf('the owner\n\nthe owner\n\nthe owner\n', new Set(['owner']))).toHaveLength(1);
  });

  test('further passages need at least half the best line\'s distinct words', () => {
    const filler = 'Some prose that says nothing of it.\n'.repeat(80);
    const text = `alpha beta gamma delta\n\n${filler}\nalpha only\n\n${filler}\nalpha beta gamma\n`;
    expect(passagesOf(text, new Set(['alpha', 'beta', 'gamma', 'delta'])).map((p) => p.line)).toEqual([1, 167]);
  });

  test('no line holds a matched word: the first line with words past the frontmatter and markup; none in a text without words', () => {
    expect(passagesOf(BOOK, new Set(['zzz']))).toEqual([{ line: 5, text: '# What Is Ownership?' }]);
    expect(passagesOf('---\n***\n', new Set(['zzz']))).toEqual([]);
  });

  test('a line inside an HTML comment written over several lines is never a passage nor a line of one', () => {
    const text = '<!--\nCopyright 2024 The Widget Authors.\n-->\n\n# Widget guide\n\n<!--\nTODO: explain how the lever gear ratio is computed\n-->\nThe lever gear ratio is five to one.\nIt is set in the widget file.\n';
    expect(passagesOf(text, new Set(['lever', 'gear', 'ratio']))).toEqual([{ line: 10, text: 'The lever gear ratio is five to one.\nIt is set in the widget file.' }]);
    // No line holds a word: the first line with words outside the comments.
    expect(passagesOf(text, new Set(['zzz']))).toEqual([{ line: 5, text: '# Widget guide' }]);
    expect(snippetOf(text, new Set(['lever', 'gear', 'ratio']))).toBe('The lever gear ratio is five to one.');
    expect(snippetOf(text, new Set(['copyright']))).toBe('# Widget guide');
    // Read line by line too (a text holding U+0130).
    expect(passagesOf(`İ\n${text}`, new Set(['lever', 'gear', 'ratio']))[0].line).toBe(11);
  });

  test('a term the text holds only as two words joined by a hyphen or an underscore: the line that joins them', () => {
    const text = '# Routing\n\nIntro.\n\nA single-page application routes on the client.\nSet SERVER_NAME first.\n';
    expect(passagesOf(text, new Set(['singlepag']))).toEqual([{ line: 5, text: 'A single-page application routes on the client.\nSet SERVER_NAME first.' }]);
    expect(snippetOf(text, new Set(['servernam']))).toBe('Set SERVER_NAME first.');
    // Read line by line too (a text holding U+0130).
    expect(snippetOf(`İ\n${text}`, new Set(['singlepag']))).toBe('A single-page application routes on the client.');
  });

  test("where the query joins no words by an underscore, a line's identifiers are not bounded as joined terms; hyphens still are", () => {
    const text = 'Call import_module first.\n\nThe module import system.\n\nA single-page import module.\n';
    const terms = new Set(['import', 'modul', 'importmodul', 'singlepag']);
    // Counted: `import_module` holds three terms, as many as the hyphen's
    // line, and comes first; not counted, its place is bounded by two, and
    // the line whose three are bounded so wins.
    expect(passagesOf(text, terms, true)[0]).toEqual({ line: 1, text: 'Call import_module first.' });
    expect(passagesOf(text, terms, false)[0]).toEqual({ line: 5, text: 'A single-page import module.' });
  });

  test('line numbers count every line, CRLF ends and lines past a long one included', () => {
    expect(passagesOf('a\r\nb\r\n\r\nthe owner\r\n', new Set(['owner']))).toEqual([{ line: 4, text: 'the owner' }]);
    expect(passagesOf(`${'x'.repeat(20_000)}\n\nthe owner\n`, new Set(['owner']))).toEqual([{ line: 3, text: 'the owner' }]);
  });
});

describe('passages: the first 20,000 lines', () => {
  // Lines past the 20,000th are not looked at (bounded work on a huge
  // file); their line ends are counted when a match is past 20,000
  // characters, a block at a time.
  const term = new Set(['owner']);
  const at = (lines: number, pad: string) => `Intro words.\n${`${pad}\n`.repeat(lines - 2)}The owner is here.\n${`${pad}\n`.repeat(5)}`;

  test('a match on line 20,000 is found, with its number; one on line 20,001 is not', () => {
    for (const pad of ['', 'x', 'some words of a line of prose']) {
      const found = passagesOf(at(20_000, pad), term)[0];
      expect(found.text).toContain('The owner is here.');
      expect(found.line).toBe(pad === '' ? 20_000 : 19_999);
      const past = passagesOf(at(20_001, pad), term)[0];
      expect(past.line).toBe(1);
      expect(past.text).not.toContain('owner');
    }
  });

  test('the first match past them ends the search, wherever the others are', () => {
    const text = `The owner first.\n${'\n'.repeat(19_999)}The owner again, far.\nAnd the owner, owner, owner: the best line.\n`;
    expect(passagesOf(text, term)[0]).toEqual({ line: 1, text: 'The owner first.' });
  });

  test('a text of fewer than 20,000 line ends is looked at whole, however long', () => {
    const long = 'word '.repeat(12_000);
    expect(passagesOf(`${long}\nIntro.\n${long}\nThe owner is here.\n`, term)[0]).toEqual({ line: 4, text: 'The owner is here.' });
  });
});
