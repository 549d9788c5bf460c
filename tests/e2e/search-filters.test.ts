// End-to-end: a search over a set of topics, and filters on the fields
// notes are sorted by (tags, type, status), on dist/kb: the command line
// and the MCP tool, which give the same text for the same call.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Connection, connect, text } from './mcp-client.ts';
import { BINARY, fixture, run } from './harness.ts';

const CONFIG = '[kb.topic.notes]\nsubjects = "notes"\n[kb.topic.docs]\nsubjects = "docs"\n[kb.topic.misc]\nsubjects = "misc"\n';
const FILES: Record<string, string> = {
  // Obsidian: a YAML list, a nested tag, type and status.
  'notes/plan.md': '---\ntags: [release, project/alpha]\ntype: Meeting\nstatus: draft\n---\n# Release plan\n\nWe tag the release on Fridays.\n',
  // A block list; another status.
  'notes/checklist.md': '---\ntags:\n  - release\nstatus: done\n---\nThe release checklist, step by step.\n',
  // Jekyll: a string of words; a #tag in the text, and one in code.
  'docs/howto.md': '---\ntags: howto tips\n---\nHow to tag a release in git. #inline-tag\n\n```\n#fenced release\n```\n',
  'docs/plain.md': 'Releases are tagged by date. `#code` and #123 are not tags; #release is.\n',
  'misc/release.txt': 'A release note in plain text. #release is not read in plain text.\n',
};

describe('search over several topics, with filters (dist/kb)', () => {
  const root = fixture(FILES, CONFIG);
  const cli = (...args: string[]) => run(BINARY, root, args);
  const slugs = (out: string) => [...out.matchAll(/^\d+\. (\S+: \S+) /gm)].map((m) => m[1]).sort();

  test('-t a -t b searches those topics; one -t as before', () => {
    const two = cli('search', '-t', 'notes', '-t', 'docs', 'release');
    expect(two.code).toBe(0);
    expect(two.out).toStartWith('4 subjects match "release" in topics "notes" and "docs", best first.');
    expect(slugs(two.out)).toEqual(['docs: howto', 'docs: plain', 'notes: checklist', 'notes: plan']);
    expect(cli('search', '-t', 'misc', 'release').out).toStartWith('1 subject matches "release" in topic "misc".');
    expect(cli('search', 'release').out).toStartWith('5 subjects match "release", best first.');
  });

  test('--tag (repeatable: every one), --type and --status, in any case; a tag holds its nested tags', () => {
    expect(slugs(cli('search', '--tag', 'release', 'release').out)).toEqual(['docs: plain', 'notes: checklist', 'notes: plan']);
    expect(slugs(cli('search', '--tag', 'Release', '--tag', '#project', 'release').out)).toEqual(['notes: plan']);
    const typed = cli('search', '--type', 'meeting', '--status', 'DRAFT', 'release');
    expect(typed.out).toStartWith('1 subject matches "release" of type "meeting", with status "DRAFT".');
    expect(slugs(cli('search', '--tag', 'inline-tag', 'release').out)).toEqual(['docs: howto']);
    expect(slugs(cli('search', '--tag', 'tips', 'release').out)).toEqual(['docs: howto']);
  });

  test('tags in code, numbers alone and plain text are not tags; nothing matching is exit 1 and says so', () => {
    for (const tag of ['fenced', 'code', '123']) {
      const r = cli('search', '--tag', tag, 'release');
      expect(r).toEqual({ out: `No subjects match "release" tagged "${tag}".\n\nTry other words or fewer filters, or list a topic with the \`learn\` tool.\n`, err: '', code: 1 });
    }
    expect(slugs(cli('search', '-t', 'misc', '--tag', 'release', 'release').out)).toEqual([]);
  });

  test('JSON names the topics and the filters; an unknown topic among several is the error it was', () => {
    const j = JSON.parse(cli('search', '--format', 'json', '-t', 'notes', '-t', 'docs', '--tag', 'release', '--status', 'done', 'release').out);
    expect(j.topics).toEqual(['notes', 'docs']);
    expect(j.filters).toEqual({ tags: ['release'], status: 'done' });
    expect(j.results.map((r: { slug: string }) => r.slug)).toEqual(['checklist']);
    const bad = cli('search', '-t', 'notes', '-t', 'nope', 'release');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('"nope"');
  });

  test('a file whose tags change is filtered by its new tags (the index brought up to date, no stale facet)', () => {
    const other = fixture(FILES, CONFIG);
    expect(slugs(run(BINARY, other, ['search', '--tag', 'later', 'release']).out)).toEqual([]);
    const file = join(other, 'docs/plain.md');
    writeFileSync(file, 'Releases are tagged by date. #later\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(slugs(run(BINARY, other, ['search', '--tag', 'later', 'release']).out)).toEqual(['docs: plain']);
    expect(slugs(run(BINARY, other, ['search', '--tag', 'later', 'release']).out)).toEqual(['docs: plain']);
    expect(slugs(run(BINARY, other, ['search', '--tag', 'release', 'release']).out)).toEqual(['notes: checklist', 'notes: plan']);
  });

  test('a bad filter is refused as the model would be (exit 1), naming the parameter', () => {
    const r = cli('search', '--tag', '   ', 'release');
    expect(r.code).toBe(1);
    expect(r.out).toStartWith('Invalid arguments for `search`: tag "   " must be 1-100 characters');
  });
});

describe('the search tool over MCP: topics, tags, type, status (dist/kb)', () => {
  const root = fixture(FILES, CONFIG);
  let c: Connection;
  beforeAll(async () => {
    c = await connect(root);
  });
  afterAll(async () => {
    await c.client.close();
  });

  test('the schema has topics, tags, type and status beside topic', async () => {
    const { tools } = await c.client.listTools();
    const props = tools.find((t) => t.name === 'search')!.inputSchema.properties as Record<string, { type: string }>;
    expect(Object.keys(props)).toEqual(['query', 'topic', 'topics', 'tags', 'type', 'status', 'limit']);
    expect(props.topics.type).toBe('array');
  });

  test('each call gives the text kb search --args gives; topic still works, with topics or alone', async () => {
    for (const args of [
      { query: 'release', topics: ['notes', 'docs'] },
      { query: 'release', topic: 'misc', topics: ['docs'] },
      { query: 'release', topic: 'notes' },
      { query: 'release', tags: ['release'], type: 'meeting' },
      { query: 'release', topics: ['docs'], tags: ['inline-tag'] },
      { query: 'release', status: 'nothing' },
    ]) {
      const r = await c.client.callTool({ name: 'search', arguments: args });
      expect(text(r)).toBe(run(BINARY, root, ['search', '--args', JSON.stringify(args)]).out);
      expect(r.isError).toBe(false);
    }
    const both = text(await c.client.callTool({ name: 'search', arguments: { query: 'release', topic: 'misc', topics: ['docs'] } }));
    expect(both).toStartWith('3 subjects match "release" in topics "misc" and "docs"');
  });

  test('bad arguments are error results naming the parameter', async () => {
    const many = await c.client.callTool({ name: 'search', arguments: { query: 'x', tags: Array.from({ length: 17 }, (_, i) => `t${i}`) } });
    expect(many.isError).toBe(true);
    expect(text(many)).toContain('"tags"');
    const blank = await c.client.callTool({ name: 'search', arguments: { query: 'x', type: ' ' } });
    expect(blank.isError).toBe(true);
    expect(text(blank)).toContain('"type" must be 1-100 characters');
    const unknown = await c.client.callTool({ name: 'search', arguments: { query: 'x', topics: ['notes', 'nope'] } });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('"nope"');
  });
});
