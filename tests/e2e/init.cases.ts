// kb init end to end, on the binary and under deno: stdout (the
// configuration text added), stderr (what was done, the notes, the next
// steps), the exit code; then the workspace it made answers list, learn,
// search, remember and an MCP session with no hand-written configuration.
import { describe, expect } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { caseTest, run, tempDir, type Runner } from './harness.ts';

/** A plain directory (no .jp) holding `files`. */
export function folder(files: Record<string, string> = {}): string {
  const root = tempDir();
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), c);
  }
  return root;
}

const HEADER = `# kb: a knowledge base for LLM assistants. Each [kb.topic.<id>] table is a topic: a
# folder of text files (its subjects), \`subjects\` being its path from the workspace root.
# Optional fields: title, introduction, description, learned, disabled, enable
# (\`kb config-schema\` describes them). \`kb check\` validates this file.
`;

/** Skills and docs shaped like a real collection (a skills repository, a
 *  tree of reStructuredText documents). */
export const FILES = {
  'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: Read, fill and merge PDF files.\n---\n# PDF\n\nUse pypdf to merge documents.\n',
  'skills/pdf/reference.md': '# Reference\n\nForms and fields.\n',
  'skills/xlsx/SKILL.md': '---\nname: xlsx\ndescription: Spreadsheets with formulas.\n---\n# XLSX\n\nUse openpyxl.\n',
  'skills/xlsx/scripts/recalc.py': 'print("recalc")\n',
  'peps/pep-0008.rst': 'PEP: 8\nTitle: Style Guide for Python Code\n\nIntroduction\n============\n\nIndentation uses four spaces per level.\n',
  'peps/pep-0020.rst': 'PEP: 20\nTitle: The Zen of Python\n\nBeautiful is better than ugly.\n',
};

const NEXT = (first: string) => `
Next steps:
  kb list                       the topics and their subjects
  kb learn ${first.padEnd(20)} a topic as the model sees it
  kb prompt                     the <knowledge> section for a system prompt
  claude mcp add kb -- kb mcp   serve it to Claude Code (any MCP client: kb mcp)
`;

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`kb init (${runner.name})`, () => {
    test.parity('bare: a notes topic, its folder created; kb remember writes to it at once', () => {
      const root = folder();
      const r = run(runner, root, ['init']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${HEADER}\n[kb.topic.notes]\nsubjects = ".jp/kb/notes"\n`);
      expect(r.err).toBe(`Created .jp/config.toml with 1 topic:
topic notes: created the folder .jp/kb/notes, empty: kb remember notes "..." writes to it

Next steps:
  kb list                                     the topics and their subjects
  kb remember notes "..."                     write a note to it
  kb prompt                                   the <knowledge> section for a system prompt
  claude mcp add kb -- kb mcp --write notes   serve it to Claude Code (any MCP client: kb mcp)
`);
      expect(readFileSync(join(root, '.jp/config.toml'), 'utf8')).toBe(r.out);
      const remembered = run(runner, root, ['remember', 'notes', 'Releases', 'are', 'tagged', 'on', 'Tuesdays.']);
      expect(remembered).toMatchObject({ code: 0, err: '' });
      expect(remembered.out).toStartWith('Remembered as subject "releases-tagged-tuesdays" of topic "notes" (.jp/kb/notes/releases-tagged-tuesdays.md).');
      expect(run(runner, root, ['learn', 'notes']).out).toContain('- releases-tagged-tuesdays: Releases are tagged on Tuesdays.');

      // Twice: nothing added, nothing written, exit 0.
      const again = run(runner, root, ['init']);
      expect(again).toMatchObject({ code: 0, out: '' });
      expect(again.err).toStartWith('note: .jp/kb/notes is already topic "notes"; nothing to add\nNothing added to .jp/config.toml (it has 1 topic).\n\nNext steps:\n');
      expect(readFileSync(join(root, '.jp/config.toml'), 'utf8')).toBe(r.out);
    });

    test('folders: one topic each, skills recognised; list, learn and search answer', () => {
      const root = folder(FILES);
      const r = run(runner, root, ['init', 'skills', 'peps/']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${HEADER}\n[kb.topic.skills]\nsubjects = "skills"\n\n[kb.topic.peps]\nsubjects = "peps"\n`);
      expect(r.err).toBe(`Created .jp/config.toml with 2 topics:
topic skills: skills holds 2 Agent Skills (pdf, xlsx): each is one subject, its other files bundled with it
${NEXT('skills')}`);
      const list = run(runner, root, ['list']);
      expect(list.code).toBe(0);
      expect(list.out).toMatch(/^ {2}pdf .* skill {2}Read, fill and merge PDF files\.$/m);
      expect(list.out).toMatch(/^ {2}pep-0008 /m);
      expect(run(runner, root, ['learn', 'skills', 'pdf']).out).toContain('Use pypdf to merge documents.');
      const search = run(runner, root, ['search', 'indentation']);
      expect(search.code).toBe(0);
      expect(search.out).toContain('peps: pep-0008');
      expect(run(runner, root, ['check']).code).toBe(0);
    });

    test('an existing configuration: its text kept byte for byte, the new tables appended and printed', () => {
      const old = '# Ours.\n[kb.topic.docs] # the manual\nsubjects = "docs"\n\n[jp.other]\nx = 1\n';
      const root = folder({ ...FILES, '.jp/config.toml': old, 'docs/a.md': 'A\n' });
      const r = run(runner, root, ['init', 'docs', 'peps']);
      expect(r.code).toBe(0);
      expect(r.out).toBe('[kb.topic.peps]\nsubjects = "peps"\n');
      expect(r.err).toStartWith('Appended 1 topic to .jp/config.toml:\nnote: docs is already topic "docs"; nothing to add\n\nNext steps:\n');
      expect(readFileSync(join(root, '.jp/config.toml'), 'utf8')).toBe(`${old}\n${r.out}`);
    });

    test('--dry-run prints the configuration and writes nothing; -q keeps stderr quiet', () => {
      const root = folder(FILES);
      const r = run(runner, root, ['init', '--dry-run', 'peps']);
      expect(r).toEqual({
        code: 0,
        out: `${HEADER}\n[kb.topic.peps]\nsubjects = "peps"\n`,
        err: 'Dry run, nothing written: kb init would create .jp/config.toml with 1 topic:\n',
      });
      expect(existsSync(join(root, '.jp'))).toBe(false);
      const quiet = run(runner, root, ['-q', 'init', 'peps']);
      expect(quiet).toEqual({ code: 0, out: r.out, err: '' });
    });

    test('a missing folder, one outside, a link out: errors, exit 1, nothing written', () => {
      const outside = folder({ 'x.md': 'x\n' });
      const root = folder(FILES);
      symlinkSync(outside, join(root, 'out'));
      const r = run(runner, root, ['init', 'skills', 'missing', outside, 'out']);
      expect(r).toEqual({
        code: 1,
        out: '',
        err: `error: no such folder (missing)
error: outside the workspace, ${root}: give a folder inside it, or run kb init in a folder that holds both (${outside})
error: leads out of the workspace through a symbolic link (to ${outside}); a topic's folder must be inside the workspace, ${root} (out)
Nothing written: kb init writes all of it or nothing.
`,
      });
      expect(existsSync(join(root, '.jp'))).toBe(false);
    });

    test('-w: that directory; the next steps carry -w, the MCP line the absolute path', () => {
      const cwd = folder({ 'ws/docs/a.md': 'A\n' });
      const r = run(runner, cwd, ['-w', 'ws', 'init', 'ws/docs']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${HEADER}\n[kb.topic.docs]\nsubjects = "docs"\n`);
      expect(r.err).toContain(`  kb -w ws list   `);
      expect(r.err).toContain(`  claude mcp add kb -- kb -w ${join(cwd, 'ws')} mcp   `);
      expect(run(runner, cwd, ['-w', 'ws', 'list']).out).toContain('docs: docs\n  a ');
    });

    test('usage: no --cfg or -k', () => {
      const root = folder();
      const r = run(runner, root, ['init', '-c', 'kb.topic.x.subjects=x']);
      expect(r).toEqual({ code: 2, out: '', err: "error: kb init writes the configuration file; it takes no --cfg (--cfg)\nrun 'kb init --help' for usage\n" });
    });
  });
}

