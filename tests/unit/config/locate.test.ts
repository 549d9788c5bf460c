import { describe, expect, test } from 'bun:test';
import { inSourceOrder, indexToml, locate, whereOf } from '../../../src/config/locate.ts';
import type { Origin } from '../../../src/config/merge.ts';

const toml = (text: string): Origin => ({ source: '/ws/.jp/config.toml', label: '.jp/config.toml', text, format: 'toml' });
const json = (text: string): Origin => ({ source: '/ws/.jp/config.json', label: '.jp/config.json', text, format: 'json' });

const TOML = `# comment
title = "not kb"

[kb.topic.project]
title = "P"
description = """
subjects = "inside a string"
"""
learned = [
  "a",
  "b = c",
]

[kb]
topic.dotted.subjects = "d"
"topic"."quo.ted".title = 'q'

[ kb . topic . "inline" ]
x = { subjects = "i" }

[kb.topic.project.nested]
subjects = "n"
`;

describe('locate (TOML)', () => {
  test.each([
    [['title'], 2],
    [['kb', 'topic', 'project'], 4],
    [['kb', 'topic', 'project', 'title'], 5],
    [['kb', 'topic', 'project', 'description'], 6],
    [['kb', 'topic', 'project', 'learned'], 9],
    [['kb', 'topic', 'dotted'], 15],
    [['kb', 'topic', 'dotted', 'subjects'], 15],
    [['kb', 'topic', 'quo.ted', 'title'], 16],
    [['kb', 'topic', 'inline'], 18],
    // inside an inline table: the inline table's line
    [['kb', 'topic', 'inline', 'x', 'subjects'], 19],
    [['kb', 'topic', 'project', 'nested', 'subjects'], 22],
  ])('%j -> line %d', (path, line) => {
    expect(locate(toml(TOML), path)).toBe(line);
  });

  test.each([[['kb', 'topic', 'project', 'subjects']], [['kb', 'topic', 'b = c']], [['nope']]])('%j is not found', (path) => {
    expect(locate(toml(TOML), path)).toBeUndefined();
  });

  test('whereOf adds the line when found', () => {
    expect(whereOf(toml(TOML), ['kb', 'topic', 'project', 'title'])).toBe('.jp/config.toml:5');
    expect(whereOf(toml(TOML), ['kb', 'missing'])).toBe('.jp/config.toml');
    expect(whereOf({ source: '--cfg x=1', label: '--cfg x=1' }, ['x'])).toBe('--cfg x=1');
  });
});

describe('locate (JSON)', () => {
  const JSON_TEXT = `{
  "kb": {
    "topic": {
      "project": {
        "learned": ["a", {"title": "in array"}],
        "title": "P"
      },
      "other": { "subjects": "o" }
    }
  },
  "title": "top"
}`;
  test.each([
    [['kb'], 2],
    [['kb', 'topic', 'project'], 4],
    [['kb', 'topic', 'project', 'learned'], 5],
    [['kb', 'topic', 'project', 'title'], 6],
    [['kb', 'topic', 'other', 'subjects'], 8],
    [['title'], 11],
  ])('%j -> line %d', (path, line) => {
    expect(locate(json(JSON_TEXT), path)).toBe(line);
  });
});

describe('inSourceOrder', () => {
  test('a table with a key that looks like a number becomes a Map in the order written', () => {
    const text = '[kb.topic.zeta]\nsubjects = "z"\n[kb.topic.10]\nsubjects = "t"\n[kb.topic.2]\nsubjects = "t"\n';
    const value = { topic: { zeta: { subjects: 'z' }, 10: { subjects: 't' }, 2: { subjects: 't' } } };
    expect(Object.keys(value.topic)).toEqual(['2', '10', 'zeta']); // JavaScript's own order
    const ordered = inSourceOrder(value, () => indexToml(text), ['kb']) as { topic: Map<string, unknown> };
    expect([...ordered.topic.keys()]).toEqual(['zeta', '10', '2']);
  });

  test('nothing to reorder: the value itself, and the index is never built', () => {
    const value = { topic: { a: { subjects: 'a' } } };
    expect(inSourceOrder(value, () => {
      throw new Error('built');
    })).toBe(value);
  });
});
