// CRLF line ends in TOML (src/config/toml-full.ts): TOML 1.0 reads `\r\n` as
// a line break everywhere, comments included, and JP reads such a file; a
// CR anywhere else is a control character, refused at its own place.
import { describe, expect, test } from 'bun:test';
import { parseToml } from '../../../src/config/toml.ts';
import { parseSimpleToml } from '../../../src/config/toml-fast.ts';
import { parseFullToml } from '../../../src/config/toml-full.ts';

const crlf = (s: string) => s.replace(/\n/g, '\r\n');
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

/** Files that read the same with LF and with CRLF line ends, on both
 *  paths: the fast path (when it takes them) and the full parser. */
const SAME = [
  '# kb\n[kb.topic.docs] # the docs\nsubjects = "docs" # where\n# end\n',
  '# only comments\n#\n',
  '[kb.topic.docs]\nsubjects = "docs"\nlearned = [ # a comment in an array\n  "a", # one\n  "b",\n]\n',
  '[assistant]\nmax = 3 # a number: the full parser\n[kb.topic.t]\nsubjects = "t"\n',
  'a = { b = "c" } # inline\n',
  '# a comment with \u00e9 and \u2713\n[[x]] # array of tables\ny = 1\n',
];

describe('CRLF line ends', () => {
  for (const text of SAME) {
    test(JSON.stringify(text), async () => {
      const lf = await parseToml(text, 'c.toml');
      expect('data' in lf).toBe(true);
      expect(plain(await parseToml(crlf(text), 'c.toml'))).toEqual(plain(lf));
      const full = parseFullToml(crlf(text));
      expect('data' in full && plain(full.data)).toEqual(plain((lf as { data: unknown }).data));
    });
  }

  test('the fast path takes a CRLF file with comments (no full parser needed)', () => {
    expect(plain(parseSimpleToml(crlf(SAME[0])))).toEqual({ kb: { topic: { docs: { subjects: 'docs' } } } });
  });

  test('a multi-line string keeps its CRLF, as JP keeps it', async () => {
    expect(await parseToml('d = """\r\none\r\ntwo"""\r\n# c\r\n', 'c.toml')).toEqual({ data: { d: 'one\r\ntwo' } });
    expect(await parseToml("d = '''\r\none\r\ntwo''' # c\r\n", 'c.toml')).toEqual({ data: { d: 'one\r\ntwo' } });
  });

  test('an error in a CRLF file is at the line and column of the LF file', async () => {
    for (const bad of ['# c\n[a]\nb = = 1\n', '# c\na = 1\na = 2 # again\n', '# c\n\nx = "\u0001"\n']) {
      const lf = await parseToml(bad, 'c.toml');
      const cr = await parseToml(crlf(bad), 'c.toml');
      expect('diagnostic' in lf).toBe(true);
      expect(cr).toEqual(lf);
    }
  });
});

describe('a lone CR stays a control character', () => {
  const rows: [string, string][] = [
    ['a = "x"\r# c\n', 'c.toml:1:8'],
    ['a = "x"\n\r\nb = "y"\n\r', 'c.toml:4:1'],
    ['# c\r\n# d\re\n', 'c.toml:2:4'],
    ['a = "x"\r', 'c.toml:1:8'],
    ['[t]\r[u]\n', 'c.toml:1:4'],
    ["d = '''\r\none\rtwo'''\n", 'c.toml:2:4'],
    ['d = """\none\r"""\n', 'c.toml:2:4'],
  ];
  for (const [text, where] of rows) {
    test(JSON.stringify(text), async () => {
      const r = await parseToml(text, 'c.toml');
      expect(r).toMatchObject({ diagnostic: { code: 'toml-syntax', where } });
      expect('diagnostic' in r && r.diagnostic.message).toContain('carriage return (\\u000d)');
    });
  }

  test('a CR escaped in a string is a CR', async () => {
    expect(await parseToml('a = "x\\ry" # c\r\n', 'c.toml')).toEqual({ data: { a: 'x\ry' } });
  });
});
