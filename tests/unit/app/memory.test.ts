// The write path in process (app/memory.ts, kb/write/): what remember and
// forget write, refuse and answer, through `KnowledgeBase.open` on fixture
// workspaces. The command line and MCP print this text
// (tests/e2e/memory.test.ts).
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KnowledgeBase } from '../../../src/app/knowledge-base.ts';
import { call as learnCall } from '../../support/tool-call.ts';
import { check } from '../../../src/app/check.ts';
import { renderWriteOutcome as text } from '../../../src/render/memory.ts';
import { descriptionFrom, forget, remember, subjectFile, type RememberArgs } from '../../../src/app/memory.ts';
import { validateRememberArgs } from '../../../src/app/tools/remember.ts';
import { toolCall } from '../../support/tool-call.ts';
import { search } from '../../../src/app/search.ts';
import { TEMP_PREFIX } from '../../../src/kb/write/file.ts';
import { badSlug, slugFromText, uniqueSlug } from '../../../src/kb/write/slug.ts';
import { bodyOf, NEAR_THRESHOLD, nearPairs, normalise, profile, similarity } from '../../../src/kb/write/similar.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';
import { COSTS } from '../../../src/render/costs.ts';

const HOME = makeTempDir('kb-memory-home-');
const CONFIG = `[kb.topic.notes]
title = "Team notes"
subjects = "notes"
disabled = ["old"]

[kb.topic.docs]
subjects = "docs"

[kb.topic.off]
subjects = "off"
enable = false
`;

function workspace(files: Record<string, string> = {}): string {
  return tempWorkspace('kb-memory-', { 'notes/old.md': 'An old note.\n', 'docs/readme.md': '# Docs\n', 'off/x.md': 'x\n', ...files }, CONFIG);
}

function open(root: string): Promise<KnowledgeBase> {
  return KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: { XDG_CACHE_HOME: join(root, '.cache-home') }, home: HOME }, { costs: COSTS });
}

/** The learn listing of topic notes, as the model sees it. */
async function listingOf(root: string): Promise<string> {
  return (await learnCall(await open(root), { topic: 'notes' })).text;
}

const fact = (text: string, more: Partial<RememberArgs> = {}): RememberArgs => ({ topic: 'notes', text, tags: [], force: false, ...more });
const user = { source: 'user' as const, now: new Date('2025-01-02T03:04:05.000Z') };

describe('slugs', () => {
  test.each([
    ['Releases are tagged every second Tuesday.', 'releases-tagged-every-second-tuesday'],
    ['# Café au lait: the café policy\n\nbody', 'cafe-au-lait-cafe-policy'],
    ['   \n\nHow do we deploy?', 'deploy'],
    ['!!!', 'note'],
    ['a b c', 'b-c'],
    ['The quick brown fox jumps over the lazy dog again and again', 'quick-brown-fox-jumps-lazy-dog'],
  ])('%j -> %s', (text, slug) => expect(slugFromText(text)).toBe(slug));

  test('short: at most 48 characters', () => {
    expect(slugFromText('supercalifragilisticexpialidocious antidisestablishmentarianism words').length).toBeLessThanOrEqual(48);
  });

  test('unique: -2, -3 ...', () => {
    const taken = new Set(['a', 'a-2']);
    expect(uniqueSlug('a', (s) => taken.has(s))).toBe('a-3');
    expect(uniqueSlug('b', (s) => taken.has(s))).toBe('b');
  });

  test.each([['', 'empty'], ['.x', 'dot'], ['a/../b', '".."'], ['a//b', 'empty path'], ['a b', 'characters'], ['x'.repeat(201), 'longer']])('bad slug %j', (slug, why) => {
    expect(badSlug(slug)).toContain(why);
  });
  test('good slugs', () => expect([badSlug('a/b-c_d.e'), badSlug('Notes')]).toEqual([undefined, undefined]));
});

describe('duplicates', () => {
  test('exact: case, white space and Unicode forms do not count', () => {
    expect(normalise('  Hello\n\tWORLD  ')).toBe(normalise('hello world'));
    expect(normalise('ﬁle')).toBe(normalise('file'));
  });
  test('near: a paraphrase is above the threshold, another fact below', () => {
    const a = profile('Releases are tagged vYYYY.MM.DD every second Tuesday.');
    expect(similarity(a, profile('Every other Tuesday a release is tagged vYYYY.MM.DD.'))).toBeGreaterThanOrEqual(NEAR_THRESHOLD);
    expect(similarity(a, profile('Run cargo clippy with warnings denied before opening a pull request.'))).toBeLessThan(NEAR_THRESHOLD);
    expect(similarity(a, a)).toBeCloseTo(1, 6);
  });
  test('frontmatter is not compared', () => {
    expect(bodyOf('---\ndescription: x\n---\nbody\n')).toBe('body\n');
    expect(bodyOf('no front\n')).toBe('no front\n');
    expect(bodyOf('---\nunclosed\n')).toBe('---\nunclosed\n');
  });
});

describe('the file', () => {
  test('frontmatter: description, created and updated, tags, source; the text as given', () => {
    const text = subjectFile(fact('Deploys go out at 10:00.', { tags: ['ops', 'a "b"'], description: 'When we deploy' }), 'model', user.now);
    expect(text).toBe('---\ndescription: "When we deploy"\ncreated: 2025-01-02T03:04:05.000Z\nupdated: 2025-01-02T03:04:05.000Z\ntags: ["ops", "a \\"b\\""]\nsource: model\n---\nDeploys go out at 10:00.\n');
  });
  test('the default description is the first line, cut with an ellipsis', () => {
    expect(descriptionFrom('# Title\n\nbody')).toBe('Title');
    const long = descriptionFrom('word '.repeat(100));
    expect(Array.from(long)).toHaveLength(160);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('remember', () => {
  test('writes a new subject that the next listing and search see', async () => {
    const root = workspace();
    const kb = await open(root);
    // a search first, so that a cache exists to be revalidated
    expect((await search(kb, { query: 'deploys', limit: 5 })).total).toBe(0);
    const r = await remember(kb, fact('Deploys go out at 10:00 on weekdays.', { tags: ['ops'] }), user);
    expect(r).toMatchObject({ status: 'written', isError: false, slug: 'deploys-go-10-00-weekdays', path: 'notes/deploys-go-10-00-weekdays.md' });
    expect(readFileSync(join(root, r.path!), 'utf8')).toContain('source: user\n---\nDeploys go out at 10:00 on weekdays.\n');
    expect(await listingOf(root)).toContain('- deploys-go-10-00-weekdays: Deploys go out at 10:00 on weekdays.');
    const again = await open(root);
    expect((await search(again, { query: 'deploys weekdays', limit: 5 })).results.map((x) => x.slug)).toEqual(['deploys-go-10-00-weekdays']);
  });

  test('an identical text is not written again; the answer names the subject', async () => {
    const root = workspace({ 'notes/deploy.md': '---\ndescription: d\n---\nDeploys go out at 10:00.\n' });
    const r = await remember(await open(root), fact('  deploys GO out at 10:00.  '), user);
    expect(r).toMatchObject({ status: 'duplicate', isError: false, slug: 'deploy' });
    expect(text(r)).toContain('"deploy"');
    expect(readdirSync(join(root, 'notes')).sort()).toEqual(['deploy.md', 'old.md']);
  });

  test('a near duplicate needs force; force writes it and says so', async () => {
    const root = workspace({ 'notes/release.md': 'Releases are tagged vYYYY.MM.DD every second Tuesday.\n' });
    const kb = await open(root);
    const said = 'Every other Tuesday a release is tagged vYYYY.MM.DD.';
    const near = await remember(kb, fact(said), { ...user, source: 'model' });
    expect(near).toMatchObject({ status: 'near-duplicate', isError: true, existing: { slug: 'release' } });
    expect(text(near)).toContain('"force": true');
    expect(readdirSync(join(root, 'notes'))).toHaveLength(2);
    const forced = await remember(kb, fact(said, { force: true }), user);
    expect(forced).toMatchObject({ status: 'written', existing: { slug: 'release' } });
    expect(text(forced)).toContain('similar');
  });

  test('never over an existing file: a given slug that is taken is refused; a made one gets -2', async () => {
    const root = workspace({ 'notes/deploy.md': 'Something else entirely.\n', 'notes/.hidden.md': 'h\n' });
    const kb = await open(root);
    expect((await remember(kb, fact('About deploys', { slug: 'deploy' }), user)).status).toBe('error');
    expect(text(await remember(kb, fact('About secrets', { slug: 'hidden' }), user))).toContain('already has');
    expect(text(await remember(kb, fact('About old things', { slug: 'old' }), user))).toContain('disabled');
    const made = await remember(kb, fact('Deploy', {}), user);
    expect(made.slug).toBe('deploy-2');
    expect(readFileSync(join(root, 'notes/deploy.md'), 'utf8')).toBe('Something else entirely.\n');
  });

  test('a slug with folders creates them inside the topic', async () => {
    const root = workspace();
    const r = await remember(await open(root), fact('The on-call rota is in the wiki.', { slug: 'ops/on-call' }), user);
    expect(r).toMatchObject({ status: 'written', path: 'notes/ops/on-call.md' });
  });

  test('never ignored, hidden, skill or outside paths', async () => {
    const outside = makeTempDir('kb-memory-outside-');
    const root = workspace({ 'notes/.kbignore': 'drafts/\n*.tmp.md\n', 'notes/skill/SKILL.md': '---\nname: skill\ndescription: s\n---\n' });
    symlinkSync(outside, join(root, 'notes/away'));
    const kb = await open(root);
    const refused = async (slug: string, why: string) => {
      const r = await remember(kb, fact(`Text for ${slug}`, { slug }), user);
      expect(r.status).toBe('error');
      expect(text(r)).toContain(why);
    };
    await refused('drafts/x', 'ignored');
    await refused('x.tmp', 'ignored');
    await refused('away/x', 'outside');
    await refused('skill/x', 'Agent Skill');
    await refused('node_modules/x', 'ignored');
    expect(readdirSync(outside)).toEqual([]);
    expect(validateRememberArgs({ topic: 'notes', text: 't', slug: '.hidden' })).toMatchObject({ ok: false });
  });

  test('a topic that is unknown, disabled, or not writable here', async () => {
    const root = workspace();
    const kb = await open(root);
    expect(text(await remember(kb, fact('x', { topic: 'nope' }), user))).toContain('Unknown topic "nope"');
    expect(text(await remember(kb, fact('x', { topic: 'off' }), user))).toContain('Unknown topic "off"'); // disabled topics are unknown, as to learn
    const r = await remember(kb, fact('x', { topic: 'docs' }), { source: 'model', writable: new Set(['notes']) });
    expect(text(r)).toContain('not writable');
    expect(text(r)).toContain('Writable topics: notes');
    // by title
    expect((await remember(kb, fact('By title', { topic: 'Team notes' }), { source: 'model', writable: new Set(['notes']) })).status).toBe('written');
  });

  test('a temporary file left by an interrupted write is removed, and said', async () => {
    const root = workspace();
    const tmp = join(root, 'notes', `${TEMP_PREFIX}999-abc`);
    writeFileSync(tmp, 'half');
    const old = new Date(Date.now() - 60_000);
    utimesSync(tmp, old, old);
    const r = await remember(await open(root), fact('Something new'), user);
    expect(r.status).toBe('written');
    expect(existsSync(tmp)).toBe(false);
    expect(r.problems.map((p) => p.message).join('\n')).toContain('left by an interrupted write');
  });

  test('arguments as a model sends them', async () => {
    const root = workspace();
    const kb = await open(root);
    const bad = async (v: unknown, what: string) => {
      const r = await toolCall(kb, 'remember', v, { source: 'model' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(what);
    };
    await bad([], 'JSON object');
    await bad({ topic: 'notes' }, '"text" is required');
    await bad({ topic: 'notes', text: '   ' }, 'empty');
    await bad({ topic: 'notes', text: 'x', extra: 1 }, 'unknown argument "extra"');
    await bad({ topic: 'notes', text: 'x', tags: 'a' }, '"tags" must be an array');
    await bad({ topic: 'notes', text: 'x', force: 'yes' }, '"force" must be a boolean');
    await bad({ topic: 'notes', text: 'a\0b' }, 'NUL');
    const nulls = { topic: 'notes', text: 'Nulls are fine', slug: null, description: null, tags: null, force: null };
    expect(validateRememberArgs(nulls)).toEqual({ ok: true, args: { topic: 'notes', text: 'Nulls are fine', tags: [], force: false } });
    const ok = await toolCall(kb, 'remember', nulls, { source: 'model' });
    expect(ok.text).toBe('Remembered as subject "nulls-fine" of topic "notes" (notes/nulls-fine.md). Load it with learn, topic "notes", subjects "nulls-fine".\n');
    expect(readFileSync(join(root, 'notes/nulls-fine.md'), 'utf8')).toContain('source: model');
  });
});

describe('forget', () => {
  test('removes a visible subject; the next listing no longer has it', async () => {
    const root = workspace({ 'notes/deploy.md': 'x\n' });
    const r = await forget(await open(root), { topic: 'notes', slug: 'deploy' }, user);
    expect(r).toMatchObject({ status: 'forgotten', path: 'notes/deploy.md' });
    expect(text(r)).toContain('Version control keeps its history');
    expect(existsSync(join(root, 'notes/deploy.md'))).toBe(false);
    expect(await listingOf(root)).not.toContain('deploy');
  });

  test('hidden, disabled, unknown, skill and outside subjects are refused', async () => {
    const outside = makeTempDir('kb-memory-outside-');
    mkdirSync(join(outside, 'd'));
    writeFileSync(join(outside, 'd/keep.md'), 'keep\n');
    const root = workspace({ 'notes/.secret.md': 's\n', 'notes/skill/SKILL.md': '---\nname: skill\ndescription: s\n---\n', 'notes/skill/ref.md': 'r\n' });
    symlinkSync(join(outside, 'd'), join(root, 'notes/linked'));
    const kb = await open(root);
    const refused = async (slug: string, why: string) => {
      const r = await forget(kb, { topic: 'notes', slug }, user);
      expect(r.status).toBe('error');
      expect(text(r)).toContain(why);
    };
    await refused('secret', 'hidden');
    await refused('old', 'disabled');
    await refused('nope', 'no subject "nope"');
    await refused('skill', 'Agent Skill');
    await refused('skill/ref', 'bundled');
    await refused('linked/keep', 'outside');
    expect(existsSync(join(outside, 'd/keep.md'))).toBe(true);
    expect(existsSync(join(root, 'notes/.secret.md'))).toBe(true);
  });
});

describe('kb check reports near duplicates', () => {
  test('pairs, most similar first; never between unrelated subjects, nor two facts of one frame', () => {
    const { pairs } = nearPairs([
      'Releases are tagged every second Tuesday.',
      'Alice owns billing.',
      'Every second Tuesday, releases are tagged.',
      'Bob owns billing.',
      'The deploy window is Tuesday 10:00-12:00 UTC.',
      'The deploy window is Thursday 14:00-16:00 UTC.',
    ]);
    expect(pairs.map((p) => [p.a, p.b, p.judgement.kind])).toEqual([
      [0, 2, 'duplicate'],
      [4, 5, 'update'],
    ]);
    expect(pairs[0].similarity).toBeCloseTo(1, 5);
    expect(pairs[1].judgement).toMatchObject({ was: ['Tuesday', '10:00', '12:00'], now: ['Thursday', '14:00', '16:00'] });
  });

  test('a warning per pair of visible subjects kb wrote; hidden and disabled ones are left out; nothing is removed', async () => {
    const ours = (text: string) => `---\ndescription: one\nsource: user\n---\n${text}`;
    const root = workspace({
      'notes/a.md': ours('The staging database is reset every night at 02:00.\n'),
      'notes/b.md': ours('Every night at 02:00 the staging database is reset.\n'),
      'notes/.c.md': ours('The staging database is reset every night at 02:00.\n'),
      'notes/old.md': ours('The staging database is reset every night.\n'),
      'notes/d.md': ours('Alice owns the billing module.\n'),
      'notes/e.md': 'Every night at 02:00, the staging database is reset.\n',
    });
    const summary = await check(await open(root));
    const near = summary.diagnostics.filter((p) => p.code === 'near-duplicate');
    expect(near).toHaveLength(1);
    expect(near[0]).toMatchObject({ severity: 'warning', topic: 'notes', where: 'notes/a.md' });
    expect(near[0].message).toContain('subjects "a" and "b" say nearly the same');
    expect(readdirSync(join(root, 'notes')).sort()).toEqual(['.c.md', 'a.md', 'b.md', 'd.md', 'e.md', 'old.md']);
  });
});
