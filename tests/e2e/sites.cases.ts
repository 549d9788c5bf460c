// Docs sites' own conventions (issue: any folder, round two, item 4): the
// order a site gives its pages (Hugo `weight`, Docusaurus
// `sidebar_position`, Jekyll's `nav_order`), and folders' index pages
// (`_index.md`, `index.md`, `README.md`), on fixtures shaped like a Hugo
// docs site and a Docusaurus or Jekyll docs folder. Run on the compiled
// binary and under deno.
import { describe, expect } from 'bun:test';
import { caseTest, fixture, run, type Runner } from './harness.ts';

const page = (front: string, body = 'Text.\n') => `---\n${front}\n---\n\n${body}`;

/** A Hugo docs site's content: sections with `_index.md`, weights. */
function hugoSite(extra: Record<string, string> = {}): string {
  return fixture(
    {
      ...extra,
      'content/_index.md': page('title: Hugo Documentation'),
      'content/introduction.md': page('title: Introduction\nweight: 10'),
      'content/about/_index.md': page('title: About Hugo\ndescription: Learn about Hugo and its features.\nweight: 20'),
      'content/about/features.md': page('title: Features\nweight: 20'),
      'content/about/benefits.md': page('title: Benefits\nweight: 10'),
      'content/about/license.md': page('title: License'),
      'content/content-management/_index.md': page('title: Content management\nweight: 15'),
      'content/content-management/image-processing/_index.md': page('title: Image processing\ndescription: Resize, crop, rotate, filter, and convert images.\nweight: 5', 'Hugo processes images.\n'),
      'content/content-management/image-processing/filters.md': page('title: Filters'),
      'content/troubleshooting.md': page('title: Troubleshooting'),
    },
    '[kb.topic.docs]\nsubjects = "content"\n',
  );
}

/** A Docusaurus docs folder (sidebar_position, README.md for a
 *  category) beside Jekyll pages (nav_order, index.md). */
function docusaurusSite(): string {
  return fixture(
    {
      'docs/intro.md': page('sidebar_position: 1\ntitle: Introduction'),
      'docs/tutorial/README.md': page('sidebar_position: 2\ntitle: Tutorial\ndescription: Build a site in five minutes.'),
      'docs/tutorial/create-a-page.md': page('sidebar_position: 1'),
      'docs/tutorial/deploy.md': page('sidebar_position: 3'),
      'docs/tutorial/create-a-blog-post.md': page('sidebar_position: 2'),
      'docs/api/index.md': page('nav_order: 3\ntitle: API reference'),
      'docs/api/widgets.md': page('nav_order: 1'),
      'docs/api/config.md': page('nav_order: 2'),
      'docs/changelog.md': '# Changelog\n',
    },
    '[kb.topic.docs]\nsubjects = "docs"\n',
  );
}

/** A MkDocs site: mkdocs.yml beside its docs folder, a nav in it. */
function mkdocsSite(): string {
  const pages = ['index', 'getting-started', 'user-guide/writing', 'user-guide/styling', 'about/license', 'about/contributing'];
  return fixture(
    {
      'mkdocs.yml': [
        'site_name: Widget',
        'theme:',
        '  name: material',
        'markdown_extensions:',
        '  - pymdownx.emoji:',
        '      emoji_index: !!python/name:material.extensions.emoji.twemoji',
        'nav:',
        '  - Home: index.md',
        "  - 'User Guide':",
        "      - 'Writing': 'user-guide/writing.md'",
        '      - user-guide/styling.md',
        '  - About:',
        '    - License: about/license.md',
        '    - Contributing: about/contributing.md',
        '    - Issues: https://example.org/issues',
        '  - Getting started: getting-started.md',
        '',
      ].join('\n'),
      ...Object.fromEntries(pages.map((p) => [`docs/${p}.md`, `Text of ${p}.\n`])),
    },
    '[kb.topic.docs]\nsubjects = "docs"\n[kb.topic.site]\nsubjects = "."\n',
  );
}

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`docs sites' conventions (${runner.name})`, () => {
    test.parity("a Hugo site lists its pages in the site's order: weights within each folder, a section by its _index, the index page first", () => {
      const r = run(runner, hugoSite(), ['learn', 'docs']);
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      expect(r.out).toContain(
        [
          '- _index: Hugo Documentation',
          '- introduction',
          '- content-management/_index: Content management',
          '- content-management/image-processing/_index: Resize, crop, rotate, filter, and convert images.',
          '- content-management/image-processing/filters',
          '- about/_index: Learn about Hugo and its features.',
          '- about/benefits',
          '- about/features',
          '- about/license',
          '- troubleshooting',
        ].join('\n'),
      );
    });

    test.parity('Docusaurus and Jekyll: sidebar_position and nav_order; the order holds in kb list and in a folder', () => {
      const root = docusaurusSite();
      const r = run(runner, root, ['learn', 'docs']);
      expect(r.code).toBe(0);
      expect(r.out).toContain(
        ['- intro: Introduction', '- tutorial/README: Build a site in five minutes.', '- tutorial/create-a-page', '- tutorial/create-a-blog-post', '- tutorial/deploy', '- api/index: API reference', '- api/widgets', '- api/config', '- changelog'].join('\n'),
      );
      const list = run(runner, root, ['list', '--format', 'json']);
      expect(JSON.parse(list.out).topics[0].rows.map((s: { slug: string }) => s.slug)).toEqual(['intro', 'tutorial/README', 'tutorial/create-a-page', 'tutorial/create-a-blog-post', 'tutorial/deploy', 'api/index', 'api/widgets', 'api/config', 'changelog']);
      const folder = run(runner, root, ['learn', 'docs', 'api/']);
      expect(folder.out).toContain('- api/index: API reference\n- api/widgets\n- api/config\n');
    });

    test.parity('a weight wins over natural order: step10 (weight 1) before step2 (weight 2); without weights, step2 before step10', () => {
      const weighted = fixture({ 'd/step2.md': page('weight: 2'), 'd/step10.md': page('weight: 1') }, '[kb.topic.docs]\nsubjects = "d"\n');
      expect(run(runner, weighted, ['learn', 'docs']).out).toContain('- step10\n- step2\n');
      const plain = fixture({ 'd/step2.md': 'Two.\n', 'd/step10.md': 'Ten.\n' }, '[kb.topic.docs]\nsubjects = "d"\n');
      expect(run(runner, plain, ['learn', 'docs']).out).toContain('- step2\n- step10\n');
      // Beside weighted pages, the pages without a weight in natural order too.
      const mixed = fixture({ 'd/_index.md': page('title: Metrics\nweight: 5'), 'd/v3.4.1.md': 'One.\n', 'd/v3.4.10.md': 'Ten.\n', 'd/v3.4.2.md': 'Two.\n' }, '[kb.topic.docs]\nsubjects = "d"\n');
      expect(run(runner, mixed, ['learn', 'docs']).out).toContain('- v3.4.1\n- v3.4.2\n- v3.4.10\n');
    });

    test.parity("a MkDocs site lists its pages in its nav's order, a section where its first page is, from the docs folder or the site's", () => {
      const root = mkdocsSite();
      const docs = run(runner, root, ['learn', 'docs']);
      expect(docs.code).toBe(0);
      expect(docs.err).toBe('');
      expect(docs.out).toContain('\n- index\n- user-guide/writing\n- user-guide/styling\n- about/license\n- about/contributing\n- getting-started\n');
      const site = run(runner, root, ['learn', 'site']);
      expect(site.out).toContain('\n- docs/index\n- docs/user-guide/writing\n- docs/user-guide/styling\n- docs/about/license\n- docs/about/contributing\n- docs/getting-started\n- mkdocs\n');
    });

    test.parity("a folder's name loads its index page, with a note naming the real slug and how to list the folder", () => {
      const r = run(runner, hugoSite(), ['learn', 'docs', 'content-management/image-processing']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(
        [
          '<subject "content-management/image-processing/_index">',
          '---',
          'title: Image processing',
          'description: Resize, crop, rotate, filter, and convert images.',
          'weight: 5',
          '---',
          '',
          'Hugo processes images.',
          '</subject>',
          '',
          'Note: "content-management/image-processing" matched no subject; used "content-management/image-processing/_index" instead (it is the index page of the folder "content-management/image-processing"; the pattern "content-management/image-processing/" lists the folder).',
          '',
        ].join('\n'),
      );
      expect(r.err).toBe('warning: topic "docs": "content-management/image-processing" matched no subject; used "content-management/image-processing/_index" instead\n');
      const readme = run(runner, docusaurusSite(), ['learn', 'docs', 'tutorial']);
      expect(readme.out).toStartWith('<subject "tutorial/README">\n');
      const root = hugoSite({ 'content/guide/README.md': '\0binary', 'content/guide/start.md': '# Start\n', 'content/api/_index.md': '# API\n', 'content/api/calls.md': '# Calls\n' });
      for (const folder of ['guide', 'api']) {
        const r = run(runner, root, ['learn', '--cfg', 'kb.topic.docs.disabled:=["api/_index"]', 'docs', folder]);
        expect(r.out).toStartWith(`No subject is named "${folder}"; it is a folder. Its subjects:\n`);
      }
      const listed = run(runner, hugoSite(), ['learn', 'docs', 'about/']);
      expect(listed.out).toContain('## Available subjects in about/:\n\n- about/_index: Learn about Hugo and its features.\n- about/benefits\n');
    });

    test.parity("a folder summed up to fit the budget shows its index page's description (else its title); one without an index page, its counts alone", () => {
      const more = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`content/about/history/year-${2000 + i}.md`, page(`title: ${2000 + i}`)]));
      const r = run(runner, hugoSite(more), ['learn', '--max-tokens', '150', 'docs']);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(
        /\n- _index\n- introduction\n- content-management\/_index\n- content-management\/image-processing\/ \(2 subjects, ~\d+ tokens\): Resize, crop, rotate, filter, and convert images\.\n- about\/_index\n- about\/benefits\n- about\/features\n- about\/history\/ \(40 subjects, ~\d+ tokens\)\n- about\/license\n/,
      );
      expect(r.out).toContain('folders marked `/` are summed up');
    });
  });
}
