// The one-pass scanners that replaced regular expressions which took time
// quadratic in hostile text (an 8 KiB title of `[a`, a line of spaces, a
// text of unclosed `<h1>`) give, on any text, what those expressions gave:
// each is compared with the expression (tests/support/regexps-before.ts)
// on many generated texts made of the characters that matter to it.

import { describe, expect, test } from 'bun:test';
import { cleanTitle, headingsIn } from '../../../src/kb/content/title.ts';
import { simpleFields } from '../../../src/kb/content/frontmatter.ts';
import { headingsOf } from '../../../src/kb/search/topic.ts';
import { cleanTitleBefore, headingsInBefore, headingsOfBefore, simpleFieldsBefore } from '../../support/regexps-before.ts';
import { rng } from '../../support/rng.ts';

/** `count` texts of up to `max` pieces drawn from `pieces`. */
function texts(seed: number, pieces: readonly string[], count: number, max: number): string[] {
  const next = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const n = Math.floor(next() * (max + 1));
    for (let k = 0; k < n; k++) s += pieces[Math.floor(next() * pieces.length)];
    out.push(s);
  }
  return out;
}

const RUNS = 20_000;

describe('titles', () => {
  test.each([
    ['html', ['<', '>', 'a', ' ', '&', ';', 'amp', '#x41', '#65', '\n', 'h1']],
    ['md', ['[', ']', '(', ')', '!', 'a', ' ', '\n', '](']],
    ['adoc', ['[[', '[', ']', ']]', 'a', ' ', '\t']],
    ['rst', ['[', ']', '<', 'a', ' ']],
  ] as const)('cleanTitle (%s)', (format, pieces) => {
    for (const t of texts(1, pieces, RUNS, 14)) expect([t, cleanTitle(t, format)]).toEqual([t, cleanTitleBefore(t, format)]);
  });
});

describe('headings', () => {
  const lines = (extra: readonly string[]) => [...extra, ' ', '\t', 'a', 'b c', '\n', '\r\n', '\r', '\u2028', '#', '\u00a0'];
  test.each([
    ['md', lines(['# ', '## ', '###', '####### ', '   #', '    #', '=', '---', '```', '~~~', '>', '- ', '1. '])],
    ['rst', lines(['===', '---', '~~~', '^', ':', '..'])],
    ['adoc', lines(['= ', '== ', '=', '----', '....', '====', '****', '-', '~', '^', '+', '# '])],
    ['org', lines(['* ', '** ', '*', ':', ':a:', 'tag', '@', '%', '_'])],
    ['html', lines(['<h1>', '<H2 class="x">', '</h1>', '</h2 >', '</H1\n>', '<h1', '<h7>', '<h10>', '<h1_>', '>', '<', '</', '<b>', '&amp;'])],
  ] as const)('headingsIn (%s)', (ext, pieces) => {
    for (const t of texts(2, pieces, RUNS, 24)) expect([t, headingsIn(t, ext)]).toEqual([t, headingsInBefore(t, ext)]);
  });

  test('headingsOf (the search index, Markdown)', () => {
    const pieces = ['# ', '#', '##', '#######', ' ', '\t', 'a', '\n', '\r', '\u2028', '\u2029', '   ', '    '];
    for (const t of texts(3, pieces, RUNS, 20)) expect([t, headingsOf(t, 'md')]).toEqual([t, headingsOfBefore(t)]);
  });
});

describe('frontmatter', () => {
  test('simpleFields', () => {
    const pieces = ['key', ':', ' ', '\t', 'value', '\n', '\r\n', '\r', '\u2028', '"', "'", '#', '-', 'a b', 'true', '1'];
    for (const t of texts(4, pieces, RUNS, 14)) expect([t, simpleFields(t)]).toEqual([t, simpleFieldsBefore(t)]);
  });
});
