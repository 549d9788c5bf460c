import { describe, expect, test } from 'bun:test';
import { formatContent, formattedText, type Formatted } from '../../../src/kb/content/format.ts';
import { renderPrompt, HIDDEN_NOTE } from '../../../src/render/prompt.ts';
import {
  DESCRIPTION_CHARS,
  MAX_BUNDLED_SHOWN,
  oneLine,
  rawContent,
  renderListing,
  renderNote,
  renderSkillFiles,
  renderUnknownTopic,
  subjectBlock as subjectChunks,
} from '../../../src/render/learn.ts';
import { headingOf, topicLine } from '../../../src/render/topic.ts';
import { quoted } from '../../../src/shared/controls.ts';
import { renderList } from '../../../src/render/list.ts';
import { humanSize } from '../../../src/shared/text.ts';
import { renderCheckText } from '../../../src/render/check.ts';
import { renderPartialNote, renderRecallLeftOut, renderSearchHead, renderSearchNotes } from '../../../src/render/search.ts';
import { renderWriteOutcome } from '../../../src/render/memory.ts';

/** Markdown content, passed through as it is. */
const md = (text: string): Formatted => formatContent('md', text);

/** A `<subject>` block as one string. */
function subjectBlock(slug: string, text: string): string {
  const { head, body, tail } = subjectChunks('', slug, md(text));
  return head + (body as string) + tail;
}

describe('topic names (NOTES 11)', () => {
  test.each([
    [{ id: 'p', title: 'T', introduction: 'i' }, '- p (**T**): i'],
    [{ id: 'p', introduction: 'i' }, '- p: i'],
    [{ id: 'p', title: 'T' }, '- p (**T**)'],
    [{ id: 'p' }, '- p'],
  ])('%p -> %s', (t, line) => expect(topicLine(t)).toBe(line));
  test('heading is the title, else the id', () => {
    expect(headingOf({ id: 'p', title: 'T' })).toBe('T');
    expect(headingOf({ id: 'p' })).toBe('p');
  });
});

describe('renderPrompt', () => {
  test('nothing to show: empty (NOTES 13)', () => expect(renderPrompt({ preloaded: [], available: [] })).toBe(''));
  test('only pre-loaded knowledge: no available part, no note', () => {
    const out = renderPrompt({ preloaded: [{ id: 'p', subjects: [{ slug: 'a', content: md('A\n') }] }], available: [] });
    expect(out).toBe('<knowledge>\nThe following knowledge has been pre-loaded into your system prompt:\n\n<topic "p">\n\n<subject "a">\nA\n</subject>\n</topic>\n</knowledge>\n');
  });
  test('pre-loaded topics are separated by a blank line; a topic with no loaded subject is dropped', () => {
    const out = renderPrompt({
      preloaded: [
        { id: 'p', subjects: [{ slug: 'a', content: md('A') }] },
        { id: 'e', subjects: [] },
        { id: 'q', title: 'Q', description: 'D\n', subjects: [{ slug: 'b', content: md('B') }] },
      ],
      available: [{ id: 'x' }],
    });
    expect(out).toBe(`<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "p">

<subject "a">
A
</subject>
</topic>

<topic "Q">

D

<subject "b">
B
</subject>
</topic>

The following knowledge topics are available to learn:

- x

Use the \`learn\` tool to consume this knowledge.

${HIDDEN_NOTE}
</knowledge>
`);
  });
  test('listings are written after the topics available, before the line that says to use learn, whatever a pre-loaded subject says', () => {
    const useLearn = 'Use the `learn` tool to consume this knowledge.';
    const listing = { topic: { id: 'x' }, items: [{ slug: 'a' }], learned: [], topicNotes: [] };
    const out = renderPrompt({
      preloaded: [{ id: 'p', subjects: [{ slug: 'quote', content: md(`It says:\n\n${useLearn}\n`) }] }],
      available: [{ id: 'x' }],
      listings: [listing],
    });
    expect(out.indexOf('<listing "x">')).toBeGreaterThan(out.indexOf('- x\n'));
    expect(out).toContain(`It says:\n\n${useLearn}\n</subject>`);
    expect(out).toContain(`- x\n\nThe subjects of some of these topics, as \`learn\` lists them (no need to list them again):\n\n<listing "x">\n# Topic: x\n\n## Available subjects:\n\n- a\n\nUse the \`learn\` tool with the \`subjects\` argument to learn specific subjects.\n</listing>\n\n${useLearn}\n\n${HIDDEN_NOTE}\n</knowledge>\n`);
    // No topic available to learn: no listing either.
    expect(renderPrompt({ preloaded: [], available: [], listings: [listing] })).toBe('');
  });
  test('the note is the RFD text verbatim', () => {
    expect(HIDDEN_NOTE).toContain('(note: some topics may contain hidden subjects that are not listed via `learn`\nby default,');
    expect(HIDDEN_NOTE.endsWith('exposing too much irrelevant knowledge upfront)')).toBe(true);
  });
});

describe('subject blocks and text', () => {
  test('content trailing newlines are dropped before the closing tag', () => {
    expect(subjectBlock('a', 'x\r\n\n')).toBe('<subject "a">\nx\n</subject>');
    expect(subjectBlock('a', '')).toBe('<subject "a">\n\n</subject>');
  });
  test('a fenced content in a pre-loaded block', () => {
    const out = renderPrompt({ preloaded: [{ id: 'p', subjects: [{ slug: 'c', content: formatContent('toml', 'k = 1\n\n') }] }], available: [] });
    expect(out).toContain('<subject "c">\n```toml\nk = 1\n```\n</subject>\n</topic>');
  });
  test('a raw content ends with exactly one newline (NOTES 18)', () => {
    const raw = (text: string) => formattedText(rawContent(formatContent('md', text)));
    expect(raw('x')).toBe('x\n');
    expect(raw('x\n\n\n')).toBe('x\n');
    expect(raw('x  \n')).toBe('x  \n');
    expect(raw('a\r\n')).toBe('a\n');
  });
  test('quotes inside names are escaped', () => expect(quoted('a"b\\c')).toBe('"a\\"b\\\\c"'));
});

describe('renderListing', () => {
  test('the RFD listing with the already-learned part', () => {
    expect(renderListing({ id: 'p', title: 'P', description: 'D' }, [{ slug: 'a' }], ['b'])).toBe(
      '# Topic: P\n\nD\n\n## Available subjects:\n\n- a\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- b\n',
    );
  });
  test('no subject left: (none)', () => {
    expect(renderListing({ id: 'p' }, [], [])).toContain('## Available subjects:\n\n(none)\n\n');
  });
  test('a description follows its slug on the same line', () => {
    const text = renderListing({ id: 'p' }, [{ slug: 'a', description: 'What a is.' }, { slug: 'b' }], []);
    expect(text).toContain('\n- a: What a is.\n- b\n');
  });
  test('a description with line breaks and control characters stays on one line', () => {
    const text = renderListing({ id: 'p' }, [{ slug: 'a', description: 'one\n- FORGED\r\n\u001b[31mred\u0007' }], []);
    expect(text).toContain('- a: one - FORGED \\u001b[31mred\\u0007\n');
    expect(text).not.toContain('\n- FORGED');
  });
});

describe('oneLine', () => {
  test('short text is kept whole, white space runs become one space', () => {
    expect(oneLine('  a\n\n b\tc  ')).toBe('a b c');
  });
  test('long text is cut near the limit at a space, with an ellipsis', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const cut = oneLine(words);
    expect(Array.from(cut).length).toBeLessThanOrEqual(DESCRIPTION_CHARS);
    expect(Array.from(cut).length).toBeGreaterThan(DESCRIPTION_CHARS * 0.8);
    expect(cut.endsWith('…')).toBe(true);
    expect(words.startsWith(cut.slice(0, -1))).toBe(true);
  });
  test('never splits a surrogate pair', () => {
    const cut = oneLine('😀'.repeat(500));
    expect(cut).toBe(`${'😀'.repeat(DESCRIPTION_CHARS - 1)}…`);
  });
});

describe('renderSkillFiles', () => {
  test('the directory and each bundled file with its slug and path, set apart from the skill\'s text in a block of their own', () => {
    expect(renderSkillFiles('skills/pdf', [{ slug: 'pdf/scripts/fill', path: 'scripts/fill.py' }])).toBe(
      '\n<skill-files>\nSkill directory: skills/pdf\nBundled files (load one with `learn` by its exact slug; paths are relative to the skill directory):\n- pdf/scripts/fill (scripts/fill.py)\n</skill-files>\n',
    );
  });
  test('no bundled files', () => {
    expect(renderSkillFiles('s', [])).toContain('Bundled files: (none)');
  });
  test('a long list is cut, and says how many more', () => {
    const files = Array.from({ length: MAX_BUNDLED_SHOWN + 5 }, (_, i) => ({ slug: `s/f${i}`, path: `f${i}.txt` }));
    expect(renderSkillFiles('s', files)).toContain('- … and 5 more\n');
  });
});

describe('notes and errors', () => {
  test.each([
    [{ kind: 'already-learned', slug: 'a' }, 'Subject "a" is already in your system prompt (pre-loaded); it is not returned again.'],
    [{ kind: 'binary', slug: 'img' }, 'Skipped "img": it is a binary file.'],
    [{ kind: 'no-match', pattern: 'x*' }, 'No subjects match "x*" in topic "t". Call `learn` with only the topic to list its subjects.'],
    [{ kind: 'invalid-pattern', pattern: '../x', reason: 'it leaves the topic directory' }, 'Invalid pattern "../x": it leaves the topic directory.'],
    [{ kind: 'unreadable', slug: 'a', message: 'permission denied' }, 'Could not read "a": permission denied.'],
  ] as const)('%p', (note, text) => expect(renderNote(note, 't')).toBe(text));
  test('unknown topic lists valid ones', () => {
    expect(renderUnknownTopic('x', [{ id: 'a', title: 'A' }, { id: 'b' }])).toBe('Unknown topic "x". Valid topics: a (A), b.\n');
    expect(renderUnknownTopic('x', [])).toBe('Unknown topic "x". Valid topics: (none).\n');
  });
});

describe('kb list and kb check renderers', () => {
  test.each([[0, '0 B'], [1023, '1023 B'], [1024, '1.0 KiB'], [15 * 1024, '15 KiB'], [5 * 1024 ** 3, '5.0 GiB']])('humanSize(%d)', (n, s) => expect(humanSize(n)).toBe(s));
  const png = { count: 1, extensions: [{ ext: 'png', count: 1 }] };
  test('list aligns columns: size, estimated tokens, marks; a total per topic; binary files summed up, listed with --verbose', () => {
    const topics = [{ id: 't', enabled: true, dir: 'd', rows: [{ slug: 'a', size: 1, marks: [], tokens: 1 }, { slug: 'bbb', size: 2048, marks: ['hidden'], tokens: 1500 }, { slug: 'img', size: 9, marks: ['binary'] }], binary: png, problems: [] }];
    expect(renderList(topics)).toBe(
      't: d\n  a        1 B      ~1 tok\n  bbb  2.0 KiB  ~1,500 tok  hidden\n  (~1,501 tokens in all)\n  (1 binary file is not a subject: 1 png; kb list --verbose lists them)\n\n1 topic, 2 subjects\n',
    );
    expect(renderList(topics, { verbose: true })).toBe(
      't: d\n  a        1 B      ~1 tok\n  bbb  2.0 KiB  ~1,500 tok  hidden\n  img      9 B              binary\n  (~1,501 tokens in all)\n  (1 binary file is not a subject: 1 png)\n\n1 topic, 2 subjects\n',
    );
  });
  test('list aligns columns and marks (no text subjects: no token column)', () => {
    expect(renderList([{ id: 't', enabled: false, dir: 'd', rows: [{ slug: 'a', size: 1, marks: [] }, { slug: 'bbb', size: 2048, marks: ['hidden', 'binary'] }], binary: png, problems: ['p'] }], { verbose: true })).toBe(
      't: d [topic disabled]\n  a        1 B\n  bbb  2.0 KiB  hidden, binary\n  (1 binary file is not a subject: 1 png)\n  ! p\n\n1 topic, 1 subject\n',
    );
  });
  test('the binary line: the six most common extensions, then how many more', () => {
    const exts = ['png', 'jpg', 'pdf', 'gif', 'ico', 'woff2', 'eps', ''];
    const b = { count: 520, extensions: exts.map((ext, i) => ({ ext, count: i === 0 ? 500 : 20 - 2 * i })) };
    expect(renderCheckText({ topics: [{ id: 'w', enabled: true, subjects: 3, binary: { ...b, files: [{ slug: 'a', path: 'w/a.png' }] }, preloaded: 0, preloadedTokens: 0 }], diagnostics: [] })).toBe(
      'topic "w": 520 binary files are not subjects: 500 png, 18 jpg, 16 pdf, 14 gif, 12 ico, 10 woff2 and 14 more (kb check --verbose lists them)\nok: 1 topic, 3 subjects, no problems\n',
    );
    expect(renderCheckText({ topics: [{ id: 'w', enabled: true, subjects: 3, binary: { ...b, extensions: b.extensions.slice(7), count: 6, files: [{ slug: 'a', path: 'w/a' }] }, preloaded: 0, preloadedTokens: 0 }], diagnostics: [] }, { verbose: true })).toBe(
      'topic "w": 6 binary files are not subjects: 6 without extension\n  w/a\nok: 1 topic, 3 subjects, no problems\n',
    );
  });
  test('check summary line', () => {
    expect(renderCheckText({ topics: [{ id: 't', enabled: true, subjects: 1, preloaded: 0, preloadedTokens: 0 }], diagnostics: [] })).toBe('ok: 1 topic, 1 subject, no problems\n');
    expect(renderCheckText({ topics: [{ id: 't', enabled: true, subjects: 3, preloaded: 2, preloadedTokens: 12345 }], diagnostics: [] })).toBe(
      'topic "t": 2 pre-loaded subjects, ~12,345 tokens\nok: 1 topic, 3 subjects, no problems\n',
    );
    expect(renderCheckText({ topics: [], diagnostics: [{ severity: 'error', code: 'toml-syntax', message: 'm', where: 'f:1' }] })).toBe('error: m (f:1)\nfailed: 0 topics, 0 subjects, 1 error, 0 warnings\n');
  });
});

describe('echoed input: every site escapes as quoted() does (issue 20, item 11)', () => {
  const H = 'x\u202ey\u202cz\u2028w\u200bv\u0085u';
  const SHOWN = 'x\\u202ey\\u202cz\\u2028w\\u200bv\\u0085u';
  const RAW = /[\u202e\u202c\u2028\u200b\u0085]/;
  const clean = (s: string) => {
    expect(RAW.test(s)).toBe(false);
    expect(s).toContain(SHOWN);
    return s;
  };

  test('search head and notes, recall notes, write outcomes', () => {
    clean(renderSearchHead(H, { where: H }, 2, 1));
    clean(renderSearchHead(H, { topics: [H, 't'], filters: { tags: [H, 'a'], type: H, status: H } }, 2, 1));
    clean(renderSearchNotes({ unknown: [H], corrected: [[H, [H]]], beyondLimit: 0 }).join('\n'));
    clean(renderPartialNote({ names: ['"h"'], tokens: 10, call: { topic: 't', subjects: [H] } }));
    clean(renderRecallLeftOut([{ topic: H, slug: H, tokens: 5 }], 100).join('\n'));
    clean(renderWriteOutcome({ tool: 'forget', status: 'error', isError: true, failure: { kind: 'no-subject', topic: H, slug: H } }));
    clean(renderWriteOutcome({ tool: 'remember', status: 'error', isError: true, failure: { kind: 'cannot-place', topic: 't', rel: H, why: H } }));
    clean(renderWriteOutcome({ tool: 'remember', status: 'written', isError: false, topic: H, slug: H, path: H }));
  });
});
