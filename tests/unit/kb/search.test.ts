// The search core: words, the BM25 index, its file in the cache, snippets
// and sections (src/kb/search/).
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, cacheFile, readCache, writeCache } from '../../../src/kb/search/cache.ts';
import { unpack } from '../../../src/kb/fs/probe-thread.ts';
import type { StatPaths } from '../../../src/kb/fs/probe.ts';
import { hash128 } from '../../../src/shared/hash.ts';
import { estimateTokens } from '../../../src/kb/content/tokens.ts';
import { IndexBuilder, KIND_SKIPPED, KIND_TEXT, planQuery, type DocMeta, type SearchIndex } from '../../../src/kb/search/engine.ts';
import { minimalNeedles, scoreText, sectionsOf, snippetOf, SNIPPET_BYTES } from '../../../src/kb/search/snippet.ts';
import { forEachTermAt, forEachTermOf, forEachWord, isSpaceless, isWordChar, queryTerms, snippetTerms, SPACELESS_CHAR, stem, terms, unknownWords, wordAt } from '../../../src/kb/search/tokenize.ts';
import { topicIndex } from '../../../src/kb/search/topic.ts';
import { makeTempDir } from '../../support/temp.ts';

const meta = (slug: string, kind = KIND_TEXT): DocMeta => ({ path: `${slug}.md`, slug, size: 1, mtime: 1, kind, description: null });

function build(docs: [string, string, string?, string?][]) {
  const b = new IndexBuilder();
  for (const [slug, body, description = '', headings = ''] of docs) b.add(meta(slug), [slug, description, headings, body]);
  return b.finish();
}

const ranked = (index: ReturnType<typeof build>, q: string, opts = { prefix: true, fuzzy: true }) =>
  index.query(queryTerms(q), opts).hits.map((h) => index.docs[h.doc].slug);

describe('words', () => {
  test.each([
    ['archives', 'archiv'],
    ['archived', 'archiv'],
    ['archiving', 'archiv'],
    ['archive', 'archiv'],
    ['policies', 'polic'],
    ['policy', 'polic'],
    ['running', 'run'],
    ['status', 'status'],
    ['class', 'class'],
    ['zzzzqqq', 'zzzzqqq'],
    ['café', 'café'],
    ['2026', '2026'],
  ])('%s -> %s', (w, s) => expect(stem(w)).toBe(s));

  test('lower-cased, split on punctuation, function words dropped, long runs left out', () => {
    expect(terms('How do I tag a Release—quickly? e.g. v1, 2')).toEqual(['tag', 'releas', 'quickl', 'e', 'g', 'v1', '2']);
    expect(terms(`x ${'a'.repeat(33)} y`)).toEqual(['x', 'y']);
  });

  test('tokens people type: versions, leading zeros, hyphen compounds, camelCase', () => {
    // A dot between digits keeps a version whole; a sentence's dot does not.
    expect(terms('Python 3.12 and v1.2.3. Then 4.')).toEqual(['python', '3.12', 'v1.2.3', '4']);
    expect(terms('pep-0008 0572 000')).toEqual(['pep', '8', '572', '0']);
    // Two words joined by one hyphen also count joined, a camelCase word as
    // its parts: extra terms, after the word's own (queries and the index;
    // terms() is words only).
    const all = (t: string) => {
      const out: string[] = [];
      forEachTermOf(t, t.toLowerCase(), (x) => out.push(x));
      return out;
    };
    expect(all('pep-0008')).toEqual(['pep', '8', 'pep8']);
    expect(all('f-strings and an f-string')).toEqual(['f', 'string', 'fstring', 'f', 'string', 'fstring']);
    expect(all('a - b')).toEqual(['b']);
    expect(all('TypedDict HTTPServer parseJSON2Value')).toEqual(['typeddict', 'typ', 'dict', 'httpserver', 'http', 'server', 'parsejson2valu', 'pars', 'json2', 'valu']);
    expect(queryTerms('f-strings TypedDict')).toEqual(['f', 'string', 'fstring', 'typeddict', 'typ', 'dict']);
    // An identifier's words joined by underscores, as by hyphens; two in a
    // row, or one at an end, join nothing.
    expect(all('SERVER_NAME send_file')).toEqual(['server', 'name', 'servernam', 'send', 'file', 'sendfil']);
    expect(all('PREFERRED_URL_SCHEME')).toEqual(['prefer', 'url', 'preferredurl', 'schem', 'urlschem']);
    expect(all('__init__ _x c__d')).toEqual(['init', 'x', 'c', 'd']);
    expect(queryTerms('SERVER_NAME')).toEqual(['server', 'name', 'servernam']);
  });

  test('the word holding a position is the word forEachWord finds there', () => {
    const char = fc.constantFrom('a', 'Z', '0', '7', '.', '-', ' ', 'é', '\u1680', '\u2014', '東', '\ud83d', '\ude00', '_', 'ア', 'ー', '・', '，', '々', 'ｱ', 'Ａ', '한', 'ภ', '\u0e31');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }).map((cs) => cs.join('').toLowerCase()), (lower) => {
        const words: [number, number][] = [];
        forEachWord(lower, (a, b) => words.push([a, b]));
        for (const [a, b] of words) {
          for (let i = a; i < b; i++) if (lower[i] !== '.') for (let j = i + 1; j <= b; j++) if (lower[j - 1] !== '.') expect(wordAt(lower, i, j)).toEqual([a, b]);
        }
      }),
      { numRuns: 2000 },
    );
    expect(wordAt('v1.2.3. then', 3)).toEqual([0, 6]);
    expect(wordAt('v1.2.3. then', 1, 4)).toEqual([0, 6]);
    expect(wordAt('a 3.x', 2)).toEqual([2, 3]);
  });

  test("the terms of some words only: all of forEachTermOf's for those words, in order, none for the others", () => {
    const piece = fc.constantFrom('TypedDict', 'f-strings', 'pep-0008', 'x-y-z', 'flies', 'HTTPServer', 'v1.2', '3.12.', 'a', 'Wörd', '-', ' ', '.', '\u1680', '2D', '用户认证', '解压', 'tar', '，', '接続', 'ภาษา', '認-証');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }).map((ps) => ps.join('')), fc.array(fc.nat(), { maxLength: 6 }), (text, picks) => {
        const lower = text.toLowerCase();
        fc.pre(lower.length === text.length);
        const words: [number, number][] = [];
        forEachWord(lower, (a, b) => words.push([a, b]));
        if (words.length === 0) return;
        const chosen = words.filter((_, i) => picks.some((p) => p % words.length === i));
        // A span in each chosen word, some twice.
        const spans = [...chosen.map(([, b]) => [b - 1, b]), ...chosen.map(([a, b]) => [a, Math.min(b, a + 2)])];
        const at = spans.reverse().flat();
        const want: unknown[] = [];
        forEachTermOf(text, lower, (t, a, b, main) => {
          // A term is a word's when it ends where the word does (a joined
          // term starts before it), or lies within it (a character or pair
          // of characters of a run without spaces).
          if (chosen.some(([s, e]) => e === b || (a >= s && b <= e))) want.push([t, a, b, main]);
        });
        const got: unknown[] = [];
        forEachTermAt(text, lower, at, (t, a, b, main) => got.push([t, a, b, main]));
        expect(got).toEqual(want);
        // The same spans in order (as a line's places come, and are then
        // taken as they are, unsorted).
        const inOrder: unknown[] = [];
        forEachTermAt(text, lower, [...spans].sort((x, y) => x[0] - y[0] || x[1] - y[1]).flat(), (t, a, b, main) => inOrder.push([t, a, b, main]));
        expect(inOrder).toEqual(want);
      }),
      { numRuns: 2000 },
    );
  });

  test('a run of a script written without spaces: its characters and its pairs of characters, each a word\'s own term', () => {
    const all = (t: string) => {
      const out: [string, number, number, boolean][] = [];
      forEachTermOf(t, t.toLowerCase(), (x, a, b, main) => out.push([x, a, b, main]));
      return out;
    };
    expect(all('用户认证')).toEqual([
      ['用', 0, 1, true],
      ['用户', 0, 2, true],
      ['户', 1, 2, true],
      ['户认', 1, 3, true],
      ['认', 2, 3, true],
      ['认证', 2, 4, true],
      ['证', 3, 4, true],
    ]);
    // A Latin word inside a run is a word of its own, found whole.
    expect(queryTerms('怎么解压tar文件')).toEqual(['怎', '怎么', '么', '么解', '解', '解压', '压', 'tar', '文', '文件', '件']);
    expect(terms('本系统使用令牌进行用户认证')).toContain('认证');
    expect(terms('設定ファイルで接続文字列を指定します')).toEqual(expect.arrayContaining(['接続', '文字', '字列', 'ファ', 'イル']));
    // Full-width and CJK punctuation ends a word; 々 belongs to one; full-width
    // letters and digits make words as other letters do (their own, not
    // ASCII's: a term is the start of its word's text, which snippets
    // rely on); the katakana middle dot splits.
    expect(queryTerms('认证，令牌（注）')).toEqual(['认', '认证', '证', '令', '令牌', '牌', '注']);
    expect(queryTerms('時々')).toEqual(['時', '時々', '々']);
    expect(queryTerms('ＡＢＣ１２３（Ｖ３）')).toEqual(['ａｂｃ１２３', 'ｖ３']);
    expect(queryTerms('データ・ベース')).toEqual(['デ', 'デー', 'ー', 'ータ', 'タ', 'ベ', 'ベー', 'ース', 'ス']);
    // Thai and Hangul the same way; a hyphen never joins such a run.
    expect(queryTerms('ภาษา')).toEqual(['ภ', 'ภา', 'า', 'าษ', 'ษ', 'ษา']);
    expect(queryTerms('한국어')).toEqual(['한', '한국', '국', '국어', '어']);
    expect(queryTerms('認-証 tar-文件')).toEqual(['認', '証', 'tar', '文', '文件', '件']);
  });

  test('which characters are of a script written without spaces: the pattern and the function agree on every code unit', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      expect([c, isWordChar(c) && isSpaceless(c)]).toEqual([c, isWordChar(c) && SPACELESS_CHAR.test(ch)]);
      // Every such character is a word character (a run is read by the one test).
      if (isSpaceless(c)) expect([c, isWordChar(c)]).toEqual([c, true]);
    }
  });

  test('a run of a script without spaces is named as unknown once, and only when none of its pairs matched', () => {
    const words = new Map<string, string>();
    const q = queryTerms('认识 认证 xyzzy', words);
    // 认 and 证 matched (认证 is in the index), 识 and 认识 did not, nor xyzzy.
    expect(unknownWords(q, ['识', '认识', 'xyzz'], words)).toEqual(['认识', 'xyzzy']);
    expect(unknownWords(q, ['xyzz'], words)).toEqual(['xyzzy']);
    const one = new Map<string, string>();
    expect(unknownWords(queryTerms('令', one), [], one)).toEqual([]);
    expect(unknownWords(queryTerms('令', one), ['令'], one)).toEqual(['令']);
  });

  test('a query of function words only keeps them', () => {
    expect(queryTerms('how do I')).toEqual(['how', 'do', 'i']);
    expect(queryTerms('the release, the RELEASES')).toEqual(['releas']);
  });

  test('the word each term came from is told', () => {
    const words = new Map<string, string>();
    queryTerms('Archived tickets', words);
    expect(words).toEqual(new Map([['archiv', 'archived'], ['ticket', 'tickets']]));
  });
});

describe('the index', () => {
  const index = build([
    ['release', 'How we tag a release: bump the version, tag it, push the tag.', 'Tagging and publishing releases', 'Releases\nTagging'],
    ['style', 'Code style: formatting, naming, and how to review a change.'],
    ['notes/deploy', 'Deploying the service after a release is tagged.'],
    ['misc', 'Nothing about that here. '.repeat(50)],
  ]);

  test('BM25 ranks the subject about the words first; every match is a hit', () => {
    expect(ranked(index, 'tag a release')).toEqual(['release', 'notes/deploy']);
    expect(ranked(index, 'review naming')).toEqual(['style']);
  });

  test('the slug, description and headings count more than the body', () => {
    const i = build([
      ['a', 'how to deploy, and other words'],
      ['deploy', 'other words, and how to deploy'],
    ]);
    expect(ranked(i, 'deploy')[0]).toBe('deploy');
  });

  test('prefixes: a word that starts a longer one matches it, less than the word itself', () => {
    expect(ranked(index, 'publi')).toEqual(['release']);
    expect(ranked(index, 'publi', { prefix: false, fuzzy: false })).toEqual([]);
  });

  test('typos: a word absent from the index is looked up with one edit (two from eight letters)', () => {
    const r = index.query(queryTerms('relase'), { prefix: true, fuzzy: true });
    expect(r.corrected.get('relas')).toContain('releas');
    expect(index.docs[r.hits[0].doc].slug).toBe('release');
    expect(ranked(index, 'reveiw')).toEqual(['style']);
    expect(ranked(index, 'relase', { prefix: true, fuzzy: false })).toEqual([]);
  });

  test('unknown words are reported; excluded and skipped documents are never hits', () => {
    const r = index.query(queryTerms('xyzzy release'), { fuzzy: true });
    expect(r.unknown).toEqual(['xyzz']); // the stem: kb names the user's word (app/search.ts)
    const b = new IndexBuilder();
    b.add(meta('bin', KIND_SKIPPED));
    b.add(meta('a'), ['a', '', '', 'release']);
    b.add(meta('b'), ['b', '', '', 'release']);
    const i = b.finish();
    expect(i.query(['releas'], { exclude: (d) => i.docs[d].slug === 'a' }).hits.map((h) => i.docs[h.doc].slug)).toEqual(['b']);
  });

  test('words inside runs of Chinese and Japanese text are found, and a Latin word inside one', () => {
    const i = build([
      ['auth', '本系统使用令牌进行用户认证。'],
      ['config', '設定ファイルで接続文字列を指定します。'],
      ['tar', '用 tar -xf 解压 tar 文件。'],
      ['other', 'Nothing here but English words about tar balls and files.'],
    ]);
    expect(ranked(i, '认证')).toEqual(['auth']);
    expect(ranked(i, '接続文字列')[0]).toBe('config');
    expect(ranked(i, '怎么解压tar文件')[0]).toBe('tar');
    expect(ranked(i, '令牌')).toEqual(['auth']);
  });

  test('carrying documents over gives the same index as building them again', () => {
    const counted = index.uninvert(() => true);
    const b = new IndexBuilder();
    index.docs.forEach((d, i) => b.addCounted(d, counted.get(i)!.lens, counted.get(i)!.terms, counted.get(i)!.packed, index));
    const again = b.finish();
    for (const q of ['tag a release', 'review', 'deploy service']) expect(ranked(again, q)).toEqual(ranked(index, q));
    expect(again.terms).toEqual(index.terms);
    expect([...again.post]).toEqual([...index.post]);
  });
});

describe('ranking in steps (runPaced: a search a long-lived server may cancel)', () => {
  // 40,000 documents of a few words each: more than one block of
  // documents collected, and query terms with several expansions.
  const words = ['release', 'relay', 'review', 'deploy', 'deployment', 'service', 'server', 'tag', 'tagging', 'cancel'];
  const b = new IndexBuilder();
  for (let i = 0; i < 40_000; i++) b.add(meta(`d${i}`), [`d${i}`, '', '', `${words[i % 10]} ${words[(i * 7) % 10]} ${words[(i * 3) % 10]} n${i % 997}`]);
  const big = b.finish();
  const opts = { prefix: true, fuzzy: true, top: 20, exclude: (d: number) => d % 5 === 0 };

  test('the same hits, total and terms as run; a step before each expansion and each block of documents', async () => {
    for (const q of ['release tag', 'deploy', 'servce', 'rel ser tag', 'n12']) {
      const plan = planQuery([big], queryTerms(q), opts);
      let steps = 0;
      const paced = await big.runPaced(plan, opts, () => {
        steps++;
        return steps % 2 === 0 ? Promise.resolve() : undefined;
      });
      expect(paced).toEqual(big.run(plan, opts));
      const expansions = plan.terms.reduce((n, e) => n + e.length, 0);
      expect(steps).toBe(expansions + Math.ceil(big.count / 16_384));
    }
  });

  test('a pace that throws (the search was cancelled) stops the ranking at that step', async () => {
    const plan = planQuery([big], queryTerms('release deploy service'), opts);
    let steps = 0;
    const stop = new Error('cancelled');
    const pace = () => {
      if (++steps === 3) throw stop;
      return undefined;
    };
    await expect(big.runPaced(plan, opts, pace)).rejects.toBe(stop);
    expect(steps).toBe(3);
  });
});

describe('patching an index (an update after a few edits)', () => {
  const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'release', 'review', 'deploy', 'config', 'zeta', 'omega', 'Ünïcode', 'x'];
  /** A document: its slug, kind, title and fields, from a seed list. */
  type Doc = { slug: string; skipped: boolean; title?: string; fields: [string, string, string, string, string] };
  const docArb = (slug: string) =>
    fc.record({
      words: fc.array(fc.constantFrom(...WORDS), { maxLength: 30 }),
      desc: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
      heads: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
      title: fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
      binary: fc.integer({ min: 0, max: 9 }),
    }).map(({ words, desc, heads, title, binary }): Doc => ({ slug, skipped: binary === 0, ...(title !== undefined ? { title } : {}), fields: [slug, desc.join(' '), heads.join(' '), words.join(' '), title ?? ''] }));
  const add = (b: IndexBuilder, d: Doc) => {
    const m: DocMeta = { path: `${d.slug}.md`, slug: d.slug, size: d.fields[3].length, mtime: 1, kind: d.skipped ? KIND_SKIPPED : KIND_TEXT, description: d.fields[1] || null };
    if (d.title !== undefined) m.title = d.title;
    if (d.skipped) b.add(m);
    else b.add(m, d.fields);
  };
  const buildAll = (docs: readonly Doc[]): SearchIndex => {
    const b = new IndexBuilder();
    for (const d of docs) add(b, d);
    return b.finish();
  };
  const same = (a: SearchIndex, b: SearchIndex) => {
    expect(a.terms).toEqual(b.terms);
    expect([...a.termStarts]).toEqual([...b.termStarts]);
    expect([...a.df]).toEqual([...b.df]);
    expect([...a.postStarts]).toEqual([...b.postStarts]);
    expect([...a.post]).toEqual([...b.post]);
    expect([...a.lens]).toEqual([...b.lens]);
    expect(a.docs.map((d, i) => ({ ...d, title: a.titleOf(i) }))).toEqual(b.docs.map((d, i) => ({ ...d, title: b.titleOf(i) })));
  };

  test('gives, byte for byte, the index a build of the whole list gives', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }).chain((n) =>
          fc.tuple(
            fc.tuple(...Array.from({ length: n }, (_, i) => docArb(`d${i}`))),
            fc.tuple(...Array.from({ length: n }, (_, i) => docArb(`d${i}`))),
            fc.array(fc.boolean(), { minLength: n, maxLength: n }),
          ),
        ),
        ([before, after, change]) => {
          const old = buildAll(before);
          const at = change.flatMap((c, i) => (c ? [i] : []));
          const final = before.map((d, i) => (change[i] ? after[i] : d));
          const fresh = new IndexBuilder();
          for (const i of at) add(fresh, after[i]);
          same(old.patched(at, fresh.finish()), buildAll(final));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a search of the patched index ranks as one of the rebuilt index', () => {
    const before: [string, string][] = [['a', 'tag a release'], ['b', 'review the deploy'], ['c', 'config review'], ['d', 'deploy service']];
    const old = build(before);
    const fresh = new IndexBuilder();
    fresh.add(meta('b'), ['b', '', '', 'release notes, tagged']);
    const patched = old.patched([1], fresh.finish());
    const rebuilt = build([before[0], ['b', 'release notes, tagged'], before[2], before[3]]);
    for (const q of ['release', 'review', 'deploy service', 'tag']) expect(ranked(patched, q)).toEqual(ranked(rebuilt, q));
  });
});

describe('snippets and sections', () => {
  test('the line with most of the matched words, cut around them', () => {
    const text = `# Title\n\nunrelated line\nwe tag the release here\n${'x '.repeat(200)}release tag end\n`;
    expect(snippetOf(text, new Set(['tag', 'releas']))).toBe('we tag the release here');
    const long = `${'word '.repeat(100)}the release ${'more '.repeat(100)}`;
    const s = snippetOf(long, new Set(['releas']));
    expect(s.length).toBeLessThanOrEqual(202);
    expect(s).toContain('release');
    expect(s.startsWith('…') && s.endsWith('…')).toBe(true);
  });

  test('a line of Chinese or Japanese text holding the query\'s pairs of characters is the snippet', () => {
    const text = '# 概要\n\n本文档说明系统。\n本系统使用令牌进行用户认证。\n其他内容。\n';
    expect(snippetOf(text, new Set(queryTerms('用户认证')))).toBe('本系统使用令牌进行用户认证。');
    const ja = 'はじめに\n設定ファイルで接続文字列を指定します。\n';
    expect(snippetOf(ja, new Set(queryTerms('接続文字列')))).toBe('設定ファイルで接続文字列を指定します。');
  });

  test('a snippet looks for the pairs of characters a search matched, and for characters only where no pair matched', () => {
    const matched = new Set(['认', '认证', '证', '的', 'tar']);
    expect([...snippetTerms(matched)]).toEqual(['认证', 'tar']);
    expect(snippetTerms(matched)).toBe(snippetTerms(matched));
    const chars = new Set(['认', '证', 'tar']);
    expect(snippetTerms(chars)).toBe(chars);
    const text = '的的的的认的证的的\n认证在这一行\n';
    expect(snippetOf(text, snippetTerms(matched))).toBe('认证在这一行');
    expect(snippetOf(text, snippetTerms(chars))).toBe('的的的的认的证的的');
  });

  test('the needles looked for: none that holds another (the lines found are the same)', () => {
    expect(minimalNeedles(['configur', 'config', 'configs', 'review', 'view', 'config'])).toEqual(['view', 'config']);
    expect(minimalNeedles(['beta', 'alpha'])).toEqual(['beta', 'alpha']);
    expect(minimalNeedles([])).toEqual([]);
  });

  test('prefix expansions among the matched terms: the same line as without them', () => {
    const text = 'configs only here\nconfiguration and review together\nreview alone\nthe configuring of reviews and configs\n';
    // `configur` and `reviews`' term are found through `config` and `review`.
    expect(snippetOf(text, new Set(['config', 'configur', 'review']))).toBe('the configuring of reviews and configs');
    expect(snippetOf(text, new Set(['configur']))).toBe('the configuring of reviews and configs');
    expect(snippetOf(text, new Set(['configuration', 'config']))).toBe('configs only here');
    // `TypedDict` holds the term `typ` (of its part `Typed`), found as `typ`.
    expect(snippetOf('TypedDict here\ntry\n', new Set(['try', 'typ']))).toBe('TypedDict here');
  });

  test('the line chosen is the first with the most matched terms of the lines holding one, whatever the needles', () => {
    // The rule, line by line (the first line with words when none holds
    // a matched term).
    const reference = (text: string, matched: Set<string>): string => {
      let best = '';
      let top = [0, 0];
      for (const line of text.split('\n')) {
        const lower = line.toLowerCase();
        if (![...matched].some((t) => lower.includes(t))) continue;
        const seen = new Set<string>();
        let all = 0;
        forEachTermOf(line, lower, (t) => {
          if (matched.has(t)) (all++, seen.add(t));
        });
        if (seen.size > top[0] || (seen.size === top[0] && all > top[1])) [best, top] = [line, [seen.size, all]];
      }
      return top[0] === 0 ? snippetOf(text, new Set(['\u0000none'])) : best.replace(/\s+/g, ' ').trim();
    };
    const words = ['config', 'configs', 'configuring', 'configuration', 'review', 'reviews', 'preview', 'tries', 'try', 'f-strings', 'TypedDict', 'dict', 'the', 'a'];
    const terms = ['config', 'configur', 'configuration', 'review', 'preview', 'try', 'fstring', 'typeddict', 'typ', 'dict'];
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 1000; round++) {
      const lines = Array.from({ length: 1 + next(8) }, () => Array.from({ length: 1 + next(3) }, () => words[next(words.length)]).join(' '));
      const text = `${lines.join('\n')}\n`;
      const matched = new Set(terms.filter(() => next(3) === 0));
      if (matched.size === 0) continue;
      expect(snippetOf(text, matched)).toBe(reference(text, matched));
    }
  });

  test('the lines are scored best bound first, and a line is skipped only when it cannot win: every term a line can hold is bounded', () => {
    // A tie goes to the first line, even when a later line, with a higher
    // bound (a camelCase word), is scored first.
    expect(snippetOf('release tag\nReleaseTag\n', new Set(['releas', 'tag']))).toBe('release tag');
    expect(snippetOf('ReleaseTag\nrelease tag\n', new Set(['releas', 'tag']))).toBe('ReleaseTag');
    // The first line scores 1 term twice; the second 2 terms from one
    // occurrence of the needle `dict`: a word and its camelCase part.
    expect(snippetOf('dict and dict\nTypedDict here\n', new Set(['typeddict', 'dict']))).toBe('TypedDict here');
    // Two words joined by a hyphen: a term the needles do not count.
    expect(snippetOf('string string\nf-strings here\n', new Set(['fstring', 'string']))).toBe('f-strings here');
    expect(snippetOf('pep pep\nsee pep-0008\n', new Set(['pep8', 'pep']))).toBe('see pep-0008');
    // A word ending in `ies` whose term ends in a `y` it lacks.
    expect(snippetOf('wing wing\nflies with wing\n', new Set(['fly', 'wing']))).toBe('flies with wing');
    expect(snippetOf('wing wing\nFLIES with wing\n', new Set(['fly', 'wing']))).toBe('FLIES with wing');
    expect(snippetOf('wing wing\nXFlies with wing\n', new Set(['fly', 'xfly', 'wing']))).toBe('XFlies with wing');
    // A line with more occurrences than terms (`taglines` holds `tag`, its
    // term is `taglin`) loses to a line with fewer occurrences and more terms.
    expect(snippetOf('taglines and taglines, tagline\nthe tag\n', new Set(['tag']))).toBe('the tag');
    // A needle is found in any case, and `k` as the Kelvin sign too (its
    // lower case); the line with a U+0130, whose lower case is longer, too.
    expect(snippetOf('key\n\u212AEY KEY\n', new Set(['key']))).toBe('\u212AEY KEY');
    expect(snippetOf('key\nKEY İ key\n', new Set(['key']))).toBe('KEY İ key');
    // A word holding two needles is one term.
    expect(snippetOf('tag here\ntagrelease here\n', new Set(['tag', 'releas', 'tagreleas']))).toBe('tag here');
    // A long line is cut around its first matched term, whichever needle
    // is looked for first.
    const far = `${'x '.repeat(150)}release ${'y '.repeat(100)}tag ${'z '.repeat(150)}`;
    expect(snippetOf(far, new Set(['tag', 'releas']))).toBe(`…${'x '.repeat(20)}release ${'y '.repeat(75)}y…`);
  });

  test('a match only in a line longer than 10,000 characters (minified): the best other line, else the first line with words', () => {
    const long = `${'y '.repeat(5_000)}release tag`;
    expect(snippetOf(`intro words\n${long}\nthe release\n`, new Set(['releas', 'tag']))).toBe('the release');
    expect(snippetOf(`intro words\n${long}\n`, new Set(['releas', 'tag']))).toBe('intro words');
  });

  test('no matched word in the text (a slug match): the first line with words past the frontmatter', () => {
    expect(snippetOf('---\ndescription: x\n---\n\n  Hello there\n', new Set(['zzz']))).toBe('Hello there');
    expect(snippetOf('+++\ntitle = "x"\n+++\n<a id="x"></a>\nHello there\n', new Set(['zzz']))).toBe('Hello there');
    expect(snippetOf('---\ntitle: release\n---\nthe release\n', new Set(['releas']))).toBe('the release');
    expect(snippetOf('a\tb\u001bc\n', new Set(['a']))).toBe('a b c');
  });

  test('markdown sections start at headings outside code fences and cover the text', () => {
    const text = 'intro\n# One\ntext\n```\n# not a heading\n```\n## Two\nmore\n';
    const s = sectionsOf(text, 'md');
    expect(s.map((x) => x.heading)).toEqual([undefined, 'One', 'Two']);
    expect(s.map((x) => text.slice(x.start, x.end)).join('')).toBe(text);
    expect(s.map((x) => x.line)).toEqual([1, 2, 7]);
  });

  test('other files: blank-line-separated blocks of about 2000 characters', () => {
    const para = `${'word '.repeat(100)}\n\n`;
    const text = para.repeat(20);
    const s = sectionsOf(text, 'txt');
    expect(s.length).toBeGreaterThan(2);
    expect(s.map((x) => text.slice(x.start, x.end)).join('')).toBe(text);
  });

  test('a section holding the words scores above one that does not', () => {
    const w = new Map([['releas', 2]]);
    expect(scoreText('the release', w)).toBeGreaterThan(scoreText('nothing here', w));
  });
});

describe('the cache file', () => {
  const dir = makeTempDir('kb-search-cache-');
  const index = build([['a', 'alpha beta'], ['b', 'beta gamma']]);
  const trace = { dirs: [['/x', 5]] as [string, number][], controls: [] };

  test('XDG_CACHE_HOME when absolute, else ~/.cache; keyed by topic and directory', () => {
    expect(cacheDir({ XDG_CACHE_HOME: '/c' }, '/h')).toBe('/c/kb/search');
    expect(cacheDir({ XDG_CACHE_HOME: 'relative' }, '/h')).toBe('/h/.cache/kb/search');
    expect(cacheDir({}, '/h')).toBe('/h/.cache/kb/search');
    expect(cacheFile('/c', 'a', '/d')).not.toBe(cacheFile('/c', 'b', '/d'));
    expect(cacheFile('/c', 'a', '/d')).not.toBe(cacheFile('/c', 'a', '/e'));
  });

  test('the file name: 32 hex digits of a hash of topic and directory, the same every time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) seen.add(hash128(`5\0docs\0/d/${i}`));
    expect(seen.size).toBe(2000);
    expect(hash128('a')).toMatch(/^[0-9a-f]{32}$/);
    expect(hash128('a')).toBe(hash128('a'));
    expect(hash128('ab')).not.toBe(hash128('ba'));
    expect(hash128('')).toMatch(/^[0-9a-f]{32}$/);
  });

  test('token estimates are kept, and read back; a document without one has none', () => {
    const b = new IndexBuilder();
    b.add({ ...meta('a'), tokens: 1234 }, ['a', '', '', 'alpha']);
    b.add(meta('b'), ['b', '', '', 'beta']);
    const file = join(dir, 'tokens.idx');
    expect(writeCache(file, { index: b.finish(), trace }, '/subjects')).toBeUndefined();
    const r = readCache(file, '/subjects');
    if (r.kind !== 'hit') throw new Error(r.kind);
    expect(r.entry.index.docs.map((d) => d.tokens)).toEqual([1234, undefined]);
  });

  test("the documents' paths are given as soon as they are read, before the rest", () => {
    const file = join(dir, 'paths.idx');
    writeCache(file, { index, trace }, '/subjects');
    let given: string[] | undefined;
    let unpacked: string[] | undefined;
    const take = (paths: StatPaths): void => {
      given = [];
      for (let i = 0; i < paths.length; i++) given.push(paths.path(i));
      // As the reader thread gets them: the file's bytes, the same paths.
      const { bytes, lens, gap } = paths.packed();
      const pathOf = unpack(new Uint8Array(bytes), new Uint32Array(lens), gap);
      unpacked = [];
      for (let i = 0; i < paths.length; i++) unpacked.push(pathOf(i));
    };
    const r = readCache(file, '/subjects', take);
    expect(r.kind).toBe('hit');
    expect(given).toEqual(['a.md', 'b.md']);
    expect(unpacked).toEqual(['a.md', 'b.md']);
    given = undefined;
    expect(readCache(file, '/elsewhere', take).kind).toBe('corrupt');
    expect(given).toBeUndefined();
  });

  test("the reader thread unpacks from the cache's bytes the paths this thread reads, in any script", () => {
    const slugs = ['ünï/çødé 🍎', '東京/データ', 'plain', 'Ωmega ß'];
    const b = new IndexBuilder();
    for (const slug of slugs) b.add(meta(slug), [slug, '', '', 'text']);
    const file = join(dir, 'unicode-paths.idx');
    expect(writeCache(file, { index: b.finish(), trace }, '/subjects')).toBeUndefined();
    let given: string[] = [];
    let unpacked: string[] = [];
    const r = readCache(file, '/subjects', (paths) => {
      const { bytes, lens, gap } = paths.packed();
      const pathOf = unpack(new Uint8Array(bytes), new Uint32Array(lens), gap);
      for (let i = 0; i < paths.length; i++) {
        given.push(paths.path(i));
        unpacked.push(pathOf(i));
      }
    });
    expect(r.kind).toBe('hit');
    expect(given.sort()).toEqual(slugs.map((s) => `${s}.md`).sort());
    expect(unpacked.sort()).toEqual(given);
  });

  test('written and read back, it answers the same', () => {
    const file = join(dir, 'one.idx');
    expect(writeCache(file, { index, trace }, '/subjects')).toBeUndefined();
    const r = readCache(file, '/subjects');
    expect(r.kind).toBe('hit');
    if (r.kind !== 'hit') return;
    expect(r.entry.trace).toEqual(trace);
    expect(ranked(r.entry.index, 'beta')).toEqual(ranked(index, 'beta'));
    expect(r.entry.index.docs).toEqual(index.docs);
  });

  test('missing is a miss; anything else unexpected is corrupt, never a throw', () => {
    expect(readCache(join(dir, 'none.idx'), '/s')).toEqual({ kind: 'missing' });
    const file = join(dir, 'two.idx');
    writeCache(file, { index, trace }, '/subjects');
    expect(readCache(file, '/elsewhere').kind).toBe('corrupt');
    const good = readFileSync(file);
    const cases: Uint8Array[] = [new Uint8Array(0), good.subarray(0, 20), good.subarray(0, good.length - 9), Buffer.from('garbage'.repeat(10))];
    const flipped = Buffer.from(good);
    flipped.writeUInt32LE(99, 4); // another version
    cases.push(flipped);
    const badHeader = Buffer.from(good);
    badHeader.writeUInt32LE(good.length * 2, 8);
    cases.push(badHeader);
    for (const bytes of cases) {
      writeFileSync(file, bytes);
      expect(readCache(file, '/subjects').kind).toBe('corrupt');
    }
  });

  test('postings pointing past the documents stop there', () => {
    const file = join(dir, 'three.idx');
    writeCache(file, { index, trace }, '/subjects');
    const bytes = readFileSync(file);
    // Make every doc delta in the postings huge.
    const at = bytes.indexOf(Buffer.from(index.post));
    expect(at).toBeGreaterThan(0);
    for (let i = at; i < at + index.post.length; i++) bytes[i] = 0x7f;
    writeFileSync(file, bytes);
    const r = readCache(file, '/subjects');
    if (r.kind === 'hit') expect(() => r.entry.index.query(['beta'])).not.toThrow();
  });

  test('a cache that cannot be written says why', () => {
    const ro = join(dir, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o500);
    const why = writeCache(join(ro, 'sub', 'x.idx'), { index, trace }, '/s');
    chmodSync(ro, 0o700);
    if (process.getuid?.() !== 0) expect(why).toBeString();
    expect(writeCache(join(dir, 'file-as-dir'), { index, trace }, '/s')).toBeUndefined();
    expect(writeCache(join(dir, 'file-as-dir', 'x.idx'), { index, trace }, '/s')).toBeString();
  });
});

describe('a topic index stays fresh', () => {
  function topic(files: Record<string, string>) {
    const root = makeTempDir('kb-search-topic-');
    const subjectsDir = join(root, 'docs');
    mkdirSync(subjectsDir);
    for (const [p, c] of Object.entries(files)) {
      mkdirSync(join(subjectsDir, p, '..'), { recursive: true });
      writeFileSync(join(subjectsDir, p), c);
    }
    // Made a while ago: a directory changed while the index was built is
    // not trusted (topic.ts), and here everything would be that new.
    const past = new Date(Date.now() - 60_000);
    const age = (p: string) => {
      utimesSync(p, past, past);
      if (statSync(p).isDirectory()) for (const e of readdirSync(p)) age(join(p, e));
    };
    age(subjectsDir);
    return { spec: { id: 'docs', subjectsDir, disabled: [] as string[] }, cache: join(root, 'cache'), dir: subjectsDir };
  }
  const slugsFor = async (t: ReturnType<typeof topic>, q: string) => {
    const r = await topicIndex(t.spec, { cacheDir: t.cache });
    return { status: r.status, read: r.read, slugs: r.index.query(queryTerms(q)).hits.map((h) => r.index.docs[h.doc].slug) };
  };

  test('built, then a hit, then only what changed is read again: edit, add, delete, rename', async () => {
    const t = topic({ 'a.md': 'alpha', 'sub/b.md': 'beta', 'sub/c.txt': 'gamma', '.hidden.md': 'alpha secret' });
    expect(await slugsFor(t, 'alpha')).toEqual({ status: 'built', read: 3, slugs: ['a'] });
    expect(await slugsFor(t, 'alpha')).toEqual({ status: 'hit', read: 0, slugs: ['a'] });
    // edit in place (same size), no directory change
    writeFileSync(join(t.dir, 'sub/b.md'), 'alpha');
    utimesSync(join(t.dir, 'sub/b.md'), new Date(), new Date(Date.now() + 5000));
    expect(await slugsFor(t, 'alpha')).toEqual({ status: 'updated', read: 1, slugs: ['a', 'sub/b'] });
    // add
    writeFileSync(join(t.dir, 'sub/d.md'), 'alpha delta');
    expect((await slugsFor(t, 'delta')).slugs).toEqual(['sub/d']);
    // delete
    rmSync(join(t.dir, 'a.md'));
    expect((await slugsFor(t, 'alpha')).slugs.sort()).toEqual(['sub/b', 'sub/d']);
    // rename
    renameSync(join(t.dir, 'sub/c.txt'), join(t.dir, 'sub/renamed.txt'));
    const before = new Date(Date.now() - 30_000);
    utimesSync(join(t.dir, 'sub'), before, before); // else too new to be trusted
    utimesSync(t.dir, before, before); // (changed by the delete)
    const r = await slugsFor(t, 'gamma');
    expect(r).toEqual({ status: 'updated', read: 1, slugs: ['sub/renamed'] });
    expect(await slugsFor(t, 'gamma')).toEqual({ status: 'hit', read: 0, slugs: ['sub/renamed'] });
  });

  test('every text document has its token estimate counted when it is indexed (a search counts none), carried over, and counted again when it changes', async () => {
    const body = 'Some words, 1234 and ünïcode: ok.\n'.repeat(Math.ceil((SNIPPET_BYTES + 1) / 30));
    expect(Buffer.byteLength(body)).toBeGreaterThan(SNIPPET_BYTES);
    const t = topic({ 'a.md': body, 'b.md': 'short' });
    const first = await topicIndex(t.spec, { cacheDir: t.cache });
    expect(first.index.docs.map((d) => d.tokens)).toEqual([estimateTokens(body), estimateTokens('short')]);
    writeFileSync(join(t.dir, 'b.md'), 'shorter now, 12 words and ünïcode');
    utimesSync(join(t.dir, 'b.md'), new Date(), new Date(Date.now() + 5000));
    const again = await topicIndex(t.spec, { cacheDir: t.cache });
    expect(again.status).toBe('updated');
    expect(again.index.docs.map((d) => d.tokens)).toEqual([estimateTokens(body), estimateTokens('shorter now, 12 words and ünïcode')]);
  });

  test('frontmatter only the YAML parser reads: its description indexed, in a build and in a patched update, the files after it intact', async () => {
    const folded = '---\ndescription: >\n  Folded onto\n  one line\ntitle: [not, a, string]\n---\nbody of y\n';
    const files: Record<string, string> = { 'a.md': 'alpha first', 'y.md': folded, 'z.md': 'zulu last' };
    for (let i = 0; i < 10; i++) files[`n${i}.md`] = `note ${i}`;
    const t = topic(files);
    const built = await topicIndex(t.spec, { cacheDir: t.cache });
    const doc = (slug: string) => built.index.docs.find((d) => d.slug === slug)!;
    expect(doc('y').description).toBe('Folded onto one line\n');
    expect((await slugsFor(t, 'folded')).slugs).toEqual(['y']);
    expect((await slugsFor(t, 'zulu')).slugs).toEqual(['z']);
    // An update of y alone (one document in 13: patched), YAML again.
    writeFileSync(join(t.dir, 'y.md'), folded.replace('Folded onto', 'Refolded into'));
    utimesSync(join(t.dir, 'y.md'), new Date(), new Date(Date.now() + 5000));
    const updated = await topicIndex(t.spec, { cacheDir: t.cache });
    expect(updated.status).toBe('updated');
    expect(updated.read).toBe(1);
    expect(updated.index.docs.find((d) => d.slug === 'y')!.description).toBe('Refolded into one line\n');
    expect((await slugsFor(t, 'refolded')).slugs).toEqual(['y']);
    // The old description's words are gone with it.
    expect((await slugsFor(t, 'folded')).slugs).toEqual([]);
  });

  test('racily clean: a file added in the same clock tick as the last change is still seen', async () => {
    // A coarse file-system clock gives two changes a few milliseconds
    // apart the same time: simulated by putting the directory's time back.
    const t = topic({ 'a.md': 'alpha' });
    const recent = new Date(Date.now() - 500);
    utimesSync(t.dir, recent, recent);
    expect((await slugsFor(t, 'alpha')).slugs).toEqual(['a']);
    writeFileSync(join(t.dir, 'b.md'), 'alpha again');
    utimesSync(t.dir, recent, recent);
    expect((await slugsFor(t, 'alpha')).slugs.sort()).toEqual(['a', 'b']);
  });

  test('an ignore file that changes in place changes the subjects', async () => {
    const t = topic({ '.kbignore': 'x.md\n', 'x.md': 'omega', 'y.md': 'omega' });
    expect((await slugsFor(t, 'omega')).slugs).toEqual(['y']);
    writeFileSync(join(t.dir, '.kbignore'), 'y.md\n');
    utimesSync(join(t.dir, '.kbignore'), new Date(), new Date(Date.now() + 5000));
    expect((await slugsFor(t, 'omega')).slugs).toEqual(['x']);
  });

  test('binaries are tracked, never hits; a corrupt cache is rebuilt and said', async () => {
    const t = topic({ 'a.md': 'alpha', 'b.bin': 'alpha\0\0binary' });
    expect((await slugsFor(t, 'alpha')).slugs).toEqual(['a']);
    const files = readdirSync(t.cache);
    expect(files).toHaveLength(1);
    writeFileSync(join(t.cache, files[0]), 'not an index');
    const r = await topicIndex(t.spec, { cacheDir: t.cache });
    expect(r.status).toBe('built');
    expect(r.cacheProblem).toContain('could not be read');
    expect((await topicIndex(t.spec, { cacheDir: t.cache })).status).toBe('hit');
  });

  test('a subjects directory that does not exist yet: said, and found once it does', async () => {
    const t = topic({});
    rmSync(t.dir, { recursive: true });
    const first = await topicIndex(t.spec, { cacheDir: t.cache });
    expect(first.index.docs).toHaveLength(0);
    expect(first.notices?.map((n) => n.code)).toEqual(['missing-directory']);
    mkdirSync(t.dir);
    writeFileSync(join(t.dir, 'a.md'), 'alpha');
    expect((await slugsFor(t, 'alpha')).slugs).toEqual(['a']);
  });

  test('a text file too large to index is said, not searched', async () => {
    const t = topic({ 'a.md': 'alpha', 'big.txt': 'alpha '.repeat(2000) });
    truncateSync(join(t.dir, 'big.txt'), 17 * 1024 * 1024); // the rest is a sparse hole
    const r = await topicIndex(t.spec, { cacheDir: t.cache });
    expect(r.notices?.map((n) => [n.code, n.where])).toEqual([['unreadable', 'big.txt']]);
    expect(r.notices?.[0].message).toContain('it is not searched');
    expect(r.index.query(['alpha']).hits.map((h) => r.index.docs[h.doc].slug)).toEqual(['a']);
  });

  test('no cache directory: built in memory, nothing written', async () => {
    const t = topic({ 'a.md': 'alpha' });
    const r = await topicIndex(t.spec, {});
    expect(r.status).toBe('memory');
    expect(existsSync(t.cache)).toBe(false);
  });

  test('an unwritable cache still answers, and says so', async () => {
    const t = topic({ 'a.md': 'alpha' });
    writeFileSync(t.cache, 'a file where the directory should be');
    const r = await topicIndex(t.spec, { cacheDir: t.cache });
    expect(r.index.query(['alpha']).hits).toHaveLength(1);
    expect(r.cacheProblem).toContain('could not be written');
    expect(statSync(t.cache).isFile()).toBe(true);
  });
});
