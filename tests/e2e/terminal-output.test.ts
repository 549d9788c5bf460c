// What a person at a terminal sees on stderr, on dist/kb driven through a
// pseudo-terminal (python3's pty module: stderr is the terminal, stdout a
// file, as in `kb search x > out`), and the same commands without one:
// - slow work (building a search index, checking a topic) shows a progress
//   line that is cleared when done: never without a terminal, never with
//   -q (KB_TEST_PROGRESS_MS=0 shows it at once, instead of after a second);
// - `error:` and `warning:` in colour, never without a terminal nor with
//   NO_COLOR set.
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, BINARY, fixture, isolatedEnv, run, tempDir } from './harness.ts';

const hasPython = spawnSync('python3', ['-c', 'import pty'], { encoding: 'utf8' }).status === 0;

/** Runs `python3 driver.py OUT CMD...`: CMD with stderr on a new
 *  pseudo-terminal (what it printed there is the driver's stdout), stdout
 *  into the file OUT. */
const DRIVER = `import os, pty, subprocess, sys
m, s = pty.openpty()
with open(sys.argv[1], 'wb') as out:
    p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=out, stderr=s)
os.close(s)
chunks = []
while True:
    try:
        d = os.read(m, 65536)
    except OSError:
        break
    if not d:
        break
    chunks.append(d)
sys.stdout.buffer.write(b''.join(chunks))
sys.exit(p.wait())
`;
const dir = tempDir();
const driver = join(dir, 'driver.py');
writeFileSync(driver, DRIVER);

interface Seen {
  out: string;
  /** What the terminal received (the pty's CR LF read as LF). */
  screen: string;
  code: number | null;
}

function onTerminal(root: string, args: string[], env: Record<string, string> = {}): Seen {
  const outFile = join(dir, `out-${Math.random().toString(36).slice(2)}`);
  const envs = isolatedEnv(root, env);
  if (env.NO_COLOR === undefined) delete envs.NO_COLOR;
  const r = spawnSync('python3', [driver, outFile, BIN, ...args], { cwd: root, env: envs, encoding: 'utf8', timeout: 30000 });
  return { out: readFileSync(outFile, 'utf8'), screen: (r.stdout ?? '').replace(/\r\n/g, '\n'), code: r.status };
}

const files: Record<string, string> = {};
for (let i = 0; i < 40; i++) files[`docs/page-${i}.md`] = `# Page ${i}\n\nAbout releases and page ${i}.\n`;
const root = fixture(files, '[kb.topic.docs]\nsubjects = "docs"\n');
const NOW = { KB_TEST_PROGRESS_MS: '0' };
const RED = '\x1b[1;31merror:\x1b[0m ';
const YELLOW = '\x1b[1;33mwarning:\x1b[0m ';

describe.skipIf(!hasPython)('at a terminal (dist/kb through a pseudo-terminal)', () => {
  test('building a search index: a progress line, cleared when done; stdout untouched', () => {
    const seen = onTerminal(root, ['search', '--no-cache', 'releases'], NOW);
    expect(seen.code).toBe(0);
    expect(seen.screen).toMatch(/^\rindexing topic "docs" for search: \d+\/40\x1b\[K/);
    // Cleared: the screen ends on an erased line, nothing left on it.
    expect(seen.screen).toEndWith('\r\x1b[K');
    expect(seen.out).toBe(run(BINARY, root, ['search', '--no-cache', 'releases']).out);
  });

  test('kb check on a topic: a progress line, cleared', () => {
    const seen = onTerminal(root, ['check'], NOW);
    expect(seen.code).toBe(0);
    expect(seen.screen).toContain('\rchecking topic "docs": ');
    expect(seen.screen).toEndWith('\r\x1b[K');
  });

  test('no progress line with -q, nor before the work has taken a second', () => {
    expect(onTerminal(root, ['-q', 'search', '--no-cache', 'releases'], NOW).screen).toBe('');
    expect(onTerminal(root, ['search', '--no-cache', 'releases']).screen).toBe('');
  });

  test('error: in red, warning: in yellow; plain with NO_COLOR', () => {
    expect(onTerminal(root, ['learn', '--foo'])).toEqual({ out: '', screen: `${RED}unknown option --foo (kb learn)\nrun 'kb learn --help' for usage\n`, code: 2 });
    const near = onTerminal(root, ['learn', 'docs', 'page-1.md']);
    expect(near.screen).toBe(`${YELLOW}topic "docs": "page-1.md" matched no subject; used "page-1" instead\n`);
    expect(onTerminal(root, ['learn', '--foo'], { NO_COLOR: '1' }).screen).toBe("error: unknown option --foo (kb learn)\nrun 'kb learn --help' for usage\n");
    expect(onTerminal(root, ['learn', 'docs', 'page-1.md'], { NO_COLOR: '1' }).screen).toBe('warning: topic "docs": "page-1.md" matched no subject; used "page-1" instead\n');
  });
});

describe('without a terminal (stderr a pipe)', () => {
  test('no progress line, no colour, even with NO_COLOR unset', () => {
    const env = { ...isolatedEnv(root, NOW) } as Record<string, string>;
    delete env.NO_COLOR;
    const r = spawnSync(BIN, ['search', '--no-cache', 'releases'], { cwd: root, env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const bad = spawnSync(BIN, ['learn', '--foo'], { cwd: root, env, encoding: 'utf8' });
    expect(bad.stderr).toBe("error: unknown option --foo (kb learn)\nrun 'kb learn --help' for usage\n");
  });
});
