// A topic whose subjects directory is missing or cannot be read, end to end
// on dist/kb. The model is told (the learn listing says why it is empty, a
// load says why nothing matched), stderr warns, and both are errors: `kb
// learn` exits 1 (a tool error, README "Exit codes"), and `kb check` names
// the directory as configured, at the line that configures it.
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, expectNoCrash, kb, permissions, workspace, type KbOptions, type Result } from './helpers.ts';

afterAll(cleanup);

function run(root: string, args: string[], opts: KbOptions = {}): Result {
  const r = kb(root, args, opts);
  expectNoCrash(r);
  return r;
}

const USE = 'Use the `learn` tool with the `subjects` argument to learn specific subjects.';

describe('a subjects directory that does not exist', () => {
  const root = workspace({});
  rmSync(join(root, 't'), { recursive: true });
  const warning = `warning: topic "t": subjects directory not found: ${join(root, 't')}\n`;
  const note = 'Topic "t" has no subjects: its subjects directory does not exist.';

  test('kb learn t: the listing says the directory is missing, stderr warns, exit 1', () => {
    expect(run(root, ['learn', 't'])).toEqual({ out: `# Topic: t\n\n## Available subjects:\n\n(none)\n\n${note}\n\n${USE}\n`, err: warning, code: 1 });
  });

  test('kb learn t x and --args: the same note before the no-match line, exit 1', () => {
    const noMatch = 'No subjects match "x" in topic "t". Call `learn` with only the topic to list its subjects.';
    expect(run(root, ['learn', 't', 'x'])).toEqual({ out: `${note}\n${noMatch}\n`, err: warning, code: 1 });
    expect(run(root, ['learn', '--args', '{"topic":"t","subjects":["x"]}'])).toEqual({ out: `${note}\n${noMatch}\n`, err: warning, code: 1 });
  });

  test('kb prompt warns the same way, exit 0; kb check: an error at the configuring line', () => {
    expect(run(root, ['prompt'])).toEqual({ out: '', err: warning, code: 0 });
    expect(run(root, ['check'])).toEqual({
      out: 'error: topic "t": subjects directory "t" does not exist (.jp/config.toml:2)\nfailed: 1 topic, 0 subjects, 1 error, 0 warnings\n',
      err: '',
      code: 1,
    });
  });
});

describe.skipIf(permissions.skip !== undefined)(`a subjects directory that cannot be read (${permissions.runAs === undefined ? 'chmod' : 'run as nobody via setpriv'})`, () => {
  const as = { asUser: permissions.runAs };
  const root = workspace({ 't/x.md': 'X\n', 'u/y.md': 'Y\n' }, '[kb.topic.t]\nsubjects = "t"\n\n[kb.topic.u]\nsubjects = "u"\n');
  chmodSync(join(root, 't'), 0o000);

  test('kb check names it as configured, at the line that configures it: an error', () => {
    expect(run(root, ['check'], as)).toEqual({
      out: 'error: topic "t": subjects directory "t" cannot be read: permission denied (.jp/config.toml:2)\nfailed: 2 topics, 1 subject, 1 error, 0 warnings\n',
      err: '',
      code: 1,
    });
  });

  test('kb learn: the model is told why, stderr warns, exit 1', () => {
    expect(run(root, ['learn', 't'], as)).toEqual({
      out: `# Topic: t\n\n## Available subjects:\n\n(none)\n\nTopic "t" has no subjects: its subjects directory cannot be read (permission denied).\n\n${USE}\n`,
      err: `warning: topic "t": cannot read subjects directory ${join(root, 't')}: permission denied\n`,
      code: 1,
    });
    expect(run(root, ['learn', 'u'], as).code).toBe(0);
  });
});
