// The examples of README.md and docs/**/*.md, run on dist/kb against the
// example workspace (examples/): every ```console transcript's commands, with
// their exact stdout, an empty stderr and exit 0 (the convention is written
// at the top of scripts/lib/doc-examples.ts). Every other code block says
// why it is not run. So the docs cannot drift from the binary; when the
// binary changes on purpose, `npx bun scripts/docs-examples.ts --update`
// rewrites the transcripts for review. The docs' one list of tools names
// exactly the registry's tools (src/app/tools.ts `TOOL_NAMES`). The links
// between the docs are checked in the unit tier (tests/unit/doc-links.test.ts).
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, blocks, commands, docFiles, readDoc, runBlock, runnable, toolLists, unclassified } from '../../scripts/lib/doc-examples.ts';
import { TOOL_NAMES } from '../../src/app/tools.ts';
import './harness.ts'; // fails early when dist/kb is missing

const FILES = docFiles();

/** A doc's list of tools holding `items`. */
const list = (items: string[]) => ['<!-- tools: the registry -->', ...items, '<!-- end tools -->'].join('\n');

describe('the convention', () => {
  const doc = [
    '<!-- not run: an install step -->',
    '````sh',
    'npm ci',
    '```',
    '````',
    '',
    '<!-- file: .jp/config.toml -->',
    '```toml',
    '[kb.topic.docs]',
    'subjects = "docs"',
    '```',
    '',
    '```console',
    '$ kb learn docs release; echo "exit $?"',
    'x',
    '',
    '$ kb learn docs nope 2>&1 \\',
    '  | head -n 1',
    '',
    '```',
    '',
    '```sh',
    'kb list',
    '```',
    '',
  ].join('\n');
  const found = blocks('x.md', doc);

  test('blocks: fences of any length, markers, bodies', () => {
    expect(found.map((b) => [b.line, b.info, b.marker?.kind ?? null])).toEqual([
      [2, 'sh', 'not run'],
      [8, 'toml', 'file'],
      [13, 'console', null],
      [22, 'sh', null],
    ]);
    expect(found[0].body).toBe('npm ci\n```\n');
    expect(found[1].body).toBe('[kb.topic.docs]\nsubjects = "docs"\n');
  });

  test('a block without a marker (other than console) is refused', () => {
    expect(found.map(unclassified).map((p) => p?.split(':').slice(0, 2).join(':'))).toEqual([undefined, undefined, undefined, 'x.md:22']);
  });

  test('commands: one per `$ ` line, continued by a trailing backslash; one blank line separates', () => {
    expect(commands(found[2])).toEqual([
      { line: 14, command: 'kb learn docs release; echo "exit $?"', expected: 'x\n' },
      { line: 17, command: 'kb learn docs nope 2>&1 \\\n  | head -n 1', expected: '\n' },
    ]);
  });

  test('a wrong transcript fails, and file blocks are written first', () => {
    const [{ block, files }] = runnable(found);
    expect(files.map((f) => f.marker?.value)).toEqual(['.jp/config.toml']);
    const ran = runBlock(block, files);
    expect(ran[0].ran.out).not.toBe(ran[0].command.expected);
    expect(ran[0].ran.out).toStartWith('---\ndescription: How releases are tagged and published\n');
    expect(ran[1].ran.out).toStartWith('No subjects match "nope" in topic "docs".');
  });

  test('a console block after <!-- new folder: PATH... --> runs in a new folder holding only those paths (and the file blocks)', () => {
    const text = [
      '<!-- file: notes/a.md -->',
      '```md',
      'A',
      '```',
      '',
      '<!-- new folder: docs/release.md -->',
      '```console',
      '$ find . -type f | sort; kb list; echo "exit $?"',
      '```',
      '',
      '<!-- new folder -->',
      '```console',
      '$ ls -A | wc -l',
      '```',
      '',
      '<!-- new folder: docs -->',
      '```sh',
      'kb list',
      '```',
      '',
    ].join('\n');
    const all = blocks('y.md', text);
    expect(all.map((b) => b.marker)).toEqual([
      { kind: 'file', value: 'notes/a.md' },
      { kind: 'new folder', value: 'docs/release.md' },
      { kind: 'new folder', value: '' },
      { kind: 'new folder', value: 'docs' },
    ]);
    expect(all.map(unclassified).map((p) => p?.split(':').slice(0, 2).join(':'))).toEqual([undefined, undefined, undefined, 'y.md:17']);
    const [first, second] = runnable(all);
    expect(runBlock(first.block, first.files).map((r) => r.ran)).toEqual([
      { out: './docs/release.md\n./notes/a.md\nexit 1\n', err: expect.stringContaining('no workspace'), code: 0 },
    ]);
    expect(runBlock(second.block, second.files).map((r) => r.ran.out)).toEqual(['0\n']);
  });

  test('the list of tools: its items, their continuation lines, what is neither', () => {
    expect(toolLists(list(['- `learn`: list a topic,', '  or load subjects', '- `search`: find subjects']))).toEqual([{ line: 1, names: ['learn', 'search'], problems: [] }]);
    expect(toolLists(list(['- learn: no backticks', '- `search`: find']))[0].problems).toEqual(['line 2: neither `- \\`name\\`: what it does` nor its continuation']);
    expect(toolLists('<!-- tools: never closed -->\n- `learn`: x')[0].problems).toEqual(['line 1: no <!-- end tools --> after it']);
    expect(toolLists('no list here')).toEqual([]);
  });
});

describe('the list of tools', () => {
  const found = FILES.flatMap((file) => toolLists(readDoc(file)).map((l) => ({ file, ...l })));

  test('the docs hold one, and it names exactly the registry\'s tools, in order (src/app/tools.ts TOOL_NAMES)', () => {
    expect(TOOL_NAMES.length).toBeGreaterThan(0);
    expect(found.map((l) => ({ file: l.file, names: l.names, problems: l.problems }))).toEqual([{ file: 'README.md', names: [...TOOL_NAMES], problems: [] }]);
  });

  test('a list that misses a tool, adds one or reorders them differs from the registry', () => {
    const names = (items: string[]) => toolLists(list(items))[0].names;
    const item = (n: string) => `- \`${n}\`: what it does`;
    expect(names(TOOL_NAMES.map(item))).toEqual([...TOOL_NAMES]);
    expect(names(TOOL_NAMES.slice(1).map(item))).not.toEqual([...TOOL_NAMES]);
    expect(names([...TOOL_NAMES, 'summarize'].map(item))).not.toEqual([...TOOL_NAMES]);
    expect(names([...TOOL_NAMES].reverse().map(item))).not.toEqual([...TOOL_NAMES]);
  });
});

describe.each(FILES)('%s', (file) => {
  const text = readDoc(file);
  const all = blocks(file, text);

  test('every code block is run, written as a file, a recipe, or says why it is not run', () => {
    expect(all.map(unclassified).filter(Boolean)).toEqual([]);
    for (const b of all) if (b.marker?.kind === 'recipe') expect([b.marker.value, existsSync(join(REPO, b.marker.value))]).toEqual([b.marker.value, true]);
    for (const b of all) {
      if (b.marker?.kind !== 'new folder') continue;
      for (const path of b.marker.value.split(' ').filter(Boolean)) expect([path, existsSync(join(REPO, 'examples', path))]).toEqual([path, true]);
    }
  });

  const cases = runnable(all);
  if (cases.length === 0) return;
  test.each(cases.map((c) => [`${file}:${c.block.line}`, c] as const))('%s', (_, { block, files }) => {
    for (const { command, ran } of runBlock(block, files)) {
      expect({ line: command.line, command: command.command, ...ran }).toEqual({ line: command.line, command: command.command, out: command.expected, err: '', code: 0 });
    }
  });
});
