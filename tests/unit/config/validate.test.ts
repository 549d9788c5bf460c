import { describe, expect, test } from 'bun:test';
import { type Layer, merge } from '../../../src/config/merge.ts';
import { parseToml } from '../../../src/config/toml.ts';
import { looksLikeGlob, topicIds, validate } from '../../../src/config/validate.ts';

const ROOT = '/ws';

async function fileLayer(label: string, text: string): Promise<Layer> {
  const parsed = await parseToml(text, label);
  if (!('data' in parsed)) throw new Error(parsed.diagnostic.message);
  return { origin: { source: `${ROOT}/${label}`, label, text, format: 'toml' }, ops: [{ path: [], value: parsed.data }] };
}

const run = async (...texts: string[]) => validate(merge(await Promise.all(texts.map((t, i) => fileLayer(`c${i}.toml`, t)))), ROOT);

describe('validate: topics', () => {
  test('all fields, defaults, subjectsDir, sources and where', async () => {
    const { topics, diagnostics } = await run(
      `[kb.topic.project]
enable = false
title = "General Project Knowledge"
introduction = "intro"
description = "desc"
subjects = ".jp/kb/project"
learned = ["maintainers/*"]
disabled = ["old"]

[kb.topic.skills]
subjects = "/abs/skills"
`,
    );
    expect(diagnostics).toEqual([]);
    expect(topics).toEqual([
      {
        id: 'project',
        enable: false,
        title: 'General Project Knowledge',
        introduction: 'intro',
        description: 'desc',
        subjects: '.jp/kb/project',
        subjectsDir: '/ws/.jp/kb/project',
        learned: ['maintainers/*'],
        disabled: ['old'],
        sources: Object.fromEntries(['enable', 'title', 'introduction', 'description', 'subjects', 'learned', 'disabled'].map((f) => [f, '/ws/c0.toml'])),
        where: { enable: 'c0.toml:2', title: 'c0.toml:3', introduction: 'c0.toml:4', description: 'c0.toml:5', subjects: 'c0.toml:6', learned: 'c0.toml:7', disabled: 'c0.toml:8' },
      },
      {
        id: 'skills',
        enable: true,
        subjects: '/abs/skills',
        subjectsDir: '/abs/skills',
        learned: [],
        disabled: [],
        sources: { subjects: '/ws/c0.toml' },
        where: { subjects: 'c0.toml:11' },
      },
    ]);
  });

  test('NOTES 3: topics keep configuration order (first appearance across layers)', async () => {
    const { topics } = await run('[kb.topic.b]\nsubjects = "b"\n[kb.topic.a]\nsubjects = "a"\n', '[kb.topic.c]\nsubjects = "c"\n[kb.topic.b]\ntitle = "B"\n');
    expect(topics.map((t) => t.id)).toEqual(['b', 'a', 'c']);
    expect(topics[0].sources).toEqual({ subjects: '/ws/c0.toml', title: '/ws/c1.toml' });
  });

  test('NOTES 24: keys outside kb are ignored', async () => {
    expect(await run('[assistant]\nname = "x"\n[conversation.tools.x]\nenable = 1\n')).toEqual({ topics: [], diagnostics: [] });
  });

  test('topicIds lists table-valued topics in order', async () => {
    expect(topicIds(merge([await fileLayer('c.toml', '[kb.topic.z]\n[kb.topic.a]\n[kb.topic]\nbad = 1\n')]))).toEqual(['z', 'a']);
    expect(topicIds(merge([]))).toEqual([]);
  });
});

describe('validate: diagnostics', () => {
  test('NOTES 24: unknown-key inside a topic names key, topic and file:line, with a suggestion', async () => {
    const { topics, diagnostics } = await run('[kb.topic.project]\nsubjects = "s"\ntitel = "x"\npath = "y"\n');
    expect(topics.map((t) => t.id)).toEqual(['project']);
    expect(diagnostics).toEqual([
      { severity: 'error', code: 'unknown-key', message: 'unknown key `titel` in topic `project`; did you mean `title`?', where: 'c0.toml:3', topic: 'project' },
      {
        severity: 'error',
        code: 'unknown-key',
        message: 'unknown key `path` in topic `project`; known keys: enable, title, introduction, description, subjects, learned, disabled',
        where: 'c0.toml:4',
        topic: 'project',
      },
    ]);
  });

  test('a disabled entry that looks like a glob: a warning naming the topic\'s .kbignore, where the key is', async () => {
    const { topics, diagnostics } = await run('[kb.topic.docs]\nsubjects = "content/en/"\ndisabled = [\n  "ok",\n  "_common/*",\n  "notes (old)",\n  "a[1]",\n]\n');
    expect(topics[0].disabled).toEqual(['ok', '_common/*', 'notes (old)', 'a[1]']);
    const glob = (entry: string, line: number) => ({
      severity: 'warning' as const,
      code: 'disabled-glob' as const,
      message: `topic "docs": disabled entry "${entry}" looks like a glob, but disabled takes exact slugs: it disables only a subject named exactly that; to leave files out by pattern, write the pattern in content/en/.kbignore (gitignore syntax)`,
      where: `c0.toml:${line}`,
      topic: 'docs',
    });
    expect(diagnostics).toEqual([glob('_common/*', 3), glob('a[1]', 3)]);
  });

  test.each([
    ['_common/*', true],
    ['a?', true],
    ['a[bc]', true],
    ['{a,b}', true],
    ['+(a)', true],
    ['notes (old)', false],
    ['a[b', false],
    ['a]b[', false],
    ['{a}', false],
    ['plain/slug', false],
  ])('looksLikeGlob(%p) is %p', (s, glob) => expect(looksLikeGlob(s)).toBe(glob));

  test('looksLikeGlob reads a long entry in one pass', () => {
    const long = '['.repeat(500_000) + '{'.repeat(500_000);
    const t = performance.now();
    expect(looksLikeGlob(long)).toBe(false);
    expect(performance.now() - t).toBeLessThan(1000);
  });

  test('unknown-key directly under kb', async () => {
    expect((await run('[kb.topics.a]\nsubjects = "s"\n[kb]\nfoo = 1\n')).diagnostics).toEqual([
      { severity: 'error', code: 'unknown-key', message: 'unknown key `topics` in `kb`; did you mean `topic`?', where: 'c0.toml:1' },
      { severity: 'error', code: 'unknown-key', message: 'unknown key `foo` in `kb`; `kb` only holds `topic`', where: 'c0.toml:4' },
    ]);
  });

  test.each([
    ['enable = "yes"', '`kb.topic.p.enable` must be a boolean, got string'],
    ['title = 1', '`kb.topic.p.title` must be a string, got integer'],
    ['introduction = 1.5', '`kb.topic.p.introduction` must be a string, got float'],
    ['description = 1979-05-27', '`kb.topic.p.description` must be a string, got datetime'],
    ['learned = "x"', '`kb.topic.p.learned` must be an array of strings, got string'],
    ['disabled = { a = 1 }', '`kb.topic.p.disabled` must be an array of strings, got table'],
    ['title = ["a"]', '`kb.topic.p.title` must be a string, got array'],
  ])('wrong-type: %s', async (line, message) => {
    const { topics, diagnostics } = await run(`[kb.topic.p]\nsubjects = "s"\n${line}\n`);
    expect(diagnostics).toEqual([{ severity: 'error', code: 'wrong-type', message, where: 'c0.toml:3', topic: 'p' }]);
    // the topic stays, with the field at its default
    expect(topics).toHaveLength(1);
    expect(topics[0]).toMatchObject({ enable: true, learned: [], disabled: [] });
    expect(topics[0].title).toBeUndefined();
  });

  test('wrong-type array items are reported where they were set and dropped', async () => {
    const layers = [await fileLayer('a.toml', '[kb.topic.p]\nsubjects = "s"\nlearned = ["x", 2]\n'), { origin: { source: '-k p/y', label: '-k p/y' }, ops: [{ path: ['kb', 'topic', 'p', 'learned'], value: ['y'], append: true }] }];
    const { topics, diagnostics } = validate(merge(layers), ROOT);
    expect(diagnostics).toEqual([{ severity: 'error', code: 'wrong-type', message: '`kb.topic.p.learned[1]` must be a string, got integer', where: 'a.toml:3', topic: 'p' }]);
    expect(topics[0].learned).toEqual(['x', 'y']);
    expect(topics[0].sources.learned).toBe('-k p/y');
  });

  test('wrong-type: a field given as a table', async () => {
    expect((await run('[kb.topic.p]\nsubjects = "s"\n[kb.topic.p.title]\nx = 1\n')).diagnostics).toEqual([
      { severity: 'error', code: 'wrong-type', message: '`kb.topic.p.title` must be a string, got table', where: 'c0.toml:3', topic: 'p' },
    ]);
  });

  test('wrong-type: kb, kb.topic or a topic that is not a table', async () => {
    expect((await run('kb = 1\n')).diagnostics).toEqual([{ severity: 'error', code: 'wrong-type', message: '`kb` must be a table, got integer', where: 'c0.toml:1' }]);
    expect((await run('[kb]\ntopic = "x"\n')).diagnostics).toEqual([{ severity: 'error', code: 'wrong-type', message: '`kb.topic` must be a table, got string', where: 'c0.toml:2' }]);
    const { topics, diagnostics } = await run('[kb.topic]\np = "x"\n[kb.topic.q]\nsubjects = "q"\n');
    expect(diagnostics).toEqual([{ severity: 'error', code: 'wrong-type', message: '`kb.topic.p` must be a table, got string', where: 'c0.toml:2', topic: 'p' }]);
    expect(topics.map((t) => t.id)).toEqual(['q']);
  });

  test('missing-subjects leaves the topic out', async () => {
    const { topics, diagnostics } = await run('[kb.topic.a]\ntitle = "A"\n\n[kb.topic.b]\nsubjects = "b"\n');
    expect(topics.map((t) => t.id)).toEqual(['b']);
    expect(diagnostics).toEqual([
      {
        severity: 'error',
        code: 'missing-subjects',
        message: "topic `a` has no `subjects`: set it to the directory holding the topic's files, relative to the workspace root",
        where: 'c0.toml:1',
        topic: 'a',
      },
    ]);
  });

  test('a wrong-typed subjects is reported once, and the topic left out', async () => {
    const { topics, diagnostics } = await run('[kb.topic.a]\nsubjects = 1\n');
    expect(topics).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['wrong-type']);
  });

  test('a later layer fixes an earlier mistake', async () => {
    expect((await run('[kb.topic.a]\nsubjects = 1\n', '[kb.topic.a]\nsubjects = "a"\n')).diagnostics).toEqual([]);
  });
});
