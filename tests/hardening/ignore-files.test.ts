// Hostile ignore files, end to end on dist/kb: a pattern whose compiled
// expression backtracks (more than one `**` segment between others) must
// not hang a command: it is not applied, with a warning naming the file
// and line (kb check, kb list); the file's other rules are.
import { afterAll, describe, expect, test } from 'bun:test';
import { cleanup, expectNoCrash, kbMeasured, workspace } from './helpers.ts';

afterAll(cleanup);

describe('a .gitignore pattern with many ** segments', () => {
  const bad = `${'a/**/'.repeat(12)}b`;
  const deep = `${'a/'.repeat(60)}x`;
  const root = workspace({ 't/.gitignore': `skip.md\n${bad}\n`, 't/ok.md': 'OK\n', 't/skip.md': 'no\n', [`t/${deep}.md`]: 'deep\n' });
  const WARNING = `warning: topic "t": cannot apply .gitignore:2: ${bad} (12 "**" segments between others: matching it can take minutes on deep paths; at most one is supported); this rule is not applied (t/.gitignore)\n`;

  test('kb prompt and kb learn answer at once; the other rules apply', () => {
    const prompt = kbMeasured(root, ['prompt'], { timeoutMs: 60_000 });
    expectNoCrash(prompt);
    expect(prompt.code).toBe(0);
    expect(prompt.ms).toBeLessThan(5_000);
    const list = kbMeasured(root, ['learn', 't'], { timeoutMs: 60_000 });
    expect(list.ms).toBeLessThan(5_000);
    expect(list.out).toBe(`# Topic: t\n\n## Available subjects:\n\n- ${deep}\n- ok\n\nUse the \`learn\` tool with the \`subjects\` argument to learn specific subjects.\n`);
  }, 120_000);

  test('kb check and kb list name the file and line', () => {
    const check = kbMeasured(root, ['check'], { timeoutMs: 60_000 });
    expect(check.ms).toBeLessThan(5_000);
    expect(check.out).toBe(`${WARNING}ok: 1 topic, 2 subjects, 0 errors, 1 warning\n`);
    const list = kbMeasured(root, ['list'], { timeoutMs: 60_000 });
    expect(list.out).toContain(`! cannot apply .gitignore:2: ${bad} (12 "**" segments`);
  }, 120_000);
});
