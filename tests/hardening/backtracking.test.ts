// Committed text shaped to make kb's parsers backtrack: titles, headings,
// sections, frontmatter and configuration that regular expressions (or the
// YAML package) read in time quadratic in their length, or worse. Each
// case runs dist/kb on the hostile workspace and on a plain one of the same
// size, and the hostile one must cost about what the plain one does (it
// took ten to a thousand times as long before). Per-parser growth is in
// tests/property/parsers.property.test.ts; every regular expression of
// src/ is checked in tests/unit/regexps.test.ts.

import { afterAll, describe, expect, test } from 'bun:test';
import { cleanup, expectNoCrash, kbMeasured, workspace, type Entry, type Measured } from './helpers.ts';

afterAll(cleanup);

/** `count` files named `<prefix>N.<ext>`, each holding `make(N)`. */
function files(count: number, prefix: string, ext: string, make: (i: number) => string): Record<string, Entry> {
  const out: Record<string, Entry> = {};
  for (let i = 0; i < count; i++) out[`t/${prefix}${i}.${ext}`] = make(i);
  return out;
}

/** Runs kb on both workspaces; the hostile run must take at most four
 *  times the plain one's time, and three seconds more. */
function aboutPlain(hostile: string, plain: string, args: string[]): Measured {
  const p = kbMeasured(plain, args);
  const h = kbMeasured(hostile, args, { timeoutMs: 60_000 });
  expectNoCrash(h);
  expect(h.ms).toBeLessThan(p.ms * 4 + 3000);
  return h;
}

const HEAD = 8000; // characters: a head the probe reads whole

describe('titles read from hostile heads', () => {
  // 8 KiB heads: Markdown `# ](` then `[a`, `![a`, `[a](`; HTML `<title>`
  // and `<h1>` full of `<a`; AsciiDoc `[[a`. 5-47 ms each before.
  const shapes: [string, string, (i: number) => string][] = [
    ['md', 'link', (i) => `# t${i} ](${'[a'.repeat(HEAD / 2)}\n`],
    ['md', 'image', (i) => `# t${i} ](${'![a'.repeat(HEAD / 3)}\n`],
    ['md', 'paren', (i) => `# t${i} ${'[a]('.repeat(HEAD / 4)}\n`],
    ['html', 'title', (i) => `<title>t${i} ${'<a'.repeat(HEAD / 2)}</title>\n`],
    ['html', 'h1', (i) => `<h1>t${i} ${'<a'.repeat(HEAD / 2)}</h1>\n`],
    ['adoc', 'anchor', (i) => `= t${i} ${'[[a'.repeat(HEAD / 3)}\n`],
  ];
  test('`kb learn t` on 600 of them costs what 600 plain heads do', () => {
    const hostile: Record<string, Entry> = {};
    const plain: Record<string, Entry> = {};
    for (const [ext, name, make] of shapes) {
      Object.assign(hostile, files(100, name, ext, make));
      Object.assign(plain, files(100, name, ext, (i) => `${ext === 'html' ? '<title>' : ext === 'adoc' ? '= ' : '# '}t${i} ${'a '.repeat(HEAD / 2)}\n`));
    }
    // No budget: every line shows its title.
    const h = aboutPlain(workspace(hostile), workspace(plain), ['learn', 't', '--max-tokens', '0']);
    expect(h.code).toBe(0);
    // The titles are still read: the link's text, the tags dropped.
    expect(h.out).toContain(`- link0: t0 ](${'[a'.repeat(20)}`);
    expect(h.out).toContain('- title0: t0');
  }, 120_000);
});

describe('headings for search', () => {
  test('`kb search` indexes a 120 KB Markdown heading of spaces at once', () => {
    const body = (w: string) => `# a${' '.repeat(120_000)}x\n\n${w} word\n`;
    const h = aboutPlain(workspace({ 't/h.md': body('needle') }), workspace({ 't/h.md': `# a ${'b '.repeat(60_000)}x\n\nneedle word\n` }), ['search', 'needle']);
    expect(h.code).toBe(0);
    expect(h.out).toContain('t: h');
  }, 120_000);
});

describe('recall sections', () => {
  // Words past the budget: recall cuts the subject into sections.
  const WORDS = 'alpha beta gamma delta\n'.repeat(400);
  const cases: [string, string, string][] = [
    ['60,000 unclosed `<h1>`', 'html', `<p>alpha beta</p>\n${'<h1>'.repeat(60_000)}\n`],
    ['60,000 headings on one line', 'html', `<p>alpha beta</p>${'<h1>a</h1>'.repeat(60_000)}\n`],
    ['an Org heading padded with 60,000 spaces', 'org', `* alpha${' '.repeat(60_000)}beta\n\n${WORDS}`],
    ['an AsciiDoc heading padded with 60,000 spaces', 'adoc', `== alpha${' '.repeat(60_000)}beta\n\n${WORDS}`],
    ['a Markdown heading padded with 60,000 spaces', 'md', `# alpha${' '.repeat(60_000)}beta\n\n${WORDS}`],
  ];
  test.each(cases)('`kb recall` on %s', (_name, ext, text) => {
    const plain = `${'alpha beta gamma\n\n'.repeat(Math.ceil(text.length / 18))}`;
    const h = aboutPlain(workspace({ [`t/s.${ext}`]: text }), workspace({ [`t/s.${ext}`]: plain }), ['recall', 'alpha beta', '--max-tokens', '300']);
    expect(h.code).toBe(0);
  }, 120_000);
});

describe('frontmatter the YAML package took minutes on', () => {
  // `? ? ? ...`: 1 KiB took 36 s; `[[[[...` and `a: : : ...`, 8 KiB: 0.3-0.4 s each.
  const shapes: [string, string][] = [
    ['nested explicit keys', '? '.repeat(1000)],
    ['nested flow sequences', '['.repeat(7000)],
    ['compact mappings', `a: ${': '.repeat(3500)}`],
    ['a staircase of indents', Array.from({ length: 120 }, (_, i) => `${' '.repeat(i)}?`).join('\n')],
  ];
  test.each(shapes)('%s: not parsed, said, and the listing goes on', (_name, front) => {
    const hostile = workspace({ 't/f.md': `---\n${front}\n---\nbody\n`, 't/ok.md': '---\ndescription: fine\n---\n' });
    const plain = workspace({ 't/f.md': `---\ndescription: "${'a '.repeat(front.length / 2)}"\n---\nbody\n`, 't/ok.md': '---\ndescription: fine\n---\n' });
    const h = aboutPlain(hostile, plain, ['learn', 't']);
    expect(h.code).toBe(0);
    expect(h.out).toContain('- ok: fine');
    const check = kbMeasured(hostile, ['check']);
    expect(check.out + check.err).toMatch(/subject "f" has frontmatter that is not valid YAML \((it nests more than 32 levels deep at line \d+|[^)]*)\)/);
  }, 120_000);
});

describe('a YAML configuration nested deeply', () => {
  test('is refused before it is parsed', () => {
    const root = workspace({});
    const { rmSync, writeFileSync } = require('node:fs') as typeof import('node:fs');
    rmSync(`${root}/.jp/config.toml`);
    writeFileSync(`${root}/.jp/config.yaml`, `kb:\n  topic:\n    t:\n      subjects: t\nx: ${'? '.repeat(2000)}\n`);
    const r = kbMeasured(root, ['list'], { timeoutMs: 60_000 });
    expectNoCrash(r);
    expect(r.code).toBe(1);
    expect(r.err).toContain('invalid YAML: values are nested more than 64 levels deep');
    expect(r.ms).toBeLessThan(10_000);
  }, 120_000);
});

describe('an ignore rule with a leading `**` before another', () => {
  test('is not applied, and said', () => {
    const root = workspace({ 't/.gitignore': '**/x/**/y\n*.tmp\n', 't/a.md': 'A\n', 't/b.tmp': 'B\n' });
    const r = kbMeasured(root, ['check']);
    expect(r.out + r.err).toContain('cannot apply .gitignore:1: **/x/**/y (a leading "**" segment and 1 between others: matching it can take minutes on deep paths; at most one is supported); this rule is not applied');
    expect(kbMeasured(root, ['learn', 't']).out).not.toContain('b.tmp');
  }, 60_000);
});
