// The fast TOML path must give exactly what the full parser gives, or give
// up (undefined) and leave the file to the full parser.
import { describe, test, expect } from 'bun:test';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSimpleToml } from '../../../src/config/toml-fast.ts';
import { parseFullToml } from '../../../src/config/toml-full.ts';
import { parseToml } from '../../../src/config/toml.ts';

const REPO = join(import.meta.dir, '../../..');

/** The full parser's result as plain data (its tables carry symbols), or
 *  'error'. */
function full(text: string): unknown {
  const r = parseFullToml(text);
  return 'data' in r ? JSON.parse(JSON.stringify(r.data)) : 'error';
}

/** What the fast path gives, checked against the full parser. */
function agree(text: string): unknown {
  const fast = parseSimpleToml(text);
  if (fast !== undefined) expect({ text, data: JSON.parse(JSON.stringify(fast)) }).toEqual({ text, data: full(text) });
  return fast;
}

describe('files the fast path takes', () => {
  const rows: [string, unknown][] = [
    ['', {}],
    ['# only a comment\n\n   \n', {}],
    ['[kb.topic.docs]\ntitle = "Docs"\nsubjects = "docs"\n', { kb: { topic: { docs: { title: 'Docs', subjects: 'docs' } } } }],
    ['[kb.topic.a]\nenable = false\nlearned = ["x/*", \'y\', ]\ndisabled = []\n', { kb: { topic: { a: { enable: false, learned: ['x/*', 'y'], disabled: [] } } } }],
    ['a = "tab\\there \\"q\\" \\\\ \\u00e9 \\U0001F600"  # trailing\n', { a: 'tab\there "q" \\ é 😀' }],
    ["a = 'C:\\path\\no\\escape'\n", { a: 'C:\\path\\no\\escape' }],
    ['a = "x"\r\nb = true\r\n', { a: 'x', b: true }],
    ['# a comment\r\n[kb.topic.docs] # here\r\nsubjects = "docs" # there\r\n\r\n# end', { kb: { topic: { docs: { subjects: 'docs' } } } }],
    ['d = """x""" # c\r\n', { d: 'x' }],
    ['[ a . b ]\nc = "d"\n[a]\ne = "f"\n', { a: { b: { c: 'd' }, e: 'f' } }],
    ['extends = ["base.toml", "*.toml"]\ninherit = false\nconfig_load_paths = [".jp/config"]\n', { extends: ['base.toml', '*.toml'], inherit: false, config_load_paths: ['.jp/config'] }],
    ['a = "# not a comment"\n', { a: '# not a comment' }],
    ['a = "ünïcødé ✓"\n', { a: 'ünïcødé ✓' }],
    ['d = """\nline one\n  line "two" \\u00e9\n"""\nx = "y"\n', { d: 'line one\n  line "two" é\n', x: 'y' }],
    ['d = """same line""" # c\n', { d: 'same line' }],
    ["d = '''\nC:\\raw\\path\n'''\n", { d: 'C:\\raw\\path\n' }],
    ['constant = "x"\n', { constant: 'x' }],
  ];
  for (const [text, data] of rows) {
    test(JSON.stringify(text), () => {
      expect(agree(text)).toEqual(data);
    });
  }
});

describe('files left to the full parser', () => {
  const rows = [
    'a = 1',
    'a = 1.5',
    'a = 1979-05-27',
    'a = { b = "c" }',
    'a.b = "c"',
    '"a" = "b"',
    'a = """x\\\n  y"""',
    'a = """x""""',
    'a = """  \nx"""',
    'a = """x\r\ny"""',
    'a = """never closed',
    'constructor = "x"',
    '[toString]',
    'a = [\n  "x",\n]',
    'a = ["x", 1]',
    'a = [["x"]]',
    '[[a]]\nb = "c"',
    'a = "x"\na = "y"',
    '[a]\n[a]',
    'a = "x"\n[a]',
    '[a]\nb = "x"\n[a.b]',
    'a = "\\q"',
    'a = "\\ud800"',
    'a = "unterminated',
    'a = "x" junk',
    'a = truex',
    'a = "x\u0001"',
    'a = "x"\rb = "y"',
    'a = "x"\r',
    'a = "x" # c\r',
    '# c\r',
    'a = "x"\r\r\n',
    'd = """x"""\r',
    '__proto__ = "x"',
    '[__proto__]',
    'a =',
    '= "x"',
    '[a',
    '[a] b = "c"',
  ];
  for (const text of rows) {
    test(JSON.stringify(text), () => {
      expect(parseSimpleToml(text)).toBeUndefined();
    });
  }
});

describe('the configurations in this repository', () => {
  const files = ['examples/.jp/config.toml'];
  for (const f of files) {
    test(f, () => {
      const text = readFileSync(join(REPO, f), 'utf8');
      expect(agree(text)).toBeDefined();
    });
  }
});

describe('parseToml', () => {
  test('gives the fast result, or the full parser\'s when the file needs it', async () => {
    expect(await parseToml('a = "x"\n', 'f.toml')).toEqual({ data: { a: 'x' } });
    expect(await parseToml('a = 1\n', 'f.toml')).toEqual({ data: { a: 1 } });
    expect(await parseToml('a = = 1\n', 'f.toml')).toMatchObject({ diagnostic: { code: 'toml-syntax', where: 'f.toml:1:6' } });
  });
});

describe('generated files: the fast path agrees with the full parser, or gives up', () => {
  // Few key names, so that duplicates and clashes between keys and tables
  // come up often; strings with the characters and escapes that matter.
  const key = fc.constantFrom('a', 'b', 'kb', 'topic', 'x-1', 'y_2', '__proto__', 'constructor');
  const stringBody = fc
    .array(fc.constantFrom('a', ' ', '\t', '#', "'", '\\"', '\\\\', '\\n', '\\u00e9', '\\U0001F600', '\\x', 'é', '✓', '[', ']', ',', '='), { maxLength: 6 })
    .map((parts) => parts.join(''));
  const basic = stringBody.map((b) => `"${b}"`);
  const literal = fc.array(fc.constantFrom('a', ' ', '\\', '"', '#', 'é'), { maxLength: 5 }).map((p) => `'${p.join('')}'`);
  const multi = fc
    .tuple(fc.constantFrom('"""', "'''"), fc.array(fc.oneof(stringBody, fc.constantFrom('', ' ', '\\', '"', "'", '""')), { maxLength: 4 }), fc.constantFrom('', '\n', ' \n'))
    .map(([q, lines, lead]) => `${q}${lead}${lines.join('\n')}${q}`);
  const scalar = fc.oneof(basic, literal, multi, fc.constantFrom('true', 'false', '1', '1.5', '1979-05-27', '{ a = "b" }', 'truex'));
  const array = fc
    .tuple(fc.array(fc.oneof(basic, literal, fc.constantFrom('1', 'true')), { maxLength: 3 }), fc.boolean(), fc.constantFrom('', ' '))
    .map(([items, trailing, pad]) => `[${pad}${items.join(`,${pad}`)}${trailing && items.length > 0 ? ',' : ''}${pad}]`);
  const ws = fc.constantFrom('', ' ', '\t', '  ');
  const comment = fc.constantFrom('', ' # note', '# x ] = "y"');
  const line = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(ws, key, ws, fc.oneof(scalar, array), comment).map(([w, k, w2, v, c]) => `${w}${k}${w2}=${w2}${v}${c}`) },
    { weight: 2, arbitrary: fc.tuple(fc.array(key, { minLength: 1, maxLength: 3 }), ws, comment).map(([ks, w, c]) => `[${w}${ks.join(`${w}.${w}`)}${w}]${c}`) },
    { weight: 1, arbitrary: fc.constantFrom('', '# comment', '   ', '[[a]]', 'a.b = "c"', '"q" = "r"', 'a = [', '"x"]', '\r', 'a = "x"\r# c', '# c\r') },
  );
  const doc = fc.tuple(fc.array(line, { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r')).map(([lines, eol]) => lines.join(eol) + eol);

  test('for thousands of files', () => {
    let taken = 0;
    fc.assert(
      fc.property(doc, (text) => {
        if (agree(text) !== undefined) taken++;
      }),
      { numRuns: Number(process.env.KB_PROPERTY_RUNS ?? 3000), seed: 42 },
    );
    // The fast path must actually take files, not give up on everything.
    expect(taken).toBeGreaterThan(100);
  });
});
