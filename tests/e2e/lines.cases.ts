// Snippets that answer and loads of the lines they point at, on the binary
// (and under deno, for the cases marked parity): a search shows windows of
// lines with their numbers, never a line of markup alone, up to three
// places in a long document; `learn topic slug:120-160` loads those lines,
// over the CLI, the tool call and kb mcp (the tool, and a resource).
import { describe, expect } from 'bun:test';
import { caseTest, fixture, run, type Runner } from './harness.ts';
import { connect, text } from './mcp-client.ts';

const CONFIG = '[kb.topic.book]\nsubjects = "book"\n\n[kb.topic.docs]\nsubjects = "docs"\n';

const filler = (what: string, n: number) => Array.from({ length: n }, (_, i) => `A paragraph about ${what}, number ${i}.`).join('\n\n');

const FILES: Record<string, string> = {
  // An mdBook chapter: anchors, link definitions, includes, listings.
  'book/ch04-01-what-is-ownership.md': [
    '<a id="what-is-ownership"></a>',
    '## What Is Ownership?',
    '',
    '[ch04-02]: ch04-02-references-and-borrowing.html#ownership',
    '{{#include ../listings/ch04/ownership/src/main.rs}}',
    '<Listing number="4-1" caption="The scope of ownership">',
    '',
    '```rust',
    'let s = "hello";',
    '```',
    '',
    '</Listing>',
    '',
    'Each value in Rust has an owner. Ownership is a set of rules.',
    'There can only be one owner at a time.',
    '',
    '![Ownership diagram](img/trpl04-01.svg)',
  ].join('\n'),
  // A reStructuredText document read from a .txt file, long, answering far
  // from its start and in several places.
  'docs/release-notes.txt': [
    '.. _release-notes:',
    '',
    '=============',
    'Release notes',
    '=============',
    '',
    '.. contents::',
    '',
    filler('packaging', 60),
    '',
    'The cache backend now evicts stale entries on write.',
    '',
    filler('logging', 60),
    '',
    'A new cache backend option sets the eviction policy.',
    '',
    filler('templates', 60),
    '',
    'The cache backend no longer reads its settings twice.',
    '',
  ].join('\n'),
  'docs/.internal.md': 'line one\nthe cache secret is here\nline three\n',
};

export function cases(runner: Runner): void {
  const test = caseTest(runner);

  describe(`snippets and line loads (${runner.name})`, () => {
    test.parity('a hit shows the lines that answer with their numbers, never a line of markup alone', () => {
      const root = fixture(FILES, CONFIG);
      const r = run(runner, root, ['search', '-t', 'book', 'ownership owner']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('1. book: ch04-01-what-is-ownership (~');
      expect(r.out).toContain('   > 14: Each value in Rust has an owner. Ownership is a set of rules.\n   > 15: There can only be one owner at a time.\n');
      expect(r.out).toContain('or some of its lines (`slug:120-160`)');
      for (const markup of ['<a id=', '[ch04-02]:', '{{#include', '<Listing', '```', '![Ownership']) expect(r.out).not.toContain(`: ${markup}`);
    });

    test.parity("a container's fence is markup too: VitePress's `::: tip`, Docusaurus's `:::note`", () => {
      const root = fixture(
        {
          'site/proxy.md': ['# Server proxy', '', '::: tip NOTE', 'Behind a reverse proxy, forward the websocket too.', ':::', '', ':::note Cross-origin requests', 'The dev server answers preflight requests itself.', ':::', ''].join('\n'),
        },
        '[kb.topic.site]\nsubjects = "site"\n',
      );
      const r = run(runner, root, ['search', '--format', 'json', 'reverse proxy websocket preflight']);
      expect(r.code).toBe(0);
      const texts = JSON.parse(r.out).results[0].passages.map((p: { line: number; text: string }) => `${p.line}: ${p.text}`);
      expect(texts).toContain('4: Behind a reverse proxy, forward the websocket too.');
      for (const t of texts) expect(t).not.toContain(':::');
    });

    test.parity('a word the page writes joined by a hyphen (`single-page`) gives the passage that holds it, as it gives the match', () => {
      const root = fixture(
        { 'site/routing.md': ['# Routing', '', 'Pages are files.', '', 'A single-page application routes on the client.', ''].join('\n') },
        '[kb.topic.site]\nsubjects = "site"\n',
      );
      const r = run(runner, root, ['search', 'singlepage']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('   > 5: A single-page application routes on the client.\n');
    });

    test.parity("an MDX page's imports and MyST's targets are markup: never a passage", () => {
      const root = fixture(
        {
          'site/showcase.mdx': ['---', 'title: Showcase', '---', '', "import ShowcaseSites from '~/components/showcase-sites.astro';", "import { Steps } from '@astrojs/starlight/components';", '', 'Sites built with the showcase components.', '', '<ShowcaseSites />', ''].join('\n'),
          'api/attrs.md': ['# API', '', '(asdict)=', '', '## asdict', '', 'Return the attributes as a dict, recurse into nested classes.', ''].join('\n'),
        },
        '[kb.topic.site]\nsubjects = "site"\n\n[kb.topic.api]\nsubjects = "api"\n',
      );
      const show = run(runner, root, ['search', '-t', 'site', 'showcase sites components']);
      expect(show.code).toBe(0);
      expect(show.out).toContain('   > 8: Sites built with the showcase components.\n');
      expect(show.out).not.toContain('import');
      const dict = run(runner, root, ['search', '-t', 'api', 'asdict']);
      expect(dict.out).not.toContain('(asdict)=');
    });

    test.parity('the lines inside an HTML comment written over several lines are never shown: a licence, a note to the next editor', () => {
      const root = fixture(
        {
          'site/guide.md': ['<!--', 'Copyright 2024 The Widget Authors.', '-->', '', '# Widget guide', '', '<!--', 'TODO: explain how the lever gear ratio is computed', '-->', 'The lever gear ratio is five to one.', ''].join('\n'),
        },
        '[kb.topic.site]\nsubjects = "site"\n',
      );
      const r = run(runner, root, ['search', 'lever gear ratio']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('   > 10: The lever gear ratio is five to one.\n');
      expect(r.out).not.toContain('TODO');
      const byName = run(runner, root, ['search', '--format', 'json', 'copyright']);
      expect(JSON.parse(byName.out).results[0].passages).toEqual([{ line: 5, text: '# Widget guide' }]);
    });

    test.parity('JSON: the snippet, its line and the passages; a long document answers in up to three places', () => {
      const root = fixture(FILES, CONFIG);
      const r = run(runner, root, ['search', '-t', 'docs', '--format', 'json', 'cache backend eviction']);
      expect(r.code).toBe(0);
      const hit = JSON.parse(r.out).results[0];
      expect(hit.slug).toBe('release-notes');
      expect(hit.passages).toHaveLength(3);
      expect(hit.passages[0].text).toBe('A new cache backend option sets the eviction policy.');
      expect(hit.snippet).toBe(hit.passages[0].text);
      expect(hit.line).toBe(hit.passages[0].line);
      const lines = FILES['docs/release-notes.txt'].split('\n');
      for (const p of hit.passages) expect(lines[p.line - 1]).toBe(p.text.split('\n')[0]);
      expect(hit.passages.slice(1).map((p: { text: string }) => p.text)).toEqual(['The cache backend now evicts stale entries on write.', 'The cache backend no longer reads its settings twice.']);
    });

    test.parity('a hit\'s line number loads its lines: learn TOPIC SLUG:FIRST-LAST, on the CLI and as a tool call', () => {
      const root = fixture(FILES, CONFIG);
      const hit = JSON.parse(run(runner, root, ['search', '-t', 'docs', '--format', 'json', 'eviction policy']).out).results[0];
      const load = run(runner, root, ['learn', 'docs', `${hit.slug}:${hit.line}-${hit.line + 1}`]);
      expect(load.code).toBe(0);
      expect(load.out).toStartWith(`<subject "release-notes">\n${hit.snippet}\n\n</subject>\n\n[These are lines ${hit.line}-${hit.line + 1} of subject "release-notes", which has `);
      const args = run(runner, root, ['learn', '--args', JSON.stringify({ topic: 'docs', subjects: [`${hit.slug}:${hit.line}`] })]);
      expect(args.out).toContain(`[This is line ${hit.line} of subject "release-notes"`);
      const json = JSON.parse(run(runner, root, ['learn', 'docs', `${hit.slug}:${hit.line}`, '--format', 'json']).out);
      expect(json.subjects[0]).toMatchObject({ slug: 'release-notes', content: `${hit.snippet}\n`, window: { lines: [hit.line, hit.line], range: { first: hit.line, last: hit.line } } });
    });

    test.parity('a glob takes no range; a hidden subject by its exact slug does; lines past the end: a note, exit 1', () => {
      const root = fixture(FILES, CONFIG);
      const glob = run(runner, root, ['learn', 'docs', '*:1-2']);
      expect(glob).toMatchObject({ code: 1, out: 'Invalid pattern "*:1-2": a line range takes one subject by its exact slug, never a glob.\n' });
      const hidden = run(runner, root, ['learn', 'docs', 'internal:2']);
      expect(hidden.out).toBe('<subject "internal">\nthe cache secret is here\n</subject>\n\n[This is line 2 of subject "internal", which has 3 lines.]\n');
      const past = run(runner, root, ['learn', 'docs', 'internal:9-']);
      expect(past.code).toBe(1);
      expect(past.out).toContain('Subject "internal" has 3 lines; lines 9- were asked for.');
      expect(past.err).toContain('warning: learn docs: subject "internal" has 3 lines; lines 9- were asked for');
    });

    test('over the budget: windows of the lines, each saying its lines, continuing within them', () => {
      const root = fixture(FILES, CONFIG);
      const r = run(runner, root, ['learn', '--max-tokens', '120', 'docs', 'release-notes:9-100']);
      expect(r.code).toBe(0);
      const m = /this is lines 9-(\d+) \(bytes \d+-\d+\)\. For the next window, call `learn` with (\{.*\})\]/.exec(r.out);
      expect(m).not.toBeNull();
      const next = run(runner, root, ['learn', '--max-tokens', '120', '--args', m![2]]);
      expect(next.out).toContain(`this is lines ${Number(m![1]) + 1}-`);
      expect(next.err).toContain('lines 9-100 of subject "release-notes" are larger than the 120-token budget');
    });

    test('kb mcp: the learn tool takes the range; kb://topic/slug?lines= reads the lines; a bad range is refused', async () => {
      const root = fixture(FILES, CONFIG);
      const c = await connect(root, runner);
      try {
        const tool = text(await c.client.callTool({ name: 'learn', arguments: { topic: 'docs', subjects: ['internal:1-2'] } }));
        expect(tool).toBe('<subject "internal">\nline one\nthe cache secret is here\n</subject>\n\n[These are lines 1-2 of subject "internal", which has 3 lines.]\n');
        const read = await c.client.readResource({ uri: 'kb://docs/internal?lines=2-9' });
        expect(read.contents[0]).toMatchObject({ uri: 'kb://docs/internal?lines=2-9', mimeType: 'text/markdown' });
        expect((read.contents[0] as { text: string }).text).toBe('<subject "internal">\nthe cache secret is here\nline three\n</subject>\n\n[These are lines 2-3 of subject "internal", which has 3 lines; lines 2-9 were asked for.]\n');
        await expect(c.client.readResource({ uri: 'kb://docs/internal?lines=5-2' })).rejects.toThrow('the range ends (line 2) before it starts (line 5)');
        await expect(c.client.readResource({ uri: 'kb://docs/internal?lines=7' })).rejects.toThrow('has 3 lines');
        const templates = await c.client.listResourceTemplates();
        expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain('kb://{topic}/{+slug}{?lines}');
      } finally {
        await c.client.close();
      }
    });
  });
}
