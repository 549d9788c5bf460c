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
