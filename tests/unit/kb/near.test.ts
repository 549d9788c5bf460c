// Near misses (kb/index/near.ts): what a learn pattern that matches nothing
// is read as, on topic trees shaped like real documentation folders (a
// docs tree with an `architecture/` folder, a book whose chapters are
// `src/chNN-MM-title.md` and whose summary links them by file name).
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { engine } from '../../../src/glob/engine.ts';
import { compileWith } from '../../../src/glob/pattern.ts';
import { MAX_SCANNED_MISSES, directoryPrefixes, jsonList, planPatterns, splitList, wikilink, type Plan } from '../../../src/kb/index/near.ts';
import { resolvePatterns } from '../../../src/kb/index/resolve.ts';
import { loadPatterns } from '../../../src/kb/index/load.ts';
import { openTopic, type TopicSpec, type TopicView } from '../../../src/kb/index/view.ts';
import { makeTempDir } from '../../support/temp.ts';

const compile = (patterns: readonly string[]) => compileWith(patterns, engine);
const BIN = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]);

function tree(spec: Record<string, string | Uint8Array>): string {
  const root = makeTempDir('kb-near-');
  for (const [rel, v] of Object.entries(spec)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), v);
  }
  return root;
}

function view(spec: Record<string, string | Uint8Array>, opts: { subjects?: string; disabled?: string[]; learned?: string[] } = {}): TopicView {
  const topic: TopicSpec = { id: 't', subjectsDir: tree(spec), disabled: opts.disabled ?? [], subjects: opts.subjects };
  return openTopic(topic, { learned: compile(opts.learned ?? []) });
}

/** The plan of `patterns`, shortened: the patterns to load, and the
 *  fallbacks and hints as they are. */
async function plan(v: TopicView, patterns: string[]): Promise<{ load: string[]; fallbacks: Plan['fallbacks']; hints: Record<string, unknown> }> {
  const p = await planPatterns(v, compile(patterns));
  return { load: p.patterns.map((c) => c.raw), fallbacks: p.fallbacks, hints: Object.fromEntries(p.hints) };
}

const DOCS = {
  'architecture/knowledge-base.md': '# Knowledge base\n',
  'architecture/overview.md': '# Overview\n',
  'guide/install.md': '# Install\n',
  'guide/cli/flags.md': '# Flags\n',
  'guide/.drafts.md': 'draft\n',
  'guide/logo.png': BIN,
  'README.md': '# Docs\n',
  'config.toml': 'a = 1\n',
};

const BOOK = {
  'src/SUMMARY.md': '- [What is ownership?](ch04-01-what-is-ownership.md)\n',
  'src/ch04-00-understanding-ownership.md': '# Understanding Ownership\n',
  'src/ch04-01-what-is-ownership.md': '# What Is Ownership?\n',
  'src/ch04-02-references-and-borrowing.md': '# References and Borrowing\n',
  'src/ch04-03-slices.md': '# The Slice Type\n',
  'listings/ch04/listing-04-01/src/main.rs': 'fn main() {}\n',
  'listings/ch04/listing-04-02/src/main.rs': 'fn main() {}\n',
};

describe('exact hits are left alone', () => {
  test('exact slugs, globs and invalid patterns pass through unchanged, with nothing noted', async () => {
    const v = view(DOCS, { subjects: 'docs' });
    expect(await plan(v, ['architecture/knowledge-base', 'guide/*', '../x', 'README'])).toEqual({
      load: ['architecture/knowledge-base', 'guide/*', '../x', 'README'],
      fallbacks: [],
      hints: {},
    });
  });
});

describe('rule 1: the same path, spelled as a file', () => {
  test('a known extension is dropped', async () => {
    const v = view(DOCS);
    expect(await plan(v, ['architecture/knowledge-base.md'])).toEqual({
      load: ['architecture/knowledge-base'],
      fallbacks: [{ kind: 'read-as', pattern: 'architecture/knowledge-base.md', slug: 'architecture/knowledge-base', reasons: ['extension'] }],
      hints: {},
    });
    // The subject's own extension, whatever it is.
    expect((await plan(v, ['config.toml'])).load).toEqual(['config']);
  });

  test('an extension that is neither the file\'s nor a document one is not dropped (`v1.2` is not `v1`)', async () => {
    const v = view({ 'v1.md': 'one\n', 'notes.toml': 'x = 1\n' });
    expect((await plan(v, ['v1.2'])).fallbacks).toEqual([]);
    expect((await plan(v, ['notes.json'])).fallbacks).toEqual([]);
    // A document extension for a file stored with another one.
    expect((await plan(v, ['notes.md'])).load).toEqual(['notes']);
  });

  test("a glob that ends in an extension and matches nothing: the files it then matches that have it", async () => {
    const v = view({ 'main/a.org': '#+title: A\n', 'main/b.org': '#+title: B\n', 'mixed/c.org': 'c\n', 'mixed/d.md': 'd\n' });
    expect(await plan(v, ['main/*.org'])).toEqual({ load: ['main/*'], fallbacks: [{ kind: 'read-as', pattern: 'main/*.org', slug: 'main/*', reasons: ['extension'] }], hints: {} });
    // Only those with the extension, each by its slug, where others match too.
    expect((await plan(v, ['mixed/*.org'])).load).toEqual(['mixed/c']);
    expect((await plan(v, ['**/*.ORG'])).load).toEqual(['main/a', 'main/b', 'mixed/c']);
    // None has it: nothing read; a glob that matches is left alone.
    expect(await plan(v, ['main/*.xyz'])).toEqual({ load: ['main/*.xyz'], fallbacks: [], hints: {} });
    expect((await plan(v, ['main/a*'])).fallbacks).toEqual([]);
  });

  test('a leading path that repeats the topic directory is dropped (all of it, or its last components)', async () => {
    const v = view(DOCS, { subjects: 'site/docs' });
    for (const [pattern, prefix] of [
      ['site/docs/architecture/knowledge-base', 'site/docs/'],
      ['docs/architecture/knowledge-base', 'docs/'],
    ] as const) {
      expect(await plan(v, [pattern])).toEqual({
        load: ['architecture/knowledge-base'],
        fallbacks: [{ kind: 'read-as', pattern, slug: 'architecture/knowledge-base', reasons: ['prefix'], prefix }],
        hints: {},
      });
    }
    expect((await plan(v, ['docs/architecture/knowledge-base.md'])).fallbacks[0]).toMatchObject({ slug: 'architecture/knowledge-base', reasons: ['prefix', 'extension'] });
    // `./docs/`, `.jp/kb/skills`: written forms of the directory.
    expect(directoryPrefixes('./docs/')).toEqual(['docs/']);
    expect(directoryPrefixes('.jp/kb/skills')).toEqual(['.jp/kb/skills/', 'kb/skills/', 'skills/']);
    expect(directoryPrefixes('.')).toEqual([]);
    expect(directoryPrefixes('/abs/docs')).toEqual([]);
    expect(directoryPrefixes('../shared/docs')).toEqual(['shared/docs/', 'docs/']);
  });

  test('a hidden file written as a path reaches its subject (it names that file exactly)', async () => {
    const v = view(DOCS);
    expect((await plan(v, ['guide/.drafts.md'])).fallbacks).toEqual([
      { kind: 'read-as', pattern: 'guide/.drafts.md', slug: 'guide/drafts', reasons: ['extension', 'dot'] },
    ]);
    expect((await plan(v, ['guide/drafts.md'])).load).toEqual(['guide/drafts']);
  });

  test('a disabled subject is never reached', async () => {
    const v = view(DOCS, { disabled: ['README'] });
    expect(await plan(v, ['README.md', 'readme'])).toEqual({ load: ['README.md', 'readme'], fallbacks: [], hints: {} });
  });
});

describe('rule 2 and 4: a folder answers with its listing', () => {
  test('its listable subjects, recursively, without binaries, hidden or pre-loaded subjects', async () => {
    const v = view(DOCS, { learned: ['guide/install'] });
    expect(await plan(v, ['guide'])).toEqual({
      load: [],
      fallbacks: [{ kind: 'folder', pattern: 'guide', folder: 'guide', slugs: ['guide/cli/flags'], more: 0, nested: true }],
      hints: {},
    });
    expect((await plan(v, ['architecture/'])).fallbacks).toEqual([
      { kind: 'folder', pattern: 'architecture/', folder: 'architecture', slugs: ['architecture/knowledge-base', 'architecture/overview'], more: 0, nested: false },
    ]);
  });

  test('case-insensitively, when one folder fits', async () => {
    const v = view(DOCS);
    expect((await plan(v, ['Architecture'])).fallbacks[0]).toMatchObject({ kind: 'folder', pattern: 'Architecture', folder: 'architecture' });
  });

  test('a folder of hidden subjects only is not shown', async () => {
    const v = view({ '.private/a.md': 'a\n', 'b.md': 'b\n' });
    expect(await plan(v, ['private'])).toEqual({ load: ['private'], fallbacks: [], hints: {} });
  });

  test('a large folder lists 50 slugs and counts the rest', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`many/${String(i).padStart(2, '0')}.md`] = `${i}\n`;
    const f = (await plan(view(files), ['many'])).fallbacks[0];
    expect(f).toMatchObject({ kind: 'folder', more: 10 });
    expect(f.kind === 'folder' && f.slugs.length).toBe(50);
  });
});

describe('rule 3: one subject, case-insensitively', () => {
  test('used when exactly one visible subject fits', async () => {
    const v = view(DOCS);
    expect((await plan(v, ['Architecture/Knowledge-Base'])).fallbacks).toEqual([
      { kind: 'read-as', pattern: 'Architecture/Knowledge-Base', slug: 'architecture/knowledge-base', reasons: ['case'] },
    ]);
    expect((await plan(v, ['readme.MD'])).fallbacks[0]).toMatchObject({ slug: 'README', reasons: ['extension', 'case'] });
  });

  test('two candidates: nothing is used, both are suggested', async () => {
    const v = view({ 'Notes.md': 'a\n', 'notes.txt': 'b\n', 'NOTES.rst': 'c\n' });
    expect(await plan(v, ['nOtes'])).toEqual({ load: ['nOtes'], fallbacks: [], hints: { nOtes: { suggestions: ['NOTES', 'Notes', 'notes'] } } });
  });

  test('never a hidden subject', async () => {
    const v = view(DOCS);
    expect(await plan(v, ['guide/Drafts'])).toEqual({ load: ['guide/Drafts'], fallbacks: [], hints: {} });
  });
});

describe('rule 5: a file name as a link in a summary writes it', () => {
  test('the one subject with that last component', async () => {
    const v = view(BOOK);
    expect((await plan(v, ['ch04-01-what-is-ownership.md'])).fallbacks).toEqual([
      { kind: 'read-as', pattern: 'ch04-01-what-is-ownership.md', slug: 'src/ch04-01-what-is-ownership', reasons: ['extension', 'file-name'] },
    ]);
    expect((await plan(v, ['CH04-03-Slices'])).fallbacks[0]).toMatchObject({ slug: 'src/ch04-03-slices', reasons: ['file-name', 'case'] });
  });

  test('several subjects with that name: none is used, they are suggested', async () => {
    const v = view(BOOK);
    expect(await plan(v, ['main.rs'])).toEqual({
      load: ['main.rs'],
      fallbacks: [],
      hints: { 'main.rs': { suggestions: ['listings/ch04/listing-04-01/src/main', 'listings/ch04/listing-04-02/src/main'] } },
    });
  });

  test('never a hidden subject', async () => {
    const v = view(DOCS);
    expect((await plan(v, ['drafts'])).fallbacks).toEqual([]);
  });
});

describe('rule 6: a list in one string', () => {
  test('split at commas outside braces; each part gets the other rules', async () => {
    const v = view(DOCS);
    expect(await plan(v, ['architecture/overview, guide/*, README.md'])).toEqual({
      load: ['architecture/overview', 'guide/*', 'README'],
      fallbacks: [
        { kind: 'split', pattern: 'architecture/overview, guide/*, README.md', parts: ['architecture/overview', 'guide/*', 'README.md'] },
        { kind: 'read-as', pattern: 'README.md', slug: 'README', reasons: ['extension'] },
      ],
      hints: {},
    });
  });

  test('a glob that matches nothing is split too; one that matches is not', async () => {
    const v = view({ 'a,b.md': 'x\n', 'c.md': 'c\n', 'd.md': 'd\n' });
    expect((await plan(v, ['c*, d'])).load).toEqual(['c*', 'd']);
    expect((await plan(v, ['a,*'])).fallbacks).toEqual([]);
    expect((await plan(v, ['a,b'])).fallbacks).toEqual([]);
  });

  test('jsonList: a JSON array of strings in one string, else undefined', () => {
    expect(jsonList('["a", "b/*"]')).toEqual(['a', 'b/*']);
    expect(jsonList(' [" a ", ""] ')).toEqual(['a']);
    expect(jsonList('[]')).toBeUndefined();
    expect(jsonList('[1, "a"]')).toBeUndefined();
    expect(jsonList('[a-c]')).toBeUndefined();
    expect(jsonList('"a"')).toBeUndefined();
  });

  test('splitList', () => {
    expect(splitList('a, b')).toEqual(['a', 'b']);
    expect(splitList('"a", `b`,')).toEqual(['a', 'b']);
    expect(splitList('a,')).toEqual(['a']);
    expect(splitList('{a,b}/c')).toBeUndefined();
    expect(splitList('{a,b}/c, d')).toEqual(['{a,b}/c', 'd']);
    expect(splitList('a')).toBeUndefined();
    expect(splitList(', ,')).toBeUndefined();
  });
});

describe('rule 7: suggestions', () => {
  test('typos, another folder, a part of the name; at most five, best first', async () => {
    const v = view({ ...DOCS, ...BOOK });
    expect((await plan(v, ['architecture/knowlege-base'])).hints).toEqual({ 'architecture/knowlege-base': { suggestions: ['architecture/knowledge-base'] } });
    expect((await plan(v, ['design/overview'])).hints).toEqual({ 'design/overview': { suggestions: ['architecture/overview'] } });
    expect((await plan(v, ['ownership'])).hints).toEqual({ ownership: { suggestions: ['src/ch04-00-understanding-ownership', 'src/ch04-01-what-is-ownership'] } });
    expect((await plan(v, ['ch04'])).hints).toEqual({
      ch04: { suggestions: ['src/ch04-00-understanding-ownership', 'src/ch04-01-what-is-ownership', 'src/ch04-02-references-and-borrowing', 'src/ch04-03-slices'] },
    });
    expect((await plan(v, ['nope'])).hints).toEqual({});
    // Below three characters, one edit makes another name: nothing close.
    expect((await plan(view({ 'ab.md': 'x\n', 'abc.md': 'y\n' }), ['ad'])).hints).toEqual({});
  });

  test('never hidden, disabled, pre-loaded or binary subjects', async () => {
    const v = view({ 'alpha.md': 'a\n', 'alpho.md': 'b\n', '.alphi.md': 'c\n', 'alphu.md': 'd\n', 'alphy.png': BIN, 'alphe.md': 'e\n' }, { disabled: ['alpho'], learned: ['alphu'] });
    expect((await plan(v, ['alph'])).hints).toEqual({ alph: { suggestions: ['alpha', 'alphe'] } });
  });

  test('loadPatterns attaches them to the no-match item', async () => {
    const v = view(DOCS);
    const p = await planPatterns(v, compile(['architecture/overveiw']));
    expect([...loadPatterns(v, p.patterns, 'text', p.hints)]).toEqual([
      { kind: 'no-match', pattern: 'architecture/overveiw', hint: { suggestions: ['architecture/overview'] } },
    ]);
  });

});

describe('bounded: a call of many missing patterns', () => {
  test(`only the first ${MAX_SCANNED_MISSES} misses scan the topic; rule 1 (lookups) applies to all`, async () => {
    const v = view(DOCS);
    // Distinct typos, one letter off each: `architecture/xverview`, ...
    const typo = (slug: string, i: number) => `${slug.slice(0, i)}x${slug.slice(i + 1)}`;
    const typos = [
      ...Array.from({ length: 8 }, (_, i) => typo('architecture/overview', 13 + i)),
      ...Array.from({ length: 14 }, (_, i) => typo('architecture/knowledge-base', 13 + i)),
    ];
    expect(new Set(typos).size).toBe(22);
    const p = await plan(v, [...typos, 'guide/install.md']);
    expect(Object.keys(p.hints)).toEqual(typos.slice(0, MAX_SCANNED_MISSES));
    expect(p.load.at(-1)).toBe('guide/install');
  });
});

describe('a glob that skipped hidden subjects', () => {
  test('counts them when it matched nothing else, never names them', () => {
    const v = view({ 'a/.x.md': 'x\n', 'a/.y.md': 'y\n', 'a/.z.md': 'z\n', 'b/v.md': 'v\n' }, { disabled: ['a/z'] });
    const { perPattern } = resolvePatterns(v.index.subjects, compile(['a/*', 'b/*', 'c/*']), v.disabled);
    expect(perPattern).toEqual([
      { pattern: 'a/*', kind: 'glob', slugs: [], hiddenSkipped: 2 },
      { pattern: 'b/*', kind: 'glob', slugs: ['b/v'] },
      { pattern: 'c/*', kind: 'glob', slugs: [] },
    ]);
    expect([...loadPatterns(v, compile(['a/*']), 'text')]).toEqual([{ kind: 'no-match', pattern: 'a/*', hint: { hidden: 2 } }]);
  });
});

describe('links read as their target (wikilink)', () => {
  test("Obsidian's and Org's links; org-roam's ID links by their shown text", () => {
    expect(wikilink('[[06-replication|Shown]]')).toEqual({ target: '06-replication' });
    expect(wikilink('![[ddia/06-replication#Leaders]]')).toEqual({ target: 'ddia/06-replication', section: 'Leaders' });
    expect(wikilink('[[file:main/decision_tree_learning.org][Decision Tree Learning]]')).toEqual({ target: 'main/decision_tree_learning.org' });
    expect(wikilink('[[file:notes.org::*Entropy]]')).toEqual({ target: 'notes.org', section: 'Entropy' });
    expect(wikilink('[[id:a727be87-afd3-447f-a167-70bc9e2b9acd][Decision Tree Learning]]')).toEqual({ target: 'Decision Tree Learning' });
    expect(wikilink(' [[other note][shown]] ')).toEqual({ target: 'other note' });
    for (const none of ['[[]]', '[[file:][x]]', 'a [[b]]', '[[a]][b]', '[[a][b]][c]]']) expect(wikilink(none)).toBeUndefined();
  });
});
