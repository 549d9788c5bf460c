// Near misses through the application layer (app/learn.ts), which `kb
// learn`, `kb learn --args` and `kb mcp` all call: the model's text, the
// verdict (isError / exit code) and the user's warnings, on a workspace
// shaped like real documentation folders.
import { describe, expect, test } from 'bun:test';
import { KnowledgeBase } from '../../../src/app/knowledge-base.ts';
import { learn } from '../../../src/app/learn.ts';
import { learnText } from '../../../src/render/learn.ts';
import { call } from '../../support/tool-call.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';
import { RFD_CONFIG, RFD_FILES } from '../../support/rfd.ts';
import { COSTS } from '../../../src/render/costs.ts';

const HOME = makeTempDir('kb-near-home-');

const CONFIG = `${RFD_CONFIG}
[kb.topic.docs]
title = "Docs"
subjects = "docs"
disabled = ["internal"]

[kb.topic.book]
subjects = "book"
`;

const FILES: Record<string, string | Uint8Array> = {
  ...RFD_FILES,
  'docs/architecture/knowledge-base.md': '# Knowledge base\n\nTopics are folders.\n',
  'docs/architecture/overview.md': '# Overview\n',
  'docs/guide/install.md': '# Install\n',
  'docs/internal.md': 'disabled\n',
  'docs/internals.md': '# Internals\n',
  'docs/.drafts/plan.md': 'hidden plan\n',
  'book/src/SUMMARY.md': '- [What is ownership?](ch04-01-what-is-ownership.md)\n',
  'book/src/ch04-01-what-is-ownership.md': '# What Is Ownership?\n',
  'book/src/ch04-02-references-and-borrowing.md': '# References and Borrowing\n',
};

const root = tempWorkspace('kb-near-', FILES, CONFIG);
const open = () => KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: {}, home: HOME }, { costs: COSTS });

async function learnCall(topic: string, subjects: string | string[]) {
  const r = await call(await open(), { topic, subjects });
  return { text: r.text, isError: r.isError, warnings: r.problems.map((p) => `${p.code}: ${p.message}`) };
}

const LIST_HINT = 'Call `learn` with only the topic to list its subjects.';

describe('learn: near misses', () => {
  test('an extension: the subject in a block (never raw), a note naming the real slug, a warning', async () => {
    expect(await learnCall('docs', 'architecture/knowledge-base.md')).toEqual({
      text:
        '<subject "architecture/knowledge-base">\n# Knowledge base\n\nTopics are folders.\n</subject>\n\n' +
        'Note: "architecture/knowledge-base.md" matched no subject; used "architecture/knowledge-base" instead (slugs have no file extension).\n',
      isError: false,
      warnings: ['near-miss: topic "docs": "architecture/knowledge-base.md" matched no subject; used "architecture/knowledge-base" instead'],
    });
  });

  test('the topic directory repeated, and the case', async () => {
    expect((await learnCall('docs', 'docs/architecture/knowledge-base')).text).toEndWith(
      'Note: "docs/architecture/knowledge-base" matched no subject; used "architecture/knowledge-base" instead (slugs are relative to the topic\'s directory: no leading "docs/").\n',
    );
    expect((await learnCall('docs', 'Architecture/Knowledge-Base')).text).toEndWith(
      'Note: "Architecture/Knowledge-Base" matched no subject; used "architecture/knowledge-base" instead (slugs are case-sensitive).\n',
    );
  });

  test('a folder: its listing, not an error', async () => {
    expect(await learnCall('docs', 'architecture')).toEqual({
      text:
        'No subject is named "architecture"; it is a folder. Its subjects:\n' +
        '- architecture/knowledge-base\n- architecture/overview\n' +
        'Load one by its slug, or all of them with "architecture/*".\n',
      isError: false,
      warnings: ['near-miss: topic "docs": "architecture" matched no subject; it is a folder, listed instead'],
    });
  });

  test('a list in one string', async () => {
    const r = await learnCall('docs', 'guide/install, architecture/overview');
    expect(r.text).toBe(
      '<subject "guide/install">\n# Install\n</subject>\n\n<subject "architecture/overview">\n# Overview\n</subject>\n\n' +
        'Note: "guide/install, architecture/overview" matched no subject; read it as 2 patterns: "guide/install", "architecture/overview" (give several subjects as an array of strings).\n',
    );
    expect(r.isError).toBe(false);
  });

  test('a file name as a summary links it', async () => {
    expect((await learnCall('book', 'ch04-01-what-is-ownership.md')).text).toBe(
      '<subject "src/ch04-01-what-is-ownership">\n# What Is Ownership?\n</subject>\n\n' +
        'Note: "ch04-01-what-is-ownership.md" matched no subject; used "src/ch04-01-what-is-ownership" instead (slugs have no file extension; it is the only subject with that file name; slugs include their folders).\n',
    );
  });

  test('otherwise: suggestions, still an error, no warning', async () => {
    expect(await learnCall('book', 'ownership')).toEqual({
      text: `No subjects match "ownership" in topic "book". Closest subjects: "src/ch04-01-what-is-ownership". ${LIST_HINT}\n`,
      isError: true,
      warnings: [],
    });
  });

  test('hidden subjects: never suggested nor reached by case or folder; a glob says it skipped them', async () => {
    expect((await learnCall('docs', 'Drafts/Plan')).text).toBe(`No subjects match "Drafts/Plan" in topic "docs". ${LIST_HINT}\n`);
    expect((await learnCall('docs', 'drafts')).text).toBe(`No subjects match "drafts" in topic "docs". ${LIST_HINT}\n`);
    expect((await learnCall('docs', 'drafts/*')).text).toBe(
      `No subjects match "drafts/*" in topic "docs". The glob skipped 1 hidden subject: hidden subjects load only by their exact slug. ${LIST_HINT}\n`,
    );
  });

  test('disabled subjects never appear: neither read as, nor suggested', async () => {
    // `internal` is disabled; `internals` is one edit further.
    for (const p of ['internal', 'internal.md', 'Internal', 'internl']) {
      expect(await learnCall('docs', p)).toEqual({
        text: `No subjects match "${p}" in topic "docs". Closest subjects: "internals". ${LIST_HINT}\n`,
        isError: true,
        warnings: [],
      });
    }
  });

  test('exact hits keep the RFD\'s results (raw content, no note) beside a rescued pattern', async () => {
    expect((await learnCall('skills', 'ast-grep')).text).toBe(FILES['.jp/kb/skills/ast-grep.md'] as string);
    expect((await learnCall('docs', 'architecture/overview')).text).toBe('# Overview\n');
    expect((await learnCall('docs', ['architecture/overview', 'guide/install.md'])).text).toBe(
      '<subject "architecture/overview">\n# Overview\n</subject>\n\n<subject "guide/install">\n# Install\n</subject>\n\n' +
        'Note: "guide/install.md" matched no subject; used "guide/install" instead (slugs have no file extension).\n',
    );
  });

  test('the streaming sink (`kb learn`) writes what `call` (MCP, --args) returns', async () => {
    const kb = await open();
    const parts: string[] = [];
    const decoder = new TextDecoder();
    const text = learnText((c) => parts.push(typeof c === 'string' ? c : decoder.decode(c)));
    const isError = await learn(kb, { topic: 'docs', subjects: ['docs/architecture/knowledge-base.md', 'nope'] }, {
      as: 'bytes',
      event: (e) => (e.kind === 'problem' ? undefined : text(e)),
    });
    const r = await call(await open(), { topic: 'docs', subjects: ['docs/architecture/knowledge-base.md', 'nope'] });
    expect(parts.join('')).toBe(r.text);
    expect(isError).toBe(r.isError);
    expect(r.isError).toBe(false);
  });
});
