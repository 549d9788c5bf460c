import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import * as yaml from 'yaml';
import { descriptionValue, NEEDS_YAML, parseFrontmatter, simpleFields } from '../../../src/kb/content/frontmatter.ts';
import { frontmatterSpan, PROBE_BYTES, UNCLOSED } from '../../../src/kb/fs/probe.ts';
import { probeFile } from '../../../src/kb/fs/probe-titles.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempFiles } from '../../support/temp.ts';

const enc = new TextEncoder();
const span = (text: string, whole = true, path = 'x.md') => {
  const b = enc.encode(text);
  const r = frontmatterSpan(b, b.length, whole, path);
  return r === undefined || r === UNCLOSED ? r : new TextDecoder().decode(b.subarray(r[0], r[1]));
};

describe('frontmatterSpan', () => {
  test('the text between the fences', () => {
    expect(span('---\ndescription: x\n---\nbody')).toBe('description: x\n');
    expect(span('---\r\na: 1\r\n---\r\n')).toBe('a: 1\r\n');
    expect(span('\ufeff---\na: 1\n...\n')).toBe('a: 1\n');
    expect(span('---  \na: 1\n---\t\n')).toBe('a: 1\n');
    expect(span('---\n---\n')).toBe('');
  });
  test('a closing fence at the very end of a whole file', () => {
    expect(span('---\na: 1\n---')).toBe('a: 1\n');
    // ...but not at the end of a head that is not the whole file.
    expect(span('---\na: 1\n---', false)).toBe(UNCLOSED);
  });
  test('no frontmatter', () => {
    expect(span('# Title\n---\n')).toBeUndefined();
    expect(span('----\na\n---\n')).toBeUndefined();
    expect(span('--- x\n')).toBeUndefined();
    expect(span('')).toBeUndefined();
  });
  test('an opening fence with no closing one is unclosed', () => {
    expect(span('---\na: 1\n')).toBe(UNCLOSED);
    expect(span('---\na: 1\n----\n')).toBe(UNCLOSED);
  });
  test('bytes past n are never looked at', () => {
    const b = enc.encode('---\na: 1\n---\n');
    expect(frontmatterSpan(b, 9, false, 'x.md')).toBe(UNCLOSED);
  });
  test("a YAML file's `---` opens its first document, an Astro component's its script: neither is frontmatter", () => {
    for (const path of ['ci/.readthedocs.yaml', 'config.yml', 'data/Site.YML', 'src/components/Card.astro']) {
      expect(span('---\nversion: 2\n', true, path)).toBeUndefined();
      expect(span('---\nimport Card from "./Card.astro";\n---\n<Card />\n', true, path)).toBeUndefined();
    }
    for (const path of ['page.mdx', 'index.html', 'notes/yaml', '.yml', 'a.yml/page.md']) expect(span('---\na: 1\n---\n', true, path)).toBe('a: 1\n');
  });
});

describe('probeFile finds frontmatter in the head it reads', () => {
  const { root, file } = tempFiles('kb-front-');
  test('text with frontmatter, text without, binary', () => {
    expect(probeFile(file('---\ndescription: d\n---\n# x\n'))).toEqual({ kind: 'text', front: 'description: d\n' });
    expect(probeFile(file('# x\n'))).toEqual({ kind: 'text' });
    expect(probeFile(file(new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0])))).toEqual({ kind: 'binary' });
  });
  test("a YAML file that opens with `---` has no frontmatter, closed or not", () => {
    const yaml = join(root, 'readthedocs.yml');
    writeFileSync(yaml, '---\nversion: 2\nbuild:\n  os: ubuntu\n');
    expect(probeFile(yaml)).toEqual({ kind: 'text' });
  });
  test('frontmatter not closed within the first 8 KiB is unclosed', () => {
    expect(probeFile(file(`---\n${'a: b\n'.repeat(PROBE_BYTES / 5 + 10)}---\n`))).toEqual({ kind: 'text', front: null });
  });
});

describe('simpleFields (the fast path)', () => {
  test('quoted values with nothing to unescape', () => {
    expect({ ...(simpleFields(`a: "x: y # z"\nb: 'say "hi"'\nc: ""`) as object) }).toEqual({ a: 'x: y # z', b: 'say "hi"', c: '' });
  });
  test('plain key: value lines', () => {
    expect({ ...(simpleFields('name: pdf\ndescription: Use this for PDFs.\n') as object) }).toEqual({ name: 'pdf', description: 'Use this for PDFs.' });
  });
  test('the times kb writes, as YAML reads them: strings', () => {
    const front = 'created: 2025-01-14T09:30:00.000Z\nupdated: 2025-01-15T10:00:00Z\nsource: user';
    expect({ ...(simpleFields(front) as object) }).toEqual({ created: '2025-01-14T09:30:00.000Z', updated: '2025-01-15T10:00:00Z', source: 'user' });
    expect(parseFrontmatter(front, yaml)).toEqual({ ok: true, data: { ...(simpleFields(front) as object) } });
    expect(simpleFields('created: 2025-01-14')).toBe(NEEDS_YAML);
  });
  test('plain decimal numbers, as YAML reads them: numbers', () => {
    const front = 'id: abc\nnav_order: 2\nupdated: 1656967739799\ncreated: 007\nweight: 1.50\nversion: 2.';
    expect({ ...(simpleFields(front) as object) }).toEqual({ id: 'abc', nav_order: 2, updated: 1656967739799, created: 7, weight: 1.5, version: 2 });
    expect(parseFrontmatter(front, yaml)).toEqual({ ok: true, data: { ...(simpleFields(front) as object) } });
    for (const other of ['a: -1', 'a: +1', 'a: 1e3', 'a: .5', 'a: 1_000', 'a: 0x1F', 'a: 0o17', 'a: 1234567890123456', 'a: 1.2.3', 'a: 1:30']) expect(simpleFields(other)).toBe(NEEDS_YAML);
  });
  test('anything else goes to the parser', () => {
    for (const front of ['description: "esc\\"aped"', 'description: |\n  block', "a: 'it''s'", 'a: "x" # c', 'a: -1', 'a: true', 'tags:\n  - x', 'a: b # comment', 'a: b\na: c', 'a: x: y', '  a: b', '- x']) {
      expect(simpleFields(front)).toBe(NEEDS_YAML);
    }
  });
});

describe('parseFrontmatter', () => {
  test('a mapping', () => {
    expect(parseFrontmatter('description: |-\n  one\n  two\n', yaml)).toEqual({ ok: true, data: { description: 'one\ntwo' } });
  });
  test('malformed YAML and non-mappings are reasons, never throws', () => {
    expect(parseFrontmatter('description: [unclosed', yaml).ok).toBe(false);
    expect(parseFrontmatter('a: 1\na: 2', yaml).ok).toBe(false);
    expect(parseFrontmatter('- a\n- b', yaml)).toEqual({ ok: false, reason: 'frontmatter is not a mapping of fields' });
    expect(parseFrontmatter('', yaml)).toEqual({ ok: true, data: {} });
  });
  test('alias bombs are refused', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`)].join('\n');
    expect(parseFrontmatter(bomb, yaml).ok).toBe(false);
  });
  test('descriptionValue: non-empty strings only', () => {
    expect(descriptionValue('x')).toBe('x');
    expect(descriptionValue('  ')).toBeUndefined();
    expect(descriptionValue(3)).toBeUndefined();
    expect(descriptionValue(null)).toBeUndefined();
  });
});

describe('the fast path reads what the yaml package reads', () => {
  const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/);
  const value = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.stringMatching(/^[ -~]{0,30}$/),
    fc.constantFrom('2025-01-14T09:30:00.000Z', '2025-01-14T09:30:00Z', '2025-01-14', 'true', 'null', '1.5', '42', '007', '2.', '1656967739799', '999999999999999.999999999999999', '0.1', '-3', '1e5', 'a: b', 'a #b', 'x:', '"q"', "'q'", '|', '- a', '~', '.inf', 'yes', 'é ü', 'a\tb', '"a: b # c"', "'it''s'", '"\\t"', '""', "''", '"x" y'),
    fc.string({ maxLength: 20 }).map((v) => `"${v}"`),
    fc.string({ maxLength: 20 }).map((v) => `'${v}'`),
  );
  const line = fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`);
  test('whenever the fast path decides, it agrees with the parser', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(line, fc.constant(''), key.map((k) => `${k}:`)), { maxLength: 6 }), (lines) => {
        const front = lines.join('\n');
        const fast = simpleFields(front);
        if (fast === NEEDS_YAML) return;
        const slow = parseFrontmatter(front, yaml);
        expect(slow.ok).toBe(true);
        if (slow.ok) expect({ ...fast }).toEqual(slow.data as Record<string, string | number | null>);
      }),
      { numRuns: 3000 },
    );
  });
});
