// What a person at a terminal sees on stderr, on dist/kb driven through a
// pseudo-terminal (python3's pty module: stderr is the terminal, stdout a
// file, as in `kb search x > out`), and the same commands without one:
// - slow work (building a search index, checking a topic) shows a progress
//   line that is cleared when done: never without a terminal, never with
//   -q (KB_TEST_PROGRESS_MS=0 shows it at once, instead of after a second);
//   never on a TERM=dumb terminal, never from kb mcp; fitted to the
//   terminal's own width (PTY_COLS sets the pseudo-terminal's);
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
const DRIVER = `import fcntl, os, pty, struct, subprocess, sys, termios
m, s = pty.openpty()
if 'PTY_COLS' in os.environ:
    fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack('HHHH', 24, int(os.environ['PTY_COLS']), 0, 0))
stdin = open(os.environ['PTY_STDIN'], 'rb') if 'PTY_STDIN' in os.environ else subprocess.DEVNULL
with open(sys.argv[1], 'wb') as out:
    p = subprocess.Popen(sys.argv[2:], stdin=stdin, stdout=out, stderr=s)
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

/** The lines a progress line drew (each `\r` starts one), without the
 *  erase that ends each. */
function drawn(screen: string): string[] {
  return screen.split('\r').slice(1).map((l) => l.replace(/\x1b\[K$/, '')).filter((l) => l !== '');
}

/** Columns at a terminal: East Asian wide characters take two. */
function columns(line: string): number {
  let n = 0;
  for (const c of line) n += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/.test(c) ? 2 : 1;
  return n;
}

describe.skipIf(!hasPython)('the progress line and the terminal it is on', () => {
  const longId = fixture(files, '[kb.topic.engineering-handbook-of-the-team]\nsubjects = "docs"\n');
  const wide = fixture(files, '[kb.topic."工程手册与团队知识库的页面"]\nsubjects = "docs"\n');

  test('TERM=dumb: no line drawn (no \\r, no ESC [K), the search as without a terminal', () => {
    const seen = onTerminal(root, ['search', '--no-cache', 'releases'], { ...NOW, TERM: 'dumb' });
    expect(seen).toEqual({ out: run(BINARY, root, ['search', '--no-cache', 'releases']).out, screen: '', code: 0 });
    expect(onTerminal(root, ['check'], { ...NOW, TERM: 'dumb' }).screen).toBe('');
    // Any other terminal draws it.
    expect(onTerminal(root, ['search', '--no-cache', 'releases'], { ...NOW, TERM: 'xterm-256color' }).screen).toStartWith('\rindexing topic');
  });

  test('a 40-column terminal, COLUMNS not exported: every line fits in 39 columns, cut with …', () => {
    const seen = onTerminal(longId, ['search', '--no-cache', 'releases'], { ...NOW, PTY_COLS: '40' });
    expect(seen.code).toBe(0);
    const lines = drawn(seen.screen);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toBe('indexing topic "engineering-handbook-o…');
    for (const l of lines) expect(columns(l)).toBeLessThanOrEqual(39);
  });

  test('the terminal\'s own width wins over a COLUMNS left from another size; COLUMNS when it has none', () => {
    const own = drawn(onTerminal(longId, ['search', '--no-cache', 'releases'], { ...NOW, PTY_COLS: '40', COLUMNS: '200' }).screen);
    for (const l of own) expect(columns(l)).toBeLessThanOrEqual(39);
    // A pseudo-terminal of no size says nothing: COLUMNS, else 80.
    const given = drawn(onTerminal(longId, ['search', '--no-cache', 'releases'], { ...NOW, COLUMNS: '30' }).screen);
    expect(given[0]).toBe('indexing topic "engineering-…');
    expect(drawn(onTerminal(longId, ['search', '--no-cache', 'releases'], NOW).screen)[0]).toMatch(/^indexing topic "engineering-handbook-of-the-team" for search: \d+\/40$/);
  });

  test('wide characters count two columns', () => {
    const lines = drawn(onTerminal(wide, ['search', '--no-cache', 'releases'], { ...NOW, PTY_COLS: '40' }).screen);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toEndWith('…');
    for (const l of lines) expect(columns(l)).toBeLessThanOrEqual(39);
  });

  test('kb mcp draws none, its stderr a terminal: a search that builds an index answers, the terminal gets nothing', () => {
    const input = join(dir, 'mcp-in.jsonl');
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'releases' } } },
    ];
    writeFileSync(input, messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
    const seen = onTerminal(root, ['mcp', '--no-cache'], { ...NOW, PTY_STDIN: input, PTY_COLS: '80' });
    expect(seen.code).toBe(0);
    expect(seen.screen).toBe('');
    const replies = seen.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(replies.map((r) => r.id)).toEqual([1, 2]);
    expect(replies[1].result.content[0].text).toContain('40 subjects match "releases"');
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
