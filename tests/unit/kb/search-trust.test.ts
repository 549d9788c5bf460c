// What a cached search index may name (src/kb/search/trust.ts): the check
// of its paths' names, against the regular expression it replaced.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { CONTROL } from '../../../src/shared/controls.ts';
import { badNameAt, checkCached, clean, lockfileAt } from '../../../src/kb/search/trust.ts';
import { DEFAULT_FILES } from '../../../src/kb/fs/ignore.ts';
import { mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexBuilder, KIND_TEXT } from '../../../src/kb/search/engine.ts';
import { makeTempDir } from '../../support/temp.ts';

/** The rule as one regular expression (the check before it was made
 *  faster): an empty path or segment, a segment starting with `.`, or a
 *  control character but the newline; the offending path is the line at
 *  the match, or after it when the match starts with a newline. */
const ORACLE = new RegExp(`(^|[\\n/])(?:[.\\n/]|$)|${CONTROL.source.replace('\\u0000-\\u001f', '\\u0000-\\u0009\\u000b-\\u001f')}`);
function oracle(text: string): number {
  const m = ORACLE.exec(text);
  return m === null ? -1 : m.index + (m[1] === '\n' ? 1 : 0);
}

describe('the names a cached index holds', () => {
  test('good paths pass', () => {
    expect(badNameAt('a.md\nb/c.md\nd/e/f..g.md')).toBe(-1);
    expect(badNameAt('notes')).toBe(-1);
  });

  /** The path (line) holding offset `at`. */
  const pathAt = (text: string, at: number) => text.split('\n')[text.slice(0, at).split('\n').length - 1];

  test.each([
    ['', ''],
    ['.hidden.md', '.hidden.md'],
    ['a.md\n.hidden.md', '.hidden.md'],
    ['a.md\nb/.hidden.md\n.c.md', 'b/.hidden.md'],
    ['a.md\n\nb.md', ''],
    ['a.md\n', ''],
    ['a//b.md', 'a//b.md'],
    ['a.md\nb/', 'b/'],
    ['a.md\n/b.md', '/b.md'],
    ['a.md\nb\u0001.md', 'b\u0001.md'],
    ['a.md\nb\u2028.md', 'b\u2028.md'],
    ['a.md\nb/../c.md', 'b/../c.md'],
  ])('%j: the bad path is found', (text, path) => {
    const at = badNameAt(text);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(pathAt(text, at)).toBe(path);
  });

  test('the same verdict, at the same place, as the one regular expression', () => {
    const char = fc.constantFrom('a', 'b', '.', '/', '\n', '\u0001', '\u0009', '\u007f', '\u2028', '\ufeff', 'é');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }), (chars) => {
        const text = chars.join('');
        expect(badNameAt(text)).toBe(oracle(text));
      }),
      { numRuns: 5000, seed: 19 },
    );
  });
});

describe('lockfileAt: a file the built-in defaults ignore, in the paths', () => {
  /** The rule as the one regular expression it replaced: the line of the
   *  match, the character before the name (if any) not counted. Hidden
   *  names (`.git`) are badNameAt's. */
  const LOCKFILE = new RegExp(`(?:^|[\\n/])(?:${[...DEFAULT_FILES].filter((f) => !f.startsWith('.')).map((f) => f.replaceAll('.', '\\.')).join('|')})(?=\\n|$)`);
  const lineOf = (text: string, at: number) => text.slice(0, at).split('\n').length;
  const byPattern = (text: string): number => {
    const m = LOCKFILE.exec(text);
    return m === null ? -1 : lineOf(text, m.index + (m.index === 0 && !/[\n/]/.test(text[0]) ? 0 : 1));
  };
  const byLines = (text: string): number => {
    const at = lockfileAt(text);
    return at < 0 ? -1 : lineOf(text, at);
  };
  test.each([
    ['a.md\nyarn.lock', 2],
    ['yarn.lock\na.md', 1],
    ['a.md\nsub/bun.lockb\nyarn.lock', 2],
    ['a.md\nmyyarn.lock\nyarn.lock.md\nyarn.lock/x', -1],
    ['bun.lock', 1],
    ['x/bun.lockb', 1],
  ])('%j: line %d', (text, line) => {
    expect(byLines(text)).toBe(line);
    expect(byPattern(text)).toBe(line);
  });
  test('the same line as the one regular expression, on any paths', () => {
    const part = fc.constantFrom(...DEFAULT_FILES, 'a', 'b.md', '/', '\n', '.', 'lock', 'x');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(byLines(text)).toBe(byPattern(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('clean: a relative path of non-empty segments, none `.` or `..`', () => {
  test('agrees with the path cut into its segments', () => {
    const bySegments = (rel: string) => rel.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
    for (const rel of ['', '.', '..', 'a', 'a/b', '/a', 'a/', 'a//b', './a', '../a', 'a/.', 'a/..', 'a/./b', 'a/../b', '.a', 'a/.b', '..a/b..', 'a/...']) {
      expect({ rel, clean: clean(rel) }).toEqual({ rel, clean: bySegments(rel) });
    }
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '.', '/', 'é'), maxLength: 12 }), (rel) => {
        expect(clean(rel)).toBe(bySegments(rel));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('a cached index listing a directory the built-in rules leave out', () => {
  test('is not used, with no ignore file in the topic as with one', () => {
    for (const withControl of [false, true]) {
      const root = realpathSync(makeTempDir('kb-trust-dirs-'));
      mkdirSync(join(root, 'node_modules'));
      mkdirSync(join(root, 'docs'));
      if (withControl) writeFileSync(join(root, '.kbignore'), 'nothing-here\n');
      const b = new IndexBuilder();
      for (const path of ['docs/a.md', 'node_modules/b.md']) b.add({ path, slug: path.slice(0, -3), size: 1, mtime: 1, kind: KIND_TEXT, description: null }, [path, '', '', 'word']);
      const trace = {
        dirs: [root, join(root, 'docs'), join(root, 'node_modules')].map((p): [string, number] => [p, statSync(p).mtimeMs]),
        controls: withControl ? [[join(root, '.kbignore'), 13, statSync(join(root, '.kbignore')).mtimeMs] as [string, number, number]] : [],
      };
      expect(checkCached({ index: b.finish(), trace }, root).why).toBe('it lists the directory "node_modules", which the topic ignores');
      // Without it, the same index is used.
      const ok = new IndexBuilder();
      ok.add({ path: 'docs/a.md', slug: 'docs/a', size: 1, mtime: 1, kind: KIND_TEXT, description: null }, ['docs/a.md', '', '', 'word']);
      expect(checkCached({ index: ok.finish(), trace: { ...trace, dirs: trace.dirs.slice(0, 2) } }, root).why).toBeUndefined();
    }
  });
});
