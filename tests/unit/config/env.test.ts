import { describe, expect, test } from 'bun:test';
import { envLayers, matchTopic } from '../../../src/config/env.ts';
import { UsageError } from '../../../src/shared/errors.ts';

const TOPICS = ['project', 'code_review', 'ast-grep', 'Mixed'];

/** The single op one variable makes. */
function op(name: string, value: string, topics = TOPICS) {
  const { layers, diagnostics } = envLayers({ [name]: value }, topics);
  expect(diagnostics).toEqual([]);
  expect(layers).toHaveLength(1);
  expect(layers[0].origin).toEqual({ source: `env ${name}`, label: `env ${name}` });
  return layers[0].ops[0];
}

describe('NOTES 22: JP_CFG_KB_TOPIC_<ID>_<FIELD>', () => {
  test.each([
    ['JP_CFG_KB_TOPIC_PROJECT_TITLE', 'Project', { path: ['kb', 'topic', 'project', 'title'], value: 'Project' }],
    ['JP_CFG_KB_TOPIC_PROJECT_ENABLE', 'false', { path: ['kb', 'topic', 'project', 'enable'], value: false }],
    ['JP_CFG_KB_TOPIC_PROJECT_LEARNED', 'a/*', { path: ['kb', 'topic', 'project', 'learned'], value: ['a/*'] }],
    // `+` appends, `:` is JSON, `+:` appends JSON
    ['JP_CFG_KB_TOPIC_PROJECT_LEARNED', '+a/*', { path: ['kb', 'topic', 'project', 'learned'], value: ['a/*'], append: true }],
    ['JP_CFG_KB_TOPIC_PROJECT_LEARNED', ':["a","b"]', { path: ['kb', 'topic', 'project', 'learned'], value: ['a', 'b'] }],
    ['JP_CFG_KB_TOPIC_PROJECT_DISABLED', '+:["a","b"]', { path: ['kb', 'topic', 'project', 'disabled'], value: ['a', 'b'], append: true }],
    ['JP_CFG_KB_TOPIC_PROJECT_ENABLE', ':false', { path: ['kb', 'topic', 'project', 'enable'], value: false }],
    // IDs may contain `_`; the field is matched at the end
    ['JP_CFG_KB_TOPIC_CODE_REVIEW_SUBJECTS', 'docs', { path: ['kb', 'topic', 'code_review', 'subjects'], value: 'docs' }],
    // case-insensitive match against configured IDs; `-` reads as `_`
    ['JP_CFG_KB_TOPIC_MIXED_TITLE', 'm', { path: ['kb', 'topic', 'Mixed', 'title'], value: 'm' }],
    ['JP_CFG_KB_TOPIC_AST_GREP_TITLE', 'g', { path: ['kb', 'topic', 'ast-grep', 'title'], value: 'g' }],
    // an unmatched ID is a new, lower-cased topic
    ['JP_CFG_KB_TOPIC_NEW_ONE_SUBJECTS', 'x', { path: ['kb', 'topic', 'new_one', 'subjects'], value: 'x' }],
  ])('%s=%s', (name, value, expected) => {
    expect(op(name, value)).toEqual(expected);
  });

  test('other JP_CFG_* and non-JP variables are ignored', () => {
    const result = envLayers({ JP_CFG_ASSISTANT_MODEL_ID: 'x', JP_EDITOR: 'vi', HOME: '/h', KB_TOPIC_A_TITLE: 'x', jp_cfg_kb_topic_a_title: 'x' }, TOPICS);
    expect(result).toEqual({ layers: [], diagnostics: [] });
  });

  test('undefined values are skipped', () => {
    expect(envLayers({ JP_CFG_KB_TOPIC_PROJECT_TITLE: undefined }, TOPICS).layers).toEqual([]);
  });

  test('layers come in variable-name order', () => {
    const { layers } = envLayers({ JP_CFG_KB_TOPIC_PROJECT_TITLE: 'b', JP_CFG_KB_TOPIC_MIXED_TITLE: 'a' }, TOPICS);
    expect(layers.map((l) => l.origin.source)).toEqual(['env JP_CFG_KB_TOPIC_MIXED_TITLE', 'env JP_CFG_KB_TOPIC_PROJECT_TITLE']);
  });

  test.each(['JP_CFG_KB_TOPIC_PROJECT_TITEL', 'JP_CFG_KB_TOPIC_TITLE', 'JP_CFG_KB_FOO', 'JP_CFG_KB'])('%s: unknown-key diagnostic', (name) => {
    const { layers, diagnostics } = envLayers({ [name]: 'x' }, TOPICS);
    expect(layers).toEqual([]);
    expect(diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unknown-key',
        message: `unknown variable ${name}: kb reads JP_CFG_KB_TOPIC_<ID>_<FIELD>, FIELD one of ENABLE, TITLE, INTRODUCTION, DESCRIPTION, SUBJECTS, LEARNED, DISABLED`,
        where: `env ${name}`,
      },
    ]);
  });

  test.each([
    ['JP_CFG_KB_TOPIC_PROJECT_ENABLE', 'yes', 'takes true or false'],
    ['JP_CFG_KB_TOPIC_PROJECT_TITLE', '+x', 'cannot append'],
    ['JP_CFG_KB_TOPIC_PROJECT_LEARNED', ':[1', 'invalid JSON'],
  ])('%s=%s -> UsageError naming the variable', (name, value, message) => {
    expect(() => envLayers({ [name]: value }, TOPICS)).toThrow(message);
    try {
      envLayers({ [name]: value }, TOPICS);
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).where).toBe(`env ${name}`);
    }
  });

  test('matchTopic prefers an exact case-insensitive match', () => {
    expect(matchTopic('A_B', ['a-b', 'a_b'])).toBe('a_b');
    expect(matchTopic('A_B', ['a-b'])).toBe('a-b');
    expect(matchTopic('C', ['a-b'])).toBeUndefined();
  });
});
