// kb remember and kb forget as a user runs them: what a user sees and the
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
      expect(file).toMatch(/^---\ndescription: "Deploys go out at 10:00 on weekdays."\ncreated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\ntags: \["ops", "time"\]\nsource: user\n---\nDeploys go out at 10:00 on weekdays.\n$/);
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
  });
}
