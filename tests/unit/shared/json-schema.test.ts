// Values checked against a JSON Schema (shared/json-schema.ts): the words
// the tools' checker and the MCP server's params check share.
import { describe, expect, test } from 'bun:test';
import { checkProperties, expected, type ValueSchema } from '../../../src/shared/json-schema.ts';

describe('expected', () => {
  test('one type, a union, nullable', () => {
    expect(expected({ type: 'string' }, false)).toBe('a string');
    expect(expected({ type: ['string', 'array'], items: { type: 'string' } }, true)).toBe('a string, an array of strings or null');
    expect(expected({}, false)).toBe('a value');
  });
});

describe('checkProperties', () => {
  const schema: ValueSchema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      client: { type: 'object', properties: { version: { type: 'integer' } }, required: ['version'] },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      any: {},
    },
    required: ['name'],
  };

  test('in the schema order: missing when required, the type, then inside, named by path', () => {
    expect(checkProperties(schema, { name: 'a' })).toBeUndefined();
    expect(checkProperties(schema, {})).toBe('"name" must be a string, not missing');
    expect(checkProperties(schema, { name: 1, client: 1 })).toBe('"name" must be a string, not number');
    expect(checkProperties(schema, { name: 'a', client: {} })).toBe('"client"."version" must be an integer, not missing');
    expect(checkProperties(schema, { name: 'a', client: { version: 1.5 } })).toBe('"client"."version" must be an integer, not 1.5');
    expect(checkProperties(schema, { name: 'a', labels: { x: 'y', z: false } })).toBe('"labels"."z" must be a string, not boolean');
  });

  test('null is a value, not an absence; a property without a type takes anything; unnamed ones are not looked at', () => {
    expect(checkProperties(schema, { name: null })).toBe('"name" must be a string, not null');
    expect(checkProperties(schema, { name: 'a', any: null, other: [] })).toBeUndefined();
  });

  test('an own "__proto__" key is a key like another', () => {
    expect(checkProperties(schema, JSON.parse('{"name":"a","labels":{"__proto__":1}}'))).toBe('"labels"."__proto__" must be a string, not number');
  });
});
