// Loading subjects (kb/index/load.ts).

import { describe, test, expect } from 'bun:test';
import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadExact, loadLearned, loadPatterns as loadCompiled, type LoadItem, type ReadAs } from '../../../src/kb/index/load.ts';
import { openTopic, loadPatterns, isRaw, tree, topic, project, show, slugs, BIN, compile } from './view-fixture.ts';

describe('loadLearned', () => {
  test('contents in learned-pattern order, formatted', () => {
    const dir = tree({ 'z.md': 'Z\n', 'a.toml': 'k = 1\n', 'm/x.md': 'X' });
    const view = openTopic(topic(dir, ['z', '**']));
    expect(show(loadLearned(view))).toEqual(['subject z: "Z\\n"', 'subject a: "```toml\\nk = 1\\n```"', 'subject m/x: "X"']);
  });

  test('exact learned patterns pre-load hidden subjects; disabled overrides learned', () => {
    const view = openTopic(topic(project(), ['internal-notes', 'maintainers/*'], ['maintainers/jean']));
    expect(show(loadLearned(view))).toEqual(['subject internal-notes: "Internal\\n"', 'subject maintainers/ryan: "Ryan\\n"']);
    expect(view.learnedPatterns.map((p) => p.slugs)).toEqual([['internal-notes'], ['maintainers/ryan']]);
  });

  test('an exactly learned binary yields a binary item; a glob-matched one nothing', () => {
    const view = openTopic(topic(tree({ 'x.bin': BIN, 'y.bin': BIN, 'a.md': 'a' }), ['x', '*']));
    expect(show(loadLearned(view))).toEqual(['binary x', 'subject a: "a"']);
  });
});

describe('loadPatterns', () => {
  test('single exact subject: raw content, format applied', () => {
    const view = openTopic(topic(tree({ 'cfg.yml': 'a: 1\n\n', 'notes.md': '# N\n' })));
    expect(show(loadPatterns(view, ['cfg']))).toEqual(['subject cfg: "```yaml\\na: 1\\n```"']);
    expect(show(loadPatterns(view, ['notes']))).toEqual(['subject notes: "# N\\n"']);
  });

  test('glob loads non-hidden subjects in slug order; hidden only by exact slug', () => {
    const view = openTopic(topic(project()));
    expect(show(loadPatterns(view, ['**']))).toEqual([
      'subject code-quality: "Quality\\n"',
      'subject maintainers/jean: "Jean\\n"',
      'subject maintainers/ryan: "Ryan\\n"',
    ]);
    expect(show(loadPatterns(view, ['internal-notes']))).toEqual(['subject internal-notes: "Internal\\n"']);
  });

  test('NOTES 8: pre-loaded subjects are not returned again, the result names them', () => {
    const view = openTopic(topic(project(), ['maintainers/jean']));
    expect(show(loadPatterns(view, ['maintainers/*']))).toEqual(['subject maintainers/ryan: "Ryan\\n"', 'already-learned maintainers/jean']);
    // Matching only pre-loaded subjects is not "no match".
    expect(show(loadPatterns(view, ['maintainers/j*']))).toEqual(['already-learned maintainers/jean']);
  });

  test('disabled subjects match nothing, not even exactly', () => {
    const view = openTopic(topic(project(), [], ['code-quality', 'internal-notes']));
    expect(show(loadPatterns(view, ['code-quality']))).toEqual(['no-match code-quality']);
    expect(show(loadPatterns(view, ['internal-notes']))).toEqual(['no-match internal-notes']);
    expect(show(loadPatterns(view, ['*']))).toEqual(['no-match *']);
  });

  test('binaries: exactly named -> notice; glob-matched -> dropped; a glob that matched only binaries -> no-match', () => {
    const view = openTopic(topic(tree({ 'img/a.png': BIN, 'img/b.png': BIN, 'doc.md': 'D' })));
    expect(show(loadPatterns(view, ['img/a']))).toEqual(['binary img/a']);
    expect(show(loadPatterns(view, ['img/*']))).toEqual(['no-match img/*']);
    expect(show(loadPatterns(view, ['**']))).toEqual(['subject doc: "D"']);
    expect(show(loadPatterns(view, ['img/*', 'img/b']))).toEqual(['binary img/b', 'no-match img/*']);
  });

  test('asked for its steps, every file read is one: a file that gives no item there (a binary, an unreadable file) yields `read`', () => {
    const view = openTopic(topic(tree({ 'a.bin': BIN, 'b.md': 'B', 'c.bin': BIN, 'd.bin': BIN })));
    const kinds = (steps: boolean) => [...loadCompiled(view, compile(['*', 'c']), 'text', undefined, undefined, steps)].map((i) => i.kind);
    // The notes come after the subjects; the reads where the files were read.
    expect(kinds(true)).toEqual(['read', 'subject', 'read', 'read', 'binary']);
    expect(kinds(false)).toEqual(['subject', 'binary']);
  });

  test('output order: subjects, already-learned, binary, unreadable, then per-pattern notes', () => {
    const dir = tree({ 'a.md': 'A', 'b.md': 'B', 'l.md': 'L', 'x.bin': BIN, 'gone.md': 'G' });
    const view = openTopic(topic(dir, ['l']));
    unlinkSync(join(dir, 'gone.md')); // vanished after the walk
    expect(show(loadPatterns(view, ['../etc', 'gone', 'x', 'nope', 'l', 'b', '*', '/abs']))).toEqual([
      'subject b: "B"',
      'subject a: "A"',
      'already-learned l',
      'binary x',
      'unreadable gone',
      'invalid-pattern ../etc',
      'no-match nope',
      'invalid-pattern /abs',
    ]);
  });

  test('invalid patterns carry their reason', () => {
    const view = openTopic(topic(project()));
    const [item] = [...loadPatterns(view, ['../../etc/passwd'])];
    expect(item).toEqual({ kind: 'invalid-pattern', pattern: '../../etc/passwd', reason: expect.stringContaining('..') });
  });

  test('duplicates across patterns are returned once, at their first position', () => {
    const view = openTopic(topic(project()));
    expect(show(loadPatterns(view, ['maintainers/ryan', 'maintainers/*', 'maintainers/ryan']))).toEqual([
      'subject maintainers/ryan: "Ryan\\n"',
      'subject maintainers/jean: "Jean\\n"',
    ]);
  });

  test('invalid UTF-8 is replaced and flagged', () => {
    const view = openTopic(topic(tree({ 'bad.md': new Uint8Array([0x61, 0xff, 0x62]) })));
    expect(show(loadPatterns(view, ['bad']))).toEqual(['subject bad: "a\uFFFDb" (replaced)']);
  });

  test('streams: each file is read when its item is requested', () => {
    const dir = tree({ 'a.md': 'A', 'b.md': 'B', 'c.md': 'C' });
    const view = openTopic(topic(dir));
    const gen = loadPatterns(view, ['*']);
    expect(show([gen.next().value as LoadItem])).toEqual(['subject a: "A"']);
    // Files not yet read can still change.
    writeFileSync(join(dir, 'b.md'), 'B2');
    unlinkSync(join(dir, 'c.md'));
    expect(show({ [Symbol.iterator]: () => gen })).toEqual(['subject b: "B2"', 'unreadable c']);
  });

  test('the subject item carries the subject', () => {
    const view = openTopic(topic(project()));
    const [item] = [...loadPatterns(view, ['code-quality'])];
    expect(item.kind).toBe('subject');
    if (item.kind === 'subject') {
      expect(item.subject.path).toBe('code-quality.md');
      expect(item.replaced).toBe(false);
    }
  });
});

describe('loadExact', () => {
  test('hidden and pre-loaded subjects are read; a disabled or unknown slug is nothing; a binary and an unreadable file say so', () => {
    const dir = tree({ 'a.md': 'A\n', '.h.md': 'H\n', 'd.md': 'D\n', 'p.toml': 'k = 1\n', 'b.png': BIN });
    const view = openTopic(topic(dir, ['p'], ['d']));
    const one = (slug: string, as: ReadAs = 'text') => show([loadExact(view, slug, as)].filter((i): i is LoadItem => i !== undefined));
    expect(one('a')).toEqual(['subject a: "A\\n"']);
    expect(one('a', 'bytes')).toEqual(['subject a: "A\\n"']);
    expect(one('h')).toEqual(['subject h: "H\\n"']);
    expect(one('p')).toEqual(['subject p: "```toml\\nk = 1\\n```"']);
    expect(one('d')).toEqual([]);
    expect(one('nope')).toEqual([]);
    expect(one('b')).toEqual(['binary b']);
    unlinkSync(join(dir, 'a.md'));
    expect(one('a')).toEqual(['unreadable a']);
  });
});

describe('isRaw (NOTES 7)', () => {
  const view = openTopic(topic(project(), ['maintainers/jean'], ['code-quality']));
  const rows: [string[], boolean][] = [
    [['maintainers/ryan'], true],
    [['./maintainers/ryan'], true],
    [['internal-notes'], true], // hidden, named exactly
    [['maintainers/jean'], false], // pre-loaded
    [['code-quality'], false], // disabled
    [['nope'], false],
    [['maintainers/r*'], false], // a glob, even matching one subject
    [['maintainers/ryan', 'internal-notes'], false],
    [['maintainers/ryan', 'maintainers/ryan'], false],
    [[], false],
    [['../x'], false],
  ];
  for (const [patterns, raw] of rows) test(`${JSON.stringify(patterns)} -> ${raw}`, () => expect(isRaw(view, patterns)).toBe(raw));
});

describe('loadPatterns: bodies read as bytes', () => {
  test('give the same items as bodies read as text', () => {
    const dir = tree({
      'a.md': 'A\n',
      'b.toml': 'k = "```"\n\n',
      'c.md': new Uint8Array([0xef, 0xbb, 0xbf, 0x63, 0x0a]),
      'bad.md': new Uint8Array([0x61, 0xff, 0x62]),
      'u16.txt': new Uint8Array([0xff, 0xfe, 0xe9, 0x00]),
      'x.bin': BIN,
      'l.md': 'L',
    });
    const view = openTopic(topic(dir, ['l']));
    for (const patterns of [['**'], ['x', 'b', 'l', 'nope', '../x'], ['bad'], ['u16']]) {
      const asText = show(loadPatterns(view, patterns, 'text'));
      expect(show(loadPatterns(view, patterns, 'bytes'))).toEqual(asText);
    }
    expect(show(loadPatterns(view, ['**'], 'bytes'))).toEqual([
      'subject a: "A\\n"',
      'subject b: "````toml\\nk = \\"```\\"\\n````"',
      'subject bad: "a\uFFFDb" (replaced)',
      'subject c: "c\\n"',
      'subject u16: "é"',
      'already-learned l',
    ]);
  });

  test('a bytes body is bytes; a text body is text', () => {
    const view = openTopic(topic(tree({ 'a.md': 'A' })));
    const [asBytes] = [...loadPatterns(view, ['a'], 'bytes')];
    const [asText] = [...loadPatterns(view, ['a'], 'text')];
    expect(asBytes.kind === 'subject' && asBytes.content.body).toBeInstanceOf(Uint8Array);
    expect(asText.kind === 'subject' && asText.content.body).toBe('A');
  });
});
