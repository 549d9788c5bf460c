import { describe, expect, test } from 'bun:test';
import { parseJson } from '../../../src/config/json.ts';
import { parseToml } from '../../../src/config/toml.ts';

describe('parsing configuration files', () => {
  test('TOML', async () => {
    expect(await parseToml('\uFEFF[kb.topic.a]\nsubjects = "s"\n', 'c.toml')).toEqual({ data: { kb: { topic: { a: { subjects: 's' } } } } });
  });

  test('TOML syntax error: toml-syntax at file:line:col (1-based)', async () => {
    expect(await parseToml('a = 1\n[b]\nc = = 2\n', '.jp/config.toml')).toEqual({
      diagnostic: {
        severity: 'error',
        code: 'toml-syntax',
        message: 'invalid TOML: Unexpected character, expecting string, number, datetime, boolean, inline array or inline table',
        where: '.jp/config.toml:3:5',
      },
    });
    const dup = await parseToml('a = 1\na = 2\n', 'x.toml');
    expect('diagnostic' in dup && dup.diagnostic.where).toBe('x.toml:2:6');
    expect('diagnostic' in dup && dup.diagnostic.message).toBe("invalid TOML: Can't redefine existing key");
  });

  test('JSON', () => {
    expect(parseJson('{"kb": {"topic": {}}}', 'c.json')).toEqual({ data: { kb: { topic: {} } } });
  });

  test('JSON syntax error: json-syntax', () => {
    const r = parseJson('{"kb": }', '.jp/config.json');
    expect('diagnostic' in r && r.diagnostic.code).toBe('json-syntax');
    expect('diagnostic' in r && r.diagnostic.where).toStartWith('.jp/config.json');
    expect('diagnostic' in r && r.diagnostic.message).toStartWith('invalid JSON: ');
  });

  test('JSON that is not an object: wrong-type', () => {
    expect(parseJson('[1]', 'c.json')).toEqual({
      diagnostic: { severity: 'error', code: 'wrong-type', message: 'a JSON configuration file must hold an object, got array', where: 'c.json:1:1' },
    });
  });
});
