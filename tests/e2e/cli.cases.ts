// End-to-end: every command as a user runs it, on the compiled binary and
// under deno. Each case checks stdout, stderr and the exit code together.
import { describe, expect } from 'bun:test';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AVAILABLE, PRELOADED } from '../support/rfd.ts';
import { caseTest, NOTE, RFD_CONFIG, RFD_FILES, fixture, isolatedEnv, run, type Runner } from './harness.ts';

export function cases(r: Runner): void {
  const test = caseTest(r);
  const rfd = fixture(RFD_FILES, RFD_CONFIG);

  describe('kb prompt', () => {
    test.parity('prints the available-topics section exactly as the RFD', () => {
      expect(run(r, rfd, ['prompt'])).toEqual({ out: `<knowledge>\n${AVAILABLE}`, err: '', code: 0 });
    });

    test('-k pre-loads subjects; the topic stays available (rule 1)', () => {
      expect(run(r, rfd, ['prompt', '-k', 'project/maintainers/*'])).toEqual({ out: PRELOADED, err: '', code: 0 });
    });

    test.parity('-k after or before the command, --knowledge=, and repeated -k all merge', () => {
      expect(run(r, rfd, ['-k', 'project/maintainers/*', 'prompt']).out).toBe(PRELOADED);
      expect(run(r, rfd, ['prompt', '--knowledge=project/maintainers/jean', '-k', 'project/maintainers/ryan']).out).toBe(PRELOADED);
    });

    test('--cfg KEY+=VALUE is equivalent to -k', () => {
      expect(run(r, rfd, ['prompt', '--cfg', 'kb.topic.project.learned+=maintainers/*'])).toEqual({ out: PRELOADED, err: '', code: 0 });
    });

    test('--cfg with a load path reads .jp/config.d/<path>.toml', () => {
      const root = fixture({ ...RFD_FILES, '.jp/config.d/kb/maintainers.toml': '[kb.topic.project]\nlearned = ["maintainers/*"]\n' }, RFD_CONFIG);
      expect(run(r, root, ['prompt', '--cfg', 'kb/maintainers'])).toEqual({ out: PRELOADED, err: '', code: 0 });
      expect(run(r, root, ['prompt', '-c', '@.jp/config.d/kb/maintainers.toml']).out).toBe(PRELOADED);
    });

    test('a topic whose every visible subject is learned is left out of the list (rule 4)', () => {
      const res = run(r, rfd, ['prompt', '-k', 'skills/*']);
      expect(res.code).toBe(0);
      expect(res.out).toContain('<topic "Learnable Assistant Skills">\n\n<subject "ast-grep">');
      expect(res.out).not.toContain('- skills');
      expect(res.out).toContain('- project (**General Project Knowledge**): foo bar baz...');
    });

    test('prints nothing when there is nothing to show', () => {
      const empty = fixture({ '.jp/kb/t/.only-hidden.md': 'x' }, '[kb.topic.t]\nsubjects = ".jp/kb/t"\n');
      expect(run(r, empty, ['prompt'])).toEqual({ out: '', err: '', code: 0 });
      const none = fixture({}, '');
      expect(run(r, none, ['prompt'])).toEqual({ out: '', err: '', code: 0 });
    });

    test('topic lines drop absent parts; disabled topics are not shown', () => {
      const root = fixture(
        { 'a/x.md': 'x', 'b/y.md': 'y', 'c/z.md': 'z' },
        '[kb.topic.a]\nsubjects = "a"\nintroduction = "intro only"\n[kb.topic.b]\nsubjects = "b"\n[kb.topic.c]\nsubjects = "c"\nenable = false\n',
      );
      const res = run(r, root, ['prompt']);
      expect(res.out).toContain('\n- a: intro only\n- b\n\nUse the');
      expect(res.out).not.toContain('- c');
    });

    test.parity('runs from a subdirectory (workspace discovery) and with -w', () => {
      mkdirSync(join(rfd, 'deep/er'), { recursive: true });
      expect(run(r, rfd, ['prompt'], { cwd: join(rfd, 'deep/er') }).out).toBe(`<knowledge>\n${AVAILABLE}`);
      const outside = fixture({}, undefined);
      expect(run(r, outside, ['-w', rfd, 'prompt']).out).toBe(`<knowledge>\n${AVAILABLE}`);
    });
  });

  describe('kb learn', () => {
    test('listing without subjects, no description', () => {
      expect(run(r, rfd, ['learn', 'skills'])).toEqual({
        out: '# Topic: Learnable Assistant Skills\n\n## Available subjects:\n\n- ast-grep\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n',
        err: '',
        code: 0,
      });
    });

    test('names carrying numbers list by value (natural order), folders together; a glob loads in code-unit order', () => {
      const names = ['4.2.10', '4.2.2', '4.2.1', 'ch10/a', 'ch9/a', 'ch9/b', 'ch1/a'];
      const root = fixture(Object.fromEntries(names.map((n) => [`docs/${n}.md`, `${n}\n`])), '[kb.topic.d]\nsubjects = "docs"\n');
      const res = run(r, root, ['learn', 'd']);
      expect(res.code).toBe(0);
      expect(res.out).toContain('- 4.2.1\n- 4.2.2\n- 4.2.10\n- ch1/a\n- ch9/a\n- ch9/b\n- ch10/a\n');
      expect(run(r, root, ['learn', 'd', 'ch9']).out).toContain('- ch9/a\n- ch9/b\n');
      expect(run(r, root, ['learn', 'd', '4.2.*']).out.match(/4\.2\.\d+\n/g)).toEqual(['4.2.1\n', '4.2.10\n', '4.2.2\n']);
    });

    test.parity('listing with description and the already-learned part', () => {
      expect(run(r, rfd, ['learn', 'project', '-k', 'project/maintainers/*'])).toEqual({
        out: `# Topic: General Project Knowledge

longer initial description talking about this

## Available subjects:

- code-quality

Use the \`learn\` tool with the \`subjects\` argument to learn specific subjects.

## Already learned (in system prompt):

- maintainers/jean
- maintainers/ryan
`,
        err: '',
        code: 0,
      });
    });

    test('topic by case-insensitive title', () => {
      expect(run(r, rfd, ['learn', 'learnable assistant SKILLS']).out).toStartWith('# Topic: Learnable Assistant Skills\n');
    });

    test.parity('one exact subject: raw content', () => {
      expect(run(r, rfd, ['learn', 'skills', 'ast-grep'])).toEqual({ out: RFD_FILES['.jp/kb/skills/ast-grep.md'], err: '', code: 0 });
    });

    test.parity('hidden subject by exact slug, with its dot dropped', () => {
      expect(run(r, rfd, ['learn', 'skills', 'ast-grep/rules'])).toEqual({ out: 'RULES-BODY\n', err: '', code: 0 });
    });

    test('** wraps every non-hidden subject; hidden ones are never matched by globs', () => {
      expect(run(r, rfd, ['learn', 'project', '**'])).toEqual({
        out: '<subject "code-quality">\n# Code quality\nRun the linters.\n</subject>\n\n<subject "maintainers/jean">\nJean maintains the CLI.\n</subject>\n\n<subject "maintainers/ryan">\nRyan maintains the LLM crates.\n</subject>\n',
        err: '',
        code: 0,
      });
    });

    test('several patterns keep pattern order and drop duplicates', () => {
      const res = run(r, rfd, ['learn', 'project', 'maintainers/ryan', 'maintainers/*', 'code-quality']);
      expect(res.code).toBe(0);
      const order = [...res.out.matchAll(/<subject "([^"]+)">/g)].map((m) => m[1]);
      expect(order).toEqual(['maintainers/ryan', 'maintainers/jean', 'code-quality']);
    });

    test.parity('a pattern that matches nothing: a note, exit 1; with other matches: exit 0', () => {
      expect(run(r, rfd, ['learn', 'skills', 'nope'])).toEqual({
        out: 'No subjects match "nope" in topic "skills". Call `learn` with only the topic to list its subjects.\n',
        err: '',
        code: 1,
      });
      const some = run(r, rfd, ['learn', 'skills', 'ast-grep', 'nope']);
      expect(some.code).toBe(0);
      expect(some.out).toBe('<subject "ast-grep">\nUse ast-grep. Read `ast-grep/rules` for full rule documentation.\n</subject>\n\nNo subjects match "nope" in topic "skills". Call `learn` with only the topic to list its subjects.\n');
    });

    test('pre-loaded subjects are not returned again', () => {
      const res = run(r, rfd, ['learn', 'project', 'maintainers/jean', '-k', 'project/maintainers/*']);
      expect(res.out).toBe('Subject "maintainers/jean" is already in your system prompt (pre-loaded); it is not returned again.\n');
      expect(res.code).toBe(1);
    });

    test('disabled subjects cannot be loaded, even exactly', () => {
      const res = run(r, rfd, ['learn', 'skills', 'ast-grep', '--cfg', 'kb.topic.skills.disabled+=ast-grep']);
      expect(res.code).toBe(1);
      expect(res.out).toContain('No subjects match "ast-grep"');
    });

    test('unknown topic: an error listing the valid topics, exit 1', () => {
      expect(run(r, rfd, ['learn', 'nope'])).toEqual({
        out: 'Unknown topic "nope". Valid topics: project (General Project Knowledge), skills (Learnable Assistant Skills).\n',
        err: '',
        code: 1,
      });
    });

    test('patterns with .. or absolute paths match nothing and read nothing outside', () => {
      const root = fixture({ 'secret.md': 'SECRET', 't/a.md': 'a' }, '[kb.topic.t]\nsubjects = "t"\n');
      for (const p of ['../secret', '/etc/passwd', '../*', 'a/../../secret']) {
        const res = run(r, root, ['learn', 't', p]);
        expect(res.code).toBe(1);
        expect(res.out).not.toContain('SECRET');
      }
    });

    test.parity('formats: toml fenced, markdown raw, fence longer than any backtick run', () => {
      const root = fixture(
        { 't/cfg.toml': '[package]\nname = "example"\n', 't/code.rs': 'fn main() {}\n', 't/doc.txt': 'plain\n', 't/ticks.py': 'x = """```"""\n' },
        '[kb.topic.t]\nsubjects = "t"\n',
      );
      expect(run(r, root, ['learn', 't', 'cfg']).out).toBe('```toml\n[package]\nname = "example"\n```\n');
      expect(run(r, root, ['learn', 't', 'code']).out).toBe('```rust\nfn main() {}\n```\n');
      expect(run(r, root, ['learn', 't', 'doc']).out).toBe('plain\n');
      expect(run(r, root, ['learn', 't', 'ticks']).out).toBe('````python\nx = """```"""\n````\n');
    });

    test('a binary matched by a learned glob is not called pre-loaded', () => {
      const root = fixture({ 't/logo.png': new Uint8Array([137, 80, 78, 71, 0, 1, 2]), 't/a.md': 'A\n', 't/b.md': 'B\n' }, '[kb.topic.t]\nsubjects = "t"\nlearned = ["*"]\n');
      const res = run(r, root, ['learn', 't']);
      expect(res.code).toBe(0);
      expect(res.out).toEndWith('## Already learned (in system prompt):\n\n- a\n- b\n');
    });

    test.parity('binary files: skipped by globs, a one-line notice when named', () => {
      const root = fixture({ 't/logo.png': new Uint8Array([137, 80, 78, 71, 0, 1, 2]), 't/a.md': 'A\n' }, '[kb.topic.t]\nsubjects = "t"\n');
      expect(run(r, root, ['learn', 't'])).toEqual({
        out: '# Topic: t\n\n## Available subjects:\n\n- a\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n',
        err: '',
        code: 0,
      });
      expect(run(r, root, ['learn', 't', '*']).out).toBe('<subject "a">\nA\n</subject>\n');
      expect(run(r, root, ['learn', 't', 'logo'])).toEqual({ out: 'Skipped "logo": it is a binary file.\n', err: '', code: 1 });
    });

    test('--args takes the call exactly as a model sends it', () => {
      expect(run(r, rfd, ['learn', '--args', '{"topic":"skills","subjects":["ast-grep"]}']).out).toBe(RFD_FILES['.jp/kb/skills/ast-grep.md']);
      expect(run(r, rfd, ['learn', '--args', '{"topic":"skills","subjects":"ast-grep"}']).out).toBe(RFD_FILES['.jp/kb/skills/ast-grep.md']);
      expect(run(r, rfd, ['learn', '--args', '{"topic":"skills","subjects":null}']).out).toStartWith('# Topic: Learnable Assistant Skills\n');
      expect(run(r, rfd, ['learn', '--args', '{"topic":"skills"}']).out).toStartWith('# Topic: Learnable Assistant Skills\n');
    });

    test.parity('--args - reads the JSON from stdin', () => {
      const res = run(r, rfd, ['learn', '--args', '-'], { input: '{"topic": "skills", "subjects": ["ast-grep/rules"]}' });
      expect(res).toEqual({ out: 'RULES-BODY\n', err: '', code: 0 });
    });

    test.parity('--args rejects bad calls with a message for the model, exit 1', () => {
      const bad: [string, string][] = [
        ['{"topic":"skills","subject":"x"}', 'unknown argument "subject"'],
        ['{"subjects":["x"]}', '"topic" is required'],
        ['{"topic":3}', '"topic" must be a string, not number'],
        ['{"topic":"skills","subjects":5}', '"subjects" must be a string, an array of strings or null, not number'],
        ['{"topic":"skills","subjects":["a",1]}', '"subjects"[1] must be a string, not number'],
        ['[1]', 'the arguments must be a JSON object, not array'],
        ['{"topic":', 'the arguments are not valid JSON'],
      ];
      for (const [json, problem] of bad) {
        const res = run(r, rfd, ['learn', '--args', json]);
        expect(res.code).toBe(1);
        expect(res.err).toBe('');
        expect(res.out).toStartWith(`Invalid arguments for \`learn\`: ${problem}`);
      }
    });

    test('--args with positionals, or no topic at all, is wrong usage (exit 2)', () => {
      const both = run(r, rfd, ['learn', 'skills', '--args', '{}']);
      expect(both.code).toBe(2);
      expect(both.out).toBe('');
      expect(both.err).toStartWith('error: --args cannot be combined with TOPIC or PATTERN arguments (skills)\n');
      const none = run(r, rfd, ['learn']);
      expect(none.code).toBe(2);
      expect(none.err).toStartWith('error: missing TOPIC (or --args JSON)\n');
    });
  });

  describe('kb schema', () => {
    test.parity('the learn tool with the RFD parameters and a generated description', () => {
      const res = run(r, rfd, ['schema']);
      expect(res.code).toBe(0);
      expect(res.err).toBe('');
      expect(JSON.parse(res.out)).toEqual({
        name: 'learn',
        description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)\n- skills (Learnable Assistant Skills)',
        parameters: {
          type: 'object',
          properties: {
            topic: { type: 'string', description: 'The topic ID or title to learn about.' },
            subjects: {
              type: ['string', 'array', 'null'],
              description: 'Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.',
              items: { type: 'string' },
            },
          },
          required: ['topic'],
          additionalProperties: false,
        },
      });
    });

    test('parameters never change with the configuration; the description names only learnable topics', () => {
      const a = JSON.parse(run(r, rfd, ['schema']).out);
      const b = JSON.parse(run(r, rfd, ['schema', '-k', 'skills/ast-grep', '-k', 'skills/ast-grep/rules']).out);
      expect(b.parameters).toEqual(a.parameters);
      expect(b.description).not.toContain('skills');
      expect(b.description).toContain('project');
    });

    test('a topic with only hidden subjects left keeps the tool (NOTES 14)', () => {
      const res = run(r, rfd, ['schema', '-k', 'skills/*', '-k', 'project/**']);
      expect(JSON.parse(res.out).description).toContain('- skills (Learnable Assistant Skills)');
      expect(JSON.parse(res.out).description).toContain('- project (General Project Knowledge)');
    });

    test('nothing learnable: no definition', () => {
      const root = fixture({ 't/a.md': 'a' }, '[kb.topic.t]\nsubjects = "t"\nlearned = ["a"]\n');
      expect(run(r, root, ['schema'])).toEqual({ out: '', err: '', code: 0 });
    });
  });

  describe('kb check', () => {
    test('a good workspace passes', () => {
      expect(run(r, rfd, ['check'])).toEqual({ out: 'ok: 2 topics, 6 subjects, no problems\n', err: '', code: 0 });
    });

    test.parity('a TOML syntax error names file, line and column', () => {
      const root = fixture({}, '[kb.topic.t]\nsubjects = \n');
      const res = run(r, root, ['check']);
      expect(res.code).toBe(1);
      expect(res.out).toMatch(/^error: .*\(\.jp\/config\.toml:2:\d+\)$/m);
    });

    test('a misspelled field is named, with the file', () => {
      const root = fixture({ 't/a.md': 'a' }, '[kb.topic.t]\nsubjects = "t"\ntitel = "T"\n');
      const res = run(r, root, ['check']);
      expect(res.code).toBe(1);
      expect(res.out).toContain('titel');
      expect(res.out).toContain('title');
      expect(res.out).toContain('.jp/config.toml');
    });

    test.parity('wrong types, missing subjects, missing directory, collisions, stale learned/disabled', () => {
      const root = fixture(
        { 'c/a.md': 'a', 'c/a.txt': 'a', 'd/x.md': 'x' },
        [
          '[kb.topic.wrong]\nsubjects = "d"\nenable = "yes"\n',
          '[kb.topic.nosubjects]\ntitle = "No subjects"\n',
          '[kb.topic.gone]\nsubjects = "does/not/exist"\n',
          '[kb.topic.collide]\nsubjects = "c"\n',
          '[kb.topic.stale]\nsubjects = "d"\nlearned = ["nothing/*"]\ndisabled = ["ghost"]\n',
        ].join('\n'),
      );
      const res = run(r, root, ['check', '--format', 'json']);
      expect(res.code).toBe(1);
      const report = JSON.parse(res.out);
      const codes = report.diagnostics.map((d: { code: string }) => d.code).sort();
      expect(codes).toEqual(['disabled-no-match', 'learned-no-match', 'missing-subjects', 'slug-collision', 'subjects-not-found', 'wrong-type']);
      expect(report.ok).toBe(false);
      const at = Object.fromEntries(report.diagnostics.map((d: { code: string; where: string }) => [d.code, d.where]));
      expect(at).toEqual({
        'wrong-type': '.jp/config.toml:3',
        'missing-subjects': '.jp/config.toml:5',
        'subjects-not-found': '.jp/config.toml:9',
        'slug-collision': 'c/a.md',
        'learned-no-match': '.jp/config.toml:16',
        'disabled-no-match': '.jp/config.toml:17',
      });
      const text = run(r, root, ['check']);
      expect(text.code).toBe(1);
      expect(text.out).toContain('error: topic "gone": subjects directory "does/not/exist" does not exist (.jp/config.toml:9)\n');
      expect(text.out).toContain('warning: topic "collide": slug "a" is shared by 2 files: it loads a.md; the other loads by its name with its extension, "a.txt" (c/a.md)\n');
      expect(text.out).toEndWith('failed: 4 topics, 3 subjects, 5 errors, 1 warning\n');
      for (const d of report.diagnostics) expect(d.severity).toBe(d.code === 'slug-collision' ? 'warning' : 'error');
    });

    test('binary files are one line a topic, not warnings nor subjects; non-UTF-8 subjects are warnings: exit 0', () => {
      const root = fixture({ 't/a.md': 'a', 't/b.bin': new Uint8Array([0, 1]), 't/c.txt': new Uint8Array([0x66, 0xff, 0x66]) }, '[kb.topic.t]\nsubjects = "t"\n');
      const res = run(r, root, ['check']);
      expect(res.code).toBe(0);
      expect(res.out).toContain('warning: topic "t": subject "c" is not valid UTF-8');
      expect(res.out).toEndWith('topic "t": 1 binary file is not a subject: 1 bin (kb check --verbose lists them)\nok: 1 topic, 2 subjects, 0 errors, 1 warning\n');
      expect(run(r, root, ['--verbose', 'check']).out).toContain('topic "t": 1 binary file is not a subject: 1 bin\n  t/b.bin\nok: ');
      const json = JSON.parse(run(r, root, ['check', '--format', 'json']).out);
      expect(json.topics[0]).toMatchObject({ subjects: 2, binary: { count: 1, extensions: [{ ext: 'bin', count: 1 }], files: [{ slug: 'b', path: 't/b.bin' }] } });
    });
  });

  describe('kb list', () => {
    test.parity('every subject with sizes and marks', () => {
      const res = run(r, rfd, ['list', '-k', 'project/maintainers/jean']);
      expect(res.code).toBe(0);
      expect(res.err).toBe('');
      expect(res.out).toBe(`project (General Project Knowledge): .jp/kb/project
  code-quality      32 B  ~7 tok
  internal-notes    22 B  ~4 tok  hidden
  maintainers/jean  24 B  ~5 tok  learned
  maintainers/ryan  31 B  ~6 tok
  (~22 tokens in all)

skills (Learnable Assistant Skills): .jp/kb/skills
  ast-grep        65 B  ~17 tok
  ast-grep/rules  11 B   ~3 tok  hidden
  (~20 tokens in all)

2 topics, 6 subjects
`);
    });

    test.parity("a topic's problems: ten shown, the rest counted; --verbose shows each", () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 12; i++) {
        files[`site/page${String(i).padStart(2, '0')}.txt`] = `Page ${i}\n`;
        files[`site/page${String(i).padStart(2, '0')}.html`] = `<p>Page ${i}</p>\n`;
      }
      const ws = fixture(files, '[kb.topic.site]\nsubjects = "site"\n');
      const plain = run(r, ws, ['list']);
      expect(plain.code).toBe(0);
      expect(plain.out.split('\n').filter((l) => l.startsWith('  ! slug ')).length).toBe(10);
      expect(plain.out).toContain('  ! … and 2 more (kb list --verbose or kb check lists them)\n');
      const verbose = run(r, ws, ['list', '--verbose']);
      expect(verbose.out.split('\n').filter((l) => l.startsWith('  ! slug ')).length).toBe(12);
      expect(verbose.out).not.toContain('more (kb list --verbose');
    });

    test('a disabled topic with a learned glob is listed, its matches marked', () => {
      const ws = fixture(
        { 't/a.md': 'x\n' },
        '[kb.topic.t]\nsubjects = "t"\n\n[kb.topic.d]\nenable = false\nsubjects = "t"\nlearned = ["*"]\n',
      );
      expect(run(r, ws, ['list'])).toEqual({
        out: `t: t
  a  2 B  ~1 tok
  (~1 token in all)

d: t [topic disabled]
  a  2 B  ~1 tok  learned
  (~1 token in all)

2 topics, 2 subjects
`,
        err: '',
        code: 0,
      });
    });
  });

  describe('the command line', () => {
    test.parity('--version and --help', () => {
      // The version, then the commit and target of a built binary
      // (tests/e2e/version.test.ts), or where the sources run.
      expect(run(r, rfd, ['--version'])).toEqual({
        out: expect.stringMatching(/^1\.0\.0 \((commit ([0-9a-f]{12}(-dirty)?|unknown), [a-z0-9]+-(x64|arm64)(-musl)?|from source, deno [a-z0-9]+-[a-z0-9]+)\)\n$/),
        err: '',
        code: 0,
      });
      const help = run(r, rfd, ['--help']);
      expect(help.code).toBe(0);
      for (const c of ['prompt', 'schema', 'learn', 'check', 'list', '--workspace', '--cfg', '--knowledge']) expect(help.out).toContain(c);
      const learnHelp = run(r, rfd, ['learn', '--help']);
      expect(learnHelp.code).toBe(0);
      expect(learnHelp.out).toContain('--args');
    });

    test.parity('wrong usage exits 2 with a message, no stack trace', () => {
      const cases: [string[], string][] = [
        [['frobnicate'], 'error: unknown command "frobnicate"; commands: init, prompt, schema, learn, search, recall, remember, revise, forget, check, list, export, mcp, config-schema, completion'],
        [['prompt', '--bogus'], 'error: unknown option --bogus (kb prompt)'],
        [['prompt', '-k'], 'error: option --knowledge needs a value (-k)'],
        [['prompt', 'extra'], 'error: kb prompt takes no arguments (extra)'],
        [['check', '--format', 'xml'], 'error: invalid value "xml" for --format; expected one of: text, json (--format)'],
        [[], 'error: no command given'],
      ];
      for (const [args, msg] of cases) {
        const res = run(r, rfd, args);
        expect(res.code).toBe(2);
        expect(res.out).toBe('');
        expect(res.err).toContain(`${msg}\n`);
        expect(res.err).not.toContain('    at ');
      }
    });

    test.parity('a misspelled command: did you mean; a usage error under --verbose: still no stack trace', () => {
      const commands = 'init, prompt, schema, learn, search, recall, remember, revise, forget, check, list, export, mcp, config-schema, completion';
      expect(run(r, rfd, ['lern', 'project'])).toEqual({ out: '', err: `error: unknown command "lern"; did you mean "learn"? commands: ${commands}\nrun 'kb --help' for usage\n`, code: 2 });
      expect(run(r, rfd, ['Serch', 'x']).err).toStartWith('error: unknown command "Serch"; did you mean "search"? commands: ');
      expect(run(r, rfd, ['-q', '--verbose', 'list'])).toEqual({ out: '', err: "error: --quiet and --verbose cannot be combined (kb list)\nrun 'kb list --help' for usage\n", code: 2 });
      expect(run(r, rfd, ['--verbose', 'prompt', '--bogus'])).toEqual({ out: '', err: "error: unknown option --bogus (kb prompt)\nrun 'kb prompt --help' for usage\n", code: 2 });
    });

    test('-k with an unknown topic names the valid ones, exit 1', () => {
      const res = run(r, rfd, ['prompt', '-k', 'nope/x']);
      expect(res.code).toBe(1);
      expect(res.out).toBe('');
      expect(res.err).toContain('nope');
      expect(res.err).toContain('project');
      expect(res.err).toContain('skills');
    });

    test.parity('no workspace: a clear error', () => {
      const outside = fixture({});
      const res = run(r, outside, ['prompt', '-w', join(outside, 'missing')]);
      expect(res.code).toBe(1);
      expect(res.out).toBe('');
      expect(res.err).toStartWith('error: ');
    });

    test('a broken config stops other commands with file and position, no stack trace', () => {
      const root = fixture({}, '[kb.topic.t\nsubjects = "t"\n');
      const res = run(r, root, ['prompt']);
      expect(res.code).toBe(1);
      expect(res.out).toBe('');
      expect(res.err).toMatch(/^error: .*\(\.jp\/config\.toml:1:\d+\)\n/);
      expect(res.err).not.toContain('    at ');
    });

    test.parity('--verbose says which files were read and which file set each value, on stderr only', () => {
      const root = fixture({ ...RFD_FILES, '.jp/config.d/kb/m.toml': '[kb.topic.project]\nlearned = ["maintainers/*"]\n' }, RFD_CONFIG);
      const quiet = run(r, root, ['schema', '--cfg', 'kb/m']);
      const res = run(r, root, ['schema', '--verbose', '--cfg', 'kb/m', '-k', 'skills/ast-grep'], { env: { JP_CFG_KB_TOPIC_SKILLS_TITLE: 'From env' } });
      expect(res.code).toBe(0);
      expect(JSON.parse(res.out).parameters).toEqual(JSON.parse(quiet.out).parameters);
      expect(res.err).toContain('debug: kb.topic.project.title set by .jp/config.toml:2\n');
      expect(res.err).toContain('debug: kb.topic.project.learned set by .jp/config.d/kb/m.toml:2\n');
      expect(res.err).toContain('debug: kb.topic.skills.title set by env JP_CFG_KB_TOPIC_SKILLS_TITLE\n');
      expect(res.err).toContain('debug: kb.topic.skills.learned set by -k skills/ast-grep\n');
      expect(res.err).toMatch(/debug: read .*\/\.jp\/config\.d\/kb\/m\.toml\n/);
      expect(quiet.err).toBe('');
    });

    test('unknown keys are warnings outside kb check', () => {
      const root = fixture({ 't/a.md': 'a' }, '[kb.topic.t]\nsubjects = "t"\ntitel = "x"\n');
      const res = run(r, root, ['learn', 't', 'a']);
      expect(res.code).toBe(0);
      expect(res.out).toBe('a\n');
      expect(res.err).toContain('warning: ');
      expect(res.err).toContain('titel');
    });

    test.parity('stdout closed early: no error', () => {
      const root = fixture({}, '[kb.topic.t]\nsubjects = "t"\n');
      for (let i = 0; i < 200; i++) writeFileSync(join(root, `f${i}.md`), 'x'.repeat(4000));
      mkdirSync(join(root, 't'), { recursive: true });
      for (let i = 0; i < 200; i++) writeFileSync(join(root, 't', `f${i}.md`), 'x'.repeat(4000));
      const [cmd, ...pre] = r.argv;
      const { spawnSync } = require('node:child_process');
      const res = spawnSync('sh', ['-c', `"$0" "$@" | head -c 10 >/dev/null; exit $?`, cmd, ...pre, 'learn', '--max-tokens', '0', 't', '**'], { cwd: root, encoding: 'utf8', env: isolatedEnv(root) });
      expect(res.status).toBe(0);
      expect(res.stderr).toBe('');
    });
  });
}
