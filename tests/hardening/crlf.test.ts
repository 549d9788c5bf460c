// A workspace whose files end their lines in CRLF, as a Windows editor or
// git's autocrlf leaves them (docs/guide/install.md, "On Windows"; docs/development/robustness.md, "Configuration"): the
// configuration, .kbignore and a subject's frontmatter read as with LF;
// subjects are given as written.
import { describe, expect, test } from 'bun:test';
import { BINARY, fixture, run } from '../e2e/harness.ts';

const crlf = (s: string) => s.replaceAll('\n', '\r\n');

describe('CRLF line ends', () => {
  const root = fixture(
    {
      'docs/guide.md': crlf('---\ndescription: How to start\n---\n# Guide\n\nRun it.\n'),
      'docs/draft.md': crlf('Not yet.\n'),
      'docs/.kbignore': crlf('# drafts stay out\ndraft.md\n'),
    },
    crlf('# The project\'s knowledge.\n\n[kb.topic.docs]\nsubjects = "docs" # the folder\ntitle = "Docs"\n'),
  );

  test('the configuration, .kbignore and frontmatter read as with LF', () => {
    expect(run(BINARY, root, ['check'])).toEqual({ out: 'ok: 1 topic, 1 subject, no problems\n', err: '', code: 0 });
    expect(run(BINARY, root, ['learn', 'docs']).out).toBe(
      '# Topic: Docs\n\n## Available subjects:\n\n- guide: How to start\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n',
    );
  });

  test('a subject is loaded as written, its CRLFs kept (its trailing white space ends in one LF, as every subject)', () => {
    expect(run(BINARY, root, ['learn', 'docs', 'guide']).out).toBe(`${crlf('---\ndescription: How to start\n---\n# Guide\n\nRun it.')}\n`);
  });
});
