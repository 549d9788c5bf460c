// learn() with lines of a subject (`slug:120-160`): the lines as a window
// that says which, within the budget, continued within them; a glob never
// takes a range; a hidden subject's exact slug does; a slug that really
// ends in a range is that subject. And the resource form
// (app/resources.ts readLines).
import { describe, expect, test } from 'bun:test';
import { KnowledgeBase } from '../../../src/app/knowledge-base.ts';
import { learn } from '../../../src/app/learn.ts';
import { readLines } from '../../../src/app/resources.ts';
import { learnText } from '../../../src/render/learn.ts';
import type { LearnEvent } from '../../../src/answer/learn.ts';
import { splitLineRange } from '../../../src/kb/index/line-range.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';
import { COSTS } from '../../../src/render/costs.ts';

const HOME = makeTempDir('kb-lines-home-');
const line = (i: number) => `line ${i} of the guide\n`;
const GUIDE = Array.from({ length: 200 }, (_, i) => line(i + 1)).join('');
const root = tempWorkspace(
  'kb-lines-',
  { 't/guide.md': GUIDE, 't/.secret.md': 's1\ns2\ns3', 't/odd:1-2.md': 'I am odd\n', 't/conf.toml': 'a = 1\nb = 2\nc = 3\n', 't/other.md': 'other\n' },
  '[kb.topic.t]\nsubjects = "t"\n',
);
const open = (maxTokens = 20_000) => KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: {}, home: HOME, maxTokens }, { costs: COSTS });

async function events(kb: KnowledgeBase, subjects: string[]) {
  const got: LearnEvent[] = [];
  const parts: string[] = [];
  const text = learnText((c) => parts.push(c as string));
  const isError = await learn(kb, { topic: 't', subjects }, { as: 'text', event: (e) => (got.push(e), text(e)) });
  return { got, text: parts.join(''), isError };
}

describe('the range grammar', () => {
  test('FIRST-LAST, FIRST- (to the end), LINE; from the last colon; numbers from 1, a range that does not run backwards', () => {
    expect(splitLineRange('guide:120-160')).toEqual({ slug: 'guide', range: { first: 120, last: 160 } });
    expect(splitLineRange('a/b:c:120-')).toEqual({ slug: 'a/b:c', range: { first: 120 } });
    expect(splitLineRange('guide:7')).toEqual({ slug: 'guide', range: { first: 7, last: 7 } });
    expect(splitLineRange('guide:0-3')).toEqual({ slug: 'guide', problem: 'lines are numbered from 1' });
    expect(splitLineRange('guide:5-3')).toEqual({ slug: 'guide', problem: 'the range ends (line 3) before it starts (line 5)' });
    for (const p of ['guide', 'guide:', ':1-2', 'guide:a-b', 'guide:1-2-3', 'guide:-5', 'guide:1234567890', `guide:${'1'.repeat(5000)}`]) expect(splitLineRange(p)).toBeUndefined();
  });
});

describe('learn() with lines of a subject', () => {
  test('the lines, in the subject block, and a note saying which of how many; never raw', async () => {
    const r = await events(await open(), ['guide:3-5']);
    expect(r.text).toBe('<subject "guide">\nline 3 of the guide\nline 4 of the guide\nline 5 of the guide\n</subject>\n\n[These are lines 3-5 of subject "guide", which has 200 lines.]\n');
    expect(r.got[0]).toMatchObject({ kind: 'window', slug: 'guide', lines: [3, 5], range: { first: 3, last: 5, lines: 200 } });
    expect(r.isError).toBe(false);
  });

  test('to the end; one line; past the end said; wholly past the end, a note and nothing loaded', async () => {
    expect((await events(await open(), ['guide:199-'])).text).toContain('line 199 of the guide\nline 200 of the guide\n</subject>\n\n[These are lines 199-200 of subject "guide", which has 200 lines.]');
    expect((await events(await open(), ['guide:7'])).text).toContain('<subject "guide">\nline 7 of the guide\n</subject>\n\n[This is line 7 of subject "guide", which has 200 lines.]');
    expect((await events(await open(), ['guide:199-250'])).text).toContain('[These are lines 199-200 of subject "guide", which has 200 lines; lines 199-250 were asked for.]');
    const past = await events(await open(), ['guide:300-310']);
    expect(past.text).toBe('Subject "guide" has 200 lines; lines 300-310 were asked for. Ask for lines it has (`guide:1-200`), or the subject by its slug alone.\n');
    expect(past.isError).toBe(true);
    expect(past.got.some((e) => e.kind === 'problem' && e.problem.code === 'lines')).toBe(true);
  });

  test('a hidden subject by its exact slug takes a range; a glob never does; a slug that really ends in a range is that subject', async () => {
    expect((await events(await open(), ['secret:2-'])).text).toBe('<subject "secret">\ns2\ns3\n</subject>\n\n[These are lines 2-3 of subject "secret", which has 3 lines.]\n');
    const glob = await events(await open(), ['g*:1-2']);
    expect(glob.text).toBe('Invalid pattern "g*:1-2": a line range takes one subject by its exact slug, never a glob.\n');
    expect(glob.isError).toBe(true);
    expect((await events(await open(), ['odd:1-2'])).text).toBe('I am odd\n');
  });

  test('beside other patterns: each subject once; a second range of one subject refused; a fenced format stays fenced', async () => {
    const r = await events(await open(), ['guide:2', 'other', 'guide:9', 'conf:2']);
    expect(r.text).toBe(
      '<subject "guide">\nline 2 of the guide\n</subject>\n\n<subject "other">\nother\n</subject>\n\n<subject "conf">\n```toml\nb = 2\n```\n</subject>\n\n' +
        'Invalid pattern "guide:9": one range of a subject per call: "guide:2" comes first.\n[This is line 2 of subject "guide", which has 200 lines.]\n[This is line 2 of subject "conf", which has 3 lines.]\n',
    );
  });

  test('larger than the budget: windows of the lines, each saying its lines, the next call continuing within them to the range\'s end', async () => {
    const kb = await open(60);
    const first = await events(kb, ['guide:10-40']);
    const w = first.got.find((e) => e.kind === 'window') as Extract<LearnEvent, { kind: 'window' }>;
    expect(w.lines[0]).toBe(10);
    expect(w.next?.subjects.slice(0, 1)).toEqual(['guide:10-40']);
    expect(first.text).toContain(`[These are lines 10-40 of subject "guide", which has 200 lines, larger than the 60-token budget, so they come in windows: this is lines 10-${w.lines[1]} (bytes`);
    let call = w.next!;
    let last = w.lines[1];
    for (let n = 0; n < 20; n++) {
      const r = await events(kb, call.subjects);
      const next = r.got.find((e) => e.kind === 'window') as Extract<LearnEvent, { kind: 'window' }>;
      expect(next.lines[0]).toBe(last + 1);
      last = next.lines[1];
      if (next.next === undefined) {
        expect(r.text).toContain('It is the last window.]');
        break;
      }
      call = next.next;
    }
    expect(last).toBe(40);
  });

  test('after another subject, lines that do not fit wait for the next call', async () => {
    const r = await events(await open(60), ['other', 'guide:1-100']);
    expect(r.got.map((e) => e.kind)).toEqual(['subject', 'left-out', 'problem', 'end']);
    expect(r.got[1]).toMatchObject({ call: { subjects: ['other', 'guide:1-100', '@from:0:guide'] } });
  });
});

describe('readLines (resources)', () => {
  test('the lines and their facts; past the end; not a range; a hidden subject by its exact slug', async () => {
    const kb = await open();
    expect(readLines(kb, 't', 'guide', '3-4')).toMatchObject({ kind: 'lines', slug: 'guide', body: 'line 3 of the guide\nline 4 of the guide\n', range: { first: 3, last: 4, lines: 200 } });
    expect(readLines(kb, 't', 'guide', '201')).toEqual({ kind: 'past-end', lines: 200 });
    expect(readLines(kb, 't', 'guide', 'x')).toEqual({ kind: 'bad-lines', problem: '"x" is not a range' });
    expect(readLines(kb, 't', 'secret', '3')).toMatchObject({ kind: 'lines', body: 's3' });
    expect(readLines(kb, 't', 'nope', '1')).toMatchObject({ kind: 'not-found' });
  });
});
