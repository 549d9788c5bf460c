// What subjects say about themselves (kb/index/describe.ts): whether any of
// them has something a listing would show on its line (`describedAny`) is
// what `descriptions` gives, found without describing them all.
import { describe, expect, test } from 'bun:test';
import { describedAny, descriptions } from '../../../src/kb/index/describe.ts';
import { listable } from '../../../src/kb/index/listing.ts';
import { readerThread } from '../../../src/kb/fs/probe-thread.ts';
import { READER_THREAD_URL, openTopic, topic, tree } from './view-fixture.ts';

async function both(spec: Record<string, string>): Promise<[boolean, (string | undefined)[]]> {
  const view = openTopic(topic(tree(spec)), { probeAll: true });
  const subjects = listable(view);
  return [await describedAny(view, subjects), await descriptions(view, subjects)];
}

describe('describedAny', () => {
  test('false when no line would say anything: no frontmatter, titles that repeat the slug', async () => {
    const [any, all] = await both({ 'a.md': 'plain\n', 'b/c.md': '# C\n\nbody\n', 'notes.txt': 'text\n' });
    expect(all).toEqual([undefined, undefined, undefined]);
    expect(any).toBe(false);
  });

  test('true when a title says more than the slug', async () => {
    const [any, all] = await both({ 'a.md': 'plain\n', 'b.md': '# Bees and wasps\n' });
    expect(all).toEqual([undefined, 'Bees and wasps']);
    expect(any).toBe(true);
  });

  test('true when only frontmatter that needs the YAML parser describes a subject', async () => {
    const [any, all] = await both({ 'a.md': 'plain\n', 'b.md': '---\ndescription: >-\n  folded\n  text\n---\nbody\n' });
    expect(all).toEqual([undefined, 'folded text']);
    expect(any).toBe(true);
  });

  test('false when frontmatter that needs the YAML parser has no description', async () => {
    const [any, all] = await both({ 'a.md': '---\ntags: [x, y]\nother: >-\n  folded\n---\nbody\n' });
    expect(all).toEqual([undefined]);
    expect(any).toBe(false);
  });
});

describe('after a walk that probed every subject as it went', () => {
  // A probe with a feed (the reader thread's) probes each visible file as
  // the walk finds it: whether no subject says anything is then known
  // without asking each one, and the answers are those of a view that
  // probes each subject when asked.
  async function walked(spec: Record<string, string>, hidden = false): Promise<[boolean, (string | undefined)[], boolean, (string | undefined)[]]> {
    const dir = tree(spec);
    const thread = readerThread(READER_THREAD_URL);
    try {
      const fed = openTopic(topic(dir), { probe: thread, probeAll: true });
      const asked = openTopic(topic(dir));
      const pick = (v: typeof fed) => (hidden ? v.index.subjects : listable(v));
      return [await describedAny(fed, pick(fed)), await descriptions(fed, pick(fed)), await describedAny(asked, pick(asked)), await descriptions(asked, pick(asked))];
    } finally {
      thread.close();
    }
  }
  const many = (extra: Record<string, string>) => {
    const spec: Record<string, string> = { ...extra };
    for (let i = 0; i < 300; i++) spec[`d${i % 5}/n${i}.md`] = `plain text ${i}\n`;
    return spec;
  };

  test('no subject says anything: none does', async () => {
    const [any, all, anyAsked, allAsked] = await walked(many({}));
    expect(any).toBe(false);
    expect(all.every((d) => d === undefined)).toBe(true);
    expect([any, all]).toEqual([anyAsked, allAsked]);
  });

  test('one title among hundreds of plain subjects is found', async () => {
    const [any, all, anyAsked, allAsked] = await walked(many({ 'd3/zz.md': '# Bees and wasps\n' }));
    expect(any).toBe(true);
    expect(all.filter((d) => d !== undefined)).toEqual(['Bees and wasps']);
    expect([any, all]).toEqual([anyAsked, allAsked]);
  });

  test('a hidden subject, which the walk does not probe, still says what it says', async () => {
    const [any, all, anyAsked, allAsked] = await walked(many({ '.secret.md': '# Hidden things\n' }), true);
    expect(any).toBe(true);
    expect(all.filter((d) => d !== undefined)).toEqual(['Hidden things']);
    expect([any, all]).toEqual([anyAsked, allAsked]);
  });
});
