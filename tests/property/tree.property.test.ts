// Properties of whole learn calls on generated file trees, on disk: the
// topic is walked, listed, pre-loaded and loaded with generated (and
// hostile) pattern sets while every path-taking node:fs function is spied
// on. No path outside the topic directory is ever opened, stat'ed or
// listed; globs never return hidden or disabled subjects; an exact pattern
// returns at most one subject; results are deterministic and de-duplicated.
import { afterAll, describe, expect, spyOn, test } from 'bun:test';
import fc from 'fast-check';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Topic } from '../../src/config/types.ts';
import { engine } from '../../src/glob/engine.ts';
import { compileWith } from '../../src/glob/pattern.ts';
import { formattedText } from '../../src/kb/content/format.ts';
import { readSubject } from '../../src/kb/fs/read.ts';
import { hasLearnable, hasListable, listable } from '../../src/kb/index/listing.ts';
import { loadLearned, loadPatterns, type LoadItem } from '../../src/kb/index/load.ts';
import { openTopic } from '../../src/kb/index/view.ts';
import { NAME, PATTERN, TREE } from './generators.ts';

const RUNS = Number(process.env.KB_PROPERTY_RUNS ?? 3000);
const TREE_RUNS = Math.max(50, Math.ceil(RUNS / 2));

const base = fs.mkdtempSync(join(tmpdir(), 'kb-prop-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }), 120_000);

// Canaries beside the topic: what hostile patterns aim at.
fs.writeFileSync(join(base, 'secret.md'), 'SECRET\n');
fs.mkdirSync(join(base, 'other'));
fs.writeFileSync(join(base, 'other', 'secret.md'), 'SECRET\n');

/** Every node:fs function that takes a path, wrapped to record it. */
const PATH_FUNCTIONS = [
  'openSync', 'readFileSync', 'readdirSync', 'opendirSync', 'statSync', 'lstatSync', 'readlinkSync',
  'realpathSync', 'existsSync', 'accessSync', 'createReadStream',
] as const;

/** Runs `f` with the path-taking fs functions recorded; returns the paths
 *  (numeric file descriptors are not paths and are skipped). */
function recordingPaths<T>(f: () => T): { value: T; paths: string[] } {
  const paths: string[] = [];
  const spies = PATH_FUNCTIONS.map((name) => {
    const real = (fs as unknown as Record<string, (...a: unknown[]) => unknown>)[name];
    return spyOn(fs, name as never).mockImplementation(((p: unknown, ...rest: unknown[]) => {
      if (typeof p === 'string' || p instanceof URL || Buffer.isBuffer(p)) paths.push(String(p));
      return real(p, ...rest);
    }) as never);
  });
  try {
    return { value: f(), paths };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

/** Whether `p` (normalised: `..` segments resolved) is `dir` or below it. */
function inside(dir: string, p: string): boolean {
  const abs = resolve(p);
  return abs === dir || abs.startsWith(`${dir}/`);
}

let n = 0;
/** Writes a generated tree under a fresh topic directory. Entries that
 *  conflict with earlier ones (a file where a directory is) are skipped. */
function materialize(tree: typeof TREE extends fc.Arbitrary<infer T> ? T : never): string {
  const dir = join(base, `topic${n++}`);
  fs.mkdirSync(dir);
  for (const [path, kind] of tree.files) {
    try {
      fs.mkdirSync(dirname(join(dir, path)), { recursive: true });
      const content = kind === 'binary' ? new Uint8Array([0x89, 0x50, 0, 1]) : kind === 'empty' ? '' : `content of ${path}\n`;
      fs.writeFileSync(join(dir, path), content, { flag: 'wx' });
    } catch {
      // Conflicts with an earlier entry.
    }
  }
  for (const [dirs, name, to] of tree.links) {
    try {
      fs.mkdirSync(join(dir, ...dirs), { recursive: true });
      fs.symlinkSync(to, join(dir, ...dirs, name));
    } catch {
      // Conflicts with an earlier entry.
    }
  }
  return dir;
}

function topic(dir: string, learned: string[], disabled: string[]): Topic {
  return { id: 't', enable: true, subjects: 't', subjectsDir: dir, learned, disabled, sources: {} };
}

/** Patterns compiled synchronously, with the glob machinery loaded up front
 *  (the property spies on node:fs and runs synchronously). */
const compile = (patterns: readonly string[]) => compileWith(patterns, engine);

/** One whole session on a topic: prompt, schema, listing, a learn call. */
function session(t: Topic, patterns: string[]) {
  const view = openTopic(t, { learned: compile(t.learned) });
  const learned = [...loadLearned(view)];
  const listed = listable(view).map((s) => s.slug);
  const flags = [hasListable(view), hasLearnable(view)];
  const loaded = [...loadPatterns(view, compile(patterns), 'text')];
  return { view, learned, listed, flags, loaded };
}

const slugOf = (i: LoadItem) => ('slug' in i ? i.slug : undefined);

describe('learn calls on generated trees', () => {
  test('the recorder sees what it should: a read outside the topic is caught', () => {
    const dir = materialize({ files: [['a.md', 'text']], links: [] });
    const { paths } = recordingPaths(() => {
      session(topic(dir, [], []), ['*']);
      readSubject(join(base, 'secret.md')); // deliberately outside
    });
    expect(paths.some((p) => p === join(dir, 'a.md'))).toBe(true);
    expect(paths.filter((p) => !inside(dir, p))).toEqual([join(base, 'secret.md')]);
  });

  // One generated tree per run, every property checked on it, then removed:
  // thousands of trees in a bounded time.
  test('for every tree and pattern set: containment, hidden/disabled, exact, determinism', () => {
    let recorded = 0;
    fc.assert(
      fc.property(
        TREE,
        fc.array(PATTERN, { minLength: 1, maxLength: 6 }),
        fc.array(PATTERN, { maxLength: 3 }),
        fc.array(NAME, { maxLength: 3 }),
        (tree, patterns, learned, disabled) => {
          const dir = materialize(tree);
          const copy = materialize({ files: [...tree.files].reverse(), links: tree.links });
          try {
            // 1. Nothing outside the topic directory is touched.
            const { value: first, paths } = recordingPaths(() => session(topic(dir, learned, disabled), patterns));
            expect(paths.filter((p) => !inside(dir, p))).toEqual([]);
            recorded += paths.length;
            for (const item of [...first.loaded, ...first.learned]) {
              if (item.kind === 'subject') expect(formattedText(item.content)).not.toContain('SECRET');
            }

            // 2. Globs never return hidden or disabled subjects: the listing
            //    has neither; a returned hidden subject was named exactly.
            const bySlug = new Map(first.view.index.subjects.map((s) => [s.slug, s]));
            for (const slug of first.listed) {
              expect(bySlug.get(slug)!.hidden).toBe(false);
              expect(disabled).not.toContain(slug);
            }
            const returned = first.loaded.filter((i) => i.kind === 'subject').map((i) => slugOf(i)!);
            const named = new Set(patterns.map((p) => p.replace(/^(\.\/)+/, '')));
            for (const slug of returned) {
              expect(disabled).not.toContain(slug);
              if (bySlug.get(slug)!.hidden) expect(named.has(slug)).toBe(true);
            }
            for (const item of first.learned) if (item.kind === 'subject') expect(disabled).not.toContain(item.slug);

            // 3. An exact pattern returns at most one subject.
            for (const p of patterns.filter((q) => !/[*?[\]{}()!@+|]/.test(q))) {
              expect([...loadPatterns(first.view, compile([p]), 'text')].filter((i) => i.kind === 'subject').length).toBeLessThanOrEqual(1);
            }

            // 4. Deterministic (the same call again; the same files written in
            //    another order, elsewhere) and de-duplicated.
            const again = session(topic(dir, learned, disabled), patterns);
            expect(strip(again)).toEqual(strip(first));
            const other = session(topic(copy, learned, disabled), patterns);
            if (same(first, other)) expect(strip(other)).toEqual(strip(first));
            const slugs = first.loaded.filter((i) => i.kind !== 'no-match' && i.kind !== 'invalid-pattern').map(slugOf);
            expect(new Set(slugs).size).toBe(slugs.length);
            expect(new Set(first.listed).size).toBe(first.listed.length);
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
            fs.rmSync(copy, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: TREE_RUNS },
    );
    expect(recorded).toBeGreaterThan(TREE_RUNS);
  }, 120_000);
});

type Session = ReturnType<typeof session>;

/** A session's results without the directory they came from. */
function strip(s: Session) {
  return {
    learned: s.learned.map((i) => [i.kind, slugOf(i), 'content' in i ? formattedText(i.content) : '']),
    listed: s.listed,
    flags: s.flags,
    loaded: s.loaded.map((i) => [i.kind, slugOf(i) ?? ('pattern' in i ? i.pattern : ''), 'content' in i ? formattedText(i.content) : '']),
  };
}

/** Whether two topics hold the same files (a conflicting entry may have
 *  been kept in one and skipped in the other). */
function same(a: Session, b: Session): boolean {
  const files = (s: Session) => JSON.stringify(s.view.index.subjects.map((x) => [x.path, fs.readFileSync(x.abs, 'latin1')]));
  return files(a) === files(b);
}
