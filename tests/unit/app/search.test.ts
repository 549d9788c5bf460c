// Search and recall in process (app/search.ts, app/recall.ts), through
// `KnowledgeBase.open`, on fixture workspaces; the search cache in a temp
// XDG_CACHE_HOME. What the CLI and the MCP tool print is this text
// (tests/e2e/search.cases.ts).
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KnowledgeBase, type WorkspaceOptions } from '../../../src/app/knowledge-base.ts';
import { IndexCache } from '../../../src/app/resident.ts';
import { recall } from '../../../src/app/recall.ts';
import { search, type SearchArgs, type SearchOutcome } from '../../../src/app/search.ts';
import { validateSearchArgs } from '../../../src/app/tools/search.ts';
import { toolCall } from '../../support/tool-call.ts';
import type { RecallOutcome } from '../../../src/app/recall.ts';
import { recallText, renderSearch } from '../../../src/render/search.ts';

/** The model's text of a search or a recall. */
const text = (o: SearchOutcome | RecallOutcome): string => ('query' in o ? renderSearch(o) : recallText(o));
import { SEARCH_PARAMETERS } from '../../../src/app/tools.ts';
import { estimateTokens } from '../../../src/kb/content/tokens.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';
import { COSTS } from '../../../src/render/costs.ts';

const HOME = makeTempDir('kb-search-home-');

function open(root: string, more: Partial<WorkspaceOptions> = {}): Promise<KnowledgeBase> {
  const cache = join(root, '.cache-home');
  return KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: { XDG_CACHE_HOME: cache }, home: HOME, ...more }, { costs: COSTS });
}

const args = (query: string, more: Partial<SearchArgs> = {}): SearchArgs => ({ query, limit: 10, ...more });

const CONFIG = `[kb.topic.docs]
title = "Project docs"
subjects = "docs"
disabled = ["old"]

[kb.topic.notes]
subjects = "notes"
`;

const FILES: Record<string, string | Uint8Array> = {
  'docs/release.md': '---\ndescription: How releases are tagged and published\n---\n# Releasing\n\nBump the version, tag the release, push the tag.\n',
  'docs/style.md': '# Style\n\nFormatting and naming rules for code review.\n',
  'docs/old.md': 'The old release process, disabled.\n',
  'docs/.secret.md': 'The release signing key lives here.\n',
  'docs/.kbignore': 'drafts/\n',
  'docs/drafts/next.md': 'A draft about the next release.\n',
  'docs/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
  'docs/skills/tagger/SKILL.md': '---\nname: tagger\ndescription: Tags a release in git\n---\nRun the tagging script.\n',
  'docs/skills/tagger/scripts/tag.sh': '#!/bin/sh\n# release tag helper\ngit tag "$1"\n',
  'notes/meeting.txt': 'We agreed to tag every release on Fridays.\n',
};

describe('search', () => {
  const root = tempWorkspace('kb-search-', FILES, CONFIG);

  test('ranked subjects with topic, description, snippet and tokens; hidden, disabled, ignored and binary never appear; bundled files of a skill do, under their own slug', async () => {
    const kb = await open(root);
    const r = await search(kb, args('tag release'));
    expect(r.isError).toBe(false);
    const slugs = r.results.map((x) => `${x.topic}:${x.slug}`);
    expect(slugs.sort()).toEqual(['docs:release', 'docs:skills/tagger', 'docs:skills/tagger/scripts/tag', 'notes:meeting']);
    const release = r.results.find((x) => x.slug === 'release')!;
    expect(release.description).toBe('How releases are tagged and published');
    expect(release.snippet).toBe('Bump the version, tag the release, push the tag.');
    expect(release.tokens).toBeGreaterThan(0);
    expect(r.results.find((x) => x.slug === 'skills/tagger')!.description).toBe('Tags a release in git');
    expect(text(r)).toStartWith('4 subjects match "tag release", best first. Load one with the `learn` tool (topic and slug as shown), or some of its lines (`slug:120-160`).\n\n1. docs: release (~27 tokens)\n   How releases are tagged and published\n   > 6: Bump the version, tag the release, push the tag.\n\n');
    expect(release.line).toBe(6);
    expect(release.passages).toEqual([{ line: 6, text: 'Bump the version, tag the release, push the tag.' }]);
    expect(text(r)).toContain(': release (~');
    expect(text(r)).toContain('   How releases are tagged and published\n   > 6: Bump the version, tag the release, push the tag.');
    for (const gone of ['old', 'secret', 'drafts', 'logo']) expect(text(r)).not.toContain(gone);
  });

  test("a result's token estimate is its text's, whatever the file's bytes: a byte-order mark, invalid UTF-8, UTF-16", async () => {
    const enc = new TextEncoder();
    const utf16 = (s: string) => new Uint8Array([0xff, 0xfe, ...[...s].flatMap((c) => [c.charCodeAt(0), 0])]);
    // Each estimate differs from what counting the file's bytes as they are
    // would give (a mark or a lone byte counted, or not, as a character).
    const files: Record<string, string | Uint8Array> = {
      'docs/plain.md': 'zebra\n',
      'docs/marked.md': '\ufeffzebra\n',
      'docs/broken.md': new Uint8Array([...enc.encode('zebra'), 0x80, 0x0a]),
      'docs/wide.md': utf16('zebra\n'),
    };
    const kb = await open(tempWorkspace('kb-search-tokens-', files, '[kb.topic.docs]\nsubjects = "docs"\n'));
    const r = await search(kb, args('zebra'));
    const tokens = Object.fromEntries(r.results.map((x) => [x.slug, x.tokens]));
    expect(tokens).toEqual({ plain: estimateTokens('zebra\n'), marked: estimateTokens('zebra\n'), broken: estimateTokens('zebra\ufffd\n'), wide: estimateTokens('zebra\n') });
    expect([tokens.plain, tokens.broken]).toEqual([1, 2]);
  });

  test('one topic, by ID or title; an unknown topic is an error result', async () => {
    const kb = await open(root);
    expect((await search(kb, args('tag', { topic: 'Project docs' }))).results.every((x) => x.topic === 'docs')).toBe(true);
    expect((await search(kb, args('tag', { topic: 'notes' }))).results.map((x) => x.slug)).toEqual(['meeting']);
    const bad = await search(kb, args('tag', { topic: 'nope' }));
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe('Unknown topic "nope". Valid topics: docs (Project docs), notes.\n');
  });

  test('no match: said, with a hint, not an error; misspelt words are read with typos and said', async () => {
    const kb = await open(root);
    const none = await search(kb, args('xylophone'));
    expect(none.total).toBe(0);
    expect(none.isError).toBe(false);
    expect(text(none)).toBe('No subjects match "xylophone".\n\n[No subject has the word "xylophone".]\nTry other words, or list a topic with the `learn` tool.\n');
    const typo = await search(kb, args('relase'));
    expect(typo.results[0].slug).toBe('release');
    expect(text(typo)).toContain('[No subject has the word "relase"; also searched for "releas"');
  });

  test('the limit, then the budget: every cut is said to the model and on stderr', async () => {
    const kb = await open(root);
    const limited = await search(kb, args('tag release', { limit: 1 }));
    expect(limited.results).toHaveLength(1);
    expect(text(limited)).toContain('4 subjects match "tag release"; the 1 best, best first.');
    expect(text(limited)).toEndWith('[3 more subjects match beyond the limit; raise `limit` to see them.]\n');
    const small = await search(await open(root, { maxTokens: 90 }), args('tag release'));
    expect(small.cut).toBeGreaterThan(0);
    expect(estimateTokens(text(small))).toBeLessThanOrEqual(90);
    expect(text(small)).toContain(`left out to stay within the 90-token budget`);
    expect(small.problems.map((p) => p.code)).toContain('budget');
  });

  test('the cache: written under XDG_CACHE_HOME/kb/search, one file per topic; none with searchCache false', async () => {
    const fresh = tempWorkspace('kb-search-', FILES, CONFIG);
    const r = await search(await open(fresh, { searchCache: false }), args('tag'));
    expect(r.indexes.map((i) => i.status)).toEqual(['memory', 'memory']);
    expect(existsSync(join(fresh, '.cache-home'))).toBe(false);
    const first = await search(await open(fresh), args('tag'));
    expect(first.indexes.map((i) => i.status)).toEqual(['built', 'built']);
    expect(readdirSync(join(fresh, '.cache-home', 'kb', 'search'))).toHaveLength(2);
    expect(text(first)).toBe(text(r));
  });

  test('a cache that cannot be written: the search answers, and stderr says so', async () => {
    const fresh = tempWorkspace('kb-search-', { ...FILES, 'not-a-dir': 'x' }, CONFIG);
    const kb = await KnowledgeBase.open({ cwd: fresh, cfg: [], knowledge: [], env: { XDG_CACHE_HOME: join(fresh, 'not-a-dir') }, home: HOME }, { costs: COSTS });
    const r = await search(kb, args('tag'));
    expect(r.total).toBe(4);
    expect(r.problems.map((p) => p.code)).toEqual(['search-cache', 'search-cache']);
  });
});

describe('the search tool call', () => {
  const root = tempWorkspace('kb-search-', FILES, CONFIG);

  test.each([
    [{ query: 'tag' }, { query: 'tag', limit: 10 }],
    [{ query: 'tag', topic: null, limit: null }, { query: 'tag', limit: 10 }],
    [{ query: 'tag', topic: 'docs', limit: 3 }, { query: 'tag', topic: 'docs', limit: 3 }],
  ])('%j is accepted', (value, expected) => expect(validateSearchArgs(value)).toEqual({ ok: true, args: expected }));

  test.each([
    [null, 'the arguments must be a JSON object, not null'],
    [{}, '"query" is required'],
    [{ query: 3 }, '"query" must be a string, not number'],
    [{ query: '  ' }, '"query" must not be empty'],
    [{ query: 'x'.repeat(4097) }, '"query" is 4097 characters long; at most 4096 are accepted'],
    [{ query: 'x', limit: 0 }, '"limit" must be between 1 and 50, not 0'],
    [{ query: 'x', limit: 2.5 }, '"limit" must be an integer or null, not 2.5'],
    [{ query: 'x', topic: 1 }, '"topic" must be a string or null, not number'],
    [{ query: 'x', subjects: 'a' }, 'unknown argument "subjects"'],
  ])('%j is refused', (value, problem) => expect(validateSearchArgs(value)).toMatchObject({ ok: false, problem }));

  test('bad arguments are an error result the model can read', async () => {
    const r = await toolCall(await open(root), 'search', { q: 'x' });
    expect(r).toEqual({
      text: 'Invalid arguments for `search`: unknown argument "q". Expected {"query": string, "topic"?: string | null, "topics"?: string[] | null, "tags"?: string[] | null, "type"?: string | null, "status"?: string | null, "limit"?: integer | null}.\n',
      isError: true,
      problems: [],
    });
    expect((await toolCall(await open(root), 'search', { query: 'tag' })).text).toBe(text(await search(await open(root), args('tag'))));
  });

  test('its schema is fixed: query required, topic, topics, tags, type, status and limit optional', () => {
    expect(SEARCH_PARAMETERS.required).toEqual(['query']);
    expect(Object.keys(SEARCH_PARAMETERS.properties)).toEqual(['query', 'topic', 'topics', 'tags', 'type', 'status', 'limit']);
  });
});

describe('recall', () => {
  const big = ['# Big guide', '', 'Intro text.', ''];
  for (let i = 0; i < 40; i++) big.push(`## Part ${i}`, '', `${'filler words about nothing in particular. '.repeat(20)}`, '');
  big.push('## Rollback', '', 'To roll back a deployment, run the rollback command and check the canary.', '');
  const files = {
    'docs/deploy.md': '# Deploying\n\nDeploy with the deploy script after the canary passes.\n',
    'docs/guide.md': big.join('\n'),
    'docs/style.md': '# Style\n\nNaming rules.\n',
  };
  const root = tempWorkspace('kb-recall-', files, '[kb.topic.docs]\nsubjects = "docs"\n');

  test('whole subjects in a <knowledge> block, best first, within the budget', async () => {
    const r = await recall(await open(root), 'how do I deploy after the canary?');
    expect(text(r)).toStartWith('<knowledge>\nThe following knowledge was recalled from the knowledge base as relevant to this request:\n\n<topic "docs">\n<subject "deploy">\n# Deploying\n');
    expect(text(r)).toEndWith('</subject>\n</topic>\n</knowledge>\n');
    expect(r.items[0]).toMatchObject({ topic: 'docs', slug: 'deploy' });
    expect(text(r)).not.toContain('Naming rules');
  });

  test('a subject too big for the room left comes as its most relevant sections, with a note naming the call for all of it', async () => {
    const r = await recall(await open(root, { maxTokens: 600 }), 'roll back a deployment');
    expect(estimateTokens(text(r))).toBeLessThanOrEqual(600);
    expect(text(r)).toContain('## Rollback\n\nTo roll back a deployment');
    expect(text(r)).toContain('[Only the sections most relevant to the request ("Rollback"');
    expect(text(r)).toContain('learn {"topic":"docs","subjects":["guide"]}]');
    expect(text(r)).not.toContain('## Part 3\n');
    expect(r.problems.some((p) => p.code === 'budget')).toBe(true);
  });

  test('never over the budget; what does not fit is named in the closing note', async () => {
    for (const budget of [120, 200, 400, 1000, 3000]) {
      const r = await recall(await open(root, { maxTokens: budget }), 'deploy canary rollback deployment guide');
      expect([budget, estimateTokens(text(r)) <= budget]).toEqual([budget, true]);
      for (const l of r.leftOut) expect(text(r)).toContain(`docs: ${l.slug} (${l.title === undefined ? '' : `${l.title}, `}~`);
    }
  });

  test('with a long closing note, a subject that came as sections keeps its place with fewer sections', async () => {
    const guide = ['# Rollback guide', ''];
    for (let i = 0; i < 40; i++) guide.push(`## Step ${i}`, '', `Rollback step ${i} of a deployment: check the canary. ${'Other words. '.repeat(25)}`, '');
    const many: Record<string, string> = { 'docs/rollback-guide.md': guide.join('\n') };
    for (let i = 0; i < 14; i++) {
      many[`docs/notes/rollback-guide-for-a-deployment-with-a-long-name-${i}.md`] = `${'Rollback of a deployment, canary. Other words about other things. '.repeat(100)}\n`;
    }
    const root2 = tempWorkspace('kb-recall-', many, '[kb.topic.docs]\nsubjects = "docs"\n');
    for (const budget of [900, 1200]) {
      const r = await recall(await open(root2, { maxTokens: budget }), 'rollback guide for a deployment with a canary');
      expect([budget, estimateTokens(text(r)) <= budget]).toEqual([budget, true]);
      expect(r.items.map((i) => i.slug)).toEqual(['rollback-guide']);
      expect(r.items[0].sections!.length).toBeGreaterThan(3);
      expect(text(r)).toContain('[Only the sections most relevant to the request ("Rollback guide"; "Step 0";');
      expect(text(r)).toMatch(/ tokens\) and 4 more\.\]\n<\/knowledge>\n$/); // the note names ten of 14
    }
  });

  test('nothing relevant: nothing at all', async () => {
    const r = await recall(await open(root), 'xylophone zebra');
    expect(text(r)).toBe('');
    expect(r.items).toEqual([]);
  });

  test('an unknown topic is said', async () => {
    expect((await recall(await open(root), 'deploy', { topic: 'nope' })).error).toBe('unknown topic "nope"');
  });
});

describe('search in a long-lived front end (kb mcp)', () => {
  /** Opens the workspace as `kb mcp` does for each request: a new
   *  KnowledgeBase over the session's IndexCache. */
  const openWith = (root: string, cache: IndexCache) =>
    KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: { XDG_CACHE_HOME: join(root, '.cache-home') }, home: HOME }, { cache, costs: COSTS });
  const statusOf = (o: SearchOutcome) => o.indexes.map((i) => `${i.topic}:${i.status}`).join(' ');
  const slugsOf = (o: SearchOutcome) => o.results.map((r) => `${r.topic}:${r.slug}`);
  /** Waits until the cache has counted an event of `dir` after `before`. */
  async function counted(cache: IndexCache, dir: string, before: number): Promise<void> {
    for (const end = Date.now() + 5000; (cache.changes(dir) ?? 0) <= before && Date.now() < end; ) await new Promise((r) => setTimeout(r, 2));
  }

  test('keeps each index from one search to the next while no file changes, and sees every change made between them', async () => {
    const root = tempWorkspace('kb-search-kept-', FILES, CONFIG);
    const docs = join(root, 'docs');
    const cache = new IndexCache();
    try {
      const first = await search(await openWith(root, cache), args('release'));
      expect(statusOf(first)).toBe('docs:built notes:built');
      const second = await search(await openWith(root, cache), args('release'));
      expect(statusOf(second)).toBe('docs:kept notes:kept');
      expect(renderSearch(second)).toBe(renderSearch(first));

      // An edit in place (no directory's time changes): seen by the next
      // search, which reads the topic's cache again.
      let before = cache.changes(docs)!;
      writeFileSync(join(docs, 'style.md'), '# Style\n\nFormatting rules, and how to write a zanzibar.\n');
      await counted(cache, docs, before);
      const edited = await search(await openWith(root, cache), args('zanzibar'));
      expect(slugsOf(edited)).toEqual(['docs:style']);
      expect(statusOf(edited)).toMatch(/^docs:(hit|updated) notes:kept$/);

      // A new file in a new folder, a file saved through a rename, and a
      // file removed.
      before = cache.changes(docs)!;
      writeFileSync(join(root, 'notes/later.txt'), 'Zanzibar notes.\n');
      writeFileSync(join(docs, 'release.tmp'), '# Releasing\n\nNow with a zanzibar step.\n');
      renameSync(join(docs, 'release.tmp'), join(docs, 'release.md'));
      rmSync(join(docs, 'style.md'));
      await counted(cache, docs, before);
      await counted(cache, join(root, 'notes'), 0);
      const changed = await search(await openWith(root, cache), args('zanzibar'));
      expect(slugsOf(changed).sort()).toEqual(['docs:release', 'notes:later']);
      // Within two seconds of an event nothing is kept (a write folded
      // into it would go unseen): the next search revalidates again.
      const again = await search(await openWith(root, cache), args('zanzibar'));
      expect(statusOf(again)).not.toContain('kept');
      expect(renderSearch(again)).toBe(renderSearch(changed));
    } finally {
      cache.close();
    }
  });

  test('without a watcher (closed, or failed), every search revalidates', async () => {
    const root = tempWorkspace('kb-search-unwatched-', FILES, CONFIG);
    const cache = new IndexCache();
    cache.close();
    const first = await search(await openWith(root, cache), args('release'));
    const second = await search(await openWith(root, cache), args('release'));
    expect(statusOf(second)).not.toContain('kept');
    expect(renderSearch(second)).toBe(renderSearch(first));
  });
});

describe('search: a set of topics and filters', () => {
  const root = tempWorkspace(
    'kb-search-facets-',
    {
      'a/one.md': '---\ntags: [release, team/ops]\ntype: note\nstatus: draft\n---\nThe release train.\n',
      'a/two.md': 'The release notes. #release\n',
      'b/three.md': '---\ntags: release\nstatus: done\n---\nA release retrospective.\n',
      'c/four.md': 'The release of c.\n',
    },
    '[kb.topic.a]\nsubjects = "a"\n[kb.topic.b]\nsubjects = "b"\n[kb.topic.c]\nsubjects = "c"\n',
  );
  const found = (o: SearchOutcome) => o.results.map((r) => `${r.topic}:${r.slug}`).sort();

  test('topics: each named once, in the order named; topic joins them', async () => {
    const kb = await open(root);
    const r = await search(kb, args('release', { topics: ['b', 'a', 'b'] }));
    expect(found(r)).toEqual(['a:one', 'a:two', 'b:three']);
    expect(r.topics).toEqual(['b', 'a']);
    expect(r.where).toBeUndefined();
    const one = await search(kb, args('release', { topic: 'c', topics: ['c'] }));
    expect(one.where).toBe('c');
    expect(one.topics).toBeUndefined();
    expect((await search(kb, args('release', { topics: ['a', 'zz'] }))).unknownTopic?.topic).toBe('zz');
  });

  test('filters from the index: tags (every one, nested too), type, status; total counts only what they hold', async () => {
    const kb = await open(root);
    expect(found(await search(kb, args('release', { tags: ['release'] })))).toEqual(['a:one', 'a:two', 'b:three']);
    expect(found(await search(kb, args('release', { tags: ['release', 'team'] })))).toEqual(['a:one']);
    const st = await search(kb, args('release', { status: 'Done' }));
    expect(found(st)).toEqual(['b:three']);
    expect(st.total).toBe(1);
    expect(st.filters).toEqual({ status: 'Done' });
    expect(found(await search(kb, args('release', { type: 'note', topics: ['b'] })))).toEqual([]);
    // Read again from the cache: the same.
    const again = await open(root);
    expect(found(await search(again, args('release', { tags: ['team/ops'] })))).toEqual(['a:one']);
  });

  test('recall takes a set of topics too', async () => {
    const kb = await open(root);
    const r = await recall(kb, 'release', { topics: ['b', 'c'] });
    expect(r.items.map((i) => i.topic).sort()).toEqual(['b', 'c']);
    expect((await recall(kb, 'release', { topics: ['nope'] })).error).toBe('unknown topic "nope"');
  });

  test('the tool validates topics, tags, type and status', () => {
    expect(validateSearchArgs({ query: 'x', topics: ['a'], tags: ['b'], type: 't', status: 's' })).toEqual({ ok: true, args: { query: 'x', topics: ['a'], tags: ['b'], type: 't', status: 's', limit: 10 } });
    expect(validateSearchArgs({ query: 'x', topics: [], tags: [] })).toEqual({ ok: true, args: { query: 'x', limit: 10 } });
    expect(validateSearchArgs({ query: 'x', tags: ['#'] }).ok).toBe(false);
    expect(validateSearchArgs({ query: 'x', topics: Array.from({ length: 65 }, () => 'a') }).ok).toBe(false);
    expect(validateSearchArgs({ query: 'x', status: 's'.repeat(101) }).ok).toBe(false);
  });
});
