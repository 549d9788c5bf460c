import { describe, test, expect, afterAll } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Topic } from '../../../src/config/types.ts';
import { engine } from '../../../src/glob/engine.ts';
import { compileWith } from '../../../src/glob/pattern.ts';
import type { CompiledPattern } from '../../../src/glob/index.ts';
import { formattedText } from '../../../src/kb/content/format.ts';
import { probeFile, type Probe } from '../../../src/kb/fs/probe.ts';
import { MIN_PARALLEL_FILES, readerThread } from '../../../src/kb/fs/probe-thread.ts';
import {
  hasLearnable,
  hasListable,
  isRaw as isRawCompiled,
  kindOf,
  listable,
  loadExact,
  loadLearned,
  loadPatterns as loadCompiled,
  openTopic as openSpec,
  type LoadItem,
  type OpenOptions,
  type ReadAs,
  type TopicView,
} from '../../../src/kb/index/view.ts';

const READER_THREAD_URL = new URL('../../../src/reader-thread.ts', import.meta.url).href;

/** Patterns compiled as the knowledge base compiles them (synchronously:
 *  the glob machinery is imported here). */
const compile = (patterns: readonly string[]): CompiledPattern[] => compileWith(patterns, engine);

/** A view of a configured topic, its `learned` patterns compiled. */
function openTopic(t: Topic, opts: Omit<OpenOptions, 'learned'> = {}): TopicView {
  return openSpec(t, { ...opts, learned: compile(t.learned) });
}

/** `loadPatterns` with patterns as a model sends them; bodies read as text
 *  unless `as` says otherwise. */
function loadPatterns(view: TopicView, patterns: string[], as: ReadAs = 'text'): Generator<LoadItem> {
  return loadCompiled(view, compile(patterns), as);
}

const isRaw = (view: TopicView, patterns: string[]) => isRawCompiled(view, compile(patterns));

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

/** Items as short strings for table-like assertions (the formatted content
 *  as one string). Each item is shown as it comes: a bytes body is only
 *  valid until the next file is read. */
function show(items: Iterable<LoadItem>): string[] {
  const out: string[] = [];
  for (const i of items) {
    switch (i.kind) {
      case 'subject':
        out.push(`subject ${i.slug}: ${JSON.stringify(formattedText(i.content))}${i.replaced ? ' (replaced)' : ''}`);
        break;
      case 'no-match':
      case 'invalid-pattern':
        out.push(`${i.kind} ${i.pattern}`);
        break;
      default:
        out.push(`${i.kind} ${i.slug}`);
    }
  }
  return out;
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
    expect(view.index.notices.map((n) => n.code)).toEqual(['missing-directory']);
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

describe('openTopic with probeAll: a listing probed while the walk goes on', () => {
  // Enough files for the reader thread to start, and every case the probe
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
    const thread = readerThread(READER_THREAD_URL);
    try {
      const probed = openTopic(t, { probe: thread, probeAll: true });
      expect(thread.stats().started).toBe(true);
      const slugs = (v: TopicView) => listable(v).map((s) => s.slug);
      expect(slugs(probed)).toEqual(slugs(plain));
      for (const s of probed.index.subjects) expect({ slug: s.slug, v: kindOf(probed, s) }).toEqual({ slug: s.slug, v: kindOf(plain, s) });
      expect(slugs(probed)).toContain('dup');
      expect(slugs(probed)).toContain('shown');
      expect(slugs(probed)).not.toContain('off');
      expect(slugs(probed)).not.toContain('pre/one');
      expect(slugs(probed).some((s) => s.includes('\n'))).toBe(false);
    } finally {
      thread.close();
    }
  });
});

/** A probe that probes on the main thread and counts the files it probed,
 *  optionally with a feed. */
function countingProbe(withFeed = false): Probe & { files: string[]; calls: number } {
  const p: Probe & { files: string[]; calls: number } = {
    files: [],
    calls: 0,
    probe(paths) {
      p.calls++;
      p.files.push(...paths);
      return paths.map(probeFile);
    },
  };
  if (withFeed) {
    p.feed = () => {
      const fed: string[] = [];
      return { add: (path) => void fed.push(path), finish: () => p.probe(fed) };
    };
  }
  return p;
}

describe('the probe cache (a view\'s `probed`)', () => {
  const dir = () => tree({ 'a.md': 'a', 'b.md': 'b', 'img.png': BIN, '.h.md': 'h', 'off.md': 'o' });

  test('each file is probed at most once per view, and every listing probes at once', () => {
    const probe = countingProbe();
    const view = openTopic(topic(dir(), [], ['off']), { probe });
    expect(probe.files).toEqual([]); // opening reads no file
    expect(listable(view).map((s) => s.slug)).toEqual(['a', 'b']);
    expect(probe.calls).toBe(1);
    expect(probe.files.map((f) => f.slice(f.lastIndexOf('/') + 1)).sort()).toEqual(['a.md', 'b.md', 'img.png']);
    expect([...view.probed.keys()].sort()).toEqual(['a', 'b', 'img']);
    expect(view.probed.get('img')?.kind).toBe('binary');
    // Asked again, in every way: nothing more is probed.
    listable(view);
    hasListable(view);
    for (const s of view.index.subjects.filter((s) => s.slug !== 'h' && s.slug !== 'off')) kindOf(view, s);
    expect(probe.files.length).toBe(3);
    // The hidden file is probed when asked about, once.
    hasLearnable(view);
    const h = view.index.subjects.find((s) => s.slug === 'h')!;
    expect(kindOf(view, h)).toBe('text');
    kindOf(view, h);
    expect(probe.files.filter((f) => f.endsWith('.h.md')).length).toBe(1);
  });

  test('two views of one topic probe independently', () => {
    const t = topic(dir());
    const first = countingProbe();
    const second = countingProbe();
    const v1 = openTopic(t, { probe: first });
    const v2 = openTopic(t, { probe: second });
    expect(v1.probed).not.toBe(v2.probed);
    expect(listable(v1).map((s) => s.slug)).toEqual(['a', 'b', 'off']);
    expect(first.files.length).toBe(4);
    // The second view knows nothing of what the first found...
    expect(v2.probed.size).toBe(0);
    expect(second.files.length).toBe(0);
    // ...and probes every file itself when it lists.
    expect(listable(v2).map((s) => s.slug)).toEqual(['a', 'b', 'off']);
    expect(second.files.length).toBe(4);
    expect(first.files.length).toBe(4);
    // A verdict one view records (a load that found a binary) stays in it.
    const v3 = openTopic(t, { probe: countingProbe() });
    expect(show(loadPatterns(v3, ['img']))).toEqual(['binary img']);
    expect(v3.probed.get('img')?.kind).toBe('binary');
    expect(v1.probed.get('img')?.kind).toBe('binary'); // found by v1's own probe
    const v4 = openTopic(t, { probe: second });
    expect(v4.probed.has('img')).toBe(false);
    expect(v4.probed.size).toBe(0);
  });

  test('probeAll feeds the walk\'s non-hidden files to a probe that has a feed; none is probed again', () => {
    const probe = countingProbe(true);
    const view = openTopic(topic(dir()), { probe, probeAll: true });
    expect(probe.calls).toBe(1);
    expect(probe.files.map((f) => f.slice(f.lastIndexOf('/') + 1)).sort()).toEqual(['a.md', 'b.md', 'img.png', 'off.md']);
    expect(listable(view).map((s) => s.slug)).toEqual(['a', 'b', 'off']);
    expect(probe.calls).toBe(1);
  });

  test('probeAll with a probe without a feed probes nothing at open', () => {
    const probe = countingProbe();
    const view = openTopic(topic(dir()), { probe, probeAll: true });
    expect(probe.calls).toBe(0);
    expect(listable(view).map((s) => s.slug)).toEqual(['a', 'b', 'off']);
    expect(probe.calls).toBe(1);
  });
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
