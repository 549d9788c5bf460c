// A search reads at most SNIPPET_BYTES (1 MiB) of a result's file for its
// snippet: a long file is not read whole for one line (issue: "cap the work
// per result"). Counted on dist/kb under strace, on a warm search (the
// index, built by the first search, holds the file's token count).
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { BIN, BINARY, fixture, isolatedEnv, run } from './harness.ts';
import { bytesRead, STRACE } from '../support/strace.ts';

const MiB = 1024 * 1024;

/** 3 MiB of prose lines: `first` on line 2, `deep` only past 2 MiB. */
function longDocument(): string {
  const lines = ['# Field notes', 'The zebra crossing study begins here.'];
  let size = 60;
  for (let i = 0; size < 3 * MiB; i++) {
    const line = size > 2 * MiB && i % 500 === 0 ? `Line ${i}: the okapi appears only this deep.` : `Line ${i}: plain observations about the weather and the roads.`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

const root = fixture({ 'docs/long.md': longDocument(), 'docs/short.md': '# Short\n\nA zebra, briefly.\n' }, '[kb.topic.docs]\nsubjects = "docs"\n');
const LONG = join(root, 'docs', 'long.md');

describe.skipIf(!STRACE)('kb search reads at most 1 MiB of a result for its snippet', () => {
  test('a match near the top: its line is the snippet, and no more than 1 MiB of the 3 MiB file is read', () => {
    // The first search builds the index (reading every file whole).
    const cold = run(BINARY, root, ['search', 'zebra']);
    expect(cold.code).toBe(0);
    expect(cold.out).toContain('The zebra crossing study begins here.');
    const bytes = bytesRead([BIN, 'search', 'zebra'], root, isolatedEnv(root), [LONG], root).get(LONG) ?? 0;
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(MiB + 1);
    // The same answer as the cold search.
    expect(run(BINARY, root, ['search', 'zebra']).out).toBe(cold.out);
  });

  test('a match only past the first MiB: still found (by the index), the snippet then is the first line with words', () => {
    const r = run(BINARY, root, ['search', 'okapi']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('docs: long');
    expect(r.out).toContain('Field notes');
    expect(r.out).not.toContain('the okapi appears');
    const bytes = bytesRead([BIN, 'search', 'okapi'], root, isolatedEnv(root), [LONG], root).get(LONG) ?? 0;
    expect(bytes).toBeLessThanOrEqual(MiB + 1);
  });
});
