import { describe, expect, test } from 'bun:test';
import { docsDir, navPages } from '../../../src/kb/index/mkdocs.ts';

const MKDOCS = `site_name: My Docs
docs_dir: 'documentation/'
theme:
  name: material
markdown_extensions:
  - pymdownx.emoji:
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
nav:
  - Home: index.md
  - 'User Guide':
      - 'Writing your docs': 'user-guide/writing-your-docs.md'
      - user-guide/styling.md  # no title
      - "Config": "./user-guide/configuration.md"
  - About:
    - License: about/license.md
    - Issues: https://github.com/example/issues
    - Release notes: about/release-notes.md
extra:
  nav: not.md
`;

describe('a MkDocs nav', () => {
  test('the pages it names, in order, links and other keys left out; tags a YAML parser refuses are no matter', () => {
    expect(navPages(MKDOCS)).toEqual(['index.md', 'user-guide/writing-your-docs.md', 'user-guide/styling.md', 'user-guide/configuration.md', 'about/license.md', 'about/release-notes.md']);
  });

  test('a list at the left edge, CRLF line ends; no nav, no pages', () => {
    expect(navPages('nav:\r\n- index.md\r\n- Guide: guide.md\r\nsite_name: x\r\n')).toEqual(['index.md', 'guide.md']);
    expect(navPages('site_name: x\n')).toEqual([]);
    expect(navPages('nav: [a.md]\n')).toEqual([]);
  });

  test('docs_dir: as set, docs by default', () => {
    expect(docsDir(MKDOCS)).toBe('documentation');
    expect(docsDir('site_name: x\n')).toBe('docs');
    expect(docsDir('docs_dir: .\n')).toBe('.');
  });

  test('linear: 1 MiB of nav lines in well under a second', () => {
    const t = performance.now();
    expect(navPages(`nav:\n${'  - a: : : : b\n'.repeat(70_000)}`)).toEqual([]);
    expect(navPages(`nav:\n${'- '.repeat(500_000)}`)).toEqual([]);
    expect(performance.now() - t).toBeLessThan(1000);
  });
});
