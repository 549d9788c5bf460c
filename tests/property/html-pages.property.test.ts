// HTML pages shaped against the scanner that reads them as text
// (src/kb/content/html.ts), on dist/kb: each is loaded in the text view,
// searched and recalled at about what a plain page of its size costs. The
// scanner's own growth is measured in parsers.property.test.ts; this is the
// same attack on the binary, through every command that reads a page's
// text. In the slow tier: 27 runs of 1 MiB pages.

import { afterAll, describe, expect, test } from 'bun:test';
import { cleanup, expectNoCrash, kbMeasured, workspace, type Measured } from '../hardening/helpers.ts';

afterAll(cleanup);

/** Runs kb on both workspaces; the hostile run must take at most four
 *  times the plain one's time, and three seconds more. */
function aboutPlain(hostile: string, plain: string, args: string[]): Measured {
  const p = kbMeasured(plain, args);
  const h = kbMeasured(hostile, args, { timeoutMs: 60_000 });
  expectNoCrash(h);
  expect(h.ms).toBeLessThan(p.ms * 4 + 3000);
  return h;
}

describe('HTML pages read as text', () => {
  // 1 MiB pages shaped against the scanner (content/html.ts): each is
  // loaded in the text view, searched and recalled on the binary, at about
  // what a plain page of that size costs.
  const MiB = 1 << 20;
  const fill = (unit: string, head = '') => `<p>alpha beta needle</p>${head}${unit.repeat(Math.floor(MiB / unit.length))}\n`;
  const cases: [string, string][] = [
    ['unclosed tags', fill('<a ')],
    ['an unclosed quote', fill('x', '<p title="')],
    ['unclosed comments', fill('<!--')],
    ['unclosed scripts', fill('<script>')],
    ['a style of almost-closing tags', fill('</styl', '<style>')],
    ['lists nested 100,000 deep', fill('<ul><li>a ')],
    ['`<pre>` of backticks, nested', fill('<pre>`')],
    ['runs of white space between tags', fill(' \n\t <b>')],
    ['references without an end', fill('&#x1&amp')],
  ];
  const plain = workspace({ 't/s.html': fill('<p>alpha beta gamma</p>\n') });
  test.each(cases)('%s: `kb learn --html text`, `kb search` and `kb recall` cost what a plain page does', (_name, page) => {
    const hostile = workspace({ 't/s.html': page });
    const learn = aboutPlain(hostile, plain, ['learn', 't', 's', '--html', 'text', '--max-tokens', '0']);
    expect(learn.code).toBe(0);
    expect(learn.out).toStartWith('[HTML page shown as text');
    expect(aboutPlain(hostile, plain, ['search', 'needle']).code).toBe(0);
    expect(aboutPlain(hostile, plain, ['recall', 'alpha beta needle', '--max-tokens', '300']).code).toBe(0);
  }, 120_000);
});
