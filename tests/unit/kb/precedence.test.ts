import { describe, expect, test } from 'bun:test';
import { formatRank, isProse, precedes, type Ranked } from '../../../src/kb/index/precedence.ts';

const file = (path: string, hidden = false): Ranked => {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return { path, hidden, ext: dot > 0 ? name.slice(dot + 1).toLowerCase() : '' };
};

describe('precedence of the files that share a slug', () => {
  test('prose, then data and code, then everything else', () => {
    const ranks = ['md', 'mdx', 'org', 'rst', 'adoc', 'txt', 'html', '', 'json', 'css', 'js', 'el', 'png', 'pdf', 'eps', 'xyz'].map(formatRank);
    for (let i = 1; i < 8; i++) expect(ranks[i]).toBeGreaterThan(ranks[i - 1]);
    for (const r of ranks.slice(8, 12)) expect(r).toBeGreaterThan(ranks[7]);
    expect(new Set(ranks.slice(8, 12)).size).toBe(1);
    for (const r of ranks.slice(12)) expect(r).toBeGreaterThan(ranks[8]);
    expect(new Set(ranks.slice(12)).size).toBe(1);
  });

  test("each prose family's spellings share its rank", () => {
    expect(formatRank('markdown')).toBe(formatRank('md'));
    expect(formatRank('asciidoc')).toBe(formatRank('adoc'));
    expect(formatRank('htm')).toBe(formatRank('html'));
    expect(formatRank('text')).toBe(formatRank('txt'));
    // Quarto's and R Markdown's pages rank with MDX: before data, code and images.
    expect(formatRank('qmd')).toBe(formatRank('mdx'));
    expect(formatRank('rmd')).toBe(formatRank('mdx'));
    expect(isProse('qmd') && isProse('rmd')).toBe(true);
    for (const other of ['json', 'css', 'png', 'py', 'r', 'ipynb']) expect(formatRank('qmd')).toBeLessThan(formatRank(other));
    expect(isProse('org')).toBe(true);
    expect(isProse('css')).toBe(false);
  });

  test('a strict total order on distinct paths: exactly one of a, b precedes the other', () => {
    const files = ['a.md', '.a.md', 'a.css', 'a.html', 'a', 'a.png', 'a.eps', 'a.json', 'a.yaml', 'a.MD', 'x/.a.org'].map((p) => file(p, p.startsWith('.') || p.includes('/.')));
    for (const a of files) {
      expect(precedes(a, a)).toBe(false);
      for (const b of files) if (a !== b) expect(precedes(a, b)).toBe(!precedes(b, a));
    }
    // Transitive: sorting by it gives the same order from any start.
    const sorted = (xs: Ranked[]) => xs.slice().sort((a, b) => (precedes(a, b) ? -1 : 1)).map((f) => f.path);
    expect(sorted(files)).toEqual(sorted(files.slice().reverse()));
    expect(sorted(files)).toEqual(['a.MD', 'a.md', 'a.html', 'a', 'a.css', 'a.json', 'a.yaml', 'a.eps', 'a.png', '.a.md', 'x/.a.org']);
  });
});
