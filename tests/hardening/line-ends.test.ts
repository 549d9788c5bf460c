// CRLF line ends, as a Windows editor or git's autocrlf leaves them, in
// everything kb reads: the configuration (TOML, with comments: valid TOML
// 1.0, which JP reads), the files it extends, its JSON, JSON5 and YAML
// twins, frontmatter and ignore files. A workspace saved with CRLF must
// read exactly as the same workspace saved with LF, through every command
// and `kb mcp`; `kb init` appends in the file's own line ends. A CR that
// does not end a line stays what TOML says it is: a control character.
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect, text } from '../e2e/mcp-client.ts';
import { cleanup, expectNoCrash, kb, workspace } from './helpers.ts';

afterAll(cleanup);

const crlf = (s: string) => s.replace(/\n/g, '\r\n');

const CONFIG = `# The knowledge base of this project.
[kb.topic.t] # the team's notes
subjects = "t" # the folder
title = "Team notes"
learned = ["intro"] # pre-loaded

# the end
`;

const FILES: Record<string, string> = {
  't/intro.md': '# Intro\n\nWelcome to the team.\n',
  't/guide.md': '---\ndescription: How to start\ntitle: The guide\n---\nStart here: clone, build, test.\n',
  't/folded.md': '---\ndescription: >\n  A folded\n  description\ntags: [a, b] # YAML parser\n---\nBody.\n',
  't/skill1/SKILL.md': '---\nname: skill1\ndescription: "Deploys the site"\n---\n# Deploy\n\nRun the script.\n',
  't/skill1/ref.md': 'reference\n',
  't/secret.md': 'never listed\n',
  't/drafts/keep.md': 'kept draft\n',
  't/drafts/drop.md': 'dropped draft\n',
  't/build/out.md': 'built\n',
  't/.kbignore': '# drafts, but one\nsecret.md\ndrafts/*\n!drafts/keep.md\n',
  't/.gitignore': '# build output\nbuild/\n',
};

/** The workspace with its configuration in LF or in CRLF, and its other
 *  files as `files` has them. */
function twin(eol: 'lf' | 'crlf', config = CONFIG, files = FILES): string {
  return workspace(files, eol === 'crlf' ? crlf(config) : config);
}

/** `files` with every line end CRLF. */
const allCrlf = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([p, c]) => [p, crlf(c)]));

const COMMANDS: string[][] = [['list'], ['prompt'], ['learn', 't'], ['learn', 't', 'guide', 'skill1'], ['search', 'start'], ['recall', 'deploy the site'], ['check'], ['schema']];

describe('a CRLF configuration with comments reads as its LF twin', () => {
  const lf = twin('lf');
  const cr = twin('crlf');

  test('the CRLF file really is one', () => {
    const bytes = readFileSync(join(cr, '.jp/config.toml'), 'utf8');
    expect(bytes).toContain('# the folder\r\n');
    expect(bytes.replace(/\r\n/g, '')).not.toContain('\n');
  });

  for (const args of COMMANDS) {
    test(`kb ${args.join(' ')}`, () => {
      const a = kb(lf, args);
      const b = kb(cr, args);
      expectNoCrash(b);
      expect(a.code).toBe(0);
      expect(b).toEqual(a);
    });
  }

  test('kb check: no problem in either', () => {
    expect(kb(cr, ['check']).out).toEndWith('\nok: 1 topic, 6 subjects, no problems\n');
  });

  test('kb mcp: the tools, a learn call and the knowledge prompt', async () => {
    const answers = async (root: string) => {
      const c = await connect(root);
      try {
        const tools = await c.client.listTools();
        const learn = text(await c.client.callTool({ name: 'learn', arguments: { topic: 't' } }));
        const prompt = await c.client.getPrompt({ name: 'knowledge' });
        return { tools, learn, prompt, stderr: c.stderr(), errors: c.errors };
      } finally {
        await c.client.close();
      }
    };
    const a = await answers(lf);
    const b = await answers(cr);
    expect(b.learn).toContain('# Topic: Team notes\n');
    expect(b).toEqual(a);
  }, 30_000);
});

describe('kb init appends in the file\'s own line ends', () => {
  test('CRLF in, CRLF out: the old bytes kept, the tables in CRLF, and the result passes kb check', () => {
    const root = twin('crlf', CONFIG, { 't/intro.md': 'A\n', 'docs/b.md': 'B\n' });
    const before = readFileSync(join(root, '.jp/config.toml'));
    const r = kb(root, ['init', 'docs']);
    expect({ code: r.code, out: r.out }).toEqual({ code: 0, out: '[kb.topic.docs]\r\nsubjects = "docs"\r\n' });
    const after = readFileSync(join(root, '.jp/config.toml'), 'utf8');
    expect(after).toBe(`${before.toString('utf8')}\r\n[kb.topic.docs]\r\nsubjects = "docs"\r\n`);
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(kb(root, ['check']).out).toEndWith('\nok: 2 topics, 2 subjects, no problems\n');
  });

  test('LF in, LF out', () => {
    const root = twin('lf', CONFIG, { 't/intro.md': 'A\n', 'docs/b.md': 'B\n' });
    expect(kb(root, ['init', 'docs']).out).toBe('[kb.topic.docs]\nsubjects = "docs"\n');
    expect(readFileSync(join(root, '.jp/config.toml'), 'utf8')).not.toContain('\r');
  });
});

describe('the files a configuration extends, and its JSON, JSON5 and YAML twins, in CRLF with comments', () => {
  const rows: [string, Record<string, string>][] = [
    ['extends (a path and a glob)', {
      '.jp/config.toml': '# main\nextends = ["base.toml", "more/*.toml"] # two\n',
      '.jp/base.toml': '# base\n[kb.topic.t] # t\nsubjects = "t"\n',
      '.jp/more/a.toml': '# more\n[kb.topic.t]\ntitle = "Team notes" # the title\n',
    }],
    ['config.json', { '.jp/config.json': '// kb\n{\n  # hash comments too\n  "kb": {"topic": {"t": {"subjects": "t", /* b */ "title": "Team notes"}}}, // x\n}\n' }],
    ['config.json5', { '.jp/config.json5': '// kb\n{\n  kb: {topic: {t: {subjects: "t", title: "Team notes",}}}, // x\n}\n' }],
    ['config.yaml', { '.jp/config.yaml': '# kb\nkb:\n  topic:\n    t:\n      subjects: t # the folder\n      title: "Team notes"\n' }],
  ];
  for (const [name, files] of rows) {
    test(name, () => {
      const make = (eol: 'lf' | 'crlf') => {
        const root = workspace(eol === 'crlf' ? allCrlf(files) : files, '');
        if (!('.jp/config.toml' in files)) rmSync(join(root, '.jp/config.toml'));
        return root;
      };
      const a = kb(make('lf'), ['list']);
      const b = kb(make('crlf'), ['list']);
      expect(a.out).toStartWith('t (Team notes): t\n');
      expect(b).toEqual(a);
      expect(kb(make('crlf'), ['check']).out).toBe('ok: 1 topic, 0 subjects, no problems\n');
    });
  }
});

describe('frontmatter and ignore files in CRLF read as their LF twins', () => {
  // Subjects' bodies are output as their files hold them (the sizes, and a
  // body's CRs): what is compared is what frontmatter and ignore files
  // decide, the subjects listed and what describes them.
  const lf = workspace(FILES, CONFIG);
  const cr = workspace(allCrlf(FILES), CONFIG);
  for (const args of [['learn', 't'], ['search', 'deploy'], ['search', 'folded description']]) {
    test(`kb ${args.join(' ')}`, () => {
      const a = kb(lf, args);
      expect(a.out).toContain(args[0] === 'learn' ? '- folded: A folded description\n- guide: How to start\n- skill1: Deploys the site\n' : '');
      expect(a.out).not.toContain('secret');
      expect(a.out).not.toContain('drop');
      expect(kb(cr, args)).toEqual(a);
    });
  }

  test('kb list names the same subjects', () => {
    const names = (root: string) => kb(root, ['list']).out.split('\n').filter((l) => l.startsWith('  ') && !l.includes('(~')).map((l) => l.trim().split(/\s+/)[0]);
    expect(names(cr)).toEqual(names(lf));
    expect(names(lf)).toEqual(['drafts/keep', 'folded', 'guide', 'intro', 'skill1', 'skill1/ref']);
  });
});

describe('errors in a CRLF file point where they do in its LF twin', () => {
  const rows: [string, string][] = [
    ['a syntax error', '# kb\n[kb.topic.t] # t\nsubjects = = "t"\n'],
    ['a key defined twice', '# kb\n[kb.topic.t]\nsubjects = "t"\nsubjects = "u" # again\n'],
    ['an unknown key', '# kb\n[kb.topic.t]\nsubjects = "t"\ntitel = "x" # typo\n'],
    ['a control character in a comment', '# kb\n[kb.topic.t]\nsubjects = "t" # \u0001\n'],
  ];
  for (const [name, config] of rows) {
    test(name, () => {
      const a = kb(twin('lf', config, { 't/a.md': 'A\n' }), ['check']);
      const b = kb(twin('crlf', config, { 't/a.md': 'A\n' }), ['check']);
      expect(a.code).toBe(1);
      expect(a.out).toMatch(/\(\.jp\/config\.toml:\d+/);
      expect(b).toEqual(a);
    });
  }
});

describe('a CR that does not end a line is still a control character', () => {
  // TOML 1.0 allows a CR only as part of CRLF; JP refuses any other.
  const rows: [string, string, string][] = [
    ['after a value, before a comment', '[kb.topic.t]\r\nsubjects = "t"\r# x\r\n', '.jp/config.toml:2:15'],
    ['alone on a line', '[kb.topic.t]\n\r\nsubjects = "t"\n\r', '.jp/config.toml:4:1'],
    ['in a comment', '# a\rb\r\n[kb.topic.t]\r\nsubjects = "t"\r\n', '.jp/config.toml:1:4'],
    ['at the very end', '[kb.topic.t]\nsubjects = "t"\r', '.jp/config.toml:2:15'],
  ];
  for (const [name, config, where] of rows) {
    test(name, () => {
      const root = workspace({ 't/a.md': 'A\n' }, config);
      const message = `invalid TOML: a carriage return (\\u000d) that does not end a line: TOML allows it only just before a line feed (a CRLF line end); in a string, write \\r (${where})`;
      const list = kb(root, ['list']);
      expect({ code: list.code, err: list.err }).toEqual({ code: 1, err: `error: ${message}\n` });
      const check = kb(root, ['check']);
      expect(check.code).toBe(1);
      expect(check.out).toContain(`error: ${message}\n`);
    });
  }
});
