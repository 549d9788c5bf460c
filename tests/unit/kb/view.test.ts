// openTopic (kb/index/view.ts): opening a view, and probing its subjects
// at most once per view.

import { describe, test, expect } from 'bun:test';
import { join } from 'node:path';
import { type Probe } from '../../../src/kb/fs/probe.ts';
import { probeFile } from '../../../src/kb/fs/probe-titles.ts';
import { MIN_PARALLEL_FILES, readerThread } from '../../../src/kb/fs/probe-thread.ts';
import { hasLearnable, hasListable, listable } from '../../../src/kb/index/listing.ts';
import { kindOf, type TopicView } from '../../../src/kb/index/view.ts';
import { READER_THREAD_URL, openTopic, loadPatterns, tree, topic, project, show, slugs, BIN } from './view-fixture.ts';

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

describe('openTopic with probeAll, every visible subject probed by the walk', () => {
  // No two files with one slug: the view knows the verdicts that are not
  // text, and listable looks up none per subject.
  const spec: Record<string, string | Uint8Array> = {
    'a.md': 'text\n',
    'img.png': BIN,
    '.hidden.md': 'hidden\n',
    '.h/inside.png': BIN,
    'off.md': 'disabled\n',
    'off-bin.png': BIN,
    'pre/one.md': 'learned\n',
    'pre/two.bin': BIN,
    'skill/SKILL.md': '# A skill\n',
    'skill/bundled.bin': BIN,
    'z.txt': 'last\n',
  };
  for (let i = 0; i < 2 * MIN_PARALLEL_FILES; i++) spec[`many/${i % 13}/s${i}.${i % 7 === 0 ? 'dat' : 'md'}`] = i % 7 === 0 ? BIN : `subject ${i}\n`;
  const t = topic(tree(spec), ['pre/*'], ['off', 'off-bin']);

  test('lists what openTopic + listable list', () => {
    const thread = readerThread(READER_THREAD_URL);
    try {
      const probed = openTopic(t, { probe: thread, probeAll: true });
      expect(probed.walkedNonText).toBeDefined();
      expect(probed.walkedNonText).toContain('img');
      expect(slugs(probed)).toEqual(slugs(openTopic(t)));
      expect(slugs(probed)).toContain('skill');
      expect(slugs(probed)).not.toContain('img');
      expect(slugs(probed).filter((s) => s.startsWith('many/')).length).toBe(2 * MIN_PARALLEL_FILES - Math.ceil((2 * MIN_PARALLEL_FILES) / 7));
    } finally {
      thread.close();
    }
  });
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

  test('after a walk whose every file is its own subject, the cache holds each visible verdict, and takes more', () => {
    const probe = countingProbe(true);
    const view = openTopic(topic(dir()), { probe, probeAll: true });
    expect([...view.probed.keys()].sort()).toEqual(['a', 'b', 'img', 'off']);
    expect(view.probed.get('img')?.kind).toBe('binary');
    expect(show(loadPatterns(view, ['img']))).toEqual(['binary img']);
    // The hidden file is probed when asked about, once, and kept.
    const h = view.index.subjects.find((s) => s.slug === 'h')!;
    expect(kindOf(view, h)).toBe('text');
    kindOf(view, h);
    expect(probe.files.filter((f) => f.endsWith('.h.md')).length).toBe(1);
    expect(view.probed.get('h')?.kind).toBe('text');
    expect(probe.calls).toBe(2);
  });

  test('the walk\'s verdicts are the subjects\' own: with files of one slug, and with skills', () => {
    const trees: Record<string, string | Uint8Array>[] = [
      { 'a.md': 'a', 'img.png': BIN, 'sub/c.md': 'c' },
      { 'x.md': 'text', 'x.txt': BIN, 'y.txt': BIN, 'y.md': 'text' },
      { 'sk/SKILL.md': '---\nname: sk\ndescription: A skill\n---\n', 'sk/ref.md': 'r', 'sk.txt': BIN, 'other/SKILL.md': BIN, 'other.md': 'o' },
      // A skill's SKILL.md is found under its folder's slug: here that of
      // a file found before it (each file is still its own subject).
      { 'foo/SKILL.md': 'skill', 'foo/0.md': BIN, 'foo/0/SKILL.md': 'inner' },
    ];
    for (const spec of trees) {
      const t = topic(tree(spec));
      const walked = openTopic(t, { probe: countingProbe(true), probeAll: true });
      const asked = openTopic(t, { probe: countingProbe() });
      for (const s of walked.index.subjects) expect({ slug: s.slug, v: kindOf(walked, s) }).toEqual({ slug: s.slug, v: kindOf(asked, s) });
      expect(listable(walked).map((s) => s.slug)).toEqual(listable(asked).map((s) => s.slug));
    }
  });

  test('the title watch is told of the results that hold frontmatter, a title or a summary, and of no other', () => {
    const t = topic(tree({ 'plain.md': 'no title here\n', 'titled.md': '# A title\n', 'front.md': '---\ndescription: d\n---\nbody\n', 'img.png': BIN, 'empty.txt': '' }));
    const told: string[] = [];
    const found: string[] = [];
    const watch = {
      found: (slug: string) => (found.push(slug), false),
      probed: (slug: string) => (told.push(slug), false),
    };
    const thread = readerThread(READER_THREAD_URL, 1);
    try {
      openTopic(t, { probe: thread, probeAll: true, titles: watch });
    } finally {
      thread.close();
    }
    expect(found.sort()).toEqual(['empty', 'front', 'img', 'plain', 'titled']);
    expect(told.sort()).toEqual(['front', 'titled']);
  });

  test('probeAll with a probe without a feed probes nothing at open', () => {
    const probe = countingProbe();
    const view = openTopic(topic(dir()), { probe, probeAll: true });
    expect(probe.calls).toBe(0);
    expect(listable(view).map((s) => s.slug)).toEqual(['a', 'b', 'off']);
    expect(probe.calls).toBe(1);
  });
});
