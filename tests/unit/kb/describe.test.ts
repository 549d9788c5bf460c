// What subjects say about themselves (kb/index/describe.ts): whether any of
// them has something a listing would show on its line (`describedAny`) is
// what `descriptions` gives, found without describing them all.
import { describe, expect, test } from 'bun:test';
import { describedAny, descriptions } from '../../../src/kb/index/describe.ts';
import { listable } from '../../../src/kb/index/listing.ts';
import { openTopic, topic, tree } from './view-fixture.ts';

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
