// End-to-end: `kb schema --format F` on the binary and under deno, and
// `kb learn --args` with the calls each format's model sends.
import { describe, expect } from 'bun:test';
import { SCHEMA_FORMATS, toolInFormat } from '../../src/render/providers.ts';
import { learnTool } from '../../src/app/tools.ts';
import { caseTest, RFD_CONFIG, RFD_FILES, fixture, run, type Runner } from './harness.ts';

const LEARNABLE = [
  { id: 'project', title: 'General Project Knowledge' },
  { id: 'skills', title: 'Learnable Assistant Skills' },
];

export function cases(r: Runner): void {
  const test = caseTest(r);
  const rfd = fixture(RFD_FILES, RFD_CONFIG);

  test.parity('each format prints its tool, indented JSON and one newline', () => {
    for (const f of SCHEMA_FORMATS) {
      const res = run(r, rfd, ['schema', '--format', f]);
      expect({ f, code: res.code, err: res.err }).toEqual({ f, code: 0, err: '' });
      expect(res.out).toBe(`${JSON.stringify(toolInFormat(f, learnTool(LEARNABLE)), null, 2)}\n`);
    }
    expect(run(r, rfd, ['schema', '--format=generic']).out).toBe(run(r, rfd, ['schema']).out);
  });

  test('the description follows the configuration in every format', () => {
    const res = run(r, rfd, ['schema', '--format', 'openai', '-k', 'skills/ast-grep', '-k', 'skills/ast-grep/rules']);
    expect(JSON.parse(res.out).function.description).toBe('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)');
  });

  test('nothing learnable: nothing printed, whatever the format', () => {
    const root = fixture({ 't/a.md': 'a' }, '[kb.topic.t]\nsubjects = "t"\nlearned = ["a"]\n');
    for (const f of SCHEMA_FORMATS) expect(run(r, root, ['schema', '--format', f])).toEqual({ out: '', err: '', code: 0 });
  });

  test('an unknown format is a usage error', () => {
    const res = run(r, rfd, ['schema', '--format', 'cohere']);
    expect(res.code).toBe(2);
    expect(res.out).toBe('');
    expect(res.err).toStartWith('error: invalid value "cohere" for --format; expected one of: generic, openai, anthropic, gemini, mcp (--format)\n');
  });

  test.parity('kb learn --args: what OpenAI strict mode and Gemini send', () => {
    const listing = run(r, rfd, ['learn', 'skills']);
    // strict mode spells out subjects: null to list
    expect(run(r, rfd, ['learn', '--args', '{"topic":"skills","subjects":null}'])).toEqual(listing);
    expect(run(r, rfd, ['learn', '--args', '-'], { input: '{"topic": "skills", "subjects": null}' })).toEqual(listing);
    // a bare string and a list, as every format allows
    expect(run(r, rfd, ['learn', '--args', '{"topic":"skills","subjects":"ast-grep/rules"}'])).toEqual({ out: 'RULES-BODY\n', err: '', code: 0 });
    expect(run(r, rfd, ['learn', '--args', '{"subjects":["ast-grep/rules"],"topic":"skills"}'])).toEqual({ out: 'RULES-BODY\n', err: '', code: 0 });
    // an extra key (Gemini's schema cannot forbid it) is named, not ignored
    const extra = run(r, rfd, ['learn', '--args', '{"topic":"skills","subject":"ast-grep"}']);
    expect(extra).toEqual({ out: 'Invalid arguments for `learn`: unknown argument "subject". Expected {"topic": string, "subjects"?: string | string[] | null}.\n', err: '', code: 1 });
  });
}
