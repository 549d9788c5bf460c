import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeTempDir } from '../../support/temp.ts';
import { walkFiles, type WalkDir } from '../../../src/kb/fs/walk.ts';
import { describePath } from '../../../src/kb/index/slug.ts';
import { indexSubjects } from '../../../src/kb/index/subjects.ts';
import { slugOrder, type FolderRun } from '../../../src/kb/index/walk-order.ts';

/** The files of a folder tree on disk, as the walk meets them: their
 *  slugs (slug.ts describePath, which subjects.test.ts checks indexSubjects
 *  against), each folder's run of them, and the slug prefix of a folder. */
function walked(root: string): { slugs: string[]; runs: FolderRun[]; prefixOf: (folder: WalkDir) => string } {
  const slugs: string[] = [];
  const runs: FolderRun[] = [];
  const prefixOf = (folder: WalkDir) => (folder.rel === '' ? '' : describePath(`${folder.rel}/x`).slug.slice(0, -1));
  walkFiles(root, (folder, name) => {
    const last = runs[runs.length - 1];
    if (last === undefined || last.folder !== folder) runs.push({ folder, prefix: prefixOf(folder), start: slugs.length, end: slugs.length });
    slugs.push(describePath(folder.rel === '' ? name : `${folder.rel}/${name}`).slug);
    runs[runs.length - 1].end = slugs.length;
  });
  return { slugs, runs, prefixOf };
}

/** What a stable sort by code units gives: the indices, by slug, equal
 *  slugs in their order. */
function stableOrder(slugs: readonly string[]): number[] {
  return slugs.map((_, i) => i).sort((a, b) => (slugs[a] < slugs[b] ? -1 : slugs[a] > slugs[b] ? 1 : a - b));
}

function write(root: string, paths: readonly string[]): void {
  for (const p of paths) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), 'x');
  }
}

// Names whose order by name and by slug differ: a stem that ends where
// another goes on with a code unit below `.` or `/` (`a-b`, `a b`, `a!`),
// hidden names (a `.` dropped), names with two dots, a file and a folder
// of one stem, a hidden folder and a visible one of one slug prefix, case,
// and a non-ASCII name.
const PART = fc.constantFrom('a', 'a-b', 'a b', 'a!', 'ab', '.a', '.b', 'B', 'b', 'é', 'a.b', '-', 'z');
const EXT = fc.constantFrom('.md', '.txt', '', '.MD', '.b.md', '.json');
const PATH = fc.tuple(fc.array(PART, { maxLength: 3 }), PART, EXT).map(([dirs, stem, ext]) => [...dirs, stem + ext].join('/'));

describe('slugOrder', () => {
  test('gives the order a stable sort by slug gives, or none (then the caller sorts)', () => {
    let given = 0;
    fc.assert(
      fc.property(fc.uniqueArray(PATH, { maxLength: 24 }), (paths) => {
        const root = makeTempDir('kb-walk-order-');
        // A path both a file and a folder's name cannot be written: the
        // first written wins.
        const written: string[] = [];
        for (const p of paths) {
          try {
            write(root, [p]);
            written.push(p);
          } catch {
            // A folder of that name is a file already, or the reverse.
          }
        }
        const { slugs, runs, prefixOf } = walked(root);
        const order = slugOrder(slugs, runs, prefixOf, true);
        if (order !== undefined) {
          given++;
          expect([...order]).toEqual(stableOrder(slugs));
        }
        // Checked slug by slug, the answer is the same or none.
        const checked = slugOrder(slugs, runs, prefixOf, false);
        if (checked !== undefined) expect([...checked]).toEqual(stableOrder(slugs));
      }),
      { numRuns: 300 },
    );
    // The tree gives the order for most trees (those without a hidden and
    // a visible folder of one slug prefix).
    expect(given).toBeGreaterThan(150);
  });

  test('checked slug by slug, any slugs (a skill renames its SKILL.md): the stable order or none', () => {
    fc.assert(
      fc.property(fc.uniqueArray(PATH, { minLength: 1, maxLength: 16 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom('a', 'a/b', 'a-b', 'b/a', '', 'z/z/z')), { maxLength: 4 }), (paths, renames) => {
        const root = makeTempDir('kb-walk-order-');
        for (const p of paths) {
          try {
            write(root, [p]);
          } catch {
            // as above
          }
        }
        const { slugs, runs, prefixOf } = walked(root);
        if (slugs.length === 0) return;
        for (const [at, slug] of renames) slugs[at % slugs.length] = slug;
        const order = slugOrder(slugs, runs, prefixOf, false);
        if (order !== undefined) expect([...order]).toEqual(stableOrder(slugs));
      }),
      { numRuns: 200 },
    );
  });

  test('a folder whose files come out of slug order by name (a-b.md before a.md, hidden files first) is put in order without a sort of the rest', () => {
    const root = makeTempDir('kb-walk-order-');
    write(root, ['a-b.md', 'a.md', '.c.md', 'b.md', 'd/x.md', 'd-e/y.md', 'd.md', 'c/.h/z.md', 'c/a.md']);
    const { slugs, runs, prefixOf } = walked(root);
    const order = slugOrder(slugs, runs, prefixOf, true);
    expect(order).toBeDefined();
    expect([...order!].map((i) => slugs[i])).toEqual(['a', 'a-b', 'b', 'c', 'c/a', 'c/h/z', 'd', 'd-e/y', 'd/x']);
  });

  test('a hidden folder and a visible one of one slug prefix: none (their files would mix)', () => {
    const root = makeTempDir('kb-walk-order-');
    write(root, ['.a/x.md', 'a/x.md', 'a/y.md', '.a/z.md']);
    const { slugs, runs, prefixOf } = walked(root);
    expect(slugOrder(slugs, runs, prefixOf, true)).toBeUndefined();
    // indexSubjects sorts them instead: the visible file wins the shared slug.
    const index = indexSubjects(root);
    expect(index.subjects.map((s) => [s.slug, s.path])).toEqual([
      ['a/x', 'a/x.md'],
      ['a/y', 'a/y.md'],
      ['a/z', '.a/z.md'],
    ]);
  });

  test('runs that do not cover the files one after the other: none', () => {
    const root = makeTempDir('kb-walk-order-');
    write(root, ['a.md', 'b/c.md']);
    const { slugs, runs, prefixOf } = walked(root);
    expect(slugOrder(slugs, runs, prefixOf, true)).toBeDefined();
    expect(slugOrder(slugs, [runs[1], runs[0]], prefixOf, true)).toBeUndefined();
    expect(slugOrder([...slugs, 'x'], runs, prefixOf, true)).toBeUndefined();
    expect(slugOrder([], [], prefixOf, true)).toEqual(new Int32Array(0));
  });
});
