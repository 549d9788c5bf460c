import { describe, test, expect } from 'bun:test';
import { formatContent, languageOf, longestBacktickRun } from '../../../src/kb/content/format.ts';

describe('formatContent: pass-through', () => {
  for (const ext of ['md', 'txt', 'text', '', 'MD', 'Txt']) {
    test(`'${ext}' is returned unchanged`, () => {
      const text = '# Title\r\n\n```js\nx\n```\n\n  \n';
      expect(formatContent(ext, text)).toBe(text);
    });
  }
});

describe('formatContent: fenced', () => {
  test('RFD example: a .toml file', () => {
    expect(formatContent('toml', '[package]\nname = "example"\n')).toBe('```toml\n[package]\nname = "example"\n```');
  });

  const tags: [string, string][] = [
    ['toml', 'toml'],
    ['json', 'json'],
    ['yaml', 'yaml'],
    ['yml', 'yaml'],
    ['rs', 'rust'],
    ['py', 'python'],
    ['js', 'javascript'],
    ['ts', 'typescript'],
    ['YML', 'yaml'],
    ['RS', 'rust'],
    ['sh', 'sh'],
    ['Go', 'go'],
    ['markdown', 'markdown'],
    ['constructor', 'constructor'],
    ['tostring', 'tostring'],
  ];
  for (const [ext, tag] of tags) {
    test(`.${ext} -> ${tag}`, () => {
      expect(languageOf(ext)).toBe(tag);
      expect(formatContent(ext, 'x')).toBe('```' + tag + '\nx\n```');
    });
  }

  test('fence grows past the longest backtick run', () => {
    expect(formatContent('py', 'a ``` b')).toBe('````python\na ``` b\n````');
    expect(formatContent('py', 'x\n`````\ny')).toBe('``````python\nx\n`````\ny\n``````');
    expect(formatContent('py', 'one ` two ``')).toBe('```python\none ` two ``\n```');
  });

  test('trailing whitespace trimmed before the closing fence; leading kept', () => {
    expect(formatContent('json', '\n  {"a": 1}  \n\n \t\n')).toBe('```json\n\n  {"a": 1}\n```');
  });

  test('CRLF inside is kept', () => {
    expect(formatContent('yaml', 'a: 1\r\nb: 2\r\n')).toBe('```yaml\na: 1\r\nb: 2\n```');
  });

  test('empty and whitespace-only content', () => {
    expect(formatContent('json', '')).toBe('```json\n```');
    expect(formatContent('json', ' \n\n')).toBe('```json\n```');
  });

  test('a tag that cannot sit on a backtick fence is left out', () => {
    expect(formatContent('a`b', 'x')).toBe('```\nx\n```');
  });
});

describe('longestBacktickRun', () => {
  test('counts runs', () => {
    expect(longestBacktickRun('')).toBe(0);
    expect(longestBacktickRun('a`b``c```')).toBe(3);
    expect(longestBacktickRun('````')).toBe(4);
  });
});
