import { describe, expect, test } from 'bun:test';
import { learnedPatternProblem, resolveTopic } from '../../../src/app/topics.ts';
import type { Topic } from '../../../src/config/types.ts';

describe('resolveTopic (NOTES 10)', () => {
  const t = (id: string, title?: string, enable = true) => ({ id, title, enable }) as Topic;
  const topics = [t('project', 'General Project Knowledge'), t('Skills', 'skills'), t('off', 'Off', false)];
  test('exact id first, then case-insensitive title', () => {
    expect(resolveTopic(topics, 'project')?.id).toBe('project');
    expect(resolveTopic(topics, 'general project KNOWLEDGE')?.id).toBe('project');
    expect(resolveTopic(topics, 'skills')?.id).toBe('Skills');
    expect(resolveTopic(topics, 'PROJECT')).toBeUndefined();
  });
  test('a disabled topic does not resolve', () => {
    expect(resolveTopic(topics, 'off')).toBeUndefined();
    expect(resolveTopic(topics, 'Off')).toBeUndefined();
  });
});

describe('learned-pattern problems', () => {
  test('an invalid pattern or one matching nothing is a problem; one matching something is not', () => {
    expect(learnedPatternProblem('t', { pattern: '../x', kind: 'invalid', reason: 'it leaves the topic directory', slugs: [] })).toEqual({
      code: 'learned-invalid',
      message: 'topic "t": learned pattern "../x" is invalid: it leaves the topic directory',
    });
    expect(learnedPatternProblem('t', { pattern: 'a/*', kind: 'glob', slugs: [] })).toEqual({
      code: 'learned-no-match',
      message: 'topic "t": learned pattern "a/*" matches no subject',
    });
    expect(learnedPatternProblem('t', { pattern: 'a', kind: 'exact', slugs: ['a'] })).toBeUndefined();
  });
});
