// A topic large enough for `kb learn TOPIC` to share the sniffing with its
// reader thread (src/kb/thread.ts), run as users run kb: the compiled binary
// (whose reader thread is a second entry point of the build) and the
// sources under deno. The listing must be exactly the one the files call
// for, whoever sniffed which file.
import { expect } from 'bun:test';
import { caseTest, fixture, run, type Runner } from './harness.ts';

const CONFIG = `[kb.topic.big]
title = "Big"
subjects = "kb"
learned = ["pre/*"]
disabled = ["off"]
`;

const BIN = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x02]);

/** 2,000 subjects in 40 folders: every 7th binary, every 11th hidden,
 *  plus collisions, a disabled and two pre-loaded subjects. */
export function bigTopic(): { root: string; listed: string[]; visible: number } {
  const files: Record<string, string | Uint8Array> = {
    'kb/dup.md': 'text\n',
    'kb/dup.txt': BIN,
    'kb/off.md': 'disabled\n',
    'kb/pre/a.md': 'learned\n',
    'kb/pre/b.md': 'learned\n',
    'kb/shown.md': 'shown\n',
    'kb/.shown.md': BIN,
  };
  const listed = ['dup', 'shown'];
  for (let i = 0; i < 2000; i++) {
    const dir = `d${String(i % 40).padStart(2, '0')}`;
    const name = `s${String(i).padStart(4, '0')}`;
    if (i % 11 === 0) files[`kb/${dir}/.${name}.md`] = `hidden ${i}\n`;
    else if (i % 7 === 0) files[`kb/${dir}/${name}.png`] = BIN;
    else {
      files[`kb/${dir}/${name}.md`] = `subject ${i}\n`;
      listed.push(`${dir}/${name}`);
    }
  }
  const visible = Object.keys(files).filter((p) => !p.split('/').some((c) => c.startsWith('.'))).length;
  return { root: fixture(files, CONFIG), listed: listed.sort(), visible };
}

function expectedListing(listed: string[]): string {
  return [
    '# Topic: Big',
    '',
    '## Available subjects:',
    '',
    listed.map((s) => `- ${s}`).join('\n'),
    '',
    'Use the `learn` tool with the `subjects` argument to learn specific subjects.',
    '',
    '## Already learned (in system prompt):',
    '',
    '- pre/a\n- pre/b',
    '',
  ].join('\n');
}

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  const { root, listed, visible } = bigTopic();

  test.parity('the listing of 2,000 subjects is exact', () => {
    const r = run(runner, root, ['learn', 'big']);
    expect({ err: r.err, code: r.code }).toEqual({ err: '', code: 0 });
    expect(r.out).toBe(expectedListing(listed));
  });

  test.parity('--verbose says how much the reader thread sniffed', () => {
    // How the work splits depends on timing; that the thread started, and
    // the file count, do not. (--no-cache: every head is read, whatever an
    // earlier listing kept: kb/fs/heads.ts.)
    const r = run(runner, root, ['learn', 'big', '--verbose', '--no-cache']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(expectedListing(listed));
    // Every visible file once, and `dup` once more: two files share that
    // slug, so the winner is sniffed again on its own.
    expect(r.err).toContain(`of ${visible + 1} files\n`);
    expect(r.err).toMatch(/^debug: reader thread: sniffed \d+ of \d+ files$/m);
  });

  test('loading every subject by glob is unaffected', () => {
    const r = run(runner, root, ['learn', 'big', 'd0*/**']);
    expect(r.code).toBe(0);
    expect(r.out.match(/^<subject "/gm)?.length).toBe(listed.filter((s) => s.startsWith('d0')).length);
  });
}
