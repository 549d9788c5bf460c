// snippetOf finds the lines that hold a query term by searching the whole
// lower-cased text: it must pick exactly the line, and cut exactly the
// snippet, that scoring every line in turn does (the reference below, the
// definition in the module's comment), whatever the text: case, letters
// whose lower case is longer (U+0130), final sigma, long and minified
// lines, fences, no match at all, runs of scripts written without spaces.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { joinedFinder, minimalNeedles, snippetOf } from '../../src/kb/search/snippet.ts';
import { forEachTermOf } from '../../src/kb/search/tokenize.ts';
import { CONTROL } from '../../src/shared/controls.ts';
import { frontmatterEnd, isMarkupLine, isTextLine } from '../../src/kb/content/markup-line.ts';

const RUNS = Number(process.env.KB_PROPERTY_RUNS ?? 3000);

function lineScore(line: string, matched: ReadonlySet<string>) {
  const lower = line.toLowerCase();
  const seen = new Set<string>();
  let all = 0;
  let first = -1;
  // Every term of the line, as the index makes them (camelCase parts and
  // hyphen-joined words included).
  forEachTermOf(line, lower, (t, a) => {
    if (!matched.has(t)) return;
    all++;
    seen.add(t);
    if (first < 0) first = a;
  });
  return { distinct: seen.size, all, first };
}

function clip(line: string, at: number): string {
  let s = line;
  let from = 0;
  if (s.length > 200) {
    from = Math.max(0, Math.min(at - 40, s.length - 200));
    s = s.slice(from, from + 200);
  }
  const cutEnd = from + 200 < line.length;
  s = s.replace(new RegExp(CONTROL.source, 'g'), ' ').replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${s}${cutEnd ? '…' : ''}`;
}

/** Every line in turn (the first 20,000, past the frontmatter), as the
 *  snippet is defined: a line of markup alone is never one. */
function reference(text: string, matched: ReadonlySet<string>): string {
  const needles = [...matched];
  // A line holds a term as written; where none does, its words joined by
  // a hyphen or an underscore (`single-page` for `singlepag`).
  const lines = text.slice(frontmatterEnd(text)).split('\n').slice(0, 20_000);
  const plain = (lower: string) => needles.some((t) => lower.includes(t));
  const joined = needles.some((t) => t === '' || t.includes('\n')) ? undefined : joinedFinder(minimalNeedles(needles));
  const holds = lines.some((l) => l.length <= 10_000 && plain(l.toLowerCase())) || joined === undefined ? plain : (lower: string) => new RegExp(joined.source).test(lower);
  let best = '';
  let bestScore = { distinct: 0, all: 0, first: -1 };
  let fallback = '';
  let start = frontmatterEnd(text);
  for (let n = 0; n < 20_000 && start <= text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.length > 10_000 || isMarkupLine(line)) {
      if (end === text.length) break;
      continue;
    }
    if (fallback === '' && isTextLine(line)) fallback = line;
    const lower = line.toLowerCase();
    if (holds(lower)) {
      const s = lineScore(line, matched);
      if (s.distinct > bestScore.distinct || (s.distinct === bestScore.distinct && s.all > bestScore.all)) {
        best = line;
        bestScore = s;
      }
    }
    if (end === text.length) break;
  }
  return bestScore.distinct === 0 ? clip(fallback, 0) : clip(best, bestScore.first);
}

const WORDS = ['<a id="release"></a>', '[tag]: release.html', '.. _release:', '```release', '---', '+++', '![tag](release.png)', '{{#include release.rs}}', 'release', 'Releases', 'RELEASED', 'tag', 'Tagging', 'İstanbul', 'istanbul', 'ΟΔΟΣ', 'οδος', 'note', 'café', 'x', '---', '...', '  ', '\t', '\u001b', '東京'];
const word = fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 6 }));
const line = fc.oneof(
  { weight: 8, arbitrary: fc.array(word, { maxLength: 12 }).map((ws) => ws.join(' ')) },
  // Lines of markup alone (never a snippet), and text that looks like it.
  { weight: 2, arbitrary: fc.constantFrom('<a id="release"></a>', '[tag]: release.html', '.. _release:', '.. code-block:: release', '```release', '---', '+++', '...', '![tag](release.png)', '{{#include release.rs}}', '<Listing caption="release tag">', '<!-- release tag -->', 'image::release.png[tag]', '.. [1] release tag', '[^1]: release tag', '[[release]] tag') },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(10_001), `release ${'y'.repeat(10_000)}`, `release ${'y'.repeat(9_993)}`, `tag ${'y'.repeat(9_996)}`, `${'z '.repeat(150)}release tag`, `${'z '.repeat(150)}release ${'z '.repeat(100)}tag`) },
);
const text = fc.array(line, { maxLength: 30 }).map((ls) => ls.join('\n'));
const terms = fc.uniqueArray(fc.constantFrom('releas', 'tag', 'istanbul', 'οδος', 'not', 'caf', 'zz', '東京'), { minLength: 1, maxLength: 3 });

// Words whose terms the needles' occurrences do not count one for one: a
// camelCase word and its parts, two words joined by a hyphen, a word
// ending in `ies` whose term ends in a `y` it lacks, a number's leading
// zeros, two joined by an underscore; and matched terms for them.
const ODD_WORDS = ['TypedDict', 'dict', 'DictDict', 'f-strings', 'string', 'pep-0008', 'PEP-8', 'pep', '0008', 'flies', 'FLIES', 'fly', 'XFlies', 'copies', 'ReleaseTag', 'tagRelease', 'tagrelease', 'release-tag', 'release', 'tag', 'a-b', '-', '--', 'x-\u1680y', 'KEY', '\u212Aey', 'key.', '3.12', 'V3.12', 'SERVER_NAME', 'server_name', 'name', 'send_file', '__init__', 'a_b', '_', 'x_0007', 'release_tag-x'];
const oddLine = fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ODD_WORDS) }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }), { maxLength: 8 }).map((ws) => ws.join(' '));
const oddText = fc.array(oddLine, { maxLength: 12 }).map((ls) => ls.join('\n'));
const oddTerms = fc.uniqueArray(fc.constantFrom('typeddict', 'typ', 'dict', 'dictdict', 'fstring', 'string', 'pep8', 'pep', '8', 'fly', 'xfly', 'copy', 'releasetag', 'tagreleas', 'releas', 'tag', 'ab', 'x', 'x\u1680y', 'key', 'k', '3.12', 'v3.12', 'é', 'servernam', 'server', 'nam', 'sendfil', 'init', 'x7', 'tagx'), { minLength: 1, maxLength: 4 });

// Runs of scripts written without spaces, whose terms are their characters
// and pairs of characters: an occurrence of a needle is in up to three
// terms (the pairs around it, the character), and runs can be long.
const CJK_WORDS = ['认证', '用户认证', '本系统使用令牌进行用户认证', '認証', '設定ファイル', '接続文字列を指定', 'tar', '怎么解压tar文件', 'ภาษาไทย', '한국어', '，', '。', '時々', 'ｱｲｳ', 'ＡＢＣ', '的'.repeat(30), ' ', '\n'];
const cjkText = fc.array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...CJK_WORDS) }, { weight: 1, arbitrary: fc.string({ maxLength: 3 }) }), { maxLength: 24 }).map((ws) => ws.join(''));
const cjkTerms = fc.uniqueArray(fc.constantFrom('认', '认证', '证', '用户', '户', '户认', '接続', '続', '文字', '文', 'tar', 'ภา', '한국', '々', '時々', 'abc', 'ｱｲ', '的', '的的', '設定'), { minLength: 1, maxLength: 5 });

describe('snippetOf', () => {
  test('is the best line, scored line by line, in text written without spaces', () => {
    fc.assert(
      fc.property(cjkText, cjkTerms, (t, m) => {
        const matched = new Set(m);
        expect(snippetOf(t, matched)).toBe(reference(t, matched));
      }),
      { numRuns: RUNS },
    );
  });

  test('is the best line, scored line by line', () => {
    fc.assert(
      fc.property(text, terms, (t, m) => {
        const matched = new Set(m);
        expect(snippetOf(t, matched)).toBe(reference(t, matched));
      }),
      { numRuns: RUNS },
    );
  });

  test('is the best line, scored line by line, where a line holds terms its needles do not count one for one', () => {
    fc.assert(
      fc.property(oddText, oddTerms, (t, m) => {
        const matched = new Set(m);
        expect(snippetOf(t, matched)).toBe(reference(t, matched));
      }),
      { numRuns: RUNS },
    );
  });

  test('looks at the first 20,000 lines only', () => {
    const many = `${'filler\n'.repeat(20_000)}release here\n`;
    expect(snippetOf(many, new Set(['releas']))).toBe(reference(many, new Set(['releas'])));
    expect(snippetOf(many, new Set(['releas']))).toBe('filler');
    const edge = `${'filler\n'.repeat(19_999)}release here`;
    expect(snippetOf(edge, new Set(['releas']))).toBe('release here');
  });
});
