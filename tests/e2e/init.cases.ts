// kb init end to end, on the binary and under deno: stdout (the
// configuration text added), stderr (what was done, the notes, the next
// steps), the exit code; then the workspace it made answers list, learn,
// search, remember and an MCP session with no hand-written configuration.
import { describe, expect } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { caseTest, run, tempDir, type Runner } from './harness.ts';

/** A plain directory (no .jp) holding `files`. */
export function folder(files: Record<string, string> = {}): string {
  const root = tempDir();
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), c);
  }
  return root;
}

const HEADER = `# kb: a knowledge base for LLM assistants. Each [kb.topic.<id>] table is a topic: a
# folder of text files (its subjects), \`subjects\` being its path from the workspace root.
# Optional fields: title, introduction, description, learned, disabled, enable
# (\`kb config-schema\` describes them). \`kb check\` validates this file.
`;

/** Skills and docs shaped like a real collection (a skills repository, a
 *  tree of reStructuredText documents). */
export const FILES = {
  'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: Read, fill and merge PDF files.\n---\n# PDF\n\nUse pypdf to merge documents.\n',
  'skills/pdf/reference.md': '# Reference\n\nForms and fields.\n',
  'skills/xlsx/SKILL.md': '---\nname: xlsx\ndescription: Spreadsheets with formulas.\n---\n# XLSX\n\nUse openpyxl.\n',
  'skills/xlsx/scripts/recalc.py': 'print("recalc")\n',
  'peps/pep-0008.rst': 'PEP: 8\nTitle: Style Guide for Python Code\n\nIntroduction\n============\n\nIndentation uses four spaces per level.\n',
  'peps/pep-0020.rst': 'PEP: 20\nTitle: The Zen of Python\n\nBeautiful is better than ugly.\n',
};

/** An Org-mode community wiki: pages among images, style sheets,
 *  scripts, Emacs Lisp, and the server and build files at its top. */
const ORG_WIKI: Record<string, string> = {
  'worg/index.org': [
    '#+title:      Hello Worg, the Org-Mode Community!',
    '#+startup:    align fold nodlcheck',
    '',
    '# This file is released under the GNU FDL.',
    '',
    '* Worg documentation on your machine',
    '',
    'Download Worg files on your machine:',
    '',
    ': git clone https://example.org/worg',
    '',
    '* Introduction',
    '',
    '[[https://orgmode.org][Org-mode]] is a powerful system for organizing your complex life with',
    'plain text.  It can even be used for authoring web pages.',
    '',
  ].join('\n'),
  'worg/org-faq.org': '#+TITLE: Org-mode Frequently Asked Questions\n\n* How do I start?\nRead the manual.\n',
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`worg/org-tutorials/t${i}.org`, `#+TITLE: Tutorial ${i}\n\nStep by step.\n`])),
  'worg/code/elisp/worg.el': '(defun worg ())\n',
  'worg/code/scripts/dir2org.zsh': 'print -r -- "$1"\n',
  'worg/code/org-info-js/org-info.js': 'var org_html_manager = {};\n',
  'worg/style/worg.css': 'body { margin: 0 }\n',
  'worg/images/orgmode/logo.png': '\u0000PNG',
  'worg/nginx.conf': 'server { listen 80; }\n',
  'worg/publish.sh': 'emacs --batch -l worg.el\n',
};

const WORG_TABLE = `[kb.topic.worg]
subjects = "worg"
# Drafted by kb init from worg/index.org: edit or delete them.
title = "Hello Worg, the Org-Mode Community!"
introduction = "Org-mode is a powerful system for organizing your complex life with plain text."
`;

const WORG_KBIGNORE = `# Written by kb init: the files of the site around these documents (style
# sheets, scripts, templates, build and server configuration, fragments
# that pages include, SVG images, HTML pages built from the sources beside
# them, translations), left out of the topic. Delete a rule to make its
# files subjects again; \`kb list --ignored\` shows what is left out.

# style sheets (1 file: style/worg.css)
*.css

# scripts (1 file: code/org-info-js/org-info.js)
*.js

# build and server configuration (2 files, such as nginx.conf)
/*.conf
/*.sh
`;

/** A Hugo docs site's content: pages with front matter, `_index.md`
 *  pages, a headless bundle of fragments, a glossary its index page lists,
 *  a content adapter. */
const HUGO_DOCS: Record<string, string> = {
  'content/en/_index.md':
    '---\ntitle: The world\'s fastest framework for building websites\ndescription: Hugo is one of the most popular open-source static site generators. With its amazing speed, it is fun.\n---\n',
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`content/en/functions/f${i}.md`, `---\ntitle: Function ${i}\nweight: ${i}\n---\n\nReturns ${i}.\n`])),
  'content/en/_common/_index.md': '---\ncascade:\n  build:\n    list: never\n    publishResources: false\n    render: never\n---\n\n<!-- Markdown snippets, included by pages. -->\n',
  'content/en/_common/glob-patterns.md': '---\n_comment: Do not remove front matter.\n---\n\nPath|Pattern\n',
  'content/en/_common/gomodules-info.md': '---\n_comment: Do not remove front matter.\n---\n\nModules.\n',
  'content/en/quick-reference/glossary/_index.md': '---\ntitle: Glossary\nbuild:\n  render: always\n  list: always\ncascade:\n  build:\n    render: never\n    list: local\n---\n\n{{% glossary %}}\n',
  'content/en/quick-reference/glossary/action.md': '---\ntitle: action\n---\n\nSee template action.\n',
  'content/en/news/_content.gotmpl': '{{ range $.Site.Data.news }}{{ end }}\n',
};

/** Asciidoctor-generated HTML man pages and their style sheet. */
const MAN_PAGES: Record<string, string> = {
  'gitdocs/index.html':
    '<!DOCTYPE html>\n<html><head><title>git(1)</title><style>\n.exampleblock>.content>:last-child { margin: 0 }\n</style></head>\n<body class="manpage"><div id="header"><h1>git(1) Manual Page</h1><h2 id="_name">NAME</h2><div class="sectionbody"><p>git - the stupid content tracker</p></div></div></body></html>\n',
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`gitdocs/git-c${i}.html`, `<html><head><title>git-c${i}(1)</title></head><body><p>git-c${i} - does ${i}</p></body></html>\n`])),
  'gitdocs/docbook-xsl.css': 'body { font: 1em serif }\n',
};

const NEXT = (first: string) => `
Next steps:
  kb list                       the topics and their subjects
  kb learn ${first.padEnd(20)} a topic as the model sees it
  kb prompt                     the <knowledge> section for a system prompt
  claude mcp add kb -- kb mcp   serve it to Claude Code (any MCP client: kb mcp)
`;

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`kb init (${runner.name})`, () => {
    test.parity('bare: a notes topic, its folder created; kb remember writes to it at once', () => {
      const root = folder();
      const r = run(runner, root, ['init']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${HEADER}\n[kb.topic.notes]\nsubjects = ".jp/kb/notes"\n`);
      expect(r.err).toBe(`Created .jp/config.toml with 1 topic:
topic notes: created the folder .jp/kb/notes, empty: kb remember notes "..." writes to it

Next steps:
  kb list                                     the topics and their subjects
  kb remember notes "..."                     write a note to it
  kb prompt                                   the <knowledge> section for a system prompt
  claude mcp add kb -- kb mcp --write notes   serve it to Claude Code (any MCP client: kb mcp)
`);
      expect(readFileSync(join(root, '.jp/config.toml'), 'utf8')).toBe(r.out);
      const remembered = run(runner, root, ['remember', 'notes', 'Releases', 'are', 'tagged', 'on', 'Tuesdays.']);
      expect(remembered).toMatchObject({ code: 0, err: '' });
      expect(remembered.out).toStartWith('Remembered as subject "releases-tagged-tuesdays" of topic "notes" (.jp/kb/notes/releases-tagged-tuesdays.md).');
      expect(run(runner, root, ['learn', 'notes']).out).toContain('- releases-tagged-tuesdays: Releases are tagged on Tuesdays.');

      // Twice: nothing added, nothing written, exit 0.
      const again = run(runner, root, ['init']);
      expect(again).toMatchObject({ code: 0, out: '' });
      expect(again.err).toStartWith('note: .jp/kb/notes is already topic "notes"; nothing to add\nNothing added to .jp/config.toml (it has 1 topic).\n\nNext steps:\n');
      expect(readFileSync(join(root, '.jp/config.toml'), 'utf8')).toBe(r.out);
    });

    test('folders: one topic each, skills recognised; list, learn and search answer', () => {
      const root = folder(FILES);
      const r = run(runner, root, ['init', 'skills', 'peps/']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${HEADER}\n[kb.topic.skills]\nsubjects = "skills"\n\n[kb.topic.peps]\nsubjects = "peps"\n`);
      expect(r.err).toBe(`Created .jp/config.toml with 2 topics:
topic skills: skills holds 2 Agent Skills (pdf, xlsx): each is one subject, its other files bundled with it
${NEXT('skills')}`);
      const list = run(runner, root, ['list']);
      expect(list.code).toBe(0);
      expect(list.out).toMatch(/^ {2}pdf .* skill {2}Read, fill and merge PDF files\.$/m);
      expect(list.out).toMatch(/^ {2}pep-0008 /m);
      expect(run(runner, root, ['learn', 'skills', 'pdf']).out).toContain('Use pypdf to merge documents.');
      const search = run(runner, root, ['search', 'indentation']);
      expect(search.code).toBe(0);
      expect(search.out).toContain('peps: pep-0008');
      expect(run(runner, root, ['check']).code).toBe(0);
    });

    test('an existing configuration: its text kept byte for byte, the new tables appended and printed', () => {
      const old = '# Ours.\n[kb.topic.docs] # the manual\nsubjects = "docs"\n\n[jp.other]\nx = 1\n';
      const root = folder({ ...FILES, '.jp/config.toml': old, 'docs/a.md': 'A\n' });
      const r = run(runner, root, ['init', 'docs', 'peps']);
      expect(r.code).toBe(0);
      expect(r.out).toBe('[kb.topic.peps]\nsubjects = "peps"\n');
      expect(r.err).toStartWith('Appended 1 topic to .jp/config.toml:\nnote: docs is already topic "docs"; nothing to add\n\nNext steps:\n');
      expect(readFileSync(join(root, '.jp/config.toml'), 'utf8')).toBe(`${old}\n${r.out}`);
    });

    test('--dry-run prints the configuration and writes nothing; -q keeps stderr quiet', () => {
      const root = folder(FILES);
      const r = run(runner, root, ['init', '--dry-run', 'peps']);
      expect(r).toEqual({
        code: 0,
        out: `${HEADER}\n[kb.topic.peps]\nsubjects = "peps"\n`,
        err: 'Dry run, nothing written: kb init would create .jp/config.toml with 1 topic:\n',
      });
      expect(existsSync(join(root, '.jp'))).toBe(false);
      const quiet = run(runner, root, ['-q', 'init', 'peps']);
      expect(quiet).toEqual({ code: 0, out: r.out, err: '' });
    });

    test('a missing folder, one outside, a link out: errors, exit 1, nothing written', () => {
      const outside = folder({ 'x.md': 'x\n' });
      const root = folder(FILES);
      symlinkSync(outside, join(root, 'out'));
      const r = run(runner, root, ['init', 'skills', 'missing', outside, 'out']);
      expect(r).toEqual({
        code: 1,
        out: '',
        err: `error: no such folder (missing)
error: outside the workspace, ${root}: give a folder inside it, or run kb init in a folder that holds both (${outside})
error: leads out of the workspace through a symbolic link (to ${outside}); a topic's folder must be inside the workspace, ${root} (out)
Nothing written: kb init writes all of it or nothing.
`,
      });
      expect(existsSync(join(root, '.jp'))).toBe(false);
    });

    test('-w: that directory; the next steps carry -w, the MCP line the absolute path', () => {
      const cwd = folder({ 'ws/docs/a.md': 'A\n' });
      const r = run(runner, cwd, ['-w', 'ws', 'init', 'ws/docs']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${HEADER}\n[kb.topic.docs]\nsubjects = "docs"\n`);
      expect(r.err).toContain(`  kb -w ws list   `);
      expect(r.err).toContain(`  claude mcp add kb -- kb -w ${join(cwd, 'ws')} mcp   `);
      expect(run(runner, cwd, ['-w', 'ws', 'list']).out).toContain('docs: docs\n  a ');
    });

    test.parity('an Org wiki: the title and introduction drafted from index.org, a .kbignore for its site files; the prompt says what the topic is', () => {
      const root = folder(ORG_WIKI);
      const dry = run(runner, root, ['init', '--dry-run', 'worg']);
      expect(dry.code).toBe(0);
      expect(dry.out).toBe(`${HEADER}\n${WORG_TABLE}`);
      expect(dry.err).toBe(`Dry run, nothing written: kb init would create .jp/config.toml with 1 topic:
topic worg: title and introduction drafted from worg/index.org: edit them in the configuration
topic worg: would write worg/.kbignore, leaving out the site files beside its documents (--no-kbignore: not written):
${WORG_KBIGNORE.trimEnd()
  .split('\n')
  .map((l) => (l === '' ? '' : `  ${l}`))
  .join('\n')}
`);
      expect(existsSync(join(root, '.jp'))).toBe(false);
      expect(existsSync(join(root, 'worg/.kbignore'))).toBe(false);

      const r = run(runner, root, ['init', 'worg']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(dry.out);
      expect(r.err).toContain('topic worg: wrote worg/.kbignore, leaving out the site files beside its documents: style sheets (*.css); scripts (*.js); build and server configuration (/*.conf, /*.sh) (kb list --ignored shows them; delete a rule to bring its files back)\n');
      expect(readFileSync(join(root, 'worg/.kbignore'), 'utf8')).toBe(WORG_KBIGNORE);
      expect(run(runner, root, ['prompt']).out).toContain('- worg (**Hello Worg, the Org-Mode Community!**): Org-mode is a powerful system for organizing your complex life with plain text.\n');
      const learn = run(runner, root, ['learn', 'worg']).out;
      for (const gone of ['style/worg', 'code/org-info-js/org-info', 'nginx', 'publish']) expect(learn).not.toContain(`- ${gone}\n`);
      for (const kept of ['code/elisp/worg', 'code/scripts/dir2org', 'org-faq']) expect(learn).toContain(`- ${kept}`);
      expect(run(runner, root, ['check']).code).toBe(0);
    });

    test('a .kbignore is never overwritten; --no-kbignore writes none', () => {
      const root = folder({ ...ORG_WIKI, 'worg/.kbignore': '# mine\n' });
      const r = run(runner, root, ['init', 'worg']);
      expect(r.code).toBe(0);
      expect(r.err).toContain('topic worg: worg/.kbignore exists and is left as it is; site files beside the documents that it may want: *.css, *.js, /*.conf, /*.sh\n');
      expect(readFileSync(join(root, 'worg/.kbignore'), 'utf8')).toBe('# mine\n');
      const other = folder(ORG_WIKI);
      const no = run(runner, other, ['init', '--no-kbignore', 'worg']);
      expect(no.code).toBe(0);
      expect(no.out).toBe(`${HEADER}\n${WORG_TABLE}`);
      expect(no.err).not.toContain('kbignore');
      expect(existsSync(join(other, 'worg/.kbignore'))).toBe(false);
    });

    test('a Hugo docs site: title and introduction from the front matter, its headless bundle of fragments and its templates left out, a listed glossary kept', () => {
      const root = folder(HUGO_DOCS);
      const r = run(runner, root, ['init', 'content/en']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(
        `${HEADER}\n[kb.topic.en]\nsubjects = "content/en"\n# Drafted by kb init from content/en/_index.md: edit or delete them.\ntitle = "The world's fastest framework for building websites"\nintroduction = "Hugo is one of the most popular open-source static site generators."\n`,
      );
      expect(readFileSync(join(root, 'content/en/.kbignore'), 'utf8')).toContain('\n# templates (1 file: news/_content.gotmpl)\n*.gotmpl\n\n# fragments included by other pages (3 files, such as _common/_index.md)\n/_common/\n');
      const learn = run(runner, root, ['learn', 'en']).out;
      expect(learn).not.toContain('_common');
      expect(learn).not.toContain('_content');
      expect(learn).toContain('- quick-reference/glossary/action');
    });

    test('HTML man pages: the title and NAME line of index.html; the style sheet left out', () => {
      const root = folder(MAN_PAGES);
      const r = run(runner, root, ['init', 'gitdocs']);
      expect(r.code).toBe(0);
      expect(r.out).toEndWith('[kb.topic.gitdocs]\nsubjects = "gitdocs"\n# Drafted by kb init from gitdocs/index.html: edit or delete them.\ntitle = "git(1)"\nintroduction = "git - the stupid content tracker"\n');
      expect(readFileSync(join(root, 'gitdocs/.kbignore'), 'utf8')).toEndWith('\n# style sheets (1 file: docbook-xsl.css)\n*.css\n');
    });

    test.parity('generated HTML pages beside their sources are left out, the pages without a source kept: no slug is shared', () => {
      const files: Record<string, string> = { 'htmldocs/index.html': '<title>git(1)</title><p>git - the stupid content tracker</p>\n' };
      for (let i = 0; i < 10; i++) {
        files[`htmldocs/git-c${i}.txt`] = `git-c${i}(1)\n=========\n\nNAME\n----\ngit-c${i} - command ${i}\n`;
        files[`htmldocs/git-c${i}.html`] = `<title>git-c${i}(1)</title><p>git-c${i} - command ${i}</p>\n`;
      }
      const root = folder(files);
      const r = run(runner, root, ['init', 'htmldocs']);
      expect(r.code).toBe(0);
      expect(readFileSync(join(root, 'htmldocs/.kbignore'), 'utf8')).toEndWith('\n# HTML pages built from the sources beside them (10 files, such as git-c0.html)\n*.html\n!/index.html\n');
      const check = run(runner, root, ['check']);
      expect(check.out).toBe('ok: 1 topic, 11 subjects, no problems\n');
      expect(run(runner, root, ['learn', 'htmldocs', 'index']).out).toContain('git - the stupid content tracker');
      rmSync(join(root, 'htmldocs/.kbignore'));
      expect(run(runner, root, ['check']).out).toContain('10 warnings');
    });

    test.parity("a docs site's translations are left out: a search answers with the page once, not in every language", () => {
      const files: Record<string, string> = {};
      const pages: Record<string, string> = { 'index.mdx': '# Starlight\n\nMake your docs shine.\n', 'guides/search.mdx': '# Site search\n\nDisable Pagefind search with pagefind: false.\n', 'guides/sidebar.mdx': '# Sidebar\n\nGroup links.\n', 'reference/config.mdx': '# Configuration\n\nSet pagefind: false to disable search.\n' };
      for (const [p, text] of Object.entries(pages)) {
        files[`docs/${p}`] = text;
        for (const lang of ['de', 'fr', 'zh-cn']) files[`docs/${lang}/${p}`] = text;
      }
      const root = folder(files);
      const r = run(runner, root, ['init', 'docs']);
      expect(r.code).toBe(0);
      expect(readFileSync(join(root, 'docs/.kbignore'), 'utf8')).toEndWith('\n# translations of these pages (12 files, such as de/guides/search.mdx)\n/de/\n/fr/\n/zh-cn/\n');
      const found = run(runner, root, ['search', 'disable pagefind search']).out;
      expect([...found.matchAll(/^\d+\. docs: (\S+)/gm)].map((m) => m[1])).toEqual(['guides/search', 'reference/config']);
    });

    test.parity("FastAPI's docs: the heading's padded id is no part of the title, the page's style sheet no introduction, a code include no passage", () => {
      const root = folder({
        'docs/index.md': '# FastAPI { #fastapi }\n\n<style>\n.md-content .md-typeset h1 { display: none; }\n</style>\n\nFastAPI is a modern, fast (high-performance), web framework for building APIs with Python.\n',
        'docs/tutorial/first-steps.md': '# First Steps with FastAPI { #first-steps }\n\nThe simplest FastAPI file could look like this:\n\n{* ../../docs_src/first_steps/tutorial001_py39.py *}\n\nRun the live server with the first steps command.\n',
      });
      const r = run(runner, root, ['init', 'docs']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('title = "FastAPI"\nintroduction = "FastAPI is a modern, fast (high-performance), web framework for building APIs with Python."\n');
      expect(run(runner, root, ['learn', 'docs']).out).toContain('- tutorial/first-steps: First Steps with FastAPI\n');
      const found = run(runner, root, ['search', 'docs_src live server command']).out;
      expect(found).not.toContain('{*');
      expect(found).toContain('> 7: Run the live server with the first steps command.');
    });

    test.parity("translations beside the pages they translate: FastAPI's `docs/ja/docs/` beside `docs/en/docs/`, tldr's `pages.de/` beside `pages/`", () => {
      const files: Record<string, string> = {};
      for (const p of ['index.md', 'tutorial/cors.md', 'tutorial/background-tasks.md', 'advanced/events.md']) {
        for (const lang of ['en', 'ja', 'de']) files[`docs/${lang}/docs/${p}`] = `# ${p}\n\nEnable CORS and background tasks.\n`;
        for (const pages of ['pages', 'pages.de', 'pages.zh_TW']) files[`tldr/${pages}/${p}`] = `# ${p}\n\n> Extract a tar archive.\n`;
      }
      const root = folder(files);
      expect(run(runner, root, ['init', 'docs', 'tldr']).code).toBe(0);
      expect(readFileSync(join(root, 'docs/.kbignore'), 'utf8')).toEndWith('\n# translations of these pages (8 files, such as de/docs/advanced/events.md)\n/de/\n/ja/\n');
      expect(readFileSync(join(root, 'tldr/.kbignore'), 'utf8')).toEndWith('\n# translations of these pages (8 files, such as pages.de/advanced/events.md)\n/pages.de/\n/pages.zh_TW/\n');
      const found = run(runner, root, ['search', '-t', 'docs', 'cors']).out;
      const slugs = [...found.matchAll(/^\d+\. docs: (\S+)/gm)].map((m) => m[1]);
      expect(slugs[0]).toBe('en/docs/tutorial/cors');
      expect(slugs.every((x) => x.startsWith('en/'))).toBe(true);
    });

    test.parity("Quarto's pages (.qmd) are Markdown: documents beside the site's style sheets, their slugs their own, their titles read, their image lines no passage", () => {
      const files: Record<string, string> = {
        'docs/authoring/markdown-basics.qmd': '---\ntitle: "Markdown Basics"\n---\n\n## Text Formatting\n\n![](images/formatting.png){.border fig-alt="Superscript and subscript formatting"}\n\nUse superscript^2^ and subscript~2~ for formatting.\n',
        'docs/authoring/markdown-basics.css': '.heading-output { font-size: 1.2em; }\n',
        'docs/dashboards/gapminder.qmd': '# Gapminder dashboard\n\nLife expectancy by country.\n',
        'docs/dashboards/gapminder.png': '\u0089PNG\u0000\u0000',
      };
      for (let i = 0; i < 3; i++) files[`docs/guide/page-${i}.qmd`] = `# Page ${i} of the guide\n\nText ${i}.\n`;
      const root = folder(files);
      expect(run(runner, root, ['init', 'docs']).code).toBe(0);
      expect(readFileSync(join(root, 'docs/.kbignore'), 'utf8')).toContain('\n*.css\n');
      const page = run(runner, root, ['learn', 'docs', 'dashboards/gapminder']);
      expect(page.code).toBe(0);
      expect(page.out).toContain('Life expectancy by country.');
      expect(run(runner, root, ['learn', 'docs']).out).toContain('- guide/page-0: Page 0 of the guide\n');
      const found = run(runner, root, ['search', 'superscript subscript formatting']).out;
      expect(found).toContain('1. docs: authoring/markdown-basics (');
      expect(found).not.toContain('![');
    });

    test.parity('the drafted introduction goes on past a line that opens with a link', () => {
      const root = folder({
        'notes/README.md': '# Braindump\n\nThis braindump is generated via [ox-hugo][ox-hugo] and uses the\n[cortex][cortex] theme.\n\n[ox-hugo]: https://ox-hugo.scripter.co/\n[cortex]: https://github.com/jethrokuan/cortex\n',
        'notes/zettel.md': '# A note\n\nText.\n',
      });
      const r = run(runner, root, ['init', 'notes']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('introduction = "This braindump is generated via ox-hugo and uses the cortex theme."\n');
    });

    test.parity("an Astro site's components are scripts to leave out; their `---` script, and a YAML file's `---`, are no frontmatter to check", () => {
      const root = folder({
        'site/index.mdx': '---\ntitle: Starlight\ndescription: Make your docs shine.\n---\n\nWelcome.\n',
        'site/guides/start.md': '# Getting started\n\nInstall it.\n',
        'site/guides/i18n.md': '# Translations\n\nAdd a locale.\n',
        'site/components/Card.astro': "---\nimport type { ImageMetadata } from 'astro';\ninterface Props { title: string }\n---\n<div class=\"card\"><slot /></div>\n",
        'site/components/Tabs.vue': '<template><div><slot /></div></template>\n',
        'site/readthedocs.yml': '---\nversion: 2\nbuild:\n  os: ubuntu-22.04\n',
      });
      const r = run(runner, root, ['init', 'site']);
      expect(r.code).toBe(0);
      expect(readFileSync(join(root, 'site/.kbignore'), 'utf8')).toContain('\n*.astro\n*.vue\n');
      const check = run(runner, root, ['check']);
      expect(check.code).toBe(0);
      expect(check.err).not.toContain('frontmatter');
      expect(check.out).toContain('no problems');
      rmSync(join(root, 'site/.kbignore'));
      const all = run(runner, root, ['check']);
      expect(all.code).toBe(0);
      expect(all.err).not.toContain('frontmatter');
    });

    test('a folder of JavaScript snippets is its knowledge: no .kbignore; a README without an opening heading gives no title', () => {
      const root = folder({
        'snippets/README.md': '<img src="logo.png">\n\nSmall JavaScript snippets for everyday work. Copy them.\n\n# Usage\n\nRun them.\n',
        ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`snippets/s${i}.js`, `export const s${i} = ${i};\n`])),
        'snippets/demo.css': 'body {}\n',
      });
      const r = run(runner, root, ['init', 'snippets']);
      expect(r.code).toBe(0);
      expect(r.out).toEndWith('[kb.topic.snippets]\nsubjects = "snippets"\n# Drafted by kb init from snippets/README.md: edit or delete them.\nintroduction = "Small JavaScript snippets for everyday work."\n');
      expect(r.err).toContain('topic snippets: introduction drafted from snippets/README.md: edit it in the configuration\n');
      expect(existsSync(join(root, 'snippets/.kbignore'))).toBe(false);
    });

    test("drafted text is the folder's: quotes and backslashes escaped, controls dropped, read back as written", () => {
      const root = folder({ 'd/index.md': '---\ntitle: "A \\"quoted\\" \\\\ title\\u202e"\ndescription: "Line one\\u0007 goes on. Two."\n---\n', 'd/a.md': 'a\n' });
      const r = run(runner, root, ['init', 'd']);
      expect(r.code).toBe(0);
      expect(r.out).toEndWith('title = "A \\"quoted\\" \\\\ title"\nintroduction = "Line one goes on."\n');
      const check = run(runner, root, ['check']);
      expect(check).toMatchObject({ code: 0, out: 'ok: 1 topic, 2 subjects, no problems\n' });
    });

    test('usage: no --cfg or -k', () => {
      const root = folder();
      const r = run(runner, root, ['init', '-c', 'kb.topic.x.subjects=x']);
      expect(r).toEqual({ code: 2, out: '', err: "error: kb init writes the configuration file; it takes no --cfg (--cfg)\nrun 'kb init --help' for usage\n" });
    });
  });
}

