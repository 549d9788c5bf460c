// fast-check generators shared by the property tests: names, subject paths,
// patterns (globs, exact slugs, hostile strings) and small file trees.
import fc from 'fast-check';

/** Path components: ordinary, hidden, glob-looking, spaced, Unicode. */
export const NAME = fc.constantFrom(
  'a', 'b', 'ab', 'B', 'a-b', 'a_b', 'a b', 'caf\u00e9', '\u{1F600}',
  '.a', '.b', '..a', 'x.y', '*', 'a*', '?', '[a]', '{a,b}', '!a', '(x)', '@(a|b)',
);

export const EXT = fc.constantFrom('.md', '.txt', '', '.toml', '.MD', '.rs', '.tar.gz');

/** A file path relative to a topic directory (`/`-separated). */
export const FILE_PATH = fc
  .tuple(fc.array(NAME, { maxLength: 3 }), NAME, EXT)
  .map(([dirs, name, ext]) => [...dirs, name + ext].join('/'));

/** One path segment of a glob. */
const GLOB_SEGMENT = fc.oneof(
  NAME,
  fc.constantFrom('*', '**', '?', '*a', 'a*', '*b*', '{a,b}', '{a,{b,ab}}', '[ab]', '[!a]', '[a-c]', '.*', '*.md', 'a?', '+(a)', '@(a|b)', '!(a)', '*(a|b)', '?(b)'),
);

export const GLOB = fc.array(GLOB_SEGMENT, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

/** Patterns that try to leave the topic or are otherwise malformed. */
export const HOSTILE = fc.constantFrom(
  '../secret', '../*', '../**', '**/../secret', '/etc/passwd', 'a/../../secret', '..', './..', '../other/*',
  './../secret', '..\\secret', 'C:/x', '\\\\srv\\share', 'a\u0000b', '', './', '.', '{..,a}/*', '*/../*', '%2e%2e/secret',
  '(a)\\1', '(?<=a)b', 'x'.repeat(1025),
);

export const PATTERN = fc.oneof({ weight: 3, arbitrary: GLOB }, { weight: 3, arbitrary: FILE_PATH.map((p) => p.replace(/\.[^./]*$/, '')) }, { weight: 1, arbitrary: HOSTILE });

export type Node = { kind: 'text'; content: string } | { kind: 'binary' } | { kind: 'empty' } | { kind: 'link'; to: string };

/** A small tree: file paths with contents, plus symlinks that stay inside
 *  the topic (to a file, to a directory, to an ancestor: a loop) or lead
 *  nowhere (dangling). Links out of the topic are the user's choice (NOTES
 *  1) and are not generated: the property is about patterns. */
export const TREE = fc.record({
  files: fc.array(fc.tuple(FILE_PATH, fc.constantFrom<Node['kind']>('text', 'text', 'text', 'binary', 'empty')), { maxLength: 14 }),
  links: fc.array(fc.tuple(fc.array(NAME, { minLength: 1, maxLength: 2 }), NAME, fc.constantFrom('.', '..', 'missing', '../a.md', '../a', '/nonexistent')), { maxLength: 3 }),
});
