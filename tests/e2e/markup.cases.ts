// Markup known by its content: `.txt` and extensionless files written in
// reStructuredText (a Sphinx tree that names its sources `.txt`, as
// Django's does), AsciiDoc (git's manual page sources) or Markdown (a
// README without an extension). Their headings are sections, recall's
// labels name them, snippets skip lines of block markup, and loading shows
// the file as it is. Run on the compiled binary and under deno.
import { describe, expect } from 'bun:test';
import { caseTest, fixture, run, type Runner } from './harness.ts';

/** Sentences of filler about `what`, `n` of them. */
const filler = (what: string, n: number) => Array.from({ length: n }, (_, i) => `${what} sentence ${i} says nothing in particular.`).join(' ');

const CACHE = `.. _cache-design-philosophy:

========================
Django's cache framework
========================

.. versionadded:: 5.0

A fundamental trade-off in dynamic websites is that they are dynamic. ${filler('Intro', 10)}

Setting up the cache
====================

${filler('Setup', 10)}

.. _memcached:

Memcached
---------

Memcached is an entirely memory-based cache server: run it as a daemon on a port. ${filler('Server', 10)}

Database caching
----------------

Django can store its cached data in your database. ${filler('Table', 10)}
`;

const GIT_STASH = `git-stash(1)
============

NAME
----
git-stash - Stash the changes in a dirty working directory away

SYNOPSIS
--------
[verse]
'git stash' list [<log-options>]

DESCRIPTION
-----------
Use git stash when you want to record the current state of the working directory. ${filler('Description', 20)}

OPTIONS
-------
push [-p|--patch]::
	Save your local modifications to a new stash entry; with --patch, pick hunks interactively. See linkgit:git-add[1]. ${filler('Option', 2)}
`;

const README = `# Deploy notes

${filler('Opening', 20)}

## Rollback

To roll back a release, redeploy the previous tag with the rollback script. ${filler('Rollback', 2)}

## Monitoring

${filler('Graphs', 20)}
`;

/** Plain text: paragraphs, no markup. */
const LETTER = `Dear team,

${Array.from({ length: 12 }, (_, i) => (i === 6 ? `The rollback of the mailer happens on Fridays. ${filler('Mailer', 4)}` : filler(`Paragraph${i}`, 8))).join('\n\n')}
`;

function workspace(): string {
  return fixture(
    { 'django/topics/cache.txt': CACHE, 'git/git-stash.txt': GIT_STASH, 'ops/README': README, 'ops/letter.txt': LETTER },
    '[kb.topic.django]\nsubjects = "django"\n\n[kb.topic.git]\nsubjects = "git"\n\n[kb.topic.ops]\nsubjects = "ops"\n',
  );
}

/** The note recall ends a subject that came as sections with. */
const sections = (out: string) => /\[Only the sections most relevant to the request \(([^)]*)\)/.exec(out)?.[1];

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`markup known by its content (${runner.name})`, () => {
    const root = workspace();

    test.parity('a Sphinx source named .txt: recall names its sections by their titles', () => {
      const r = run(runner, root, ['recall', 'memcached daemon port', '--max-tokens', '400', '-t', 'django']);
      expect(r.code).toBe(0);
      expect(sections(r.out)).toBe('"Memcached"');
      expect(r.out).toContain('\nMemcached\n---------\n\nMemcached is an entirely memory-based cache server');
    });

    test.parity('a Sphinx source named .txt: a target that holds the words is never the snippet', () => {
      const r = run(runner, root, ['search', 'cache design philosophy', '--topic', 'django']);
      expect(r.out).toContain('1. django: topics/cache (');
      expect(r.out).not.toContain('> .. _cache-design-philosophy:');
      expect(r.out).not.toContain('> .. ');
    });

    test('a Sphinx source named .txt loads as it is', () => {
      expect(run(runner, root, ['learn', 'django', 'topics/cache']).out).toBe(CACHE);
    });

    test.parity("a git manual page's AsciiDoc source named .txt: recall names its sections", () => {
      const r = run(runner, root, ['recall', 'pick hunks interactively', '--max-tokens', '300', '-t', 'git']);
      expect(sections(r.out)).toBe('"OPTIONS"');
      const block = run(runner, root, ['search', 'verse', '--topic', 'git']);
      expect(block.out).not.toContain('> [verse]');
    });

    test('an extensionless Markdown file: recall names its sections; a plain .txt stays in lines', () => {
      const md = run(runner, root, ['recall', 'redeploy the previous tag with the rollback script', '--max-tokens', '300', '-t', 'ops']);
      expect(sections(md.out)).toBe('"Rollback"');
      const plain = run(runner, root, ['recall', 'rollback of the mailer on fridays', '--max-tokens', '900', '-t', 'ops']);
      expect(plain.out).toMatch(/\[Only the sections most relevant to the request \(line \d+/);
    });

    test('kb mcp: the search tool gives what kb search gives', () => {
      const lines =
        [
          { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'cache design philosophy', topic: 'django' } } },
        ]
          .map((l) => JSON.stringify(l))
          .join('\n') + '\n';
      const r = run(runner, root, ['mcp'], { input: lines });
      const text = JSON.parse(r.out.trim().split('\n')[1]).result.content[0].text as string;
      expect(text).toBe(run(runner, root, ['search', '--args', '{"query":"cache design philosophy","topic":"django"}']).out);
      expect(text).not.toContain('> .. _cache');
    });
  });
}
