// Shell completion: `kb __complete` (the candidates, for every shell), and
// the scripts of `kb completion SHELL` run by real bash, zsh and fish.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINARY, DENO_RUNNER, RFD_CONFIG, RFD_FILES, fixture, run, type Runner } from '../e2e/harness.ts';
import { BIN, baseEnv, describeWith, kbBinDir, pathWithoutKb, sh, tempDir, which } from './lib.ts';

const CONFIG = `${RFD_CONFIG}disabled = ["legacy"]

[kb.topic.old]
enable = false
subjects = ".jp/kb/old"
`;
const FILES = { ...RFD_FILES, '.jp/kb/skills/legacy.md': 'old\n', '.jp/kb/old/x.md': 'x\n' };
const ws = fixture(FILES, CONFIG);

/** The candidates for WORDS (the last one is being completed). */
function complete(words: string[], opts: { cwd?: string; runner?: Runner } = {}): string[] {
  const r = run(opts.runner ?? BINARY, ws, ['__complete', '--', ...words], { cwd: opts.cwd });
  expect({ err: r.err, code: r.code }).toEqual({ err: '', code: 0 });
  return r.out === '' ? [] : r.out.replace(/\n$/, '').split('\n');
}

describe('kb __complete', () => {
  test('commands, filtered by what is typed; the hidden command is never offered', () => {
    const all = complete(['']);
    for (const c of ['prompt', 'schema', 'learn', 'check', 'list', 'config-schema', 'completion']) expect(all).toContain(c);
    expect(all).not.toContain('__complete');
    expect(complete(['l'])).toEqual(['learn', 'list']);
    expect(complete(['-w', '.', 'con'])).toEqual(['config-schema']);
  });

  test('flags: global ones, the command\'s own, and short forms after a lone -', () => {
    expect(complete(['--w'])).toEqual(['--workspace']);
    expect(complete(['--v'])).toEqual(['--verbose', '--version']);
    expect(complete(['learn', '--a'])).toEqual(['--args']);
    expect(complete(['check', '--f'])).toEqual(['--format']);
    expect(complete(['-'])).toContain('-k');
    expect(complete(['--'])).not.toContain('-k');
  });

  test('-q / --quiet: offered everywhere; takes no value, so the command follows it', () => {
    expect(complete(['--q'])).toEqual(['--quiet']);
    expect(complete(['learn', '--qu'])).toEqual(['--quiet']);
    expect(complete(['check', '-'])).toContain('-q');
    expect(complete(['-q', 'le'])).toEqual(['learn']);
    expect(complete(['learn', '-q', ''])).toEqual(['project', 'skills']);
  });

  test('topic IDs after `learn`: enabled topics only', () => {
    expect(complete(['learn', ''])).toEqual(['project', 'skills']);
    expect(complete(['learn', 'sk'])).toEqual(['skills']);
  });

  test('subject slugs after the topic (ID or title): what learn lists, minus those already typed', () => {
    expect(complete(['learn', 'project', ''])).toEqual(['code-quality', 'maintainers/jean', 'maintainers/ryan']);
    expect(complete(['learn', 'project', 'ma'])).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect(complete(['learn', 'project', 'maintainers/jean', ''])).toEqual(['code-quality', 'maintainers/ryan']);
    expect(complete(['learn', 'General Project Knowledge', 'c'])).toEqual(['code-quality']);
    // hidden (ast-grep/rules) and disabled (legacy) subjects are not offered
    expect(complete(['learn', 'skills', ''])).toEqual(['ast-grep']);
    expect(complete(['learn', 'old', ''])).toEqual([]);
    expect(complete(['learn', 'nope', ''])).toEqual([]);
  });

  test('every command that takes a topic completes topic IDs: positionals, and flags whose value is a topic', () => {
    for (const words of [['search', '-t', ''], ['search', '--topic='], ['recall', '-t', ''], ['remember', ''], ['revise', ''], ['forget', ''], ['prompt', '--list', ''], ['mcp', '--write', ''], ['mcp', '--list', ''], ['schema', '--tool', 'remember', '--write', '']]) {
      const want = words[words.length - 1] === '--topic=' ? ['--topic=project', '--topic=skills'] : ['project', 'skills'];
      expect([words, complete(words)]).toEqual([words, want]);
    }
    expect(complete(['forget', 's'])).toEqual(['skills']);
    // A new subject's text, a search's words: nothing to offer.
    expect(complete(['remember', 'project', ''])).toEqual([]);
    expect(complete(['search', 'main'])).toEqual([]);
  });

  test('slugs after the topic of revise and forget: every visible subject, pre-loaded ones too (a write may change them); nothing after', () => {
    const learned = ['--cfg', 'kb.topic.project.learned+=code-quality'];
    expect(complete([...learned, 'learn', 'project', ''])).toEqual(['maintainers/jean', 'maintainers/ryan']);
    for (const command of ['revise', 'forget']) {
      expect(complete([...learned, command, 'project', ''])).toEqual(['code-quality', 'maintainers/jean', 'maintainers/ryan']);
      expect(complete([command, 'project', 'maintainers/r'])).toEqual(['maintainers/ryan']);
      expect(complete([command, 'skills', ''])).toEqual(['ast-grep']);
      expect(complete([command, 'nope', ''])).toEqual([]);
    }
    expect(complete(['forget', 'project', 'code-quality', ''])).toEqual([]);
  });

  test('a large topic: slugs by prefix, at most 500, in slug order', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1500; i++) files[`.jp/kb/big/${i < 1000 ? 'a' : 'b'}/${String(i).padStart(4, '0')}.md`] = `# ${i}\n`;
    const big = fixture(files, '[kb.topic.big]\nsubjects = ".jp/kb/big"\n');
    const at = (words: string[]) => {
      const r = run(BINARY, big, ['__complete', '--', ...words]);
      expect({ err: r.err, code: r.code }).toEqual({ err: '', code: 0 });
      return r.out === '' ? [] : r.out.replace(/\n$/, '').split('\n');
    };
    const all = at(['learn', 'big', '']);
    expect(all).toHaveLength(500);
    expect(all.slice(0, 2)).toEqual(['a/0000', 'a/0001']);
    expect(all.at(-1)).toBe('a/0499');
    expect(at(['learn', 'big', 'b/14'])).toEqual(Array.from({ length: 100 }, (_, i) => `b/${1400 + i}`));
    expect(at(['forget', 'big', 'b/149'])).toEqual(Array.from({ length: 10 }, (_, i) => `b/${1490 + i}`));
    expect(at(['-k', 'big/b/1499'])).toEqual(['big/b/1499']);
    expect(at(['-k', ''])).toHaveLength(500);
  });

  test('-k / --knowledge values: TOPIC/SLUG', () => {
    expect(complete(['-k', ''])).toEqual(['project/code-quality', 'project/maintainers/jean', 'project/maintainers/ryan', 'skills/ast-grep']);
    expect(complete(['prompt', '--knowledge', 'sk'])).toEqual(['skills/ast-grep']);
    expect(complete(['prompt', '--knowledge=sk'])).toEqual(['--knowledge=skills/ast-grep']);
  });

  test('honours -w, --cfg and -k already on the command line', () => {
    const elsewhere = tempDir();
    expect(complete(['learn', ''], { cwd: elsewhere })).toEqual([]);
    expect(complete(['-w', ws, 'learn', ''], { cwd: elsewhere })).toEqual(['project', 'skills']);
    expect(complete([`--workspace=${ws}`, 'learn', 'project', ''], { cwd: elsewhere })).toEqual(['code-quality', 'maintainers/jean', 'maintainers/ryan']);
    expect(complete(['--cfg', 'kb.topic.project.learned+=maintainers/*', 'learn', 'project', ''])).toEqual(['code-quality']);
    expect(complete(['-k', 'project/code-quality', 'learn', 'project', ''])).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect(complete(['--cfg', 'kb.topic.skills.enable=false', 'learn', ''])).toEqual(['project']);
    // a --cfg that cannot be applied does not cost the candidates
    expect(complete(['--cfg', 'no/such/file', 'learn', ''])).toEqual(['project', 'skills']);
  });

  test('flag values: enum options, --flag=value, and bash\'s split `--flag = value`', () => {
    expect(complete(['check', '--format', ''])).toEqual(['text', 'json']);
    expect(complete(['check', '--format=j'])).toEqual(['--format=json']);
    expect(complete(['check', '--format', '=', 'j'])).toEqual(['--format=json']);
    expect(complete(['check', '--format', '='])).toEqual(['--format=text', '--format=json']);
    expect(complete(['completion', ''])).toEqual(['bash', 'zsh', 'fish', 'powershell']);
  });

  test('paths: -w asks for directories, --cfg for files plus the configuration keys', () => {
    expect(complete(['-w', ''])).toEqual([':dirs']);
    // kb init's folders
    expect(complete(['init', ''])).toEqual([':dirs']);
    expect(complete(['init', 'docs', ''])).toEqual([':dirs']);
    expect(complete(['init', '--d'])).toEqual(['--dry-run']);
    const cfg = complete(['--cfg', 'kb.topic.sk']);
    expect(cfg[0]).toBe(':files');
    expect(cfg.slice(1)).toEqual(['enable', 'title', 'introduction', 'description', 'subjects', 'learned', 'disabled'].map((f) => `kb.topic.skills.${f}`));
  });

  test('after --, every word is an argument (`--help` included)', () => {
    expect(complete(['learn', '--help', ''])).toEqual(['project', 'skills']);
    expect(complete(['learn', '--', 'project', '--'])).toEqual([]);
  });

  test('no workspace or a broken configuration: no candidates, no error, exit 0', () => {
    const broken = fixture({}, '[kb.topic.a\n');
    expect(complete(['learn', ''], { cwd: tempDir() })).toEqual([]);
    const r = run(BINARY, broken, ['__complete', '--', 'learn', '']);
    expect(r).toEqual({ out: '', err: '', code: 0 });
    expect(run(BINARY, broken, ['__complete', '--', 'le'])).toEqual({ out: 'learn\n', err: '', code: 0 });
  });

  test('the same under deno', () => {
    expect(complete(['learn', 'project', ''], { runner: DENO_RUNNER })).toEqual(['code-quality', 'maintainers/jean', 'maintainers/ryan']);
  }, 60_000);

  test('is hidden: not in kb --help, nor in the unknown-command list', () => {
    expect(sh(BIN, ['--help']).out).not.toContain('__complete');
    expect(sh(BIN, ['--help']).out).toContain('completion');
    expect(sh(BIN, ['nope']).err).not.toContain('__complete');
  });
});

describe('kb completion SHELL', () => {
  test('prints a script for each shell', () => {
    for (const shell of ['bash', 'zsh', 'fish', 'powershell']) {
      const r = sh(BIN, ['completion', shell]);
      expect({ shell, code: r.code, err: r.err }).toEqual({ shell, code: 0, err: '' });
      expect(r.out).toContain('__complete --');
    }
  });

  test('an unknown or missing shell is a usage error (exit 2)', () => {
    const bad = sh(BIN, ['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown shell "tcsh"; expected one of: bash, zsh, fish, powershell');
    expect(sh(BIN, ['completion']).code).toBe(2);
  });
});

const bin = kbBinDir();
const shellEnv = (extra: Record<string, string> = {}) => baseEnv(ws, { PATH: `${bin}:${pathWithoutKb()}`, ...extra });

describeWith(['bash'], 'bash runs the completion function', () => {
  /** Runs _kb with COMP_WORDS = `kb WORDS...`, the cursor on the last word. */
  function bash(words: string[], cwd = ws): string[] {
    const quoted = ['kb', ...words].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
    const script = `source <(kb completion bash) || exit 9
complete -p kb >/dev/null || exit 8
COMP_WORDS=(${quoted}); COMP_CWORD=${words.length}; _kb
printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = sh('bash', ['--norc', '--noprofile', '-c', script], { cwd, env: shellEnv() });
    expect({ err: r.err, code: r.code }).toEqual({ err: '', code: 0 });
    return r.out.split('\n').filter(Boolean);
  }

  test('commands, topics and slugs', () => {
    expect(bash(['l'])).toEqual(['learn', 'list']);
    expect(bash(['learn', ''])).toEqual(['project', 'skills']);
    expect(bash(['learn', 'project', 'ma'])).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect(bash(['-k', 'sk'])).toEqual(['skills/ast-grep']);
    expect(bash(['--qu'])).toEqual(['--quiet']);
  });

  test('with -w from elsewhere, and bash\'s word splitting at = (COMP_WORDBREAKS)', () => {
    expect(bash(['-w', ws, 'learn', 'sk'], tempDir())).toEqual(['skills']);
    expect(bash(['check', '--format', '=', 'j'])).toEqual(['json']);
    expect(bash(['check', '--format', '='])).toEqual(['text', 'json']);
  });

  test('directories after -w, from bash itself', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'alpha'));
    mkdirSync(join(dir, 'beta'));
    writeFileSync(join(dir, 'afile'), '');
    expect(bash(['-w', 'a'], dir)).toEqual(['alpha']);
  });
});

describeWith(['zsh'], 'zsh runs the completion function', () => {
  test('the script parses (zsh -n)', () => {
    const file = join(tempDir(), '_kb');
    writeFileSync(file, sh(BIN, ['completion', 'zsh']).out);
    expect(sh('zsh', ['-n', file])).toEqual({ out: '', err: '', code: 0 });
  });

  /** Runs _kb with words/CURRENT set as compsys sets them, and compadd /
   *  _files replaced by functions that print what they are given. */
  function zsh(words: string[], cwd = ws): string[] {
    const quoted = ['kb', ...words].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
    const script = `compdef() { print -r -- "compdef $*" >&2 }
compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -rl -- "$@" }
_files() { print -r -- "_files $*" }
source <(kb completion zsh) 2>/dev/null
words=(${quoted}); CURRENT=${words.length + 1}; _kb`;
    const r = sh('zsh', ['-f', '-c', script], { cwd, env: shellEnv() });
    expect(r.code).toBe(0);
    return r.out.split('\n').filter(Boolean);
  }

  test('sourcing registers _kb for kb', () => {
    const r = sh('zsh', ['-f', '-c', 'compdef() { print -r -- "compdef $*" }; source <(kb completion zsh)'], { cwd: ws, env: shellEnv() });
    expect(r.out).toBe('compdef _kb kb\n');
  });

  test('commands, topics, slugs and directories', () => {
    expect(zsh(['l'])).toEqual(['learn', 'list']);
    expect(zsh(['learn', ''])).toEqual(['project', 'skills']);
    expect(zsh(['learn', 'project', 'ma'])).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect(zsh(['-w', ws, 'learn', 'sk'], tempDir())).toEqual(['skills']);
    expect(zsh(['-w', ''])).toEqual(['_files -/']);
  });
});

describeWith(['fish'], 'fish completes with the installed script', () => {
  const config = join(tempDir(), 'config');
  mkdirSync(join(config, 'fish/completions'), { recursive: true });
  writeFileSync(join(config, 'fish/completions/kb.fish'), sh(BIN, ['completion', 'fish']).out);

  test('the script parses (fish -n)', () => {
    expect(sh('fish', ['-n', join(config, 'fish/completions/kb.fish')])).toEqual({ out: '', err: '', code: 0 });
  });

  /** `complete -C LINE` in a fish whose completions directory holds the
   *  script, as docs/mcp-and-integrations.md installs it. */
  function fish(line: string, cwd = ws): string[] {
    const r = sh('fish', ['--no-config', '-c', `set fish_complete_path ${join(config, 'fish/completions')} $fish_complete_path; complete -C '${line}'`], { cwd, env: shellEnv({ XDG_CONFIG_HOME: config }) });
    expect({ err: r.err, code: r.code }).toEqual({ err: '', code: 0 });
    return r.out.split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
  }

  test('commands, topics, slugs, flag values and directories', () => {
    expect(fish('kb l')).toEqual(['learn', 'list']);
    expect(fish('kb learn ')).toEqual(['project', 'skills']);
    expect(fish('kb learn project ma')).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect(fish('kb check --format=')).toEqual(['--format=json', '--format=text']);
    expect(fish(`kb -w ${ws} learn sk`, tempDir())).toEqual(['skills']);
    expect(fish('kb -w .j')).toEqual(['.jp/']);
  });
});

// PowerShell is not a Debian package (scripts/ci-deps cannot install it):
// this runs where pwsh is installed, and is skipped, loudly, elsewhere,
// CI included.
const pwsh = which('pwsh');
if (!pwsh) console.warn('\n*** SKIPPED "PowerShell runs the completer": pwsh not installed ***\n');
describe.skipIf(!pwsh)('PowerShell runs the completer', () => {
  /** TabExpansion2 on `kb WORDS...` (the cursor at the end), with the
   *  script loaded as docs/mcp-and-integrations.md says. */
  function ps(line: string, cwd = ws): string[] {
    const script = `kb completion powershell | Out-String | Invoke-Expression
(TabExpansion2 -inputScript '${line.replace(/'/g, "''")}' -cursorColumn ${line.length}).CompletionMatches | ForEach-Object { $_.CompletionText }`;
    const r = sh(pwsh!, ['-NoProfile', '-NonInteractive', '-Command', script], { cwd, env: shellEnv() });
    expect({ err: r.err, code: r.code }).toEqual({ err: '', code: 0 });
    return r.out.split(/\r?\n/).filter(Boolean);
  }

  test('commands, topics, slugs, an empty word after a space', () => {
    expect(ps('kb l')).toEqual(['learn', 'list']);
    expect(ps('kb learn ')).toEqual(['project', 'skills']);
    expect(ps('kb learn project ma')).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect(ps('kb check --format=j')).toEqual(['--format=json']);
  });
});
