// End-to-end: near misses on dist/kb, as a model's calls reach it through
// `kb learn PATTERN...`, `kb learn --args` and `kb mcp`, on a workspace
// shaped like real folders: a docs tree (`docs/architecture/...`) and a
// book whose chapters sit under `src/` and whose summary links them by file
// name.
import { describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { checkReplies } from './mcp-client.ts';
import { BIN, BINARY, fixture, isolatedEnv, run } from './harness.ts';

const CONFIG = `[kb.topic.docs]
title = "Project docs"
subjects = "docs"

[kb.topic.book]
title = "The Book"
subjects = "book"
`;

const root = fixture(
  {
    'docs/architecture/knowledge-base.md': '# Knowledge base\n\nEach topic is a folder of subjects.\n',
    'docs/architecture/mcp.md': '# MCP\n',
    'docs/guide/install.md': '# Install\n',
    'docs/guide/.notes.md': 'hidden notes\n',
    'book/src/SUMMARY.md': '# Summary\n\n- [What is Ownership?](ch04-01-what-is-ownership.md)\n',
    'book/src/ch04-00-understanding-ownership.md': '# Understanding Ownership\n',
    'book/src/ch04-01-what-is-ownership.md': '# What Is Ownership?\n\nEach value has an owner.\n',
    'book/src/ch04-02-references-and-borrowing.md': '# References and Borrowing\n',
  },
  CONFIG,
);

const kb = (...args: string[]) => run(BINARY, root, args);
const LIST_HINT = 'Call `learn` with only the topic to list its subjects.';
const KB_BLOCK = '<subject "architecture/knowledge-base">\n# Knowledge base\n\nEach topic is a folder of subjects.\n</subject>\n\n';

describe('kb learn: near misses (dist/kb)', () => {
  test('a path with its extension: loaded in a block, the real slug noted on stdout, a warning on stderr', () => {
    expect(kb('learn', 'docs', 'architecture/knowledge-base.md')).toEqual({
      out: `${KB_BLOCK}Note: "architecture/knowledge-base.md" matched no subject; used "architecture/knowledge-base" instead (slugs have no file extension).\n`,
      err: 'warning: topic "docs": "architecture/knowledge-base.md" matched no subject; used "architecture/knowledge-base" instead\n',
      code: 0,
    });
  });

  test('a glob with the files\' extension: read without it, the note says so', () => {
    const r = kb('learn', 'docs', 'architecture/*.md');
    expect(r.code).toBe(0);
    expect(r.out).toStartWith('<subject "architecture/knowledge-base">');
    expect(r.out).toContain('<subject "architecture/mcp">');
    expect(r.out).toEndWith('Note: "architecture/*.md" matched no subject; used "architecture/*" instead (slugs have no file extension).\n');
    expect(kb('learn', 'docs', 'architecture/*.rst').code).toBe(1);
  });

  test('the path from the workspace root', () => {
    const r = kb('learn', 'docs', 'docs/architecture/knowledge-base.md');
    expect(r.out).toBe(
      `${KB_BLOCK}Note: "docs/architecture/knowledge-base.md" matched no subject; used "architecture/knowledge-base" instead (slugs are relative to the topic's directory: no leading "docs/"; slugs have no file extension).\n`,
    );
    expect(r.code).toBe(0);
  });

  test('another case', () => {
    expect(kb('learn', 'docs', 'Architecture/Knowledge-Base').out).toBe(
      `${KB_BLOCK}Note: "Architecture/Knowledge-Base" matched no subject; used "architecture/knowledge-base" instead (slugs are case-sensitive).\n`,
    );
  });

  test('a folder: its listing, exit 0', () => {
    expect(kb('learn', 'docs', 'architecture')).toEqual({
      out: 'No subject is named "architecture"; it is a folder. Its subjects:\n- architecture/knowledge-base\n- architecture/mcp\nLoad one by its slug, or all of them with "architecture/*".\n',
      err: 'warning: topic "docs": "architecture" matched no subject; it is a folder, listed instead\n',
      code: 0,
    });
  });

  test('a list in one string, through --args', () => {
    const r = kb('learn', '--args', JSON.stringify({ topic: 'docs', subjects: 'guide/install, architecture/mcp' }));
    expect(r.out).toBe(
      '<subject "guide/install">\n# Install\n</subject>\n\n<subject "architecture/mcp">\n# MCP\n</subject>\n\n' +
        'Note: "guide/install, architecture/mcp" matched no subject; read it as 2 patterns: "guide/install", "architecture/mcp" (give several subjects as an array of strings).\n',
    );
    expect(r.code).toBe(0);
  });

  test('a file name as the summary links it', () => {
    expect(kb('learn', 'book', 'ch04-01-what-is-ownership.md').out).toBe(
      '<subject "src/ch04-01-what-is-ownership">\n# What Is Ownership?\n\nEach value has an owner.\n</subject>\n\n' +
        'Note: "ch04-01-what-is-ownership.md" matched no subject; used "src/ch04-01-what-is-ownership" instead (slugs have no file extension; it is the only subject with that file name; slugs include their folders).\n',
    );
  });

  test('no rule fits: up to five closest slugs, exit 1, nothing on stderr', () => {
    expect(kb('learn', 'book', 'ch04')).toEqual({
      out: `No subjects match "ch04" in topic "book". Closest subjects: "src/ch04-00-understanding-ownership", "src/ch04-01-what-is-ownership", "src/ch04-02-references-and-borrowing". ${LIST_HINT}\n`,
      err: '',
      code: 1,
    });
    expect(kb('learn', 'docs', 'architecture/knowlege-base').out).toBe(
      `No subjects match "architecture/knowlege-base" in topic "docs". Closest subjects: "architecture/knowledge-base". ${LIST_HINT}\n`,
    );
  });

  test('hidden subjects: a glob says it skipped them, a suggestion never names them', () => {
    expect(kb('learn', 'docs', 'guide/n*').out).toBe(
      `No subjects match "guide/n*" in topic "docs". The glob skipped 1 hidden subject: hidden subjects load only by their exact slug. ${LIST_HINT}\n`,
    );
    expect(kb('learn', 'docs', 'guide/note').out).toBe(`No subjects match "guide/note" in topic "docs". ${LIST_HINT}\n`);
    expect(kb('learn', 'docs', 'guide/notes').out).toBe('hidden notes\n');
  });

  test('kb mcp answers the same text', async () => {
    const transport = new StdioClientTransport({ command: BIN, args: ['mcp'], cwd: root, env: isolatedEnv(root), stderr: 'pipe' });
    const client = new Client({ name: 'kb-e2e', version: '1.0.0' });
    checkReplies(transport);
    await client.connect(transport);
    const texts: string[] = [];
    try {
      for (const [topic, subjects] of [
        ['docs', 'docs/architecture/knowledge-base.md'],
        ['docs', 'architecture'],
        ['book', 'ch04'],
      ]) {
        const result = (await client.callTool({ name: 'learn', arguments: { topic, subjects } })) as { content: { text: string }[]; isError?: boolean };
        const cli = kb('learn', topic, subjects);
        expect(result.content[0].text).toBe(cli.out);
        expect(result.isError ?? false).toBe(cli.code === 1);
        texts.push(result.content[0].text);
      }
      expect(texts[0]).toStartWith(KB_BLOCK);
      expect(texts[1]).toStartWith('No subject is named "architecture"; it is a folder.');
      expect(texts[2]).toContain('Closest subjects: ');
    } finally {
      await client.close();
    }
  });
});

// A skills folder as published (each skill a folder holding SKILL.md, the
// topic's directory named `skills`).
const skills = fixture(
  {
    'skills/systematic-debugging/SKILL.md': '---\nname: systematic-debugging\ndescription: Find the cause first\n---\n# Debugging\n',
    'skills/systematic-debugging/find-polluter.sh': 'echo\n',
    'skills/writing-plans/SKILL.md': '---\nname: writing-plans\ndescription: Write a plan\n---\n# Plans\n',
  },
  '[kb.topic.skills]\nsubjects = "skills"\n',
);
const sk = (...args: string[]) => run(BINARY, skills, args);
const SD_BLOCK =
  '<subject "systematic-debugging">\n---\nname: systematic-debugging\ndescription: Find the cause first\n---\n# Debugging\n\n' +
  '<skill-files>\nSkill directory: skills/systematic-debugging\nBundled files (load one with `learn` by its exact slug; paths are relative to the skill directory):\n' +
  '- systematic-debugging/find-polluter (find-polluter.sh)\n</skill-files>\n</subject>\n\n';
const SKILL_REASON = "a skill's slug is its folder's; its SKILL.md is what the skill loads";

describe('kb learn: a skill by its SKILL.md path (dist/kb)', () => {
  test('<dir>/SKILL.md loads the skill, the note names its slug', () => {
    expect(sk('learn', 'skills', 'systematic-debugging/SKILL.md')).toEqual({
      out: `${SD_BLOCK}Note: "systematic-debugging/SKILL.md" matched no subject; used "systematic-debugging" instead (${SKILL_REASON}).\n`,
      err: 'warning: topic "skills": "systematic-debugging/SKILL.md" matched no subject; used "systematic-debugging" instead\n',
      code: 0,
    });
  });

  test('the path from the workspace root too', () => {
    expect(sk('learn', 'skills', 'skills/systematic-debugging/SKILL.md')).toEqual({
      out: `${SD_BLOCK}Note: "skills/systematic-debugging/SKILL.md" matched no subject; used "systematic-debugging" instead (slugs are relative to the topic's directory: no leading "skills/"; ${SKILL_REASON}).\n`,
      err: 'warning: topic "skills": "skills/systematic-debugging/SKILL.md" matched no subject; used "systematic-debugging" instead\n',
      code: 0,
    });
  });

  test('<dir>/SKILL still loads the file as it is, with no note', () => {
    expect(sk('learn', 'skills', 'systematic-debugging/SKILL')).toEqual({
      out: '---\nname: systematic-debugging\ndescription: Find the cause first\n---\n# Debugging\n',
      err: '',
      code: 0,
    });
  });
});

describe('kb learn: a trailing slash (dist/kb)', () => {
  test('a subject with a trailing "/": the note says why, never "()"', () => {
    const r = sk('learn', 'skills', 'writing-plans/');
    expect(r.out).toEndWith('Note: "writing-plans/" matched no subject; used "writing-plans" instead (slugs have no trailing "/").\n');
    expect(r.err).toBe('warning: topic "skills": "writing-plans/" matched no subject; used "writing-plans" instead\n');
    expect(r.code).toBe(0);
    expect(sk('learn', 'skills', 'skills/writing-plans/').out).toEndWith(
      `Note: "skills/writing-plans/" matched no subject; used "writing-plans" instead (slugs are relative to the topic's directory: no leading "skills/"; slugs have no trailing "/").\n`,
    );
  });

  test('a folder with a trailing "/" is still its listing, with no note', () => {
    expect(kb('learn', 'docs', 'architecture/')).toEqual({
      out: '# Topic: Project docs\n\n## Available subjects in architecture/:\n\n- architecture/knowledge-base\n- architecture/mcp\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n',
      err: '',
      code: 0,
    });
  });
});

describe('kb learn: a JSON array inside the subjects string (dist/kb)', () => {
  const WP_BLOCK = '<subject "writing-plans">\n---\nname: writing-plans\ndescription: Write a plan\n---\n# Plans\n\n<skill-files>\nSkill directory: skills/writing-plans\nBundled files: (none)\n</skill-files>\n</subject>\n\n';
  const JSON_REASON = 'it is a JSON array inside a string: give several subjects as an array of strings';

  test('read as the array, with a note and a warning', () => {
    const subjects = '["writing-plans", "systematic-debugging"]';
    expect(sk('learn', '--args', JSON.stringify({ topic: 'skills', subjects }))).toEqual({
      out: `${WP_BLOCK}${SD_BLOCK}Note: ${JSON.stringify(subjects)} matched no subject; read it as 2 patterns: "writing-plans", "systematic-debugging" (${JSON_REASON}).\n`,
      err: `warning: topic "skills": ${JSON.stringify(subjects)} matched no subject; read it as 2 patterns: "writing-plans", "systematic-debugging"\n`,
      code: 0,
    });
  });

  test('one item, and items that are globs or near misses themselves', () => {
    expect(sk('learn', 'skills', '["writing-plans"]')).toEqual({
      out: `${WP_BLOCK}Note: "[\\"writing-plans\\"]" matched no subject; read it as 1 pattern: "writing-plans" (${JSON_REASON}).\n`,
      err: 'warning: topic "skills": "[\\"writing-plans\\"]" matched no subject; read it as 1 pattern: "writing-plans"\n',
      code: 0,
    });
    const r = sk('learn', 'skills', '["writing-*", "systematic-debugging/SKILL.md"]');
    expect(r.out).toStartWith(`${WP_BLOCK}${SD_BLOCK}`);
    expect(r.out).toContain('used "systematic-debugging" instead');
    expect(r.code).toBe(0);
  });

  test('kb mcp: the same text for the string an inspector sends', async () => {
    const transport = new StdioClientTransport({ command: BIN, args: ['mcp'], cwd: skills, env: isolatedEnv(skills), stderr: 'pipe' });
    const client = new Client({ name: 'kb-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const subjects = '["writing-plans","systematic-debugging"]';
      const result = (await client.callTool({ name: 'learn', arguments: { topic: 'skills', subjects } })) as { content: { text: string }[]; isError?: boolean };
      expect(result.content[0].text).toBe(sk('learn', 'skills', subjects).out);
      expect(result.content[0].text).toContain(JSON_REASON);
      expect(result.isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('a name a subject gives itself, in a call of many missing patterns', () => {
  // A vault of notes titled in their frontmatter, named by title: a
  // lookup, so every missing pattern of a call gets it, past the first 16
  // that get the rules that scan the topic.
  const titles = Array.from({ length: 24 }, (_, i) => `Meeting with the ${['north', 'south', 'east', 'west'][i % 4]} team, week ${i + 1}`);
  const vault = fixture(
    Object.fromEntries(titles.map((t, i) => [`notes/n${String(i).padStart(2, '0')}.md`, `---\ntitle: ${t}\n---\nbody ${i}\n`])),
    '[kb.topic.vault]\nsubjects = "notes"\n',
  );

  test('all 24 titles load, each with its note', () => {
    const r = run(BINARY, vault, ['learn', 'vault', ...titles]);
    expect(r.code).toBe(0);
    for (let i = 0; i < titles.length; i++) {
      const slug = `n${String(i).padStart(2, '0')}`;
      expect(r.out).toContain(`<subject "${slug}">`);
      expect(r.out).toContain(`Note: "${titles[i]}" matched no subject; used "${slug}" instead (it is that subject's title; subjects load by their slugs).\n`);
    }
    // (A title holding a comma is not read as a list.)
    expect(r.out).not.toContain('No subjects match');
    expect(r.out).not.toContain('read it as 2 patterns');
  });
});
