import { describe, test, expect } from 'bun:test';
import { longestBacktickRun } from '../../../src/kb/content/body.ts';
import { formatContent as formatted, formattedText, languageOf, PASS_THROUGH, trimTrailingNewlines } from '../../../src/kb/content/format.ts';

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

/** `formatContent`'s result as one string, for a text body; the same
 *  content as bytes must format to the same pieces (its body the text
 *  body's UTF-8 bytes). */
function formatContent(ext: string, text: string): string {
  const t = formatted(ext, text);
  const b = formatted(ext, enc.encode(text));
  expect(b.body).toBeInstanceOf(Uint8Array);
  expect({ head: b.head, body: dec.decode(b.body as Uint8Array), tail: b.tail }).toEqual({ head: t.head, body: t.body as string, tail: t.tail });
  return formattedText(t);
}

describe('formatContent: pass-through', () => {
  for (const ext of ['md', 'txt', 'text', '', 'MD', 'Txt']) {
    test(`'${ext}' is returned unchanged`, () => {
      const text = '# Title\r\n\n```js\nx\n```\n\n  \n';
      expect(formatContent(ext, text)).toBe(text);
      expect(formatted(ext, text)).toEqual({ head: '', body: text, tail: '' });
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

describe('PASS_THROUGH', () => {
  test('Markdown, plain text and no extension, lower case', () => {
    expect([...PASS_THROUGH].sort()).toEqual(['', 'md', 'text', 'txt']);
  });
});

describe('trimTrailingNewlines (a formatted content)', () => {
  const cases: [string, string, string][] = [
    ['md', 'x\r\n\n', 'x'],
    ['md', '\n\n', ''],
    ['md', '', ''],
    ['md', 'a\n b \n', 'a\n b '],
    ['toml', 'k = 1\n', '```toml\nk = 1\n```'],
    ['json', '', '```json\n```'],
    ['json', ' \n\n', '```json\n```'],
  ];
  for (const [ext, text, out] of cases) {
    test(`${ext} ${JSON.stringify(text)} -> ${JSON.stringify(out)}`, () => {
      const t = trimTrailingNewlines(formatted(ext, text));
      expect(formattedText(t)).toBe(out);
      const b = trimTrailingNewlines(formatted(ext, enc.encode(text)));
      expect(formattedText(b)).toBe(out);
    });
  }

  test('content with nothing to trim is returned as it is', () => {
    const f = formatted('md', 'x');
    expect(trimTrailingNewlines(f)).toBe(f);
    const g = formatted('toml', 'x\n');
    expect(trimTrailingNewlines(g)).toBe(g);
  });
});

describe('longestBacktickRun', () => {
  test('counts runs', () => {
    expect(longestBacktickRun('')).toBe(0);
    expect(longestBacktickRun('a`b``c```')).toBe(3);
    expect(longestBacktickRun('````')).toBe(4);
  });
});
