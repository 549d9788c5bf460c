// Titles for every common format (listings, recall's section labels, the
// man-page summary) and the names people use (titles, aliases, wikilinks,
// Unicode forms), on fixtures shaped like PEPs (reStructuredText), a book
// (Markdown without frontmatter), git's documentation (AsciiDoc man
// pages), Org and HTML notes, and a notes vault. Run on the compiled binary
// and under deno.
import { describe, expect } from 'bun:test';
import { caseTest, fixture, run, type Runner } from './harness.ts';

const PEP = (n: string, title: string, body: string) =>
  `PEP: ${Number(n)}\nTitle: ${title}\nAuthor: Someone <a@b.org>\nStatus: Final\nType: Standards Track\nCreated: 01-Jan-2020\n\n\nAbstract\n========\n\n${body}\n\n\nRationale\n=========\n\n${'Filler words about nothing in particular. '.repeat(60)}\n\n\nKeyword arguments\n=================\n\nTyping keyword arguments with TypedDict and **kwargs.\n`;

/** Every format, side by side. */
function formats(): string {
  return fixture(
    {
      'docs/pep-0484.rst': PEP('0484', 'Type Hints', 'Annotations for functions.'),
      'docs/pep-0692.rst': PEP('0692', 'Using TypedDict for more precise **kwargs typing', 'Precise kwargs.'),
      'docs/ch04-01-what-is-ownership.md': '## What Is Ownership?\n\n_Ownership_ is a set of rules.\n\n### The Stack and the Heap\n\nText.\n',
      'docs/ch04-00-understanding-ownership.md': '# Understanding Ownership\n\nIntro.\n',
      'docs/maintainers/jean.md': '# Jean\n\nMaintains things.\n',
      'docs/described.md': '---\ndescription: The description wins.\n---\n# A Title Too\n',
      'docs/titled.md': '---\ntitle: From Frontmatter\n---\n# Not This\n',
      'docs/gitworkflows.adoc': 'gitworkflows(7)\n===============\n\nNAME\n----\ngitworkflows - An overview of recommended workflows with Git\n\nSYNOPSIS\n--------\n[verse]\ngit *\n',
      'docs/user-manual.adoc': '= Git User Manual\n\n== Repositories and Branches\n\nText.\n',
      'docs/notes.org': '#+TITLE: Weekly Review\n\n* Done\n* Next\n',
      'docs/page.html': '<!doctype html><html><head><title>Fish &amp; Chips</title></head><body><h1>Menu</h1></body></html>\n',
      'docs/Makefile': '# The default target of this Makefile\nall:\n',
      'docs/script.py': '# A comment, not a title\n',
    },
    '[kb.topic.docs]\nsubjects = "docs"\n',
  );
}

/** A notes vault, Obsidian style. */
function vault(): string {
  return fixture(
    {
      'vault/games/zelda.md': '---\naliases:\n  - BOTW\n  - Breath of the Wild\ntags: [game]\n---\n# The Legend of Zelda\n\nNotes.\n',
      'vault/papers/reading-guild.md': '---\ntitle: Running an Engineering Papers Reading Guild at Zalando\n---\nBody.\n',
      'vault/ddia/06-replication.md': '# Replication\n\nIntro.\n\n## Leaders and Followers\n\nOne leader.\n',
      'vault/att/out-of-control.jpg': new Uint8Array([0xff, 0xd8, 0x00, 0x10]),
      // Saved decomposed (NFD), as some macOS tools do.
      ['vault/' + 'café'.normalize('NFD') + '.md']: 'Coffee notes.\n',
      'vault/résumé.md': 'Saved composed.\n',
    },
    '[kb.topic.vault]\nsubjects = "vault"\n',
  );
}

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`titles (${runner.name})`, () => {
    test.parity('a listing shows each format\'s title where it says more than the slug; a description wins; a man page gives its summary', () => {
      const r = run(runner, formats(), ['learn', 'docs']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(
        [
          '# Topic: docs',
          '',
          '## Available subjects:',
          '',
          '- Makefile',
          '- ch04-00-understanding-ownership: Understanding Ownership',
          '- ch04-01-what-is-ownership: What Is Ownership?',
          '- described: The description wins.',
          '- gitworkflows: An overview of recommended workflows with Git',
          '- maintainers/jean',
          '- notes: Weekly Review',
          '- page: Fish & Chips',
          '- pep-0484: Type Hints',
          '- pep-0692: Using TypedDict for more precise **kwargs typing',
          '- script',
          '- titled: From Frontmatter',
          '- user-manual: Git User Manual',
          '',
          'Use the `learn` tool with the `subjects` argument to learn specific subjects.',
          '',
        ].join('\n'),
      );
      expect(r.err).toBe('');
    });

    test.parity("a note's first or only section heading is not its title, of any level; a chapter's opening heading that names its file is, sections after it or not", () => {
      const dir = fixture(
        {
          'notes/Analytics.md': '## Prerequisites\n\nYou need [[Custom domains]].\n\n## Enable analytics\n\nSteps.\n',
          'notes/ch07-05-separating-modules-into-different-files.md': '## Separating Modules into Different Files\n\nText.\n\n## Summary\n\nDone.\n',
          'notes/Daily.md': '## Notes\n\nA day.\n',
          'notes/Quadratic Form.md': '# Definition\n\nA form.\n\n# Example\n\nx.\n',
          'notes/Red-Black Tree.md': '# Red-Black Tree\n\nA tree.\n\n# Operations\n\nInsert.\n',
        },
        '[kb.topic.notes]\nsubjects = "notes"\n',
      );
      const r = run(runner, dir, ['learn', 'notes']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('\n- Analytics\n- Daily\n- Quadratic Form\n- Red-Black Tree\n- ch07-05-separating-modules-into-different-files: Separating Modules into Different Files\n');
      expect(r.err).toBe('');
    });

    test.parity("titles as a reader sees them: a README's logo tag, a heading in an HTML comment, a changelog's versions, reStructuredText's literals", () => {
      const dir = fixture(
        {
          'docs/README.md': '# <img src="https://example.com/logo.svg" width="64" alt=""> Starlight\n\nMake your docs shine.\n',
          'docs/index.md': '# *attrs*: Classes Without Boilerplate\n\n<!-- [[[cog\n# This is called from a build job!\n]]] -->\n\n## Getting Started\n',
          'docs/CHANGES.rst': 'Version 3.2.0\n-------------\n\nUnreleased\n\nVersion 3.1.1\n-------------\n\nReleased 2025-05-13\n',
          'docs/async-await.rst': 'Using ``async`` and ``await``\n=============================\n\nText.\n',
        },
        '[kb.topic.docs]\nsubjects = "docs"\n',
      );
      const r = run(runner, dir, ['learn', 'docs']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('\n- CHANGES\n- README: Starlight\n- async-await: Using `async` and `await`\n- index: *attrs*: Classes Without Boilerplate\n');
    });

    test.parity("a Logseq graph: page properties give titles and descriptions; an outline's first item is no heading", () => {
      const dir = fixture(
        {
          'graph/pages/Advanced Queries.md': 'type:: [[Feature]]\nplatforms:: [[All Platforms]]\ndescription:: Advanced queries are written with [Datalog](https://en.wikipedia.org/wiki/Datalog) and query the database.\n\n- ## Intro\n\t- Start with the #+BEGIN_QUERY block.\n',
          'graph/pages/lsp.md': 'title:: Local Http server\n\n- Logseq serves an API on a local port.\n',
          'graph/pages/Embed Media.md': '- Logseq lets you embed, preview, and play back media.\n-\n- Three ways, with `#` tags:\n',
        },
        '[kb.topic.graph]\nsubjects = "graph"\n',
      );
      const r = run(runner, dir, ['learn', 'graph']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('\n- pages/Advanced Queries: Advanced queries are written with Datalog and query the database.\n- pages/Embed Media\n- pages/lsp: Local Http server\n');
      const found = run(runner, dir, ['search', '--format', 'json', 'http server']);
      expect(JSON.parse(found.out).results[0]).toMatchObject({ slug: 'pages/lsp', title: 'Local Http server' });
      // The properties are the page's frontmatter: never a passage.
      const datalog = JSON.parse(run(runner, dir, ['search', '--format', 'json', 'datalog database']).out).results[0];
      expect(datalog.slug).toBe('pages/Advanced Queries');
      expect(datalog.passages.map((p: { line: number; text: string }) => `${p.line}: ${p.text}`)).toEqual(['5: - ## Intro\n- Start with the #+BEGIN_QUERY block.']);
    });

    test.parity("a manual page's source: its NAME line's summary in a listing; searched and shown as the text it prints, at the file's line numbers", () => {
      const licence = Array.from({ length: 30 }, (_, i) => `.\\" Permission is granted to copy this manual, line ${i}.\n`).join('');
      const dir = fixture(
        {
          'man/man2/close.2': `${licence}.TH CLOSE 2 2021-03-22 "Linux" "Linux Programmer's Manual"\n.SH NAME\nclose \\- close a file descriptor\n.SH DESCRIPTION\n.BR close ()\ncloses a file descriptor; see \\fBfcntl\\fP(2) for the \\fIclose-on-exec\\fP flag.\n.PP\nIt returns zero.\n`,
          'man/man3/printf.3': '.TH PRINTF 3\n.SH NAME\nprintf, fprintf,\nvsnprintf \\- formatted output conversion\n.SH SYNOPSIS\n.B #include <stdio.h>\n',
          'man/man2/_exit.2': '.so man2/exit.2\n',
          'man/notes.1': 'Plain notes.\n.NET is not a request here.\n',
        },
        '[kb.topic.man]\nsubjects = "man"\n',
      );
      const list = run(runner, dir, ['learn', 'man']);
      expect(list.code).toBe(0);
      expect(list.out).toContain('\n- man2/_exit\n- man2/close: close a file descriptor\n- man3/printf: formatted output conversion\n- notes\n');
      const found = run(runner, dir, ['search', 'fcntl', 'permission']);
      expect(found.code).toBe(0);
      // The licence in comments is not searched; the page is, by its words.
      expect(found.out).toContain('1 subject matches');
      expect(found.out).toContain('> 35: close()\n   > 36: closes a file descriptor; see fcntl(2) for the close-on-exec flag.');
      expect(found.out).not.toContain('\\f');
      expect(run(runner, dir, ['search', 'NET']).out).toContain('notes');
    });

    test.parity("modular AsciiDoc (Antora): the title under its block attribute line, the :description: attribute as the description; a book's section file: its section title", () => {
      const dir = fixture(
        {
          'modules/pages/namespaces.adoc': ':_content-type: CONCEPT\n:description: Configuring user namespace provisioning\n:keywords: namespace\n\n[id="configuring-namespaces"]\n= Configuring namespaces\n\nFor each user...\n',
          'modules/pages/proxy.adoc': '[id="proxy"]\n= Configuring a proxy\n\nText.\n',
          // A book's section file (Pro Git's): its section title.
          'modules/pages/nutshell.asc': '[[_git_branches_overview]]\n=== Branches in a Nutshell\n\nText.\n\n==== Creating a New Branch\n\nMore.\n',
        },
        '[kb.topic.che]\nsubjects = "modules"\n',
      );
      const r = run(runner, dir, ['learn', 'che']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('\n- pages/namespaces: Configuring user namespace provisioning\n- pages/nutshell: Branches in a Nutshell\n- pages/proxy: Configuring a proxy\n');
    });

    test('kb list shows the same titles', () => {
      const r = run(runner, formats(), ['list']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('pep-0484');
      expect(r.out).toMatch(/pep-0484 .* Type Hints\n/);
      expect(r.out).toMatch(/gitworkflows .* An overview of recommended workflows with Git\n/);
    });

    test('recall names the sections of a reStructuredText subject by their headings', () => {
      const r = run(runner, formats(), ['recall', '--max-tokens', '400', '-t', 'docs', 'typing keyword arguments with TypedDict']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('[Only the sections most relevant to the request (');
      expect(r.out).toMatch(/\[Only the sections most relevant to the request \([^)]*"Keyword arguments"/);
      expect(r.out).not.toMatch(/\[Only the sections[^\]]*line \d/);
    });

    test.parity("recall names an MDX page's sections without their ids: `\\{#ejecting}`, `provider{#choosing-a-hosting-provider}`", () => {
      const long = 'The component is copied into your site and you own it from then on. '.repeat(30);
      const root = fixture(
        { 'docs/swizzling.mdx': `# Swizzling\n\n## Wrapping \\{#wrapping}\n\n${long}\n\n### Ejecting \\{#ejecting}\n\nEjecting creates a copy of the theme component to customize.\n\n## Choosing a hosting provider{#choosing-a-hosting-provider}\n\nPick a hosting provider that serves static files.\n\n## Later\n\n${long}\n` },
        '[kb.topic.docs]\nsubjects = "docs"\n',
      );
      const r = run(runner, root, ['recall', '--max-tokens', '600', 'ejecting a theme component copy']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('[Only the sections most relevant to the request ("Ejecting");');
      expect(run(runner, root, ['recall', '--max-tokens', '600', 'which hosting provider serves static files']).out).toContain('[Only the sections most relevant to the request ("Choosing a hosting provider"');
    });
  });

  describe(`names people use (${runner.name})`, () => {
    const learn = (root: string, name: string) => run(runner, root, ['learn', 'vault', name]);

    test.parity('a frontmatter alias and a title resolve to their subject, with a note naming the slug', () => {
      const root = vault();
      const a = learn(root, 'BOTW');
      expect(a.code).toBe(0);
      expect(a.out).toContain('<subject "games/zelda">');
      expect(a.out).toContain('Note: "BOTW" matched no subject; used "games/zelda" instead (it is one of that subject\'s aliases (frontmatter `aliases`); subjects load by their slugs).');
      expect(a.err).toContain('warning: topic "vault": "BOTW" matched no subject; used "games/zelda" instead');
      const t = learn(root, 'running an engineering papers reading guild at zalando');
      expect(t.code).toBe(0);
      expect(t.out).toContain('<subject "papers/reading-guild">');
      expect(t.out).toContain('used "papers/reading-guild" instead (it is that subject\'s title; subjects load by their slugs)');
      // A heading title counts too.
      expect(learn(root, 'The Legend of Zelda').out).toContain('<subject "games/zelda">');
    });

    test.parity('wikilinks resolve to their target: plain, with shown text, with a heading, an embed', () => {
      const root = vault();
      for (const link of ['[[06-replication]]', '[[06-replication|Display text]]', '![[ddia/06-replication]]']) {
        const r = learn(root, link);
        expect({ link, code: r.code }).toEqual({ link, code: 0 });
        expect(r.out).toContain('<subject "ddia/06-replication">');
        expect(r.out).toContain(`Note: ${JSON.stringify(link)} matched no subject; used "ddia/06-replication" instead (a wikilink names its target`);
      }
      const h = learn(root, '[[06-replication#Leaders and Followers]]');
      expect(h.code).toBe(0);
      expect(h.out).toContain('the link names its section "Leaders and Followers"');
      expect(learn(root, '[[BOTW]]').out).toContain('<subject "games/zelda">');
    });

    test.parity("org-roam's links load their note: by its title for an ID link, by its file for a file link", () => {
      const root = fixture(
        { 'org/main/decision_tree_learning.org': ':PROPERTIES:\n:ID:       a727be87-afd3-447f-a167-70bc9e2b9acd\n:END:\n#+title: Decision Tree Learning\n\n* Entropy\nThe entropy of a split.\n', 'org/main/id3.org': '#+title: ID3\n\nSee [[id:a727be87-afd3-447f-a167-70bc9e2b9acd][Decision Tree Learning]].\n' },
        '[kb.topic.org]\nsubjects = "org"\n',
      );
      for (const link of ['[[id:a727be87-afd3-447f-a167-70bc9e2b9acd][Decision Tree Learning]]', '[[file:decision_tree_learning.org][Decision Tree Learning]]', '[[file:main/decision_tree_learning.org::*Entropy]]']) {
        const r = run(runner, root, ['learn', 'org', link]);
        expect({ link, code: r.code }).toEqual({ link, code: 0 });
        expect(r.out).toContain('<subject "main/decision_tree_learning">');
        expect(r.out).toContain(`Note: ${JSON.stringify(link)} matched no subject; used "main/decision_tree_learning" instead (a wikilink names its target`);
      }
    });

    test('a wikilink to an attachment is no invalid pattern; a link to nothing says so', () => {
      const root = vault();
      const r = learn(root, '[[out-of-control.jpg]]');
      expect(r.out).not.toContain('Invalid pattern');
      expect(r.out).toContain('Skipped "att/out-of-control": it is a binary file.');
      const none = learn(root, '[[no-such-note]]');
      expect(none.code).toBe(1);
      expect(none.out).toContain('No subjects match "[[no-such-note]]" in topic "vault".');
    });

    test.parity('names match in either Unicode normalisation', () => {
      const root = vault();
      const composed = learn(root, 'café'.normalize('NFC'));
      expect(composed.code).toBe(0);
      expect(composed.out).toContain('Coffee notes.');
      const decomposed = learn(root, 'résumé'.normalize('NFD'));
      expect(decomposed.code).toBe(0);
      expect(decomposed.out).toContain('Saved composed.');
    });
  });
}
