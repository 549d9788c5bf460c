// A folder's listing (`learn` with `folder/`) reads only the folder's files:
// its cost grows with what it lists, not with the topic (issue: "the cost of
// a call grows with what it returns, not with the size of the topic").
// Counted on dist/kb under strace.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { BIN, BINARY, fixture, isolatedEnv, run } from './harness.ts';
import { bytesRead, STRACE } from '../support/strace.ts';

const files: Record<string, string> = { 'docs/guide/intro.md': '---\ndescription: Start here\n---\n# Intro\n', 'docs/guide/setup.md': '# Setup\n\nInstall it.\n' };
for (let i = 0; i < 40; i++) files[`docs/other/n${i}.md`] = `# Note ${i}\n\n${'text '.repeat(200)}\n`;
const root = fixture(files, '[kb.topic.docs]\nsubjects = "docs"\n');
const OTHERS = Object.keys(files).filter((f) => f.startsWith('docs/other/')).map((f) => join(root, f));
const GUIDE = [join(root, 'docs/guide/intro.md'), join(root, 'docs/guide/setup.md')];

describe.skipIf(!STRACE)('a folder listing reads only the folder', () => {
  test('kb learn docs guide/ lists the folder and reads none of the other files', () => {
    const r = run(BINARY, root, ['learn', 'docs', 'guide/']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('- guide/intro: Start here');
    expect(r.out).toContain('- guide/setup');
    expect(r.out).not.toContain('other/');
    const bytes = bytesRead([BIN, 'learn', 'docs', 'guide/'], root, isolatedEnv(root), [...OTHERS, ...GUIDE], root);
    expect(OTHERS.filter((p) => (bytes.get(p) ?? 0) > 0)).toEqual([]);
    for (const p of GUIDE) expect(bytes.get(p) ?? 0).toBeGreaterThan(0);
  });

  test('the whole topic is still listed from every file', () => {
    const bytes = bytesRead([BIN, 'learn', 'docs'], root, isolatedEnv(root), OTHERS, root);
    expect(OTHERS.filter((p) => (bytes.get(p) ?? 0) === 0)).toEqual([]);
  });
});
