// kb export on the binary and under deno: one JSON line per visible
// subject, hidden ones only with --hidden, disabled ones never, and every
// file left out or changed said on stderr and counted.
import { describe, expect } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { caseTest, fixture, isolatedEnv, run, type Runner } from './harness.ts';

const CONFIG = `[kb.topic.docs]
title = "Project docs"
subjects = "docs"
disabled = ["old"]

[kb.topic.notes]
subjects = "notes"

[kb.topic.off]
subjects = "off"
enable = false
`;

const FILES: Record<string, string | Uint8Array> = {
  'docs/release.md': '---\ndescription: How releases are tagged\ntags: [process, "release day"]\n---\n# Releasing\n\nTag it.\n',
  'docs/style.md': '# Style\n\nNaming rules.\n',
  'docs/old.md': 'Disabled.\n',
  'docs/.secret.md': 'A hidden subject.\n',
  'docs/sub/deploy.txt': 'Deploy after the release.\n',
  'docs/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
  'docs/latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  'notes/meeting.txt': '---\ntitle: Weekly\ntags: one\n---\nWe agreed.\n',
  'off/never.md': 'A disabled topic.\n',
};

interface Line {
  topic: string;
  slug: string;
  title: string | null;
  description: string | null;
  tags: string[];
  path: string;
  size: number;
  text: string;
}

/** stdout as JSON Lines: every line one object, the output ending in a
 *  line end. */
function lines(out: string): Line[] {
  expect(out.endsWith('\n') || out === '').toBe(true);
  return out === '' ? [] : out.slice(0, -1).split('\n').map((l) => JSON.parse(l) as Line);
}

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`kb export (${runner.name})`, () => {
    test.parity('every visible subject of every enabled topic, one JSON line each; what was left out on stderr, and the count', () => {
      const root = fixture(FILES, CONFIG);
      const r = run(runner, root, ['export']);
      expect(r.code).toBe(0);
      const got = lines(r.out);
      expect(got.map((l) => `${l.topic}:${l.slug}`)).toEqual(['docs:latin1', 'docs:release', 'docs:style', 'docs:sub/deploy', 'notes:meeting']);
      expect(got[1]).toEqual({
        topic: 'docs',
        slug: 'release',
        title: 'Releasing',
        description: 'How releases are tagged',
        tags: ['process', 'release day'],
        path: 'docs/release.md',
        size: FILES['docs/release.md'].length,
        text: FILES['docs/release.md'] as string,
      });
      expect(got[2]).toMatchObject({ title: 'Style', description: null, tags: [] });
      expect(got[4]).toMatchObject({ title: 'Weekly', tags: ['one'], path: 'notes/meeting.txt', text: FILES['notes/meeting.txt'] });
      expect(got[0]).toMatchObject({ text: 'caf\uFFFD\n', size: 5 });
      expect(r.err).toBe(
        [
          'warning: topic "docs": subject "latin1" is not valid text; exported with U+FFFD in place of the invalid bytes (docs/latin1.txt)',
          'exported 5 subjects from 2 topics; 1 with invalid bytes replaced; skipped 1 binary file; left out 1 hidden subject (--hidden exports them); left out 1 disabled subject (1 not named above; --verbose names each)',
          '',
        ].join('\n'),
      );
      // A binary file is expected, and counted: named with --verbose.
      expect(run(runner, root, ['export', '--verbose']).err).toContain('warning: topic "docs": subject "logo" not exported: it is a binary file (docs/logo.png)\n');
    });

    test.parity('topics named, by ID or title, each once; --hidden; an unknown or disabled topic is a usage error', () => {
      const root = fixture(FILES, CONFIG);
      const hidden = run(runner, root, ['export', 'Project docs', 'docs', '--hidden']);
      expect(hidden.code).toBe(0);
      expect(lines(hidden.out).map((l) => l.slug)).toEqual(['latin1', 'release', 'secret', 'style', 'sub/deploy']);
      expect(lines(hidden.out)[2]).toMatchObject({ path: 'docs/.secret.md', text: 'A hidden subject.\n' });
      expect(hidden.err).toEndWith('exported 5 subjects from 1 topic; 1 with invalid bytes replaced; skipped 1 binary file; left out 1 disabled subject (1 not named above; --verbose names each)\n');
      const notes = run(runner, root, ['export', 'notes', '--format', 'jsonl', '-q']);
      expect({ slugs: lines(notes.out).map((l) => l.slug), err: notes.err, code: notes.code }).toEqual({ slugs: ['meeting'], err: '', code: 0 });
      expect(run(runner, root, ['export', 'nope'])).toEqual({ out: '', err: 'error: unknown topic "nope"; the topics are docs, notes, off\nrun \'kb export --help\' for usage\n', code: 2 });
      expect(run(runner, root, ['export', 'off'])).toEqual({ out: '', err: 'error: topic "off" is disabled\nrun \'kb export --help\' for usage\n', code: 2 });
      expect(run(runner, root, ['export', '--format', 'csv']).code).toBe(2);
    });

    test.parity('a closed stdout ends the export quietly, exit 0', () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 2000; i++) files[`notes/n${i}.md`] = `note ${i} ${'x'.repeat(200)}\n`;
      const root = fixture(files, '[kb.topic.notes]\nsubjects = "notes"\n');
      expect(lines(run(runner, root, ['-q', 'export']).out)).toHaveLength(2000);
      const [cmd, ...pre] = runner.argv;
      const res = spawnSync('bash', ['-c', '"$0" "$@" | head -c 10 >/dev/null; exit ${PIPESTATUS[0]}', cmd, ...pre, 'export'], { cwd: root, encoding: 'utf8', env: isolatedEnv(root) });
      expect({ code: res.status, err: res.stderr }).toEqual({ code: 0, err: '' });
    }, 30_000);
  });
}
