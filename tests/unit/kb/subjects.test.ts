import { describe, test, expect, afterAll } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { indexSubjects } from '../../../src/kb/index/subjects.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function tree(spec: Record<string, string | { link: string }>): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-subjects-'));
  roots.push(root);
  for (const [rel, v] of Object.entries(spec)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof v === 'string') writeFileSync(abs, v);
    else symlinkSync(v.link, abs);
  }
  return root;
}

describe('indexSubjects', () => {
  test('tells whether every name it read is plain (no control character, no U+FFFD), so that cleaning looks at no path', () => {
    expect(indexSubjects(tree({ 'a.md': 'a', 'x/y/b.md': 'b' })).plainNames).toBe(true);
    // A name deep down, a folder's name, a name read through a link, an
    // ignored name: each makes the walk say so.
    expect(indexSubjects(tree({ 'a.md': 'a', 'x/y/b\u202e.md': 'b' })).plainNames).toBeUndefined();
    expect(indexSubjects(tree({ 'a.md': 'a', 'x\n/b.md': 'b' })).plainNames).toBeUndefined();
    expect(indexSubjects(tree({ 'a\uFFFD.md': 'a' })).plainNames).toBeUndefined();
    const outside = tree({ 'odd\u0007.md': 'x' });
    expect(indexSubjects(tree({ 'a.md': 'a', 'l': { link: outside } })).plainNames).toBeUndefined();
  });

  test("each subject's folder is its slug's folder part, one string per folder (hidden folders and skills too)", () => {
    const dir = tree({
      'a.md': 'a',
      'x/b.md': 'b',
      'x/c.txt': 'c',
      'x/y/d.md': 'd',
      '.h/e.md': 'e',
      'skills/pdf/SKILL.md': '# PDF\n',
      'skills/pdf/ref.md': 'r',
    });
    const index = indexSubjects(dir);
    for (const s of [...index.subjects, ...[...index.aliases.values()].map((a) => a.subject)]) {
      expect([s.slug, s.folder]).toEqual([s.slug, s.slug.slice(0, s.slug.lastIndexOf('/') + 1)]);
    }
    const inX = index.subjects.filter((s) => s.slug === 'x/b' || s.slug === 'x/c');
    expect(inX.length).toBe(2);
    expect(inX[0].folder).toBe(inX[1].folder);
    expect(index.subjects.find((s) => s.slug === 'skills/pdf')?.folder).toBe('skills/');
  });

  test('RFD layout example (project)', () => {
    const dir = tree({
      'maintainers/jean.md': 'j',
      'maintainers/ryan.md': 'r',
      'code-quality.md': 'q',
      '.internal-notes.md': 'i',
    });
    const index = indexSubjects(dir);
    expect(index.dir).toBe(dir);
    expect(index.subjects.map((s) => [s.slug, s.hidden, s.path, s.ext])).toEqual([
      ['code-quality', false, 'code-quality.md', 'md'],
      ['internal-notes', true, '.internal-notes.md', 'md'],
      ['maintainers/jean', false, 'maintainers/jean.md', 'md'],
      ['maintainers/ryan', false, 'maintainers/ryan.md', 'md'],
    ]);
    expect(index.notices).toEqual([]);
  });

  test('RFD layout example (skills): a file and a directory of the same stem coexist', () => {
    const index = indexSubjects(tree({ 'ast-grep.md': 'a', 'ast-grep/.rules.md': 'r' }));
    expect(index.subjects.map((s) => [s.slug, s.hidden])).toEqual([
      ['ast-grep', false],
      ['ast-grep/rules', true],
    ]);
    expect(index.subjects[1].abs).toBe(join(index.dir, 'ast-grep', '.rules.md'));
  });

  test('sorted by slug in code-unit order', () => {
    const index = indexSubjects(tree({ 'a_c.md': '', 'a/b.md': '', 'a-b.md': '', 'a.md': '', 'B.md': '' }));
    expect(index.subjects.map((s) => s.slug)).toEqual(['B', 'a', 'a-b', 'a/b', 'a_c']);
  });

  test('a.md + a.txt: Markdown comes before plain text; one notice for the slug, naming every file', () => {
    const index = indexSubjects(tree({ 'a.txt': 'txt', 'a.md': 'md' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['a.md']);
    expect(index.notices).toHaveLength(1);
    const [n] = index.notices;
    expect(n.code).toBe('slug-collision');
    expect(n.where).toBe('a.md');
    expect(n.message).toBe('slug "a" is shared by 2 files: it loads a.md; the other loads by its name with its extension, "a.txt"');
    expect(index.shared!.get('a')).toEqual({ path: 'a.md', others: [{ name: 'a.txt', path: 'a.txt' }] });
  });

  test('rules.md + .rules.md: the non-hidden file wins even though `.` sorts first', () => {
    const index = indexSubjects(tree({ 'x/.rules.md': 'hidden', 'x/rules.md': 'visible' }));
    expect(index.subjects.map((s) => [s.path, s.hidden])).toEqual([['x/rules.md', false]]);
    expect(index.notices.map((n) => [n.code, n.where])).toEqual([['slug-collision', 'x/rules.md']]);
    expect(index.shared!.get('x/rules')!.others).toEqual([{ name: 'x/rules.md', path: 'x/.rules.md' }]);
  });

  test('a hidden document loses to a visible file of any format', () => {
    const index = indexSubjects(tree({ '.n.md': '', 'n.png': '' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['n.png']);
  });

  test('collision through a hidden directory: hidden-dir/a.md vs .hidden-dir/a.md', () => {
    const index = indexSubjects(tree({ '.d/a.md': '1', 'd/a.md': '2' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['d/a.md']);
  });

  test('the document wins a shared slug: slides.org before slides.html before slides.css', () => {
    const index = indexSubjects(tree({ 's/slides.css': 'body {}', 's/slides.html': '<p>x</p>', 's/slides.org': '* x' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['s/slides.org']);
    expect(index.shared!.get('s/slides')!.others.map((o) => o.name)).toEqual(['s/slides.html', 's/slides.css']);
    expect(index.notices).toHaveLength(1);
  });

  test('a logo in seven formats: data (svg) before everything else, then the first name', () => {
    const files = ['eps', 'gif', 'ico', 'jpg', 'png', 'psd', 'svg'];
    const index = indexSubjects(tree(Object.fromEntries(files.map((e) => [`i/logo.${e}`, e]))));
    expect(index.subjects.map((s) => s.path)).toEqual(['i/logo.svg']);
    expect(index.shared!.get('i/logo')!.others.map((o) => o.path)).toEqual(['i/logo.eps', 'i/logo.gif', 'i/logo.ico', 'i/logo.jpg', 'i/logo.png', 'i/logo.psd']);
  });

  test('a shared slug is not said when every file it does not load is of a binary format: those are never subjects', () => {
    const index = indexSubjects(
      tree({
        'f/lato.woff': 'x',
        'f/lato.woff2': 'x',
        'i/sticker.jpg': 'x',
        'i/sticker.png': 'x',
        'e/letter.org': '* x',
        'e/letter.pdf': 'x',
        'l/logo.svg': '<svg/>',
        'l/logo.png': 'x',
        's/slides.org': '* x',
        's/slides.html': '<p>x</p>',
        's/slides.pdf': 'x',
        'u/unicorn.eps': '%!PS',
        'u/unicorn.gif': 'x',
        'u/unicorn.psd': 'x',
      }),
    );
    // Every group keeps its aliases and its entry; only the one with two
    // files that may hold text (slides.org, slides.html) is a warning.
    expect([...index.shared!.keys()].sort()).toEqual(['e/letter', 'f/lato', 'i/sticker', 'l/logo', 's/slides', 'u/unicorn']);
    expect(index.notices.map((n) => n.where)).toEqual(['s/slides.org']);
    expect(index.notices[0].message).toBe('slug "s/slides" is shared by 3 files: it loads s/slides.org; the others load by their names with their extensions, "s/slides.html", "s/slides.pdf"');
    // A format the list does not know may hold text: said.
    expect(indexSubjects(tree({ 'n.eps': '%!PS', 'n.bin': 'x' })).notices).toHaveLength(1);
    // A text file behind a binary one (a hidden note beside a visible image,
    // which wins the slug): said.
    const behind = indexSubjects(tree({ 'p/notes.png': 'x', 'p/.notes.md': '# Notes' }));
    expect(behind.subjects.map((s) => s.path)).toEqual(['p/notes.png']);
    expect(behind.notices.map((n) => n.message)).toEqual(['slug "p/notes" is shared by 2 files: it loads p/notes.png; the other loads by its name with its extension, "p/notes.md"']);
  });

  test('prose in its documented order: md, mdx, org, rst, adoc, txt, html, none', () => {
    const order = ['md', 'mdx', 'org', 'rst', 'adoc', 'txt', 'html', ''];
    for (let i = 0; i < order.length; i++) {
      const spec: Record<string, string> = {};
      for (const ext of order.slice(i)) spec[ext === '' ? 'p' : `p.${ext}`] = ext;
      spec['p.json'] = '{}';
      spec['p.bin'] = '';
      const index = indexSubjects(tree(spec));
      const ext = order[i];
      expect(index.subjects.map((s) => s.path)).toEqual([ext === '' ? 'p' : `p.${ext}`]);
    }
  });

  test('three-way collision: prose wins over .json, visible over hidden; deterministic', () => {
    const index = indexSubjects(tree({ 'n.txt': '', '.n.md': '', 'n.json': '', 'other.md': '' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['n.txt', 'other.md']);
    expect(index.shared!.get('n')!.others.map((o) => o.path)).toEqual(['n.json', '.n.md']);
    expect(index.notices.map((n) => n.where)).toEqual(['n.txt']);
  });

  test('collision Cargo.toml + Cargo.json + Cargo: the file without an extension (prose) wins, every file keeps an alias', () => {
    const index = indexSubjects(tree({ 'l/Cargo.toml': 't', 'l/Cargo.json': 'j', 'l/Cargo': 'none' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['l/Cargo']);
    expect([...index.aliases.keys()].sort()).toEqual(['l/Cargo.json', 'l/Cargo.toml']);
    expect(index.aliases.get('l/Cargo.toml')!.subject.path).toBe('l/Cargo.toml');
    expect(index.aliases.get('l/Cargo.toml')!.of).toBe('l/Cargo');
    expect(index.notices.map((n) => n.severity)).toEqual(['warning']);
    expect(index.notices[0].message).toBe('slug "l/Cargo" is shared by 3 files: it loads l/Cargo; the others load by their names with their extensions, "l/Cargo.json", "l/Cargo.toml"');
  });

  test('no shared slug: no `shared` map at all', () => {
    expect(indexSubjects(tree({ 'a.md': '', 'b.css': '' })).shared).toBeUndefined();
  });

  test('an alias that is another subject\'s slug names that subject', () => {
    const index = indexSubjects(tree({ 'a.md': '', 'a.txt': '', 'a.txt.md': 'real' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['a.md', 'a.txt.md']);
    expect([...index.aliases.keys()]).toEqual(['a.md']);
  });

  test('walk notices are kept (dangling link)', () => {
    const index = indexSubjects(tree({ 'a.md': '', 'b.md': { link: 'nowhere' } }));
    expect(index.subjects.map((s) => s.slug)).toEqual(['a']);
    expect(index.notices.map((n) => n.code)).toEqual(['dangling-link']);
  });

  test('missing directory: empty index with a notice', () => {
    const index = indexSubjects(join(tree({}), 'nope'));
    expect(index.subjects).toEqual([]);
    expect(index.notices.map((n) => n.code)).toEqual(['missing-directory']);
  });

  test('subject size is lazy but visible', () => {
    const index = indexSubjects(tree({ 'a.md': 'abc' }));
    expect(index.subjects[0].size).toBe(3);
    expect(JSON.parse(JSON.stringify(index.subjects[0])).size).toBe(3);
  });
});

describe('indexSubjects: ignore files and defaults', () => {
  test('node_modules and lockfiles are left out by default, and recorded', () => {
    const index = indexSubjects(tree({ 'a.md': '', 'yarn.lock': 'x', 'package.json': '{}', 'node_modules/x/readme.md': '', 'sub/Cargo.lock': '' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['a.md', 'package.json']);
    expect(index.ignored).toEqual([
      { path: 'node_modules/', source: 'built-in', rule: 'node_modules/' },
      { path: 'yarn.lock', source: 'built-in', rule: 'yarn.lock' },
      { path: 'sub/Cargo.lock', source: 'built-in', rule: 'Cargo.lock' },
    ]);
    expect(index.notices).toEqual([]);
  });

  test("version control's folders and a worktree's .git file are left out by default, and recorded", () => {
    const index = indexSubjects(
      tree({ 'a.md': '', '.git/config': '[core]', '.git/HEAD': 'ref', '.hg/hgrc': '', '.svn/entries': '', '.bzr/x': '', '_darcs/x': '', '.jj/x': '', '.pijul/x': '', 'sub/.git': 'gitdir: ..', 'sub/git.md': '', '.github/ci.yml': '' }),
    );
    expect(index.subjects.map((s) => s.path).sort()).toEqual(['.github/ci.yml', 'a.md', 'sub/git.md']);
    expect(index.ignored.map((i) => `${i.path} ${i.source} ${i.rule}`).sort()).toEqual(
      ['.bzr/ built-in .bzr/', '.git/ built-in .git/', '.hg/ built-in .hg/', '.jj/ built-in .jj/', '.pijul/ built-in .pijul/', '.svn/ built-in .svn/', '_darcs/ built-in _darcs/', 'sub/.git built-in .git'],
    );
  });

  test('.gitignore and .kbignore rules apply below their directory; the files are never subjects', () => {
    const index = indexSubjects(
      tree({
        '.gitignore': 'build/\n*.log\n',
        '.kbignore': 'drafts/*\n!drafts/keep.md\n',
        'a.md': '',
        'x.log': '',
        'build/out.md': '',
        'drafts/wip.md': '',
        'drafts/keep.md': '',
        'sub/.kbignore': 'secret.md\n',
        'sub/secret.md': '',
        'sub/open.md': '',
        'secret.md': 'not below sub/',
      }),
    );
    expect(index.subjects.map((s) => s.path)).toEqual(['a.md', 'drafts/keep.md', 'secret.md', 'sub/open.md']);
    expect(index.ignored.map((i) => [i.path, i.source, i.rule])).toEqual([
      ['build/', '.gitignore', 'build/'],
      ['x.log', '.gitignore', '*.log'],
      ['drafts/wip.md', '.kbignore', 'drafts/*'],
      ['sub/secret.md', 'sub/.kbignore', 'secret.md'],
    ]);
  });

  test('a .kbignore re-includes what a default leaves out', () => {
    const index = indexSubjects(tree({ '.kbignore': '!yarn.lock\n', 'yarn.lock': 'x', 'go.sum': 'y' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['yarn.lock']);
  });

  test('an ignored file collides with nothing', () => {
    const index = indexSubjects(tree({ '.kbignore': 'a.txt\n', 'a.md': '', 'a.txt': '' }));
    expect(index.subjects.map((s) => s.path)).toEqual(['a.md']);
    expect(index.notices).toEqual([]);
  });

  test('a control file that is not a regular file is noted, not read', () => {
    const index = indexSubjects(tree({ 'a.md': '', '.kbignore/x': '' }));
    // A directory named .kbignore: walked as a hidden directory, its rules never read.
    expect(index.subjects.map((s) => s.path)).toEqual(['a.md', '.kbignore/x']);
    expect(index.notices.map((n) => n.code)).toEqual(['unreadable']);
  });
});

describe('indexSubjects: Agent Skills', () => {
  const skills = () =>
    tree({
      'pdf/SKILL.md': '---\nname: pdf\ndescription: PDFs.\n---\n# PDF\n',
      'pdf/reference.md': '',
      'pdf/scripts/fill.py': '',
      'pdf/LICENSE.txt': '',
      'pdf/inner/SKILL.md': 'nested: a bundled file',
      'notes.md': '',
      'SKILL.md': 'at the root: an ordinary subject',
    });

  test('a directory holding SKILL.md is one subject; its other files are bundled and hidden', () => {
    const index = indexSubjects(skills());
    const rows = index.subjects.map((s) => [s.slug, s.path, s.hidden, Boolean(s.bundled), Boolean(s.skill)]);
    expect(rows).toEqual([
      ['SKILL', 'SKILL.md', false, false, false],
      ['notes', 'notes.md', false, false, false],
      ['pdf', 'pdf/SKILL.md', false, false, true],
      ['pdf/LICENSE', 'pdf/LICENSE.txt', true, true, false],
      ['pdf/inner/SKILL', 'pdf/inner/SKILL.md', true, true, false],
      ['pdf/reference', 'pdf/reference.md', true, true, false],
      ['pdf/scripts/fill', 'pdf/scripts/fill.py', true, true, false],
    ]);
    const pdf = index.subjects.find((s) => s.slug === 'pdf')!;
    expect(pdf.skill!.dir).toBe('pdf');
    expect(pdf.skill!.files.map((f) => f.path).sort()).toEqual(['pdf/LICENSE.txt', 'pdf/inner/SKILL.md', 'pdf/reference.md', 'pdf/scripts/fill.py']);
  });

  test('SKILL.md stays loadable as <dir>/SKILL', () => {
    const index = indexSubjects(skills());
    expect(index.aliases.get('pdf/SKILL')!.subject.path).toBe('pdf/SKILL.md');
    expect(index.aliases.get('pdf/SKILL')!.of).toBe('pdf');
  });
});
