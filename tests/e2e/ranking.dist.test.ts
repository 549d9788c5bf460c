// Search ranking on the binary (issue: one ranking across topics, tokens
// people type, a skill's bundled files): what a user sees from `kb search`.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BINARY, fixture, run } from './harness.ts';

const slugs = (out: string) => [...out.matchAll(/^\d+\. (\S+): (\S+) \(/gm)].map((m) => `${m[1]}:${m[2]}`);
const notes = (out: string) => out.split('\n').filter((l) => l.startsWith('['));

/** Three topics of very different sizes: PEP-like documents, many skills
 *  (which never say "hints" but say "hit" and "hunt"), one tiny note. */
function threeFolders(): Record<string, string> {
  const files: Record<string, string> = {
    'peps/pep-0484.txt': 'PEP 484 Type Hints\n\nA standard syntax for type annotations of function arguments and return values.\n',
    'peps/pep-0008.txt': 'PEP 8 Style Guide for Python Code\n\nIndentation, line length, naming of functions and arguments.\n',
    'peps/pep-0257.txt': 'PEP 257 Docstring Conventions\n\nWhat a docstring says about a function, its arguments and its return value.\n',
    'peps/pep-3102.txt': 'PEP 3102 Keyword-Only Arguments\n\nArguments that can only be given by keyword, after a bare star.\n',
    'tiny/keywords.md': '# Keywords\n\nKeyword arguments in our style guide: always name them.\n',
  };
  const topics = ['debugging', 'testing', 'review', 'release', 'deploy', 'logging', 'profiling', 'refactor', 'docs', 'security', 'cli', 'api'];
  topics.forEach((t, i) => {
    files[`skills/${t}.md`] =
      `---\ndescription: How to ${t} code. Use when asked to ${t}.\n---\n# ${t}\n\n` +
      `Pass the type of check and its arguments to the ${t} script. ` +
      `${i % 2 === 0 ? 'A cache hit is reported.' : 'Hunt for the slow path first.'} ` +
      `Arguments are given on the command line; each type has its own arguments.\n`;
  });
  return files;
}

describe('one ranking across topics (dist/kb)', () => {
  const queries = ['type hints for keyword arguments', 'how do I debug a failing test', 'arguments', 'style guide naming', 'docstring return value', 'hunt hints'];

  test('three topics rank exactly as one topic holding the same three folders', () => {
    const files = threeFolders();
    const three = fixture(files, '[kb.topic.peps]\nsubjects = "peps"\n\n[kb.topic.skills]\nsubjects = "skills"\n\n[kb.topic.tiny]\nsubjects = "tiny"\n');
    const one = fixture(files, '[kb.topic.all]\nsubjects = "all"\n');
    mkdirSync(join(one, 'all'));
    for (const d of ['peps', 'skills', 'tiny']) symlinkSync(join(one, d), join(one, 'all', d));
    for (const q of queries) {
      const a = run(BINARY, three, ['search', '-n', '20', q]);
      const b = run(BINARY, one, ['search', '-n', '20', q]);
      expect(a.code).toBe(b.code);
      const asOne = slugs(a.out).map((s) => `all:${s.replace(':', '/')}`);
      expect({ q, order: asOne }).toEqual({ q, order: slugs(b.out) });
      expect({ q, notes: notes(a.out) }).toEqual({ q, notes: notes(b.out) });
    }
  });

  test('a word one topic has is neither unknown nor looked up with typos because another lacks it', () => {
    const files = threeFolders();
    const root = fixture(files, '[kb.topic.peps]\nsubjects = "peps"\n\n[kb.topic.skills]\nsubjects = "skills"\n\n[kb.topic.tiny]\nsubjects = "tiny"\n');
    const r = run(BINARY, root, ['search', 'type hints for keyword arguments']);
    expect(r.code).toBe(0);
    expect(slugs(r.out).slice(0, 3)).toContain('peps:pep-0484');
    expect(slugs(r.out).indexOf('peps:pep-0484')).toBeLessThan(slugs(r.out).findIndex((s) => s.startsWith('skills:')));
    expect(r.out).not.toContain('No subject has');
    const none = run(BINARY, root, ['search', 'xylophone arguments']);
    expect(notes(none.out)).toContain('[No subject has the word "xylophone".]');
  });
});

/** PEP-shaped files: a header field title, an underlined title, a body. */
const pep = (n: string, title: string, body: string) => `PEP: ${Number(n)}\nTitle: ${title}\nStatus: Final\n\n${title}\n${'='.repeat(title.length)}\n\n${body}\n`;
const PEPS: Record<string, string> = {
  'peps/pep-0008.rst': pep('0008', 'Style Guide for Python Code', 'Use 4 spaces per indentation level. Limit all lines to 79 characters. See PEP 257 for docstrings.'),
  'peps/pep-0257.rst': pep('0257', 'Docstring Conventions', 'A docstring is a string literal. Follow PEP 8 for the code around it.'),
  'peps/pep-0498.rst': pep('0498', 'Literal String Interpolation', 'This PEP proposes f-strings: string literals prefixed with f, like f"{name}". An f-string is evaluated at run time.'),
  'peps/pep-0701.rst': pep('0701', 'Syntactic formalization of f-strings', 'Lift restrictions on f-strings: quotes and backslashes inside the braces of an f-string. New in Python 3.12.'),
  'peps/pep-0572.rst': pep('0572', 'Assignment Expressions', 'The walrus operator := assigns inside an expression. See also PEP 8 on style.'),
  'peps/pep-0589.rst': pep('0589', 'TypedDict: Type Hints for Dictionaries with a Fixed Set of Keys', 'A TypedDict type declares the keys of a dictionary and the type of each value.'),
  'peps/pep-0604.rst': pep('0604', 'Allow writing union types as X | Y', 'Python 3.10 accepts the | operator between types. Python 3.1 did not.'),
  'peps/pep-3101.rst': pep('3101', 'Advanced String Formatting', 'The format method formats a string. A format string holds replacement fields; each field of the string is replaced. The spec f formats a fixed point number, as in {:f}; f and F differ in case.'),
  'peps/pep-0484.rst': pep('0484', 'Type Hints', 'A type checker reads type hints. Dict[str, int] is a generic dict type; a dict of a type to a type.'),
  'peps/pep-0012.rst': pep('0012', 'Sample reStructuredText PEP Template', 'How to write a PEP in reStructuredText; dictionaries and strings in examples.'),
};

describe('tokens people type (dist/kb)', () => {
  const root = () => fixture(PEPS, '[kb.topic.peps]\nsubjects = "peps"\n');
  const top = (r: string, q: string, n = 3) => slugs(run(BINARY, r, ['search', '-n', String(n), q]).out);

  test('hyphenated and joined compounds meet: f-strings, f-string, fstring', () => {
    const r = root();
    for (const q of ['f-strings', 'f-string', 'fstring', 'fstrings', 'how do f-strings work']) {
      expect({ q, top: top(r, q, 2).sort() }).toEqual({ q, top: ['peps:pep-0498', 'peps:pep-0701'] });
    }
  });

  test('camelCase and PascalCase split as well as kept whole: TypedDict, typed dict, typeddict', () => {
    const r = root();
    for (const q of ['TypedDict', 'typed dict', 'typeddict']) expect({ q, first: top(r, q, 1) }).toEqual({ q, first: ['peps:pep-0589'] });
  });

  test('numbers ignore leading zeros, and naming a slug ranks it first: PEP 8, pep 572, 572, pep8', () => {
    const r = root();
    for (const [q, slug] of [
      ['PEP 8', 'peps:pep-0008'],
      ['pep 572', 'peps:pep-0572'],
      ['572', 'peps:pep-0572'],
      ['pep8', 'peps:pep-0008'],
      ['pep-0008', 'peps:pep-0008'],
      ['PEP 12', 'peps:pep-0012'],
    ]) {
      expect({ q, first: top(r, q, 1) }).toEqual({ q, first: [slug] });
    }
  });

  test('dotted versions stay one token: 3.12 is not 3.10 or 3.1', () => {
    const r = root();
    expect(top(r, '3.12', 5)).toEqual(['peps:pep-0701']);
    expect(top(r, 'python 3.10', 1)).toEqual(['peps:pep-0604']);
    const out = run(BINARY, r, ['search', '3.12']).out;
    expect(out).toContain('New in Python 3.12.');
  });
});

describe("a skill's bundled files (dist/kb)", () => {
  const FILES = {
    'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: Work with PDF files. Use when asked to read or write a PDF.\n---\n# PDF\n\nFor forms, see references/forms.md.\n',
    'skills/pdf/references/forms.md': '# Filling forms\n\nTo fill an interactive form field, read the AcroForm dictionary and set each field value.\n',
    'skills/pdf/.notes/private.md': 'Interactive form field notes nobody should see.\n',
    'skills/review/SKILL.md': '---\nname: review\ndescription: Review a pull request.\n---\nRead the diff first.\n',
  };

  test('are searchable under their own slug, loadable as it, ranked with their skill; hidden ones stay out', () => {
    const root = fixture(FILES, '[kb.topic.skills]\nsubjects = "skills"\n');
    const r = run(BINARY, root, ['search', 'fill an interactive form field']);
    expect(r.code).toBe(0);
    expect(slugs(r.out)).toEqual(['skills:pdf/references/forms', 'skills:pdf']);
    expect(r.out).not.toContain('private');
    const learn = run(BINARY, root, ['learn', 'skills', 'pdf/references/forms']);
    expect(learn.code).toBe(0);
    expect(learn.out).toContain('read the AcroForm dictionary');
    // Not listed: still the skill alone.
    expect(run(BINARY, root, ['learn', 'skills']).out).not.toContain('references');
  });

  test("a disabled skill's bundled files are not results either", () => {
    const root = fixture(FILES, '[kb.topic.skills]\nsubjects = "skills"\ndisabled = ["pdf"]\n');
    const r = run(BINARY, root, ['search', 'fill an interactive form field']);
    expect(slugs(r.out).filter((s) => s.includes('pdf'))).toEqual([]);
  });
});
