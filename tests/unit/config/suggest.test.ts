import { describe, expect, test } from 'bun:test';
import { closest } from '../../../src/config/suggest.ts';
import { TOPIC_FIELD_DEFS } from '../../../src/config/fields.ts';

const FIELDS = TOPIC_FIELD_DEFS.map((f) => f.name);

describe('suggestions for misspelled keys', () => {
  test.each([
    ['titel', 'title'],
    ['Title', 'title'],
    ['subject', 'subjects'],
    ['enabled', 'enable'],
    ['learn', 'learned'],
    ['disable', 'disabled'],
    ['intro', undefined],
    ['path', undefined],
    ['x', undefined],
  ])('%s -> %s', (name, expected) => {
    expect(closest(name, FIELDS)).toBe(expected as string | undefined);
  });

});
