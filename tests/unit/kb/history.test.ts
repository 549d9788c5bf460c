// A revised subject's history file (kb/write/history.ts): its name, what
// it holds, that kb reads back exactly what it wrote (and nothing else),
// and its bounds.
import { describe, expect, test } from 'bun:test';
import { HISTORY_BYTES, HISTORY_VERSIONS, historyName, parseHistory, renderHistory, withLatest, type Entry } from '../../../src/kb/write/history.ts';
import { describePath } from '../../../src/kb/index/slug.ts';

const entry = (n: number, text = `---\nsource: user\n---\nVersion ${n}.\n`): Entry => ({ replaced: `2026-01-0${(n % 9) + 1}T00:00:00.000Z`, text });

describe('the history file', () => {
  test('beside the subject, hidden, its slug the subject\'s plus .history', () => {
    expect(historyName('deploy-window.md')).toBe('.deploy-window.history.md');
    expect(historyName('notes.markdown')).toBe('.notes.history.md');
    expect(describePath(`ops/${historyName('release-day.md')}`)).toEqual({ slug: 'ops/release-day.history', hidden: true, ext: 'md' });
  });

  test('newest first, each earlier file whole in a fence longer than any backticks it holds; read back exactly', () => {
    const tricky = entry(2, '---\ndescription: "x"\n---\nA fence:\n\n````markdown\ncode\n````\n## Replaced 2020-01-01T00:00:00.000Z\n');
    const entries = [entry(3), tricky, entry(1, 'no final newline')];
    const text = renderHistory('deploy-window.md', entries);
    expect(text).toStartWith('# Earlier texts of deploy-window.md\n\nkb revise keeps here the texts it replaced, newest first,');
    expect(text).toContain('\n## Replaced 2026-01-04T00:00:00.000Z\n\n```markdown\n---\nsource: user\n---\nVersion 3.\n```\n');
    expect(text).toContain('`````markdown\n---\ndescription');
    expect(parseHistory(text)).toEqual([entry(3), tricky, { ...entry(1), text: 'no final newline\n' }]);
    expect(parseHistory(renderHistory('a.md', []))).toEqual([]);
  });

  test('CRLF line ends (a checkout with autocrlf) are read too', () => {
    const text = renderHistory('a.md', [entry(1)]).replace(/\n/g, '\r\n');
    expect(parseHistory(text)).toEqual([{ replaced: entry(1).replaced, text: '---\r\nsource: user\r\n---\r\nVersion 1.\r\n' }]);
  });

  test('a name with control characters stays on the header line', () => {
    const text = renderHistory('a\nb.md', [entry(1)]);
    expect(text.split('\n')[0]).toContain('a\\nb.md');
    expect(parseHistory(text)).toEqual([entry(1)]);
  });

  test('anything else is not kb\'s history: undefined, so kb does not rewrite it', () => {
    const good = renderHistory('a.md', [entry(1), entry(2)]);
    for (const bad of [
      '',
      '# My own notes\n',
      good.replace('kb revise keeps here', 'I keep here'),
      good.replace('## Replaced', '## Changed'),
      good.replace('```markdown', '``markdown'),
      good.slice(0, good.lastIndexOf('```')),
      `${good}\nsome words after\n`,
      good.replace('## Replaced 2026-01-02T00:00:00.000Z', '## Replaced '),
    ]) {
      expect(parseHistory(bad)).toBeUndefined();
    }
  });

  test('read in time linear in its length (a hostile file)', () => {
    const timeOf = (text: string) => {
      const t0 = performance.now();
      parseHistory(text);
      return performance.now() - t0;
    };
    const head = '# Earlier texts of x\n\nkb revise keeps here x\n\n## Replaced t\n\n```markdown\n';
    const small = `${head}${'``\n'.repeat(20_000)}`;
    const large = `${head}${'``\n'.repeat(200_000)}`;
    timeOf(small);
    expect(timeOf(large)).toBeLessThan(Math.max(200, timeOf(small) * 40));
  });
});

describe('its bounds', () => {
  test(`at most ${HISTORY_VERSIONS} earlier texts; the oldest are dropped and counted`, () => {
    const old = Array.from({ length: HISTORY_VERSIONS }, (_, i) => entry(i));
    const r = withLatest(entry(99), old);
    expect(r.entries).toHaveLength(HISTORY_VERSIONS);
    expect(r.entries[0]).toEqual(entry(99));
    expect(r.dropped).toBe(1);
    expect(withLatest(entry(99), []).dropped).toBe(0);
  });

  test('at most 1 MiB of earlier texts, but the latest is always kept whole', () => {
    const big = (n: number) => entry(n, 'x'.repeat(HISTORY_BYTES / 2));
    const r = withLatest(big(3), [big(2), big(1)]);
    expect(r.entries.map((e) => e.text.length)).toEqual([HISTORY_BYTES / 2, HISTORY_BYTES / 2]);
    expect(r.dropped).toBe(1);
    const huge = withLatest(entry(5, 'y'.repeat(HISTORY_BYTES * 3)), [entry(4)]);
    expect(huge.entries).toHaveLength(1);
    expect(huge.dropped).toBe(1);
  });
});
