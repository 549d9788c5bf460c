import { describe, test, expect, afterAll } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Topic } from '../../../src/config/types.ts';
import { MIN_PARALLEL_FILES, readerThread } from '../../../src/kb/fs/probe-thread.ts';
import {
  hasLearnable,
  hasListable,
  isRaw,
  listable,
  loadLearned,
  loadPatterns,
  openTopic,
  openTopicSniffing,
  sniffSubject,
  type LoadItem,
  type TopicView,
} from '../../../src/kb/index/view.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

const BIN = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]);

function tree(spec: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-topic-'));
  roots.push(root);
  for (const [rel, v] of Object.entries(spec)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, v);
  }
  return root;
}

function topic(dir: string, learned: string[] = [], disabled: string[] = []): Topic {
  return { id: 'project', enable: true, subjects: 'kb', subjectsDir: dir, learned, disabled, sources: {} };
}

const project = () =>
  tree({
    'maintainers/jean.md': 'Jean\n',
    'maintainers/ryan.md': 'Ryan\n',
    'code-quality.md': 'Quality\n',
    '.internal-notes.md': 'Internal\n',
  });

/** Items as short strings for table-like assertions. */
function show(items: Iterable<LoadItem>): string[] {
  return [...items].map((i) => {
    switch (i.kind) {
      case 'subject':
        return `subject ${i.slug}: ${JSON.stringify(i.content)}${i.replaced ? ' (replaced)' : ''}`;
      case 'no-match':
      case 'invalid-pattern':
        return `${i.kind} ${i.pattern}`;
      default:
        return `${i.kind} ${i.slug}`;
    }
  });
}
const slugs = (view: TopicView) => listable(view).map((s) => s.slug);

describe('openTopic', () => {
  test('RFD example: learned maintainers/* pre-loads jean and ryan, in order', () => {
    const view = openTopic(topic(project(), ['maintainers/*']));
    expect(view.learned.map((m) => m.subject.slug)).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect([...view.learnedSlugs]).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect(view.learnedPatterns).toEqual([{ pattern: 'maintainers/*', kind: 'glob', slugs: ['maintainers/jean', 'maintainers/ryan'] }]);
    expect(view.index.subjects.map((s) => s.slug)).toEqual(['code-quality', 'internal-notes', 'maintainers/jean', 'maintainers/ryan']);
  });

  test('a missing subjects directory gives an empty view with a notice', () => {
    const view = openTopic(topic(join(project(), 'nope'), ['*']));
    expect(view.index.notices.map((n) => n.kind)).toEqual(['missing-directory']);
    expect(hasListable(view)).toBe(false);
    expect(hasLearnable(view)).toBe(false);
    expect(show(loadPatterns(view, ['*']))).toEqual(['no-match *']);
  });
});

describe('listable / hasListable / hasLearnable', () => {
  test('listing excludes hidden, disabled, learned and binary subjects', () => {
    const dir = tree({ 'a.md': 'a', 'b.md': 'b', 'c.md': 'c', '.h.md': 'h', 'img.png': BIN, 'd/e.json': '{}' });
    const view = openTopic(topic(dir, ['a'], ['b']));
    expect(slugs(view)).toEqual(['c', 'd/e']);
    expect(hasListable(view)).toBe(true);
  });

  test('RFD example rule 1: `project` keeps code-quality after maintainers/* is pre-loaded', () => {
    const view = openTopic(topic(project(), ['maintainers/*']));
    expect(slugs(view)).toEqual(['code-quality']);
    expect(hasListable(view)).toBe(true);
    expect(hasLearnable(view)).toBe(true);
  });

  test('NOTES 14: every visible subject pre-loaded, a hidden one left: nothing listable, still learnable', () => {
    const view = openTopic(topic(project(), ['**']));
    expect(slugs(view)).toEqual([]);
    expect(hasListable(view)).toBe(false);
    expect(hasLearnable(view)).toBe(true);
  });

  test('hidden one pre-loaded by exact slug too: nothing learnable', () => {
    const view = openTopic(topic(project(), ['**', 'internal-notes']));
    expect(hasLearnable(view)).toBe(false);
  });

  test('hidden one disabled: nothing learnable', () => {
    const view = openTopic(topic(project(), ['**'], ['internal-notes']));
    expect(hasLearnable(view)).toBe(false);
  });

  test('only binaries left: not listable, not learnable', () => {
    const view = openTopic(topic(tree({ 'a.md': 'a', 'b.bin': BIN, '.c.bin': BIN }), ['a']));
    expect(hasListable(view)).toBe(false);
    expect(hasLearnable(view)).toBe(false);
  });

  test('a binary matched by a learned glob does not count as pre-loaded', () => {
    const view = openTopic(topic(tree({ 'a.md': 'a', 'b.bin': BIN }), ['*']));
    expect(show(loadLearned(view))).toEqual(['subject a: "a"']);
    expect(show(loadPatterns(view, ['b']))).toEqual(['binary b']);
  });
});

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

describe('openTopicSniffing: a listing sniffed while the walk goes on', () => {
  // Enough files for the reader thread to start, and every case the sniff
  // cache must get right: hidden files and folders, slug collisions between
  // visible files (one of them binary) and with a hidden file, disabled and
  // pre-loaded subjects, a name the listing leaves out (a newline in it).
  const spec: Record<string, string | Uint8Array> = {
    'dup.md': 'text\n',
    'dup.txt': BIN, // loses the collision to dup.md
    'bin.md': 'text\n',
    'bin.txt': BIN, // collides with bin.md, which wins (the first path)
    'shown.md': 'visible\n',
    '.shown.md': BIN, // hidden twin: the visible file wins
    '.hidden/inside.md': 'hidden\n',
    'off.md': 'disabled\n',
    'pre/one.md': 'learned\n',
    'pre/two.bin': BIN,
    'odd\nname.md': 'left out\n',
  };
  for (let i = 0; i < 2 * MIN_PARALLEL_FILES; i++) spec[`many/${i % 17}/s${i}.${i % 5 === 0 ? 'dat' : 'md'}`] = i % 5 === 0 ? BIN : `subject ${i}\n`;
  const t = topic(tree(spec), ['pre/*'], ['off']);

  test('lists what openTopic + listable list, with the same verdicts', () => {
    const plain = openTopic(t);
    const thread = readerThread();
    try {
      const sniffed = openTopicSniffing(t, thread.sniffFeed());
      expect(thread.stats().started).toBe(true);
      const slugs = (v: TopicView) => listable(v).map((s) => s.slug);
      expect(slugs(sniffed)).toEqual(slugs(plain));
      for (const s of sniffed.index.subjects) expect({ slug: s.slug, v: sniffSubject(sniffed, s) }).toEqual({ slug: s.slug, v: sniffSubject(plain, s) });
      expect(slugs(sniffed)).toContain('dup');
      expect(slugs(sniffed)).toContain('shown');
      expect(slugs(sniffed)).not.toContain('off');
      expect(slugs(sniffed)).not.toContain('pre/one');
      expect(slugs(sniffed).some((s) => s.includes('\n'))).toBe(false);
    } finally {
      thread.close();
    }
  });
});
