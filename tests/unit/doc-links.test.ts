// scripts/lib/doc-links.ts: every relative link and anchor in README.md and
// docs/**/*.md resolves, and the checker finds what does not, on a small
// fake tree.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { anchors, brokenLinks, links, markdownFiles, slug } from '../../scripts/lib/doc-links.ts';

const REPO = join(import.meta.dir, '../..');

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Writes `files` (path relative to the root -> content) under a fresh temp dir. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-doc-links-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe("the repository's docs", () => {
  test('README.md and every page under docs/, sub-folders included, are checked', () => {
    const files = markdownFiles(REPO);
    expect(files[0]).toBe('README.md');
    expect(files).toContain('docs/README.md');
    expect(files.some((f) => /^docs\/[^/]+\/.+\.md$/.test(f))).toBe(true);
  });

  test('every relative link and anchor resolves', () => {
    expect(brokenLinks(REPO)).toEqual([]);
  });

  test('the index, docs/README.md, links every page under docs/', () => {
    const index = readFileSync(join(REPO, 'docs/README.md'), 'utf8');
    const linked = new Set(links('docs/README.md', index).map((l) => `docs/${l.target.replace(/#.*/, '')}`));
    const pages = markdownFiles(REPO).filter((f) => f.startsWith('docs/') && f !== 'docs/README.md');
    expect(pages.filter((f) => !linked.has(f))).toEqual([]);
  });
});

describe('the checker', () => {
  test("anchors are GitHub's: lower case, punctuation dropped, spaces made hyphens, repeats numbered", () => {
    expect(slug('`kb search QUERY...`')).toBe('kb-search-query');
    expect(slug('Where kb differs from JP')).toBe('where-kb-differs-from-jp');
    expect(slug('Budgets: nothing overflows, a context')).toBe('budgets-nothing-overflows-a-context');
    expect(slug('`--cfg` / `-c`')).toBe('--cfg---c');
    expect(slug('See [the guide](x.md)')).toBe('see-the-guide');
    const text = '# Page\n\n## Setup\n\n```sh\n# not a heading\n```\n\n## Setup\n\n<a id="here"></a>\n';
    expect([...anchors(text)].sort()).toEqual(['here', 'page', 'setup', 'setup-1']);
  });

  test('links in code blocks and code spans are not links', () => {
    const text = '[a](a.md) `[b](b.md)`\n\n```md\n[c](c.md)\n```\n\n[d]: d.md\n![e](e.png "E")\n';
    expect(links('x.md', text).map((l) => [l.line, l.target])).toEqual([
      [1, 'a.md'],
      [7, 'd.md'],
      [8, 'e.png'],
    ]);
  });

  test('finds a missing file, a missing anchor, a path that climbs out; passes the rest', () => {
    const root = tree({
      'README.md': '# Top\n\n[guide](docs/guide/a.md#first-steps) [bad](docs/gone.md) [web](https://example.com/x.md)\n',
      'docs/guide/a.md': '# A\n\n## First steps\n\n[ref](../reference/b.md#nope) [up](../../../etc/passwd) [self](#a) [src](../../src/)\n',
      'docs/reference/b.md': '# B\n',
      'src/x.ts': '',
    });
    expect(brokenLinks(root)).toEqual([
      'README.md:3: docs/gone.md: no such file',
      'docs/guide/a.md:5: ../reference/b.md#nope: no heading makes #nope in docs/reference/b.md',
      'docs/guide/a.md:5: ../../../etc/passwd: outside the repository',
    ]);
  });
});

describe('the JSON Schemas page', () => {
  test('links every file of schemas/, so a new schema is documented', () => {
    const page = readFileSync(join(REPO, 'docs/reference/json-schemas.md'), 'utf8');
    const linked = new Set(links('docs/reference/json-schemas.md', page).map((l) => l.target.replace(/^\.\.\/\.\.\//, '')));
    const files = readdirSync(join(REPO, 'schemas')).filter((f) => f.endsWith('.json')).map((f) => `schemas/${f}`);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => !linked.has(f))).toEqual([]);
  });
});
