// A TOML file with CRLF line ends (a Windows editor, git's autocrlf) reads
// as the same file with LF ones: @iarna/toml alone refuses a comment that
// ends in CRLF (src/config/toml.ts).
import { describe, expect, test } from 'bun:test';
import { parseToml } from '../../../src/config/toml.ts';

const crlf = (s: string) => s.replaceAll('\n', '\r\n');

// What kb init writes: comments, a table, keys (the full parser's path:
// the fast one gives up on it).
const CONFIG = `# kb: a knowledge base.
# Optional fields: title, introduction.

[kb.topic.docs]
subjects = "docs" # the folder
title = """
Project
docs"""
learned = ["a", "b"]
`;

describe('TOML with CRLF line ends', () => {
  test('reads as with LF ones: comments, tables, arrays; a multi-line string gets LF', async () => {
    const lf = await parseToml(CONFIG, 'c.toml');
    expect(lf).toEqual({ data: { kb: { topic: { docs: { subjects: 'docs', title: 'Project\ndocs', learned: ['a', 'b'] } } } } });
    expect(await parseToml(crlf(CONFIG), 'c.toml')).toEqual(lf);
    expect(await parseToml(`\uFEFF${crlf(CONFIG)}`, 'c.toml')).toEqual(lf);
  });

  test('an error in it is reported at its line and column, as with LF', async () => {
    const bad = `# a comment\n[kb.topic.a]\nsubjects = = "s"\n`;
    const want = await parseToml(bad, '.jp/config.toml');
    expect('diagnostic' in want && want.diagnostic.where).toBe('.jp/config.toml:3:12');
    expect(await parseToml(crlf(bad), '.jp/config.toml')).toEqual(want);
  });
});
