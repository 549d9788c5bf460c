// What the frontmatter a listing had to parse said, kept between runs
// (kb/fs/front-cache.ts): a listing from the kept fields is the listing
// from the parser's, on any frontmatter; the parser is not asked again for
// a text it parsed; a file that is not what the module writes is nothing
// kept, said, and written anew; decoding any text never throws.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { titleWatch, topicListing } from '../../../src/app/listing.ts';
import { keptFields } from '../../../src/kb/content/frontmatter.ts';
import { decodeFronts, encodeFronts, frontKeeper, frontsFile, FRONTS_VERSION, MAX_FRONTS_BYTES, readFronts, type FrontKeeper, type KeptFields } from '../../../src/kb/fs/front-cache.ts';
import { probeHere } from '../../../src/kb/fs/probe-titles.ts';
import { abouts } from '../../../src/kb/index/describe.ts';
import { LISTING_COSTS, renderListing } from '../../../src/render/listing.ts';
import { openTopic, topic, tree } from './view-fixture.ts';
import { makeTempDir } from '../../support/temp.ts';

const scratchDir = (): string => makeTempDir('kb-fronts-');

const BUILD = 'test-build';

/** A listing of `root` with every line's description (a large budget),
 *  its frontmatter kept by `fronts` (none: parsed each time). */
async function listed(root: string, fronts?: FrontKeeper): Promise<string> {
  const t = topic(root);
  const watch = titleWatch(1_000_000, new Set(), LISTING_COSTS);
  const view = openTopic(t, { probe: probeHere, probeAll: true, titles: watch, ...(fronts !== undefined ? { fronts } : {}) });
  const l = await topicListing(t, view, 100_000, 1_000_000, LISTING_COSTS, undefined, watch);
  return l === undefined ? '' : renderListing(t, l.items, l.learned, l.fit, l.folder, l.topicNotes);
}

const keeper = (dir: string): FrontKeeper => frontKeeper({ dir, build: BUILD });

/** What each subject of `root` says about itself (describe.ts `abouts`:
 *  every field, those a listing does not show too). */
async function aboutsOf(root: string, fronts?: FrontKeeper): Promise<unknown[]> {
  const view = openTopic(topic(root), { probe: probeHere, probeAll: true, ...(fronts !== undefined ? { fronts } : {}) });
  return abouts(view, view.index.subjects);
}

/** Frontmatter the quick reader declines: nested maps, flow lists, and
 *  fields of every kind where a line's fields are read. */
const NESTED = [
  '---\ntitle: Highlight\ndescription: Highlights code.\nkeywords: [highlight]\nparams:\n  functions:\n    aliases: []\n---\n# Body\n',
  '---\ntitle: [not, a, string]\ndescription: 42\ntags: [a, 1, b, {x: y}]\nnested:\n  a: 1\n---\n',
  '---\ndescription: |\n  Two\n  lines\naliases: [one, "two"]\nsource: user\ncreated: 2025-01-14\nmeta: {a: [1, 2]}\n---\n',
  '---\nname: skill-name\ndescription: >-\n  Folded\n  text\ntags:\n  - x\n  - y\n---\n',
  '---\ntitle: Broken\ndescription: [unclosed\n---\n',
  '---\ndescription: first\ndescription: twice\nlist: [a]\n---\n',
  '---\n__proto__: x\ndescription: proto\nlist: [a]\n---\n',
];

describe('kept frontmatter', () => {
  test('the second listing parses nothing, and lists what the parser gives', async () => {
    const files: Record<string, string> = {};
    NESTED.forEach((text, i) => (files[`n${i}.md`] = text));
    files['plain.md'] = '---\ndescription: Plain\n---\n';
    const root = tree(files);
    const dir = scratchDir();
    const parsed = await listed(root);
    const first = keeper(dir);
    expect(await listed(root, first)).toBe(parsed);
    expect(first.stats()).toEqual({ kept: 0, parsed: NESTED.length, wrote: 1 });
    const second = keeper(dir);
    expect(await listed(root, second)).toBe(parsed);
    expect(second.stats()).toEqual({ kept: NESTED.length, parsed: 0, wrote: 0 });
    expect(second.problems()).toEqual([]);
    expect(parsed).toContain('n0: Highlights code.');
    expect(parsed).toContain('n3: Folded text');
    expect(parsed).toContain('plain: Plain');
  });

  test('an edited frontmatter is parsed again; the file then holds what this listing asked for', async () => {
    const root = tree({ 'a.md': NESTED[0], 'b.md': NESTED[2] });
    const dir = scratchDir();
    await listed(root, keeper(dir));
    writeFileSync(join(root, 'a.md'), NESTED[0].replace('Highlights code.', 'Highlights more code.'));
    const k = keeper(dir);
    const got = await listed(root, k);
    expect(got).toContain('a: Highlights more code.');
    expect(got).toBe(await listed(root));
    expect(k.stats()).toEqual({ kept: 1, parsed: 1, wrote: 1 });
    const kept = readFronts(frontsFile(dir, root), root, BUILD) as Map<string, KeptFields | null>;
    expect(kept.size).toBe(2);
  });

  test('property: on random frontmatter, a listing from kept fields is the parser\'s', async () => {
    const scalar = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('plain words', '"quoted: text"', "'single'", '|\n  block\n  text', '>\n  folded\n  text', '!!str 12') },
      { weight: 2, arbitrary: fc.constantFrom('2025-01-14', '2025-01-14T09:30:00.000Z', '"2024-12-01 10:00"') },
      { weight: 2, arbitrary: fc.constantFrom('[a, b]', '[1, "x", {k: v}]', '[]', '{a: 1}', '{}') },
      { weight: 2, arbitrary: fc.constantFrom('42', 'true', 'null', '~', '.inf') },
      { weight: 1, arbitrary: fc.constantFrom('&a anchored', '*a', '[unclosed') },
    );
    // Every field a subject's line can be made of, named here (not taken
    // from DESCRIBING, which the test checks), and others; each once.
    const field = fc.tuple(fc.constantFrom('description', 'title', 'name', 'aliases', 'tags', 'source', 'created', 'updated', 'other', 'weight'), scalar);
    // A nested map or list: what sends a frontmatter to the parser.
    const nested = fc.constantFrom('params:\n  a: 1\n  b: [x]\n', 'menu:\n  main:\n    weight: 3\n', 'list:\n  - one\n  - {two: 2}\n');
    const front = fc
      .tuple(fc.uniqueArray(field, { selector: ([k]) => k, minLength: 1, maxLength: 6 }), nested)
      .map(([fields, more]) => `---\n${fields.map(([k, v]) => `${k}: ${v}`).join('\n')}\n${more}---\n# Heading\n`);
    await fc.assert(
      fc.asyncProperty(fc.array(front, { minLength: 1, maxLength: 5 }), async (texts) => {
        const files: Record<string, string> = {};
        texts.forEach((text, i) => (files[`f${i}.md`] = text));
        const root = tree(files);
        const dir = scratchDir();
        const parsed = await listed(root);
        const said = await aboutsOf(root);
        expect(await listed(root, keeper(dir))).toBe(parsed);
        expect(await listed(root, keeper(dir))).toBe(parsed);
        // Every field, from the kept ones: what a summary, a recall or a
        // resource shows too.
        const kept = keeper(dir);
        expect(await aboutsOf(root, kept)).toEqual(said);
        expect(kept.stats().parsed).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  test('keptFields keeps the fields a line is made of, as strings and lists of strings', () => {
    expect(keptFields({ description: 'd', title: 3, name: null, aliases: ['a', 2, 'b'], tags: 'one', other: 'x', created: '2025-01-14', updated: new Date(0) })).toEqual({ description: 'd', aliases: ['a', 'b'], tags: 'one', created: '2025-01-14' });
    const proto = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(proto, '__proto__', { value: 'p', enumerable: true });
    expect(keptFields(proto)).toEqual({});
  });
});

describe('the kept frontmatter\'s file', () => {
  const entries = new Map<string, KeptFields | null>([
    ['description: a\nlist: [x]\n', { description: 'a' }],
    ['broken: [\n', null],
    ['tags: [a, b]\nx: {y: z}\n', { tags: ['a', 'b'] }],
  ]);

  test('reads back what was written; another build or version is nothing kept, and no word', () => {
    const text = encodeFronts(entries, '/topic', BUILD)!;
    expect(decodeFronts(text, '/topic', BUILD)).toEqual(entries);
    expect(decodeFronts(text, '/topic', 'other')).toBeUndefined();
    expect(decodeFronts(text.replace(`"version":${FRONTS_VERSION}`, `"version":${FRONTS_VERSION + 1}`), '/topic', BUILD)).toBeUndefined();
  });

  test('what is not what the module writes is nothing kept, with the reason', () => {
    const bad = 'not kept frontmatter of this folder, or a field of another kind';
    const text = encodeFronts(entries, '/topic', BUILD)!;
    expect(decodeFronts('not json', '/topic', BUILD)).toBe('not JSON');
    expect(decodeFronts('[]'.repeat(3), '/topic', BUILD)).toBe('not JSON');
    // Nested past the parser's stack: its error, not a throw.
    expect(typeof decodeFronts(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`, '/topic', BUILD)).toBe('string');
    for (const broken of [
      text.replace('"kb":"fronts"', '"kb":"heads"'),
      JSON.stringify({ ...JSON.parse(text), entries: { a: [] } }),
      JSON.stringify({ ...JSON.parse(text), root: 3 }),
      text.replace('{"description":"a"}', '{"description":1}'),
      text.replace('{"description":"a"}', '{"weight":"a"}'),
      text.replace('{"tags":["a","b"]}', '{"tags":["a",2]}'),
      text.replace('{"tags":["a","b"]}', '{"tags":{"a":"b"}}'),
      text.replace('["broken: [\\n",null]', '["broken: [\\n"]'),
      text.replace('["broken: [\\n",null]', '[3,null]'),
      'null',
      '"text"',
    ]) {
      expect(broken).not.toBe(text);
      expect(decodeFronts(broken, '/topic', BUILD)).toBe(bad);
    }
    expect(decodeFronts(text, '/elsewhere', BUILD)).toBe(bad);
  });

  test('random text and every cut never throw', () => {
    const text = encodeFronts(entries, '/topic', BUILD)!;
    for (let cut = 0; cut < text.length; cut++) expect(() => decodeFronts(text.slice(0, cut), '/topic', BUILD)).not.toThrow();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.nat(text.length), (junk, at) => {
        expect(() => decodeFronts(text.slice(0, at) + junk + text.slice(at), '/topic', BUILD)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  test('a garbled file is said, the frontmatter parsed, and the file written anew; one that cannot be written is said', async () => {
    const root = tree({ 'a.md': NESTED[0] });
    const dir = scratchDir();
    await listed(root, keeper(dir));
    const file = frontsFile(dir, root);
    writeFileSync(file, '{"kb":"fronts"');
    const k = keeper(dir);
    expect(await listed(root, k)).toBe(await listed(root));
    expect(k.problems()).toEqual([`the kept frontmatter ${file} could not be read (not JSON); it was parsed again`]);
    expect(k.stats()).toEqual({ kept: 0, parsed: 1, wrote: 1 });
    const again = keeper(dir);
    await listed(root, again);
    expect(again.stats()).toEqual({ kept: 1, parsed: 0, wrote: 0 });
    const blocked = join(scratchDir(), 'file');
    writeFileSync(blocked, '');
    const w = keeper(join(blocked, 'heads'));
    expect(await listed(root, w)).toBe(await listed(root));
    expect(w.problems()).toHaveLength(1);
    expect(w.problems()[0]).toStartWith('the frontmatter could not be kept (');
  });

  test('more than may be read is not written, found before anything is joined', () => {
    const big = new Map<string, KeptFields | null>([['x'.repeat(MAX_FRONTS_BYTES / 2), null], ['y'.repeat(MAX_FRONTS_BYTES / 2 + 1), null]]);
    expect(encodeFronts(big, '/topic', BUILD)).toBeUndefined();
  });
});
