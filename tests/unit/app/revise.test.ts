// Revising in process (app/revise.ts), and remember naming an update
// (app/memory.ts): what is written, what is kept, what is refused, through
// `KnowledgeBase.open` on fixture workspaces. The command line and MCP
// print this text (tests/e2e/revise.test.ts).
import { describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KnowledgeBase } from '../../../src/app/knowledge-base.ts';
import { remember, type RememberArgs } from '../../../src/app/memory.ts';
import { revise, type ReviseArgs } from '../../../src/app/revise.ts';
import { search } from '../../../src/app/search.ts';
import { HISTORY_VERSIONS, parseHistory } from '../../../src/kb/write/history.ts';
import { renderWriteOutcome as text } from '../../../src/render/memory.ts';
import { call as learnCall, toolCall } from '../../support/tool-call.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';
import { COSTS } from '../../../src/render/costs.ts';

const HOME = makeTempDir('kb-revise-home-');
const CONFIG = `[kb.topic.notes]
subjects = "notes"
disabled = ["old"]

[kb.topic.docs]
subjects = "docs"
`;

function workspace(files: Record<string, string | Uint8Array> = {}): string {
  return tempWorkspace('kb-revise-', { 'notes/old.md': 'An old note.\n', 'docs/readme.md': '# Docs\n', ...files }, CONFIG);
}

function open(root: string): Promise<KnowledgeBase> {
  return KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: { XDG_CACHE_HOME: join(root, '.cache-home') }, home: HOME }, { costs: COSTS });
}

const at = (iso: string) => ({ source: 'user' as const, now: new Date(iso) });
const fact = (text: string, more: Partial<RememberArgs> = {}): RememberArgs => ({ topic: 'notes', text, tags: [], force: false, ...more });
const change = (slug: string, text: string, more: Partial<ReviseArgs> = {}): ReviseArgs => ({ topic: 'notes', slug, text, force: false, ...more });
const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

describe('remember names an update', () => {
  test('the same frame with a changed value is not written; the answer names the subject and what changed; force writes it', async () => {
    const root = workspace();
    await remember(await open(root), fact('The deploy window is Tuesday 10:00-12:00 UTC.', { slug: 'deploy-window' }), at('2026-01-01T00:00:00.000Z'));
    const out = await remember(await open(root), fact('The deploy window is Thursday 14:00-16:00 UTC.'), { source: 'model' });
    expect(out).toMatchObject({ status: 'update', isError: true, existing: { slug: 'deploy-window' } });
    expect(out.failure).toMatchObject({ kind: 'update', was: ['Tuesday', '10:00', '12:00'], now: ['Thursday', '14:00', '16:00'] });
    expect(text(out)).toContain('this looks like an update of subject "deploy-window" of topic "notes"');
    expect(text(out)).toContain('call revise with topic "notes", slug "deploy-window" and your text');
    expect(readdirSync(join(root, 'notes')).sort()).toEqual(['deploy-window.md', 'old.md']);
    const forced = await remember(await open(root), fact('The deploy window is Thursday 14:00-16:00 UTC.', { force: true }), { source: 'model' });
    expect(forced).toMatchObject({ status: 'written', updateOf: true });
    expect(text(forced)).toContain('written although it looks like an update of "deploy-window"');
  });

  test('another fact of one frame is written (the issue\'s quokkas and llamas)', async () => {
    const root = workspace();
    await remember(await open(root), fact('Quokkas visit the office on Fridays.'), { source: 'user' });
    const out = await remember(await open(root), fact('Llamas visit the office on Mondays.'), { source: 'user' });
    expect(out).toMatchObject({ status: 'written', isError: false });
    expect(out.near).toBeUndefined();
  });
});

describe('revise', () => {
  test('replaces the text at once, keeping the slug, created and tags; the earlier file goes to its history; listings and search see the new text', async () => {
    const root = workspace();
    await remember(await open(root), fact('The deploy window is Tuesday 10:00-12:00 UTC.', { slug: 'ops/deploy-window', tags: ['ops'] }), at('2026-01-01T00:00:00.000Z'));
    const before = read(root, 'notes/ops/deploy-window.md');
    const out = await revise(await open(root), change('ops/deploy-window', 'The deploy window is Thursday 14:00-16:00 UTC.'), at('2026-02-01T00:00:00.000Z'));
    expect(text(out)).toBe(
      'Revised subject "ops/deploy-window" of topic "notes" (notes/ops/deploy-window.md). Its earlier text is kept in notes/ops/.deploy-window.history.md (1 earlier text, newest first). Load it with learn, topic "notes", subjects "ops/deploy-window".\n',
    );
    expect(out).toMatchObject({ status: 'revised', isError: false, slug: 'ops/deploy-window' });
    expect(read(root, 'notes/ops/deploy-window.md')).toBe(
      '---\ndescription: "The deploy window is Thursday 14:00-16:00 UTC."\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-02-01T00:00:00.000Z\ntags: ["ops"]\nsource: user\n---\nThe deploy window is Thursday 14:00-16:00 UTC.\n',
    );
    expect(parseHistory(read(root, 'notes/ops/.deploy-window.history.md'))).toEqual([{ replaced: '2026-02-01T00:00:00.000Z', text: before }]);
    expect(readdirSync(join(root, 'notes/ops')).filter((n) => n.startsWith('.kb-'))).toEqual([]);
    const listing = (await learnCall(await open(root), { topic: 'notes' })).text;
    expect(listing).toContain('- ops/deploy-window: The deploy window is Thursday 14:00-16:00 UTC.');
    expect(listing).not.toContain('history');
    // The history is hidden: loadable by its exact slug only.
    expect((await learnCall(await open(root), { topic: 'notes', subjects: ['ops/deploy-window.history'] })).text).toContain('Tuesday 10:00-12:00');
    expect((await learnCall(await open(root), { topic: 'notes', subjects: ['ops/*'] })).text).not.toContain('Tuesday');
    const found = await search(await open(root), { query: 'deploy window', limit: 10 });
    expect(found.results.map((r) => [r.slug, r.created, r.updated])).toEqual([['ops/deploy-window', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z']]);
  });

  test('the same text again: nothing written, no history; a description or tags given: written', async () => {
    const root = workspace();
    await remember(await open(root), fact('Backups run nightly.', { slug: 'backups' }), { source: 'user' });
    const same = await revise(await open(root), change('backups', 'Backups  run nightly.'), { source: 'model' });
    expect(same).toMatchObject({ status: 'unchanged', isError: false });
    expect(existsSync(join(root, 'notes/.backups.history.md'))).toBe(false);
    const tagged = await revise(await open(root), change('backups', 'Backups run nightly.', { tags: ['ops'], description: 'When backups run' }), { source: 'model' });
    expect(tagged.status).toBe('revised');
    expect(read(root, 'notes/backups.md')).toContain('description: "When backups run"\n');
    expect(read(root, 'notes/backups.md')).toContain('tags: ["ops"]\nsource: model\n');
    // A description written on purpose is kept; one made from the text is made again.
    await revise(await open(root), change('backups', 'Backups run every night at 01:00.'), { source: 'model' });
    expect(read(root, 'notes/backups.md')).toContain('description: "When backups run"\n');
  });

  test(`the history keeps the ${HISTORY_VERSIONS} latest earlier texts, and the answer says when one was dropped`, async () => {
    const root = workspace();
    await remember(await open(root), fact('Counter is 0.', { slug: 'counter' }), { source: 'user' });
    let last;
    for (let i = 1; i <= HISTORY_VERSIONS + 2; i++) last = await revise(await open(root), change('counter', `Counter is ${i}.`), { source: 'user' });
    expect(last!.history).toMatchObject({ kept: HISTORY_VERSIONS, dropped: 1 });
    expect(text(last!)).toContain('The history keeps the 10 latest (at most 1 MiB): the oldest was dropped.');
    const kept = parseHistory(read(root, 'notes/.counter.history.md'))!;
    expect(kept).toHaveLength(HISTORY_VERSIONS);
    expect(kept[0].text).toContain(`Counter is ${HISTORY_VERSIONS + 1}.`);
    expect(kept[HISTORY_VERSIONS - 1].text).toContain('Counter is 2.');
  });

  test('a subject kb did not write is refused unless forced; forced, its whole file is kept and its time becomes created', async () => {
    const root = workspace({ 'notes/guide.md': '---\ntitle: Guide\naliases: [g]\n---\nHand-written guide.\n' });
    utimesSync(join(root, 'notes/guide.md'), new Date('2024-05-06T07:08:09.000Z'), new Date('2024-05-06T07:08:09.000Z'));
    const refused = await revise(await open(root), change('guide', 'A new guide.'), { source: 'model' });
    expect(refused).toMatchObject({ status: 'error', isError: true, failure: { kind: 'not-ours' } });
    expect(text(refused)).toContain('call revise again with "force": true');
    expect(read(root, 'notes/guide.md')).toBe('---\ntitle: Guide\naliases: [g]\n---\nHand-written guide.\n');
    const forced = await revise(await open(root), change('guide', 'A new guide.', { force: true }), at('2026-03-01T00:00:00.000Z'));
    expect(forced.status).toBe('revised');
    expect(read(root, 'notes/guide.md')).toContain('created: 2024-05-06T07:08:09.000Z\nupdated: 2026-03-01T00:00:00.000Z\n');
    expect(parseHistory(read(root, 'notes/.guide.history.md'))![0].text).toBe('---\ntitle: Guide\naliases: [g]\n---\nHand-written guide.\n');
  });

  test('never a hidden, disabled, unknown, skill, non-Markdown, linked, non-UTF-8 subject, nor in a topic not writable here', async () => {
    const outside = makeTempDir('kb-revise-outside-');
    writeFileSync(join(outside, 'target.md'), '---\nsource: user\n---\nOutside.\n');
    const ours = (t: string) => `---\nsource: user\n---\n${t}\n`;
    const root = workspace({
      'notes/.secret.md': ours('Hidden.'),
      'notes/data.txt': ours('Text file.'),
      'notes/latin.md': new Uint8Array([...new TextEncoder().encode('---\nsource: user\n---\ncaf'), 0xe9, 10]),
      'notes/skill/SKILL.md': '---\nname: skill\ndescription: A skill.\n---\nBody.\n',
      'notes/skill/ref.md': ours('Bundled.'),
    });
    symlinkSync(join(outside, 'target.md'), join(root, 'notes/linked.md'));
    const why = async (slug: string, ctx = { source: 'user' as const }) => {
      const out = await revise(await open(root), change(slug, 'New text.', { force: true }), ctx);
      expect(out.isError).toBe(true);
      return text(out);
    };
    expect(await why('secret')).toContain('hidden subjects are never revised');
    expect(await why('old')).toContain('disabled subjects are never revised');
    expect(await why('nope')).toContain('has no subject "nope"');
    expect(await why('skill')).toContain('Agent Skill');
    expect(await why('skill/ref')).toContain('bundled');
    expect(await why('data')).toContain('not a Markdown file');
    expect(await why('linked')).toContain('is a symbolic link');
    expect(await why('latin')).toContain('not valid UTF-8');
    const mcp = await toolCall(await open(root), 'revise', { topic: 'docs', slug: 'readme', text: 'x' }, { source: 'model', writable: new Set(['notes']) });
    expect(mcp.isError).toBe(true);
    expect(mcp.text).toContain('not writable here');
    expect(read(root, 'notes/.secret.md')).toBe(ours('Hidden.'));
    expect(readFileSync(join(outside, 'target.md'), 'utf8')).toBe('---\nsource: user\n---\nOutside.\n');
    expect(readdirSync(join(root, 'notes')).filter((n) => n.includes('history'))).toEqual([]);
  });

  test('a history file kb did not write, or that is a link, is never rewritten: the revision is refused, nothing changes', async () => {
    const root = workspace();
    await remember(await open(root), fact('Lunch is at noon.', { slug: 'lunch' }), { source: 'user' });
    await remember(await open(root), fact('Coffee is free.', { slug: 'coffee' }), { source: 'user' });
    writeFileSync(join(root, 'notes/.lunch.history.md'), '# My own notes about lunch\n');
    const target = join(makeTempDir('kb-revise-t-'), 'elsewhere.md');
    writeFileSync(target, 'not kb\n');
    symlinkSync(target, join(root, 'notes/.coffee.history.md'));
    const lunch = await revise(await open(root), change('lunch', 'Lunch is at 13:00.'), { source: 'user' });
    expect(text(lunch)).toContain('.lunch.history.md is not a history as kb writes it');
    expect(read(root, 'notes/.lunch.history.md')).toBe('# My own notes about lunch\n');
    expect(read(root, 'notes/lunch.md')).toContain('Lunch is at noon.');
    const coffee = await revise(await open(root), change('coffee', 'Coffee costs 1 EUR.'), { source: 'user' });
    expect(text(coffee)).toContain('.coffee.history.md is a symbolic link');
    expect(readFileSync(target, 'utf8')).toBe('not kb\n');
  });

  test('a read-only folder: refused with the reason, nothing changes', async () => {
    if (process.getuid?.() === 0) return; // root writes anyway
    const root = workspace();
    await remember(await open(root), fact('Lunch is at noon.', { slug: 'lunch' }), { source: 'user' });
    chmodSync(join(root, 'notes'), 0o555);
    try {
      const out = await revise(await open(root), change('lunch', 'Lunch is at 13:00.'), { source: 'user' });
      expect(out.isError).toBe(true);
    } finally {
      chmodSync(join(root, 'notes'), 0o755);
    }
    expect(read(root, 'notes/lunch.md')).toContain('Lunch is at noon.');
  });
});
