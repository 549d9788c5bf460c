import { describe, expect, test } from 'bun:test';
import { LIMITS } from '../../../src/app/args.ts';
import { parseLearnArgs } from '../../../src/app/tools/learn.ts';

describe('parseLearnArgs', () => {
  test.each([
    ['{"topic":"t"}', { topic: 't', subjects: null }],
    ['{"topic":"t","subjects":null}', { topic: 't', subjects: null }],
    ['{"topic":"t","subjects":[]}', { topic: 't', subjects: null }],
    ['{"topic":"t","subjects":"a/*"}', { topic: 't', subjects: ['a/*'] }],
    ['{"topic":"t","subjects":["a","b"]}', { topic: 't', subjects: ['a', 'b'] }],
  ])('%s is accepted', (json, args) => expect(parseLearnArgs(json)).toEqual({ ok: true, args }));

  test.each([
    ['', 'the arguments are not valid JSON'],
    ['null', 'the arguments must be a JSON object, not null'],
    ['"t"', 'the arguments must be a JSON object, not string'],
    ['{"topic":""}', '"topic" must not be empty'],
    ['{"topic":null}', '"topic" must be a string, not null'],
    ['{"topic":"t","subjects":{}}', '"subjects" must be a string, an array of strings or null, not object'],
    ['{"topic":"t","subjects":[["a"]]}', '"subjects"[0] must be a string, not array'],
    ['{"topic":"t","x":1,"y":2}', 'unknown arguments "x", "y"'],
  ])('%s is rejected', (json, problem) => {
    const r = parseLearnArgs(json);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toStartWith(problem);
  });

  test('hostile sizes are bounded', () => {
    const many = JSON.stringify({ topic: 't', subjects: Array.from({ length: LIMITS.patterns + 1 }, (_, i) => `p${i}`) });
    expect(parseLearnArgs(many)).toMatchObject({ ok: false, problem: `"subjects" has ${LIMITS.patterns + 1} patterns; at most ${LIMITS.patterns} are accepted` });
    const long = JSON.stringify({ topic: 't', subjects: 'a'.repeat(LIMITS.patternLength + 1) });
    expect(parseLearnArgs(long).ok).toBe(false);
    const deep = '['.repeat(100000) + ']'.repeat(100000);
    expect(parseLearnArgs(deep).ok).toBe(false);
    expect(parseLearnArgs(' '.repeat(LIMITS.jsonBytes + 1)).ok).toBe(false);
  });
});
