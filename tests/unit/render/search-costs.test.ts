// A search whose whole text is surely within the budget by its length is
// not weighed (render/search.ts SEARCH_COSTS.surelyWithin): where it says
// so, weighing would have kept every result too.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { fit } from '../../../src/app/fit.ts';
import type { SearchFound, SearchResult } from '../../../src/answer/search.ts';
import { renderSearch, SEARCH_COSTS } from '../../../src/render/search.ts';

function found(texts: readonly string[]): SearchFound {
  const results: SearchResult[] = texts.map((t, i) => ({ topic: 'docs', slug: `s${i}`, snippet: t, line: 1, passages: [{ line: 1, text: t }], tokens: 100 + i, score: 1 }));
  return { query: 'q 1', where: 'docs', total: results.length, results, cut: 0, budget: 0, unknown: [], corrected: [] };
}

describe('SEARCH_COSTS.surelyWithin', () => {
  test('where it holds, weighing keeps every result', () => {
    const text = fc.string({ unit: fc.constantFrom('1', '.', '1', '.', 'a', ' ', 'é', '😀', '\n'), minLength: 20, maxLength: 200, size: 'max' });
    fc.assert(
      // Budgets around the whole's length, where the bound is decided.
      fc.property(fc.array(text, { minLength: 1, maxLength: 12, size: 'max' }), fc.noBias(fc.integer({ min: 0, max: 1400 })), (texts, permille) => {
        const f = found(texts);
        const frame = SEARCH_COSTS.frame(f.query, f, f.total, f.results.length);
        const budget = frame + Math.floor((permille / 1000) * renderSearch(f).length);
        if (!SEARCH_COSTS.surelyWithin(f, frame, budget)) return;
        const { kept, left } = fit(f.results, budget, { frame, row: (r, before) => SEARCH_COSTS.row(r, before.length + 1), whole: (shown, cut) => SEARCH_COSTS.whole({ ...f, results: shown, cut: cut.length }) });
        expect(left).toEqual([]);
        expect(kept).toEqual([...f.results]);
      }),
      { numRuns: 1500 },
    );
  });

  test('it holds for ten ordinary results in the default budget, not in a small one', () => {
    const f = found(Array.from({ length: 10 }, (_, i) => `Line ${i} of a passage that answers the question, with a few more words.`));
    const frame = SEARCH_COSTS.frame(f.query, f, f.total, f.results.length);
    expect(SEARCH_COSTS.surelyWithin(f, frame, 20_000)).toBe(true);
    expect(SEARCH_COSTS.surelyWithin(f, frame, SEARCH_COSTS.whole(f) + frame)).toBe(false);
  });
});
