// The JSON forms of the tools (render/forms.ts) against their schemas
// (render/output-schemas.ts, written to schemas/kb-<tool>-output.schema.json):
// the files are current, every tool has one, each is an object schema that
// both JSON Schema dialects read, and real outputs of every kind, made in
// process on a fixture workspace, are valid. The schemas forbid members
// they do not name, so an output that grows a member fails here until the
// schema says what it is.
import { describe, expect, test } from 'bun:test';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KnowledgeBase } from '../../../src/app/knowledge-base.ts';
import { TOOL_NAMES } from '../../../src/app/tools.ts';
import type { ToolName } from '../../../src/answer/tool.ts';
import { COSTS } from '../../../src/render/costs.ts';
import { OUTPUT_SCHEMAS, outputSchemaFile } from '../../../src/render/output-schemas.ts';
import { outputSchemaFiles } from '../../../scripts/output-schemas.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';
import { toolCall } from '../../support/tool-call.ts';

const REPO = join(import.meta.dir, '../../..');
const HOME = makeTempDir('kb-output-home-');

const CONFIG = `[kb.topic.docs]
title = "Project docs"
subjects = "docs"
learned = ["intro"]

[kb.topic.notes]
subjects = "notes"

[kb.topic.skills]
subjects = "skills"
`;

const FILES = {
  'docs/intro.md': '# Intro\n\nPre-loaded.\n',
  'docs/release.md': '---\ndescription: How releases are tagged\n---\n# Releasing\n\nTag the release, push the tag.\n',
  'docs/config.toml': '[release]\nbranch = "main"\n',
  'docs/guide/a.md': '# A\n\nFirst guide page about tags.\n',
  'docs/guide/b.md': '# B\n\nSecond guide page.\n',
  'docs/.hidden.md': 'Hidden.\n',
  'docs/big.md': `# Big\n\n${'lorem ipsum dolor sit amet '.repeat(400)}\n`,
  'docs/logo.png': '\u0089PNG\r\n\u001a\n\u0000\u0000',
  'notes/deploy-window.md': '---\ndescription: The deploy window\ncreated: 2025-01-02T03:04:05.000Z\nupdated: 2025-01-02T03:04:05.000Z\nsource: user\n---\nThe deploy window is Tuesday 10:00-12:00 UTC.\n',
  'notes/by-hand.md': '# By hand\n\nWritten by a person.\n',
  'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: Work with PDF files\n---\n# PDF\n',
  'skills/pdf/forms.md': 'Forms.\n',
};

function open(root: string, maxTokens?: number): Promise<KnowledgeBase> {
  return KnowledgeBase.open(
    { cwd: root, cfg: [], knowledge: [], env: { XDG_CACHE_HOME: join(root, '.cache-home') }, home: HOME, ...(maxTokens !== undefined ? { maxTokens } : {}) },
    { costs: COSTS },
  );
}

/** Calls of each tool, and their JSON, in one workspace. */
const CALLS: [ToolName, unknown, number?][] = [
  ['learn', { topic: 'docs' }],
  ['learn', { topic: 'docs' }, 40],
  ['learn', { topic: 'docs', subjects: ['guide/'] }],
  ['learn', { topic: 'docs', subjects: ['release', 'config', 'intro', 'logo', 'nope', 'guid*', 'relase', 'release.md', 'guide', 'a, b', '../up', '.hidden'] }],
  ['learn', { topic: 'docs', subjects: ['guide/*', 'release', 'config'] }, 50],
  ['learn', { topic: 'docs', subjects: ['**'] }, 300],
  ['learn', { topic: 'docs', subjects: ['big'] }, 200],
  ['learn', { topic: 'skills', subjects: ['pdf'] }],
  ['learn', { topic: 'nope' }],
  ['learn', { topic: 3 }],
  ['learn', '[1]'],
  ['search', { query: 'tag release' }],
  ['search', { query: 'tag guide page', limit: 1 }],
  ['search', { query: 'tag release guide', topic: 'docs' }, 60],
  ['search', { query: 'relase zzzqqq' }],
  ['search', { query: 'x', topic: 'nope' }],
  ['search', { query: '' }],
  ['remember', { topic: 'notes', text: 'Quokkas visit the office on Fridays.' }],
  ['remember', { topic: 'notes', text: 'Quokkas visit the office on Fridays.' }],
  ['remember', { topic: 'notes', text: 'The deploy window is Thursday 14:00-16:00 UTC.' }],
  ['remember', { topic: 'notes', text: 'The deploy window is Thursday 14:00-16:00 UTC.', force: true, slug: 'thursday' }],
  ['remember', { topic: 'fresh', text: 'A new topic folder.' }],
  ['remember', { topic: 'notes', text: 'x', slug: 'deploy-window' }],
  ['remember', { topic: 'nope', text: 'x' }],
  ['remember', { topic: 'notes', text: '' }],
  ['revise', { topic: 'notes', slug: 'deploy-window', text: 'The deploy window is Friday 08:00-09:00 UTC.' }],
  ['revise', { topic: 'notes', slug: 'deploy-window', text: 'The deploy window is Friday 08:00-09:00 UTC.' }],
  ['revise', { topic: 'notes', slug: 'by-hand', text: 'New.' }],
  ['revise', { topic: 'notes', slug: 'nope', text: 'New.' }],
  ['revise', { topic: 'notes', slug: 'x' }],
  ['forget', { topic: 'skills', slug: 'pdf/forms' }],
  ['forget', { topic: 'notes', slug: 'thursday' }],
  ['forget', { topic: 'notes', slug: 'thursday' }],
  ['forget', { topic: 'notes', slug: 3 }],
];

describe('the output schemas', () => {
  test('schemas/ holds each, as written from src/render/output-schemas.ts (`npx bun scripts/output-schemas.ts`)', () => {
    for (const [file, text] of outputSchemaFiles()) expect([file, readFileSync(join(REPO, file), 'utf8')]).toEqual([file, text]);
  });

  test('one for every tool of the registry', () => {
    expect(Object.keys(OUTPUT_SCHEMAS)).toEqual([...TOOL_NAMES]);
  });

  test.each([...TOOL_NAMES])('%s: an object schema (MCP structuredContent) that draft 2020-12 and draft-07 both compile, strictly (a branch of `anyOf` only requires)', (name) => {
    const file = outputSchemaFile(name);
    expect(file.type).toBe('object');
    new Ajv2020({ strict: true, strictRequired: false }).compile(file);
    const { $schema: _, ...draft7 } = file;
    new Ajv({ strict: true, strictRequired: false }).compile(draft7);
  });
});

describe('real outputs are valid', () => {
  const root = tempWorkspace('kb-output-', FILES, CONFIG);
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  const validators = Object.fromEntries(TOOL_NAMES.map((n) => [n, ajv.compile(outputSchemaFile(n))]));
  const seen: Record<string, Set<string>> = {};

  test('every call of the list, in order (each write changes what the next sees)', async () => {
    for (const [name, args, budget] of CALLS) {
      const kb = await open(root, budget);
      const value = typeof args === 'string' ? JSON.parse(args) : args;
      const r = await toolCall(kb, name, value, { source: 'model', writable: new Set(['notes', 'skills', 'fresh']) }, 'json');
      const json = JSON.parse(r.text);
      // The data form (MCP structuredContent) is the same object.
      expect([name, args, r.data]).toEqual([name, args, json]);
      const validate = validators[name];
      const ok = validate(json);
      expect([name, args, ok ? [] : validate.errors]).toEqual([name, args, []]);
      // What kinds of answer the list reached.
      const kinds = (seen[name] ??= new Set());
      kinds.add(json.status ?? json.error?.kind ?? (json.listing ? 'listing' : 'subjects'));
      for (const n of json.notes ?? []) kinds.add(`note:${n.kind}`);
      if (json.error?.kind !== undefined) kinds.add(`error:${json.error.kind}`);
      for (const s of json.subjects ?? []) if (s.window) kinds.add('window');
      if (json.left_out?.next) kinds.add('left_out');
      if (json.left_after) kinds.add('left_after');
      if (json.listing?.fit) kinds.add('fit');
    }
  });

  test('the list reaches the answers the schemas describe', () => {
    expect([...seen.learn].sort()).toEqual(
      [
        'listing', 'fit', 'subjects', 'window', 'left_out', 'left_after', 'bad-arguments', 'unknown-topic',
        'error:bad-arguments', 'error:unknown-topic',
        'note:already-learned', 'note:binary', 'note:no-match', 'note:invalid-pattern', 'note:read-as', 'note:folder', 'note:split',
      ].sort(),
    );
    expect([...seen.search].sort()).toEqual(['subjects', 'unknown-topic', 'bad-arguments', 'error:unknown-topic', 'error:bad-arguments'].sort());
    expect([...seen.remember].sort()).toEqual(['written', 'duplicate', 'update', 'error', 'error:slug-taken', 'error:unknown-topic', 'error:bad-arguments', 'error:update'].sort());
    expect([...seen.revise].sort()).toEqual(['revised', 'unchanged', 'error', 'error:not-ours', 'error:no-subject', 'error:bad-arguments'].sort());
    expect([...seen.forget].sort()).toEqual(['forgotten', 'error', 'error:kept', 'error:no-subject', 'error:bad-arguments'].sort());
  });

  test('a member no schema names is refused (the check can fail)', () => {
    const learn = validators.learn;
    expect(learn({ topic: 'docs', subjects: [], notes: [] })).toBe(true);
    expect(learn({ topic: 'docs', subjects: [], notes: [], text: 'rendered' })).toBe(false);
    expect(validators.search({ query: 'q', total: 0, results: [], left_out: 0, beyond_limit: 0, unknown_words: [], corrected: [], notes: ['[rendered]'] })).toBe(false);
    expect(validators.remember({ status: 'written', message: 'Remembered as ...' })).toBe(false);
  });
});
