// End-to-end: what a new user meets first on the command line. -q/--quiet,
// the --help pages (every command's: an example, no line wider than 100
// columns or padded with spaces), and a bad option pointing at the
// command's help. On the compiled binary and under deno.
import { describe, expect } from 'bun:test';
import { join } from 'node:path';
import { caseTest, REPO, RFD_CONFIG, RFD_FILES, fixture, run, tempDir, type Runner } from './harness.ts';

/** A workspace whose configuration warns (a misspelled key, a topic whose
 *  directory is missing) without failing. */
const WARNS_CONFIG = `${RFD_CONFIG}titel = "typo"

[kb.topic.gone]
subjects = ".jp/kb/gone"
`;

/** The sections of a help page, by heading (a line in capitals). */
function sections(page: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let heading = '';
  for (const line of page.split('\n')) {
    if (/^[A-Z][A-Z ]*$/.test(line)) heading = line;
    else if (heading && line !== '') (out[heading] ??= []).push(line);
  }
  return out;
}

export function cases(r: Runner): void {
  const test = caseTest(r);
  const rfd = fixture(RFD_FILES, RFD_CONFIG);
  const warns = fixture(RFD_FILES, WARNS_CONFIG);

  describe('-q / --quiet', () => {
    test.parity('silences the warnings; stdout and the exit code stay the same', () => {
      const runs: string[][] = [['prompt'], ['schema'], ['list'], ['learn', 'project'], ['learn', 'project', 'code-quality']];
      for (const args of runs) {
        const loud = run(r, warns, args);
        expect(loud.err).toContain('warning: ');
        expect(loud.code).toBe(0);
        for (const quiet of [['-q', ...args], [...args, '--quiet'], [...args, '-q']]) {
          expect(run(r, warns, quiet)).toEqual({ out: loud.out, err: '', code: 0 });
        }
      }
    });

    test('errors still print', () => {
      const unknownTopic = run(r, warns, ['-q', 'prompt', '-k', 'nope/x']);
      expect(unknownTopic.code).toBe(1);
      expect(unknownTopic.out).toBe('');
      expect(unknownTopic.err).toStartWith('error: ');
      expect(unknownTopic.err).not.toContain('warning: ');

      const broken = fixture({}, '[kb.topic.t\nsubjects = "t"\n');
      const res = run(r, broken, ['prompt', '--quiet']);
      expect(res.code).toBe(1);
      expect(res.err).toMatch(/^error: .*\(\.jp\/config\.toml:1:\d+\)\n$/);

      // A learn tool error is the model's text, on stdout, as without -q.
      const tool = run(r, warns, ['learn', '-q', 'nope']);
      expect(tool.code).toBe(1);
      expect(tool.out).toBe(run(r, warns, ['learn', 'nope']).out);
      expect(tool.err).toBe('');
    });

    test('kb check reports on stdout as before: -q changes nothing there', () => {
      const loud = run(r, warns, ['check']);
      expect(run(r, warns, ['check', '-q'])).toEqual(loud);
    });

    test('with --verbose: a usage error', () => {
      const res = run(r, rfd, ['-q', 'prompt', '--verbose']);
      expect(res.code).toBe(2);
      expect(res.out).toBe('');
      expect(res.err).toStartWith("error: --quiet and --verbose cannot be combined (kb prompt)\nrun 'kb prompt --help' for usage\n");
    });

    test('takes no value', () => {
      const res = run(r, rfd, ['prompt', '--quiet=yes']);
      expect(res.code).toBe(2);
      expect(res.err).toStartWith('error: option --quiet takes no value (--quiet=yes)\n');
    });
  });

  describe('--help', () => {
    const root = run(r, rfd, ['--help']);
    const commands = (sections(root.out).COMMANDS ?? []).map((l) => l.trim().split(/\s+/)[0]);
    const pages: [string, string[]][] = [['kb', ['--help']], ...commands.map((c): [string, string[]] => [`kb ${c}`, [c, '--help']])];

    test.parity('kb --help lists every command and -q/--quiet', () => {
      expect(root.code).toBe(0);
      expect(commands).toEqual(['init', 'prompt', 'schema', 'learn', 'search', 'recall', 'remember', 'revise', 'forget', 'check', 'list', 'export', 'mcp', 'config-schema', 'completion']);
      expect(root.out).toMatch(/^ {2}-q, --quiet +Print no warnings/m);
    });

    // Under deno too: each page loads its command's module.
    test.parity.each(pages)('%s: no line padded with spaces or wider than 100 columns; an example', (name, args) => {
      const res = run(r, rfd, args);
      expect({ err: res.err, code: res.code }).toEqual({ err: '', code: 0 });
      const lines = res.out.replace(/\n$/, '').split('\n');
      expect(lines.filter((l) => /\s$/.test(l))).toEqual([]);
      expect(lines.filter((l) => [...l].length > 100)).toEqual([]);
      expect(lines.length).toBeGreaterThan(5);
      expect((sections(res.out).EXAMPLES ?? []).some((l) => l.includes(`${name} `) || l.trimEnd().endsWith(name))).toBe(true);
      // Every page tells about -q.
      expect(res.out).toContain('-q, --quiet');
    });

    test('kb learn: both forms in the usage, PATTERN repeatable', () => {
      const usage = sections(run(r, rfd, ['learn', '--help']).out).USAGE;
      expect(usage).toEqual(['  kb learn [OPTIONS] TOPIC [PATTERN...]', '  kb learn [OPTIONS] --args <json>']);
    });

    test.parity('-h is --help; after --, --help is an argument', () => {
      expect(run(r, rfd, ['learn', '-h'])).toEqual(run(r, rfd, ['learn', '--help']));
      const literal = run(r, rfd, ['learn', 'project', '--', '--help']);
      expect(literal.out).not.toContain('USAGE');
    });
  });

  describe('the example workspace of the docs', () => {
    // Run from a temporary home: nothing is written into examples/.
    const home = tempDir();
    const examples = join(REPO, 'examples');
    const preloaded = (args: string[]) => [...run(r, home, ['-w', examples, 'prompt', ...args]).out.matchAll(/<subject "([^"]+)">/g)].map((m) => m[1]);

    test('-k and learned+= add to learned; --cfg kb/maintainers replaces it', () => {
      expect(preloaded([])).toEqual(['code-quality']);
      const added = ['code-quality', 'maintainers/jean', 'maintainers/ryan'];
      expect(preloaded(['-k', 'project/maintainers/*'])).toEqual(added);
      expect(preloaded(['--cfg', 'kb.topic.project.learned+=maintainers/*'])).toEqual(added);
      expect(preloaded(['--cfg', 'kb/maintainers'])).toEqual(['maintainers/jean', 'maintainers/ryan']);
    });
  });

  describe('a bad option points at the command\'s help', () => {
    test.each([
      [['learn', '--foo'], 'unknown option --foo (kb learn)', 'kb learn'],
      [['learn', 'project', '-x'], 'unknown option -x (kb learn)', 'kb learn'],
      [['--foo', 'prompt'], 'unknown option --foo (kb prompt)', 'kb prompt'],
      [['schema', '--format=yaml'], 'invalid value "yaml" for --format; expected one of: generic, openai, anthropic, gemini, mcp (--format=yaml)', 'kb schema'],
      [['check', 'extra'], 'kb check takes no arguments (extra)', 'kb check'],
      [['--foo'], 'unknown option --foo (kb)', 'kb'],
    ])('%p', (args, message, where) => {
      const res = run(r, rfd, args);
      expect(res).toEqual({ out: '', err: `error: ${message}\nrun '${where} --help' for usage\n`, code: 2 });
      // The hint works.
      const help = run(r, rfd, [...where.split(' ').slice(1), '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toContain('USAGE');
    });
  });
}
