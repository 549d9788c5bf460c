// The folders a write makes or leaves behind, as a user sees them: the
// first `kb remember` to a topic whose folder does not exist yet creates it
// (inside the workspace, never through a symbolic link) and says so;
// `kb forget` removes the folders it emptied, never the topic's own
// (tests/e2e/memory-folders.dist.test.ts on the binary; tests/parity runs
// the cases marked parity under deno).
import { describe, expect } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { caseTest, fixture, run, tempDir, type Runner } from './harness.ts';

const CONFIG = '[kb.topic.notes]\nsubjects = ".jp/kb/notes"\n';

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`remember and forget: folders (${runner.name})`, () => {
    test.parity('remember to a topic whose folder does not exist: created, and said', () => {
      const root = fixture({}, CONFIG);
      expect(existsSync(join(root, '.jp/kb'))).toBe(false);
      expect(run(runner, root, ['remember', 'notes', 'Deploys go out at ten.'])).toEqual({
        out: 'Remembered as subject "deploys-go-ten" of topic "notes" (.jp/kb/notes/deploys-go-ten.md). Load it with learn, topic "notes", subjects "deploys-go-ten". The topic\'s folder .jp/kb/notes did not exist; it was created.\n',
        err: '',
        code: 0,
      });
      expect(readdirSync(join(root, '.jp/kb/notes'))).toEqual(['deploys-go-ten.md']);
      // Once there, nothing more is said.
      expect(run(runner, root, ['remember', 'notes', 'Tags are signed.']).out).toBe(
        'Remembered as subject "tags-signed" of topic "notes" (.jp/kb/notes/tags-signed.md). Load it with learn, topic "notes", subjects "tags-signed".\n',
      );
    });

    test('never through a symbolic link, never outside the workspace', () => {
      const elsewhere = tempDir();
      const linked = fixture({}, CONFIG);
      symlinkSync(elsewhere, join(linked, '.jp/kb'));
      expect(run(runner, linked, ['remember', 'notes', 'x y z'])).toEqual({
        out: 'Not written to topic "notes": its subjects directory does not exist, and kb creates none through a symbolic link (.jp/kb).\n',
        err: '',
        code: 1,
      });
      expect(readdirSync(elsewhere)).toEqual([]);
      const outside = fixture({}, '[kb.topic.notes]\nsubjects = "../kb-outside-notes"\n');
      expect(run(runner, outside, ['remember', 'notes', 'x y z'])).toEqual({
        out: 'Not written to topic "notes": its subjects directory does not exist (kb creates one only inside the workspace).\n',
        err: '',
        code: 1,
      });
      expect(existsSync(join(outside, '../kb-outside-notes'))).toBe(false);
    });

    test.parity('forget removes the folders it emptied, never the topic folder nor a folder still holding files', () => {
      const root = fixture({ '.jp/kb/notes/ops/deep/a.md': 'a\n', '.jp/kb/notes/ops/b.md': 'b\n', '.jp/kb/notes/top.md': 'top\n' }, CONFIG);
      expect(run(runner, root, ['forget', 'notes', 'ops/deep/a'])).toEqual({
        out: 'Forgot subject "ops/deep/a" of topic "notes": .jp/kb/notes/ops/deep/a.md was removed, and so was the folder it emptied: .jp/kb/notes/ops/deep. Version control keeps its history if it was committed.\n',
        err: '',
        code: 0,
      });
      expect(readdirSync(join(root, '.jp/kb/notes/ops'))).toEqual(['b.md']);
      mkdirSync(join(root, '.jp/kb/notes/x/y/z'), { recursive: true });
      run(runner, root, ['remember', 'notes', '--slug', 'x/y/z/c', 'Something new to say.']);
      expect(run(runner, root, ['forget', 'notes', 'x/y/z/c']).out).toContain('was removed, and so were the folders it emptied: .jp/kb/notes/x/y/z, .jp/kb/notes/x/y, .jp/kb/notes/x. ');
      expect(run(runner, root, ['forget', 'notes', 'ops/b']).out).toContain('was removed, and so was the folder it emptied: .jp/kb/notes/ops. ');
      expect(run(runner, root, ['forget', 'notes', 'top']).out).toBe(
        'Forgot subject "top" of topic "notes": .jp/kb/notes/top.md was removed. Version control keeps its history if it was committed.\n',
      );
      expect(readdirSync(join(root, '.jp/kb/notes'))).toEqual([]);
    });
  });
}
