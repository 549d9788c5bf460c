import { describe, test, expect } from 'bun:test';
import { tomlTypeName } from '../../../src/config/fields.ts';

describe('tomlTypeName', () => {
  test('the TOML name of a configuration value\'s type', () => {
    expect([1, 1.5, 2n, new Date(0), {}, [], 'x', true, null].map(tomlTypeName)).toEqual([
      'integer', 'float', 'integer', 'datetime', 'table', 'array', 'string', 'boolean', 'null',
    ]);
  });
});
