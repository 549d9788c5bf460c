// learn() as events (render/learn.ts LearnEvent): what happened, in order,
// as data; learnText alone writes the model's text, and the warnings come
// from the events' numbers.
import { describe, expect, test } from 'bun:test';
import { KnowledgeBase } from '../../../src/app/knowledge-base.ts';
import { learn } from '../../../src/app/learn.ts';
import { learnText } from '../../../src/render/learn.ts';
import type { LearnEvent } from '../../../src/answer/learn.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';
import { COSTS } from '../../../src/render/costs.ts';

const HOME = makeTempDir('kb-events-home-');
const shown = (n: number) => n.toLocaleString('en-US');
const line = (i: number) => `line ${String(i).padStart(4, '0')} of a long subject, to be read in windows\n`;
const BIG = Array.from({ length: 100 }, (_, i) => line(i)).join('');
const root = tempWorkspace('kb-events-', { 't/a.md': BIG, 't/b.md': BIG, 't/c.md': 'small\n', 't/sub/d.md': 'd\n' }, '[kb.topic.t]\nsubjects = "t"\n');
const open = (maxTokens = 20_000) => KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: {}, home: HOME, maxTokens }, { costs: COSTS });

async function events(kb: KnowledgeBase, topic: string, subjects: string[] | null) {
  const got: LearnEvent[] = [];
  const parts: string[] = [];
  const text = learnText((c) => parts.push(c as string));
  const isError = await learn(kb, { topic, subjects }, { as: 'text', event: (e) => (got.push(e), text(e)) });
  return { got, text: parts.join(''), isError };
}

describe('learn() events', () => {
  test('an unknown topic is one event, its text the error', async () => {
    const r = await events(await open(), 'nope', null);
    expect(r.got).toEqual([{ kind: 'unknown-topic', topic: 'nope', valid: [expect.objectContaining({ id: 't' })] }]);
    expect(r.text).toBe('Unknown topic "nope". Valid topics: t.\n');
    expect(r.isError).toBe(true);
  });

  test('a listing is one event holding its lines', async () => {
    const r = await events(await open(), 't', null);
    expect(r.got.map((e) => e.kind)).toEqual(['listing']);
    const listing = r.got[0] as Extract<LearnEvent, { kind: 'listing' }>;
    expect(listing.items.map((i) => ('slug' in i ? i.slug : i.folder))).toEqual(['a', 'b', 'c', 'sub/d']);
    expect(r.text).toContain('- a\n- b\n- c\n- sub/d\n');
  });

  test('subjects, then a note, in the order they happened; the end closes', async () => {
    const r = await events(await open(), 't', ['c', 'sub/*', 'nope']);
    expect(r.got.map((e) => e.kind)).toEqual(['subject', 'subject', 'note', 'end']);
    expect(r.got[2]).toEqual({ kind: 'note', topic: 't', note: { kind: 'no-match', pattern: 'nope' } });
    expect(r.text).toBe('<subject "c">\nsmall\n</subject>\n\n<subject "sub/d">\nd\n</subject>\n\nNo subjects match "nope" in topic "t". Call `learn` with only the topic to list its subjects.\n');
  });

  test('one exact subject is raw: the content alone', async () => {
    const r = await events(await open(), 't', ['c']);
    expect(r.got).toMatchObject([{ kind: 'subject', slug: 'c', raw: true }, { kind: 'end', raw: true, topicNotes: [] }]);
    expect(r.text).toBe('small\n');
  });

  test('over the budget: a left-out event with the numbers, and the warning built from them', async () => {
    const r = await events(await open(2000), 't', ['c', 'a', 'b']);
    const kinds = r.got.map((e) => e.kind);
    expect(kinds).toEqual(['subject', 'subject', 'left-out', 'problem', 'end']);
    expect(r.got[2]).toEqual({ kind: 'left-out', count: 1, tokens: Math.ceil(BIG.length / 4), budget: 2000, call: { topic: 't', subjects: ['c', 'a', 'b', '@from:0:b'] } });
    const problem = (r.got[3] as Extract<LearnEvent, { kind: 'problem' }>).problem;
    expect(problem.message).toBe(`learn t: 1 more subject (~${Math.ceil(BIG.length / 4)} tokens) matched but was left out to stay within 2,000 tokens; the model was told how to continue`.replace(/~\d+/, `~${shown(Math.ceil(BIG.length / 4))}`));
    expect(r.text).toEndWith(`[1 more subject (~${shown(Math.ceil(BIG.length / 4))} tokens) matched but was left out to stay within the 2,000-token budget. To continue, call \`learn\` with {"topic":"t","subjects":["c","a","b","@from:0:b"]}]\n`);
  });

  test('the last window of a subject, then subjects left out: the user is told too', async () => {
    const from = BIG.length - 200;
    const r = await events(await open(1000), 't', ['a', 'b', `@from:${from}:a`]);
    expect(r.got.map((e) => e.kind)).toEqual(['window', 'left-out', 'problem', 'end']);
    expect(r.got[0]).toMatchObject({ kind: 'window', slug: 'a', from, to: BIG.length, total: BIG.length });
    expect((r.got[0] as { next?: unknown }).next).toBeUndefined();
    expect((r.got[2] as Extract<LearnEvent, { kind: 'problem' }>).problem.message).toStartWith('learn t: 1 more subject (~');
    expect(r.text).toContain('It is the last window.]\n[1 more subject');
  });

  test('a window with more to come: the next call, what follows after it, and a warning', async () => {
    const r = await events(await open(300), 't', ['a', 'c']);
    expect(r.got.map((e) => e.kind)).toEqual(['window', 'left-after', 'problem', 'end']);
    const w = r.got[0] as Extract<LearnEvent, { kind: 'window' }>;
    expect(w.next).toEqual({ topic: 't', subjects: ['a', 'c', `@from:${w.to}:a`] });
    expect(r.got[1]).toEqual({ kind: 'left-after', count: 1, tokens: 2, slug: 'a' });
    expect(r.text).toContain(`For the next window, call \`learn\` with {"topic":"t","subjects":["a","c","@from:${w.to}:a"]}]\n[1 more subject (~2 tokens) follows after the last window of "a".]\n`);
  });
});
