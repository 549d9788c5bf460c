// indexSubjects computes slugs, hidden-ness and extensions per directory and
// per name (for speed); they must be exactly what slug.ts's describePath
// gives for the file's path.
import { describe, test, expect, afterAll } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describePath } from '../../../src/kb/index/slug.ts';
import { indexSubjects } from '../../../src/kb/index/subjects.ts';

const root = mkdtempSync(join(tmpdir(), 'kb-index-slugs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const NAMES = ['a.md', '.md', '..x.md', 'notes.', 'a.tar.gz', '.bashrc', 'README', 'X.MD', 'b.Txt', 'a b.md', 'naïve.md', '東京.rs', '.h.', '...', 'x..y', '.a.b.c'];
const DIRS = ['', 'd', '.hidden', 'd/.e', '.f/g', 'd/e/f', '..dd', 'x.y', '.x.y/.z'];

describe('indexSubjects: slug, hidden and ext as describePath gives them', () => {
  test('every name in every kind of directory', () => {
    const dir = join(root, 'tree');
    for (const d of DIRS) {
      for (const name of NAMES) {
        const p = join(dir, d, name);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, `${d}/${name}`);
      }
    }
    const index = indexSubjects(dir);
    const all = [...index.subjects, ...[...(index.shared?.values() ?? [])].flatMap((x) => x.others)];
    expect(all.length).toBe(DIRS.length * NAMES.length);
    for (const s of index.subjects) {
      expect({ path: s.path, ...describePath(s.path) }).toEqual({ path: s.path, slug: s.slug, hidden: s.hidden, ext: s.ext });
      expect(s.abs).toBe(join(dir, s.path));
    }
  });

  test('size: lazy, and shown by JSON', () => {
    const dir = join(root, 'sizes');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.md'), 'abc');
    const [s] = indexSubjects(dir).subjects;
    writeFileSync(join(dir, 'a.md'), 'abcdef'); // stat'ed on first access, not by the walk
    expect(s.size).toBe(6);
    expect(JSON.parse(JSON.stringify(s))).toEqual({ path: 'a.md', abs: join(dir, 'a.md'), slug: 'a', hidden: false, ext: 'md', size: 6 });
  });
});
