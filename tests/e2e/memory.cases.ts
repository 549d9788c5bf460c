// kb remember, kb revise and kb forget as a user runs them: what a user sees and the
// exit codes (tests/e2e/memory.test.ts on the binary; tests/parity runs the
// cases marked parity under deno).
import { describe, expect } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { caseTest, fixture, run, type Runner } from './harness.ts';

export const CONFIG = `[kb.topic.notes]
subjects = "notes"

[kb.topic.docs]
subjects = "docs"
`;

export function workspace(files: Record<string, string> = {}): string {
  return fixture({ 'notes/.keep': '', 'docs/readme.md': '# Docs\n', ...files }, CONFIG);
}

export const subjects = (root: string) => readdirSync(join(root, 'notes')).filter((n) => n.endsWith('.md')).sort();

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`remember and forget (${runner.name})`, () => {
    test.parity('remember, the duplicate answers, force, learn and search see it, forget', () => {
      const root = workspace();
      const first = run(runner, root, ['remember', 'notes', 'Deploys', 'go', 'out', 'at', '10:00', 'on', 'weekdays.', '--tag', 'ops', '--tag', 'time']);
      expect(first).toMatchObject({ code: 0, err: '' });
      expect(first.out).toBe('Remembered as subject "deploys-go-10-00-weekdays" of topic "notes" (notes/deploys-go-10-00-weekdays.md). Load it with learn, topic "notes", subjects "deploys-go-10-00-weekdays".\n');
      const file = readFileSync(join(root, 'notes/deploys-go-10-00-weekdays.md'), 'utf8');
      expect(file).toMatch(/^---\ndescription: "Deploys go out at 10:00 on weekdays."\ncreated: (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\nupdated: \1\ntags: \["ops", "time"\]\nsource: user\n---\nDeploys go out at 10:00 on weekdays.\n$/);
      expect(run(runner, root, ['search', 'weekdays']).out).toContain('notes: deploys-go-10-00-weekdays');
      expect(run(runner, root, ['learn', 'notes']).out).toContain('- deploys-go-10-00-weekdays: Deploys go out at 10:00 on weekdays.');

      const same = run(runner, root, ['remember', 'notes', '-'], { input: 'deploys go out at 10:00 on WEEKDAYS.\n' });
      expect(same.code).toBe(0);
      expect(same.out).toContain('Already remembered: subject "deploys-go-10-00-weekdays"');
      const near = run(runner, root, ['remember', 'notes', 'On weekdays, deploys go out at 10:00 sharp.', '--format', 'json']);
      expect(near.code).toBe(1);
      expect(JSON.parse(near.out)).toMatchObject({ status: 'near-duplicate', topic: 'notes', existing: { slug: 'deploys-go-10-00-weekdays' } });
      expect(subjects(root)).toHaveLength(1);
      const forced = run(runner, root, ['remember', 'notes', '--force', '--slug', 'sharp', 'On weekdays, deploys go out at 10:00 sharp.']);
      expect(forced.code).toBe(0);
      expect(subjects(root)).toEqual(['deploys-go-10-00-weekdays.md', 'sharp.md']);

      const gone = run(runner, root, ['forget', 'notes', 'sharp']);
      expect(gone).toMatchObject({ code: 0, err: '' });
      expect(gone.out).toContain('Version control keeps its history');
      expect(run(runner, root, ['learn', 'notes']).out).not.toContain('sharp');
      expect(run(runner, root, ['forget', 'notes', 'sharp'])).toMatchObject({ code: 1 });
    });

    test.parity('usage errors exit 2; refusals exit 1 and write nothing', () => {
      const root = workspace({ 'notes/.kbignore': 'drafts/\n' });
      expect(run(runner, root, ['remember', 'notes']).code).toBe(2);
      expect(run(runner, root, ['remember', 'notes', 'x', '--slug', '../up']).code).toBe(2);
      const ignored = run(runner, root, ['remember', 'notes', 'x', '--slug', 'drafts/x']);
      expect(ignored.code).toBe(1);
      expect(ignored.out).toContain('ignored');
      expect(run(runner, root, ['remember', 'nope', 'x']).out).toContain('Unknown topic "nope"');
      expect(subjects(root)).toEqual([]);
    });

    test.parity('an update is named; kb revise replaces the text, keeps the slug and the earlier text; the exit codes', () => {
      const root = workspace();
      expect(run(runner, root, ['remember', 'notes', '--slug', 'deploy-window', 'The deploy window is Tuesday 10:00-12:00 UTC.']).code).toBe(0);
      const other = run(runner, root, ['remember', 'notes', 'Quokkas visit the office on Fridays.']);
      expect(other.code).toBe(0);
      expect(run(runner, root, ['remember', 'notes', 'Llamas visit the office on Mondays.']).code).toBe(0);
      const update = run(runner, root, ['remember', 'notes', 'The deploy window is Thursday 14:00-16:00 UTC.', '--format', 'json']);
      expect(update.code).toBe(1);
      expect(JSON.parse(update.out)).toMatchObject({ status: 'update', topic: 'notes', existing: { slug: 'deploy-window' } });
      // JSON is data (the reason, and what differs); the text says what to do.
      expect(JSON.parse(update.out).error).toMatchObject({ kind: 'update', topic: 'notes', similar: { slug: 'deploy-window' }, was: ['Tuesday', '10:00', '12:00'], now: ['Thursday', '14:00', '16:00'] });
      expect(run(runner, root, ['remember', 'notes', 'The deploy window is Thursday 14:00-16:00 UTC.']).out).toContain('run kb revise notes deploy-window with your text');

      const revised = run(runner, root, ['revise', 'notes', 'deploy-window', 'The', 'deploy', 'window', 'is', 'Thursday', '14:00-16:00', 'UTC.']);
      expect(revised).toMatchObject({ code: 0, err: '' });
      expect(revised.out).toBe(
        'Revised subject "deploy-window" of topic "notes" (notes/deploy-window.md). Its earlier text is kept in notes/.deploy-window.history.md (1 earlier text, newest first). Load it with learn, topic "notes", subjects "deploy-window".\n',
      );
      const file = readFileSync(join(root, 'notes/deploy-window.md'), 'utf8');
      expect(file).toMatch(/^---\ndescription: "The deploy window is Thursday 14:00-16:00 UTC."\ncreated: \S+\nupdated: \S+\nsource: user\n---\nThe deploy window is Thursday 14:00-16:00 UTC.\n$/);
      expect(readFileSync(join(root, 'notes/.deploy-window.history.md'), 'utf8')).toContain('The deploy window is Tuesday 10:00-12:00 UTC.');
      expect(run(runner, root, ['learn', 'notes']).out).toContain('- deploy-window: The deploy window is Thursday 14:00-16:00 UTC.');
      expect(run(runner, root, ['search', 'deploy', 'window']).out).toMatch(/1\. notes: deploy-window \(~\d+ tokens, updated \d{4}-\d\d-\d\d\)/);

      const same = run(runner, root, ['revise', 'notes', 'deploy-window', '-', '--format', 'json'], { input: 'The deploy window is Thursday 14:00-16:00 UTC.\n' });
      expect(same.code).toBe(0);
      expect(JSON.parse(same.out)).toMatchObject({ status: 'unchanged', slug: 'deploy-window' });
      const byModel = run(runner, root, ['revise', '--args', '{"topic":"notes","slug":"deploy-window","text":"The deploy window is Friday 08:00-09:00 UTC."}']);
      expect(byModel.code).toBe(0);
      expect(readFileSync(join(root, 'notes/deploy-window.md'), 'utf8')).toContain('source: model');
      expect(run(runner, root, ['revise', '--args', '{"topic":"notes","slug":"deploy-window"}']).out).toContain('Invalid arguments for `revise`: "text" is required');
      expect(run(runner, root, ['revise', 'notes', 'deploy-window']).code).toBe(2);
      expect(run(runner, root, ['revise', 'notes', 'nope', 'x']).code).toBe(1);
      expect(run(runner, root, ['revise', 'notes', 'readme', 'x', '--tag', '']).code).toBe(2);
    });

    test.parity('kb revise refuses a subject kb did not write unless forced', () => {
      const root = workspace({ 'notes/guide.md': '# Guide\n\nWritten by hand.\n' });
      const refused = run(runner, root, ['revise', 'notes', 'guide', 'A new guide.']);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('was not written by kb');
      expect(refused.out).toContain('run it again with --force');
      expect(readFileSync(join(root, 'notes/guide.md'), 'utf8')).toBe('# Guide\n\nWritten by hand.\n');
      expect(run(runner, root, ['revise', 'notes', 'guide', '--force', 'A new guide.']).code).toBe(0);
      expect(readFileSync(join(root, 'notes/.guide.history.md'), 'utf8')).toContain('# Guide\n\nWritten by hand.\n');
    });
  });
}
