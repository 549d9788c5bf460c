import { describe, expect, test } from 'bun:test';
import { exportLine, summaryText } from '../../../src/render/export.ts';

describe('kb export lines', () => {
  test('one line per record, whatever the text holds; the same value read back', () => {
    const record = { topic: 't', slug: 's', title: null, description: 'a\u2028b', tags: [], path: 't/s.md', size: 9, text: 'x\ny\r\n\u2029\u202e\u0000\u001b"\\' };
    const line = exportLine(record);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r\u2028\u2029\u202e\u0000\u001b]/);
    expect(JSON.parse(line)).toEqual(record);
    expect(Object.keys(JSON.parse(line))).toEqual(['topic', 'slug', 'title', 'description', 'tags', 'path', 'size', 'text']);
  });

  test('the count says what was left out and why', () => {
    const s = { topics: ['a', 'b'], exported: 12345, replaced: 1, binary: 2, unreadable: 1, hidden: 3, disabled: 0 };
    expect(summaryText(s, 0)).toBe('exported 12,345 subjects from 2 topics; 1 with invalid bytes replaced; skipped 2 binary files and 1 file not read; left out 3 hidden subjects (--hidden exports them)');
    expect(summaryText({ ...s, topics: ['a'], exported: 1, replaced: 0, binary: 57, unreadable: 0, hidden: 0 }, 7)).toBe('exported 1 subject from 1 topic; skipped 57 binary files (7 not named above; --verbose names each)');
  });
});
