// Site files beside documents (kb/index/site.ts) on folders shaped like an
// Org-mode community wiki, a Hugo docs site, a tree of HTML man pages, and
// folders whose files ARE their knowledge (JavaScript snippets, code).
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { indexSubjects } from '../../../src/kb/index/subjects.ts';
import { kbignoreText, notRendered, surveySite } from '../../../src/kb/index/site.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-site-'));
  roots.push(root);
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), c);
  }
  return root;
}

const survey = (files: Record<string, string>) => surveySite(indexSubjects(tree(files)));
const rules = (files: Record<string, string>) => survey(files).groups.map((g) => [g.kind, g.patterns]);
const many = (n: number, path: (i: number) => string, text = '* x\n') => Object.fromEntries(Array.from({ length: n }, (_, i) => [path(i), text]));

describe('surveySite', () => {
  test('an Org wiki: style sheets and scripts anywhere, server and build files at the top; Emacs Lisp, images and nested scripts stay', () => {
    const found = rules({
      ...many(30, (i) => `page-${i}.org`),
      ...many(10, (i) => `tutorials/t-${i}.org`),
      'index.org': '#+TITLE: Hello\n',
      'style/worg.css': 'body {}',
      'style/zenburn.css': 'body {}',
      'code/org-info-js/org-info.js': 'var x;',
      'code/elisp/worg.el': '(defun x ())',
      'code/scripts/dir2org.zsh': 'echo',
      'images/logo.png': '\0PNG',
      'nginx.conf': 'server {}',
      'publish.sh': 'emacs --batch',
      'preamble.html': '<div>x</div>',
    });
    expect(found).toEqual([
      ['style sheets', ['*.css']],
      ['scripts', ['*.js']],
      ['build and server configuration', ['/*.conf', '/*.sh']],
    ]);
  });

  test("a Hugo docs site's content: a headless bundle's fragments and a content adapter; a listed section (a glossary) stays", () => {
    const found = rules({
      '_index.md': '---\ntitle: Docs\n---\n',
      ...many(40, (i) => `functions/f-${i}.md`, '---\ntitle: F\n---\nText.\n'),
      '_common/_index.md': '---\ncascade:\n  build:\n    list: never\n    publishResources: false\n    render: never\n---\n',
      ...many(5, (i) => `_common/frag-${i}.md`, '---\n_comment: Do not remove front matter.\n---\nA fragment.\n'),
      'quick-reference/glossary/_index.md': '---\ntitle: Glossary\nbuild:\n  render: always\n  list: always\ncascade:\n  build:\n    render: never\n    list: local\n---\n',
      ...many(5, (i) => `quick-reference/glossary/term-${i}.md`),
      'news/_content.gotmpl': '{{ range . }}{{ end }}',
    });
    expect(found).toEqual([
      ['templates', ['*.gotmpl']],
      ['fragments included by other pages', ['/_common/']],
    ]);
  });

  test("a Hugo site's root: template folders, named build files, assets; prose in a template-named folder stays", () => {
    const found = rules({
      'README.md': '# Docs\n',
      ...many(30, (i) => `content/p-${i}.md`),
      'layouts/home.html': '{{ define "main" }}{{ end }}',
      'layouts/_shortcodes/hl.html': '{{ .Inner }}',
      'templates/adr.md': '# ADR template\n',
      'assets/css/all.css': 'a {}',
      'assets/js/main.js': 'x()',
      'hugo.toml': 'baseURL = "/"',
      'netlify.toml': '[build]',
      'package.json': '{}',
      'data/docs.yaml': 'a: 1',
    });
    expect(found).toEqual([
      ['style sheets', ['*.css']],
      ['scripts', ['*.js']],
      ['templates', ['/layouts/']],
      ['build and server configuration', ['/hugo.toml', '/netlify.toml', '/package.json']],
    ]);
  });

  test('a notes vault: its SVG icons are left out like its other images; an icon set keeps its own', () => {
    const found = rules({
      ...many(40, (i) => `Notes/n-${i}.md`, '# Note\n'),
      ...many(12, (i) => `Attachments/icons/lucide-${i}.svg`, '<svg xmlns="http://www.w3.org/2000/svg"><path d="M1 2"/></svg>\n'),
      ...many(5, (i) => `Attachments/p-${i}.png`, '\0PNG'),
      'publish.css': 'a {}',
    });
    expect(found).toEqual([
      ['style sheets', ['*.css']],
      ['SVG images', ['*.svg']],
    ]);
    expect(rules({ 'README.md': '# Icons\n', ...many(30, (i) => `icons/i-${i}.svg`, '<svg/>\n') })).toEqual([]);
  });

  test('HTML man pages with their style sheet: the style sheet only', () => {
    expect(rules({ ...many(20, (i) => `git-${i}.html`, '<title>git</title>'), 'docbook-xsl.css': 'a {}' })).toEqual([['style sheets', ['*.css']]]);
  });

  test('HTML pages built from the sources beside them: `*.html`, the pages without a source brought back; not where few are built', () => {
    const sources = many(20, (i) => `git-c${i}.txt`, 'git-c(1)\n========\n');
    const pages = many(20, (i) => `git-c${i}.html`, '<title>git</title>');
    expect(rules({ ...sources, ...pages, 'index.html': '<title>Git</title>', 'docinfo.html': '<p>x</p>', 'docbook-xsl.css': 'a {}' })).toEqual([
      ['style sheets', ['*.css']],
      ['HTML pages built from the sources beside them', ['*.html', '!/docinfo.html', '!/index.html']],
    ]);
    // In folders too, and `*.htm`.
    expect(rules({ ...many(6, (i) => `a/p${i}.rst`), ...many(6, (i) => `a/p${i}.htm`, '<p>x</p>') })).toEqual([['HTML pages built from the sources beside them', ['*.htm']]]);
    // Four built only; two in ten without a source: no rule.
    expect(rules({ ...many(4, (i) => `p${i}.md`), ...many(4, (i) => `p${i}.html`, '<p>x</p>') })).toEqual([]);
    expect(rules({ ...many(8, (i) => `p${i}.md`), ...many(8, (i) => `p${i}.html`, '<p>x</p>'), 'x.html': '<p>x</p>', 'y.html': '<p>y</p>' })).toEqual([]);
  });

  test("a docs site's translations: folders named as languages that hold the pages of the folder they are in", () => {
    const pages = ['index.mdx', 'getting-started.mdx', 'guides/i18n.mdx', 'guides/sidebar.mdx', 'reference/configuration.mdx'];
    const site: Record<string, string> = {};
    for (const p of pages) site[p] = '# Page\n';
    for (const lang of ['de', 'zh-cn', 'pt-BR']) for (const p of pages.slice(0, lang === 'pt-BR' ? 3 : 5)) site[`${lang}/${p}`] = '# Seite\n';
    // A folder named as a language that holds other pages stays (`id` as
    // in identifiers), and so does one that mirrors too few.
    site['id/uuid.md'] = '# UUIDs\n';
    site['id/ulid.md'] = '# ULIDs\n';
    site['id/index.mdx'] = '# IDs\n';
    site['fr/index.mdx'] = '# Accueil\n';
    expect(rules(site)).toEqual([['translations of these pages', ['/de/', '/pt-BR/', '/zh-cn/']]]);
    // In a subfolder too.
    const nested = Object.fromEntries(Object.entries(site).map(([p, c]) => [`docs/${p}`, c]));
    expect(rules(nested)).toEqual([['translations of these pages', ['/docs/de/', '/docs/pt-BR/', '/docs/zh-cn/']]]);
    // Language folders side by side: those that translate `en` (FastAPI's
    // `docs/ja/docs/...`), `en` itself staying; without `en`, the largest.
    const beside: Record<string, string> = {};
    for (const p of pages) beside[`docs/en/docs/${p}`] = '# Page\n';
    for (const lang of ['ja', 'zh']) for (const p of pages.slice(0, 4)) beside[`docs/${lang}/docs/${p}`] = '# ページ\n';
    beside['docs/en/mkdocs.yml'] = 'site_name: x\n';
    expect(rules(beside)).toEqual([['translations of these pages', ['/docs/ja/', '/docs/zh/']]]);
    const noEnglish = Object.fromEntries(Object.entries(beside).map(([p, c]) => [p.replace('/en/', '/fr/'), c]));
    expect(rules(noEnglish)).toEqual([['translations of these pages', ['/docs/ja/', '/docs/zh/']]]);
    // A folder whose name extends another's with a language (tldr's
    // `pages.de/` beside `pages/`).
    const tldr: Record<string, string> = {};
    for (const p of ['common/tar.md', 'common/ls.md', 'linux/apt.md', 'osx/brew.md']) {
      tldr[`pages/${p}`] = '# x\n';
      tldr[`pages.de/${p}`] = '# x\n';
      tldr[`pages.pt_BR/${p}`] = '# x\n';
    }
    tldr['pages.v2/other.md'] = '# x\n';
    expect(rules(tldr)).toEqual([['translations of these pages', ['/pages.de/', '/pages.pt_BR/']]]);
    // Translations alone (a folder of one language's pages and a few others) stay.
    expect(rules({ 'index.md': 'x', 'a.md': 'x', 'de/index.md': 'x', 'de/a.md': 'x', 'de/b.md': 'x' })).toEqual([]);
  });

  test('a folder of JavaScript snippets IS its knowledge: nothing left out, its style sheets neither', () => {
    const s = survey({ 'README.md': '# Snippets\n', ...many(20, (i) => `snippets/s-${i}.js`, 'x()'), 'demo.css': 'a {}', 'build.sh': 'x' });
    expect(s.groups).toEqual([]);
    expect(s.prose).toBe(1);
  });

  test('a code base with a few docs is not a documents folder', () => {
    expect(rules({ 'README.md': '# X\n', 'docs/a.md': 'a', ...many(10, (i) => `src/m${i}.py`, 'x = 1'), 'style.css': 'a {}' })).toEqual([]);
  });

  test('a kind as numerous as the documents is not beside them', () => {
    expect(rules({ ...many(10, (i) => `p${i}.md`), ...many(10, (i) => `c${i}.css`) })).toEqual([]);
    expect(rules({ ...many(10, (i) => `p${i}.md`), ...many(9, (i) => `c${i}.css`) })).toEqual([['style sheets', ['*.css']]]);
  });

  test('hidden files and skills are not counted; media is neither prose nor a site file', () => {
    const s = survey({ 'a.md': 'a', 'b.md': 'b', '.x.css': 'a {}', 'skills/s/SKILL.md': '---\nname: s\n---\n', 'skills/s/run.js': 'x', ...many(9, (i) => `img/${i}.png`, '\0') });
    expect(s.groups).toEqual([]);
    expect([s.prose, s.text]).toEqual([2, 2]);
  });

  test('names are written as literal rules', () => {
    const found = survey({ ...many(4, (i) => `p${i}.md`), 'w[1]*/_index.md': '---\nheadless: true\n---\n', 'w[1]*/x.md': 'x' });
    expect(found.groups.map((g) => g.patterns)).toEqual([['/w\\[1\\]\\*/']]);
  });

  test('the .kbignore text: what it is, how to undo it, a comment per kind', () => {
    const s = survey({ ...many(3, (i) => `p${i}.org`), 'style.css': 'a {}', 'b.css': 'a {}' });
    expect(kbignoreText(s)).toBe(
      [
        '# Written by kb init: the files of the site around these documents (style',
        '# sheets, scripts, templates, build and server configuration, fragments',
        '# that pages include, SVG images, HTML pages built from the sources beside',
        '# them, translations), left out of the topic. Delete a rule to make its',
        '# files subjects again; `kb list --ignored` shows what is left out.',
        '',
        '# style sheets (2 files, such as b.css)',
        '*.css',
        '',
      ].join('\n'),
    );
  });
});

describe('notRendered: a headless bundle', () => {
  test.each([
    ['headless: true', true],
    ['cascade:\n  build:\n    render: never\n    list: never', true],
    ['_build:\n  render: false\n  list: false', true],
    ['build:\n  render: "never"  # a comment\n  list: \'never\'', true],
    ['cascade:\n  build:\n    render: never\n    list: local', false],
    ['build:\n  render: never', false],
    ['headless: false', false],
    ['title: render: never', false],
  ])('%p', (front, expected) => expect(notRendered(front)).toBe(expected));
});
