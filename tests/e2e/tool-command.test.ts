// Every tool's command goes through one command (cli/commands/tool.ts):
// the same `--args` (also on stdin), `--format text|json` and exit codes
// for each. The JSON is checked against the schema files in schemas/,
// as a script would read them.
import { describe, expect, test } from 'bun:test';
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINARY, REPO, fixture, run } from './harness.ts';

const CONFIG = `[kb.topic.docs]
title = "Project docs"
subjects = "docs"

[kb.topic.notes]
subjects = "notes"
`;
const FILES = {
  'docs/release.md': '---\ndescription: How releases are tagged\n---\n# Releasing\n\nTag the release, push the tag.\n',
  'docs/guide/a.md': '# A\n\nThe first page.\n',
  'notes/deploy.md': '---\nsource: user\n---\nDeploys go out on Tuesdays.\n',
};

const TOOLS = ['learn', 'search', 'remember', 'revise', 'forget'] as const;
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
const schemas = Object.fromEntries(TOOLS.map((t) => [t, ajv.compile(JSON.parse(readFileSync(join(REPO, `schemas/kb-${t}-output.schema.json`), 'utf8')))]));

/** `kb ARGS --format json`: its JSON, checked against the tool's schema. */
function json(root: string, tool: (typeof TOOLS)[number], args: string[], input?: string): { value: Record<string, unknown>; code: number } {
  const r = run(BINARY, root, [tool, ...args, '--format', 'json'], input === undefined ? {} : { input });
  const value = JSON.parse(r.out);
  const ok = schemas[tool](value);
  expect([tool, args, ok ? [] : schemas[tool].errors]).toEqual([tool, args, []]);
  return { value, code: r.code ?? -1 };
}

describe('one command for every tool', () => {
  test('every tool command has --format json and --args', () => {
    const root = fixture(FILES, CONFIG);
    for (const tool of TOOLS) {
      const help = run(BINARY, root, [tool, '--help']).out;
      expect([tool, help.includes('--format <text|json>'), help.includes('--args <json>')]).toEqual([tool, true, true]);
    }
  });

  test('kb learn --format json: a listing, subjects, notes; the exit codes of the text', () => {
    const root = fixture(FILES, CONFIG);
    const listing = json(root, 'learn', ['docs']);
    expect(listing).toEqual({ value: { topic: 'docs', listing: { title: 'Project docs', subjects: [{ slug: 'guide/a' }, { slug: 'release', description: 'How releases are tagged' }], learned: [] } }, code: 0 });
    const load = json(root, 'learn', ['docs', 'release', 'nope']);
    expect(load.code).toBe(0);
    expect(load.value).toEqual({
      subjects: [{ slug: 'release', content: '---\ndescription: How releases are tagged\n---\n# Releasing\n\nTag the release, push the tag.\n' }],
      notes: [{ kind: 'no-match', pattern: 'nope' }],
      topic: 'docs',
    });
    expect(json(root, 'learn', ['docs', 'nope'])).toEqual({ value: { topic: 'docs', subjects: [], notes: [{ kind: 'no-match', pattern: 'nope' }] }, code: 1 });
    expect(json(root, 'learn', ['nope'])).toEqual({ value: { topic: 'nope', error: { kind: 'unknown-topic', topic: 'nope', topics: [{ id: 'docs', title: 'Project docs' }, { id: 'notes' }] } }, code: 1 });
    expect(json(root, 'learn', ['--args', '{"topic":3}'])).toEqual({ value: { error: { kind: 'bad-arguments', problem: '"topic" must be a string, not number', parameter: 'topic' } }, code: 1 });
    expect(json(root, 'learn', ['--args', '-'], '{"topic":"docs","subjects":"guide/a"}').value).toMatchObject({ subjects: [{ slug: 'guide/a' }] });
  });

  test('kb search --format json is data: no text of the model\'s inside', () => {
    const root = fixture(FILES, CONFIG);
    const found = json(root, 'search', ['tag', 'relase', 'zzzqqq']);
    expect(found.code).toBe(0);
    expect(found.value).toMatchObject({ query: 'tag relase zzzqqq', total: 1, left_out: 0, beyond_limit: 0, unknown_words: ['zzzqqq'], corrected: [{ word: 'relase', also: ['releas'] }] });
    expect(found.value).not.toHaveProperty('notes');
    const none = json(root, 'search', ['-t', 'docs', 'zzzqqq']);
    expect(none).toMatchObject({ value: { topic: 'docs', total: 0, results: [] }, code: 1 });
    expect(json(root, 'search', ['-t', 'nope', 'x'])).toMatchObject({ value: { error: { kind: 'unknown-topic', topic: 'nope' } }, code: 1 });
  });

  test('the write tools: the outcome as data, the reason of a refusal as data', () => {
    const root = fixture(FILES, CONFIG);
    const written = json(root, 'remember', ['notes', 'Quokkas visit on Fridays.', '--slug', 'quokkas']);
    expect(written).toEqual({ value: { status: 'written', topic: 'notes', slug: 'quokkas', path: 'notes/quokkas.md' }, code: 0 });
    expect(json(root, 'remember', ['notes', 'Quokkas visit on Fridays.'])).toEqual({ value: { status: 'duplicate', topic: 'notes', slug: 'quokkas', existing: { slug: 'quokkas', similarity: 1 } }, code: 0 });
    expect(json(root, 'revise', ['notes', 'quokkas', 'Quokkas visit on Mondays.']).value).toMatchObject({ status: 'revised', history: { path: 'notes/.quokkas.history.md', kept: 1 } });
    expect(json(root, 'revise', ['notes', 'nope', 'x'])).toEqual({ value: { status: 'error', error: { kind: 'no-subject', topic: 'notes', slug: 'nope' } }, code: 1 });
    expect(json(root, 'forget', ['notes', 'quokkas'])).toEqual({ value: { status: 'forgotten', topic: 'notes', slug: 'quokkas', path: 'notes/quokkas.md' }, code: 0 });
    expect(json(root, 'forget', ['--args', '{"topic":"notes"}'])).toEqual({ value: { status: 'error', error: { kind: 'bad-arguments', problem: '"slug" is required', parameter: 'slug' } }, code: 1 });
  });

  test('--args that are not JSON: the tool\'s answer, exit 1, for every tool', () => {
    const root = fixture(FILES, CONFIG);
    for (const tool of TOOLS) {
      const r = run(BINARY, root, [tool, '--args', '{"topic":']);
      expect([tool, r.code, r.err, r.out]).toEqual([tool, 1, '', expect.stringMatching(new RegExp(`^Invalid arguments for \`${tool}\`: the arguments are not valid JSON \\(`))]);
    }
  });

  test('a write tool\'s command line that the tool refuses is a usage error naming the argument as the command does', () => {
    const root = fixture(FILES, CONFIG);
    for (const [args, message] of [
      [['remember', 'notes', ' '], 'error: TEXT must not be empty'],
      [['remember', 'notes', 'x', '--slug', '../up'], 'error: --slug "../up" cannot name a new subject: '],
      [['remember', 'notes', 'x', '--tag', ''], 'error: tag "" must be 1-64 printable characters'],
      [['remember', 'notes', 'x', '--description', ' '], 'error: --description must not be empty'],
      [['revise', 'notes', 'deploy', 'x', '--tag', 'a', '--tag', ' '], 'error: tag " " must be 1-64 printable characters'],
      [['forget', 'notes', ''], 'error: SLUG must not be empty'],
      [['forget', 'notes', 'a', 'b'], 'error: kb forget takes one TOPIC and one SLUG (b)'],
      [['revise', 'notes', 'deploy'], 'error: missing TEXT (or - to read it from stdin) (deploy)'],
      [['forget', 'notes'], 'error: missing SLUG (notes)'],
      [['search', '--limit', '51', 'x'], 'error: invalid --limit 51: from 1 to 50 (--limit)'],
      [['remember', '--args', '{}', '--force'], 'error: --args cannot be combined with --force (--args)'],
    ] as [string[], string][]) {
      const r = run(BINARY, root, args);
      expect([args, r.code, r.out, r.err.split('\n')[0]]).toEqual([args, 2, '', expect.stringContaining(message)]);
    }
  });

  test('a read tool\'s command line is the tool call itself: what it refuses is its answer, exit 1', () => {
    const root = fixture(FILES, CONFIG);
    const r = run(BINARY, root, ['search', ' ']);
    expect(r).toEqual({ out: 'Invalid arguments for `search`: "query" must not be empty. Expected {"query": string, "topic"?: string | null, "limit"?: integer | null}.\n', err: '', code: 1 });
  });
});
