// No library writes to stderr or stdout by itself: the `yaml` package's own
// warnings (`(node:...) Warning: Keys with collection values will be
// stringified...`, for frontmatter from the usual note templates, such as
// `created: {{date}}`) never reach the terminal, with or without -q.
import { afterAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, expectNoCrash, kb, workspace } from './helpers.ts';

afterAll(cleanup);

const NOTE = '---\ncreated: {{date}}\ntags: [daily]\ndescription: A daily note\n---\nBody\n';

describe('frontmatter with a collection as a key', () => {
  const root = workspace({ 't/a.md': NOTE, 't/b.md': NOTE.replace('daily', 'weekly'), 't/c.md': 'Plain.\n' });

  for (const args of [['learn', 't'], ['list'], ['-q', 'list'], ['search', 'daily'], ['check']]) {
    test(`kb ${args.join(' ')}: no library warning`, () => {
      const r = kb(root, args);
      expectNoCrash(r);
      expect(r.err).not.toContain('Warning');
      expect(r.err).not.toContain('(node:');
      expect(r.out).not.toContain('(node:');
      if (args[0] === 'learn') {
        expect(r).toEqual({
          out: '# Topic: t\n\n## Available subjects:\n\n- a: A daily note\n- b: A daily note\n- c\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n',
          err: '',
          code: 0,
        });
      }
    });
  }

  test('a YAML configuration with a collection as a key: kb reports the key, the library says nothing', () => {
    const yaml = workspace({ '.jp/config.yaml': 'kb:\n  topic:\n    t:\n      subjects: t\n      ? [a]\n      : 1\n' });
    rmSync(join(yaml, '.jp/config.toml'));
    const r = kb(yaml, ['check']);
    expectNoCrash(r);
    expect(r.out + r.err).not.toContain('(node:');
    expect(r.out + r.err).toContain('unknown key `[ a ]` in topic `t`');
  });
});
