// Real knowledge folders (issue: descriptions, Agent Skills, ignore files,
// same-slug files), on fixtures shaped like a public skills collection, a
// docs tree inside a JavaScript project, and a book's code listings. Run on
// the compiled binary and under deno.
import { describe, expect } from 'bun:test';
import { caseTest, fixture, run, type Runner } from './harness.ts';

const SKILL = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\nlicense: Complete terms in LICENSE.txt\n---\n\n# ${name}\n\nHow to ${name}.\n`;
const FONT = new Uint8Array([0, 1, 0, 0, 0, 0x10, 0x80, 0]);

/** A skills collection: skills with scripts, references, licences, fonts. */
function skillsRepo(): string {
  return fixture(
    {
      'skills/pdf/SKILL.md': SKILL('pdf', 'Use this skill whenever the user wants to do anything with PDF files.'),
      'skills/pdf/reference.md': '# Reference\n',
      'skills/pdf/scripts/fill_form.py': 'print("fill")\n',
      'skills/pdf/LICENSE.txt': 'licence\n',
      'skills/canvas/SKILL.md': `---\nname: canvas\ndescription: |-\n  Create visual art.\n  Use for posters.\n---\n# Canvas\n`,
      'skills/canvas/fonts/Work-Bold.ttf': FONT,
      'skills/canvas/archive.tar.gz': FONT,
      'skills/Bad_Name/SKILL.md': SKILL('bad-name', 'Mismatched.'),
      'skills/plain/SKILL.md': '# No frontmatter\n',
      'skills/README.md': '# Skills\n',
    },
    '[kb.topic.skills]\ntitle = "Agent Skills"\nsubjects = "skills"\n',
  );
}

/** A docs folder inside a JavaScript project. */
function docsTree(): string {
  return fixture(
    {
      'docs/intro.md': '---\ndescription: "What the project is: start here."\n---\n# Intro\n',
      'docs/guide/install.md': '---\ntitle: Install\ndescription: How to install it.\n---\n# Install\n',
      'docs/guide/broken.md': '---\ndescription: [unclosed\n---\n# Broken\n',
      'docs/plain.md': '# Plain\n',
      'docs/package.json': '{"name": "docs"}\n',
      'docs/yarn.lock': '# lockfile\n',
      'docs/node_modules/dep/README.md': '# dep\n',
      'docs/.gitignore': 'build/\n',
      'docs/build/out.md': '# generated\n',
      'docs/.kbignore': 'drafts/\n!yarn.lock\n',
      'docs/drafts/wip.md': '# wip\n',
    },
    '[kb.topic.docs]\nsubjects = "docs"\n',
  );
}

/** Notes at a repository's root: git's folder with a remote's token in its
 *  settings and its history's files, a submodule's `.git` file beside a
 *  note named `git`, and Mercurial's folder. `reinclude`: a `.kbignore`
 *  that brings `.git/` back. */
function repoRoot(reinclude = false): string {
  return fixture(
    {
      'notes/a.md': '# A\n',
      'notes/.git/HEAD': 'ref: refs/heads/main\n',
      'notes/.git/config': '[remote "origin"]\n\turl = https://x-access-token:ghp_notasecret@example.com/o/r.git\n',
      'notes/.git/hooks/pre-commit.sample': '#!/bin/sh\nexit 0\n',
      'notes/.git/objects/pack/pack-1.idx': FONT,
      'notes/.git/objects/pack/pack-1.pack': FONT,
      'notes/.git/objects/pack/pack-1.promisor': 'promisor\n',
      'notes/.hg/hgrc': '[paths]\ndefault = https://example.com/r\n',
      'notes/sub/.git': 'gitdir: ../.git/modules/sub\n',
      'notes/sub/git.md': '# Git notes\n',
      ...(reinclude ? { 'notes/.kbignore': '!.git/\n' } : {}),
    },
    '[kb.topic.notes]\nsubjects = "notes"\n',
  );
}

/** A book's code listings: same-slug files everywhere. */
function listings(): string {
  return fixture(
    {
      'book/listing-01-01/Cargo.toml': '[package]\nname = "hello"\n',
      'book/listing-01-01/Cargo.json': '{}\n',
      'book/listing-01-01/Cargo.md': '# notes\n',
      'book/listing-01-02/output.txt': 'out\n',
      'book/listing-01-02/output.rs': 'fn main() {}\n',
      'book/rfd/priority.md': '# priority\n',
      'book/rfd/.priority.json': '{"p": 1}\n',
    },
    '[kb.topic.book]\nsubjects = "book"\n',
  );
}

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`real knowledge folders (${runner.name})`, () => {
    test.parity('a skills folder lists one subject per skill, with its description (else its title)', () => {
      const r = run(runner, skillsRepo(), ['learn', 'skills']);
      expect(r.code).toBe(0);
      expect(r.out).toBe(
        [
          '# Topic: Agent Skills',
          '',
          '## Available subjects:',
          '',
          '- Bad_Name: Mismatched.',
          '- README: Skills',
          '- canvas: Create visual art. Use for posters.',
          '- pdf: Use this skill whenever the user wants to do anything with PDF files.',
          '- plain: No frontmatter',
          '',
          'Use the `learn` tool with the `subjects` argument to learn specific subjects.',
          '',
        ].join('\n'),
      );
      expect(r.err).toBe('');
    });

    test.parity('loading a skill gives SKILL.md, then its directory and bundled files, in the same block', () => {
      const r = run(runner, skillsRepo(), ['learn', 'skills', 'pdf', 'canvas']);
      expect(r.code).toBe(0);
      expect(r.out).toContain(
        [
          'How to pdf.',
          '',
          '<skill-files>',
          'Skill directory: skills/pdf',
          'Bundled files (load one with `learn` by its exact slug; paths are relative to the skill directory):',
          '- pdf/LICENSE (LICENSE.txt)',
          '- pdf/reference (reference.md)',
          '- pdf/scripts/fill_form (scripts/fill_form.py)',
          '</skill-files>',
          '</subject>',
        ].join('\n'),
      );
      expect(r.out).toContain('Skill directory: skills/canvas\n');
      expect(r.out).toContain('- canvas/fonts/Work-Bold (fonts/Work-Bold.ttf)\n');
    });

    test('a pre-loaded skill names its directory and bundled files in the prompt too', () => {
      const root = skillsRepo();
      const r = run(runner, root, ['-k', 'skills/pdf', 'prompt']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('How to pdf.\n\n<skill-files>\nSkill directory: skills/pdf\nBundled files');
      expect(r.out).toContain('- pdf/scripts/fill_form (scripts/fill_form.py)\n</skill-files>\n</subject>\n</topic>');
    });

    test('bundled files load by exact slug, never by a glob', () => {
      const root = skillsRepo();
      const exact = run(runner, root, ['learn', 'skills', 'pdf/scripts/fill_form']);
      expect(exact).toEqual({ out: '```python\nprint("fill")\n```\n', err: '', code: 0 });
      const glob = run(runner, root, ['learn', 'skills', 'pdf/*']);
      expect(glob.out).toContain('No subjects match "pdf/*"');
      // One word for them everywhere (kb list says "bundled"): not "hidden subjects".
      expect(glob.out).toContain(" The glob skipped 2 bundled files: skills' bundled files load only by their exact slug.");
      expect(glob.code).toBe(1);
      // SKILL.md itself stays loadable by its old slug.
      expect(run(runner, root, ['learn', 'skills', 'pdf/SKILL']).out).toStartWith('---\nname: pdf\n');
    });

    test('kb check validates skills as warnings and says nothing of bundled fonts and archives', () => {
      const r = run(runner, skillsRepo(), ['check']);
      expect(r.code).toBe(0);
      const lines = r.out.trim().split('\n');
      expect(lines).toEqual([
        'warning: topic "skills": skill "Bad_Name": name "bad-name" differs from its directory\'s name "Bad_Name" (skills/Bad_Name/SKILL.md)',
        'warning: topic "skills": skill "plain" has no frontmatter; the Agent Skills specification requires name and description (skills/plain/SKILL.md)',
        'ok: 1 topic, 10 subjects, 0 errors, 2 warnings',
      ]);
    });

    test('kb check holds compatibility (1-500 characters) and metadata (strings to strings) to the specification too', () => {
      const root = fixture(
        {
          'skills/ok/SKILL.md': '---\nname: ok\ndescription: Fine.\ncompatibility: Needs Python 3\nmetadata:\n  version: "1.0"\n---\n',
          'skills/bad/SKILL.md': `---\nname: bad\ndescription: Not fine.\ncompatibility: ${'x'.repeat(501)}\nmetadata:\n  version: 1.0\n---\n`,
        },
        '[kb.topic.skills]\nsubjects = "skills"\n',
      );
      const r = run(runner, root, ['check']);
      expect(r.out.trim().split('\n')).toEqual([
        'warning: topic "skills": skill "bad": compatibility must be a string of 1-500 characters (skills/bad/SKILL.md)',
        'warning: topic "skills": skill "bad": metadata must map strings to strings (skills/bad/SKILL.md)',
        'ok: 1 topic, 2 subjects, 0 errors, 2 warnings',
      ]);
    });

    test.parity('descriptions come from frontmatter; malformed frontmatter is no description and a check warning', () => {
      const root = docsTree();
      const r = run(runner, root, ['learn', 'docs']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('\n- guide/broken\n- guide/install: How to install it.\n- intro: What the project is: start here.\n- package\n- plain\n- yarn\n');
      const check = run(runner, root, ['check']);
      expect(check.code).toBe(0);
      expect(check.out).toContain('warning: topic "docs": subject "guide/broken" has frontmatter that is not valid YAML (');
      expect(check.out).toContain('); it has no description (docs/guide/broken.md)\n');
    });

    test('loaded content is the raw file, frontmatter included', () => {
      const r = run(runner, docsTree(), ['learn', 'docs', 'guide/install']);
      expect(r.out).toBe('---\ntitle: Install\ndescription: How to install it.\n---\n# Install\n');
    });

    test.parity('.gitignore, .kbignore and the defaults leave files out entirely', () => {
      const root = docsTree();
      const r = run(runner, root, ['learn', 'docs', '**']);
      expect(r.out).not.toContain('node_modules');
      expect(r.out).not.toContain('generated');
      expect(r.out).not.toContain('wip');
      expect(r.out).toContain('<subject "yarn">'); // re-included by .kbignore
      for (const slug of ['build/out', 'drafts/wip', 'node_modules/dep/README', 'gitignore', 'kbignore']) {
        const one = run(runner, root, ['learn', 'docs', slug]);
        expect(one.code).toBe(1);
        expect(one.out).toContain('No subjects match');
      }
    });

    test.parity("version control's folders are never walked: nothing in them loads, collides or is searched", () => {
      const root = repoRoot();
      const config = run(runner, root, ['learn', 'notes', 'git/config']);
      expect(config.code).toBe(1);
      expect(config.out).toContain('".git/config" exists in the topic\'s directory but is left out by kb\'s built-in default ".git/"; the line "!.git/" in the topic\'s .kbignore brings it back.');
      expect(config.out).not.toContain('ghp_');
      for (const slug of ['git/HEAD', 'git/hooks/pre-commit', 'hg/hgrc']) expect(run(runner, root, ['learn', 'notes', slug]).code).toBe(1);
      // The submodule's `.git` file shares no slug with the note `git`.
      expect(run(runner, root, ['learn', 'notes', 'sub/git']).out).toBe('# Git notes\n');
      const check = run(runner, root, ['check']);
      expect(check.code).toBe(0);
      expect(check.out).not.toContain('shared by');
      expect(check.out).toBe('ok: 1 topic, 2 subjects, no problems\n');
      expect(run(runner, root, ['search', 'ghp_notasecret']).code).toBe(1);
      expect(run(runner, root, ['list', '--ignored']).out).toContain(
        ['  ignored:', '    .git/  (.git/, built-in default)', '    .hg/  (.hg/, built-in default)', '    sub/.git  (.git, built-in default)', ''].join('\n'),
      );
    });

    test.parity("a site's fonts and images sharing slugs are no warning; two pages sharing one are", () => {
      const root = fixture(
        {
          'site/fonts/lato.woff': FONT,
          'site/fonts/lato.woff2': FONT,
          'site/img/sticker.jpg': FONT,
          'site/img/sticker.png': FONT,
          'site/letter.org': '* Letter\n',
          'site/letter.pdf': FONT,
          'site/slides.org': '* Slides\n',
          'site/slides.html': '<p>Slides</p>\n',
        },
        '[kb.topic.site]\nsubjects = "site"\n',
      );
      const check = run(runner, root, ['check']);
      expect(check.code).toBe(0);
      expect(check.out.match(/is shared by/g)).toHaveLength(1);
      expect(check.out).toContain('slug "slides" is shared by 2 files: it loads slides.org; the other loads by its name with its extension, "slides.html"');
      // The font's other file still loads by its name (a binary file: skipped).
      expect(run(runner, root, ['learn', 'site', 'fonts/lato.woff2']).out).toContain('it is a binary file');
    });

    test.parity('a small PDF with no NUL in its head is binary all the same: not listed, loaded, searched or warned of as text', () => {
      const root = fixture(
        {
          'docs/a.md': '# A\n\nThe creator wrote this.\n',
          'docs/tiny.pdf': '%PDF-1.3\n%\u00ff\u00ff\n1 0 obj\n<< /Creator <feff00500072006100770064> /Producer (creator) >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
        },
        '[kb.topic.docs]\nsubjects = "docs"\n',
      );
      expect(run(runner, root, ['learn', 'docs']).out).toContain('\n- a\n');
      expect(run(runner, root, ['learn', 'docs']).out).not.toContain('tiny');
      const one = run(runner, root, ['learn', 'docs', 'tiny']);
      expect(one.code).toBe(1);
      expect(one.out).toContain('it is a binary file');
      const check = run(runner, root, ['check']);
      expect(check.out).toContain('1 binary file is not a subject: 1 pdf');
      expect(check.out).not.toContain('not valid UTF-8');
      const found = run(runner, root, ['search', 'creator']);
      expect(found.out).toContain('docs: a');
      expect(found.out).not.toContain('tiny');
    });

    test("a `!.git/` line brings git's folder back, as it does any default", () => {
      const r = run(runner, repoRoot(true), ['learn', 'notes', 'git/HEAD']);
      expect(r.code).toBe(0);
      expect(r.out).toBe('ref: refs/heads/main\n');
    });

    test('kb list --ignored says what was left out and by which rule', () => {
      const r = run(runner, docsTree(), ['list', '--ignored']);
      expect(r.code).toBe(0);
      expect(r.out).toContain(
        ['  ignored:', '    build/  (build/, .gitignore)', '    drafts/  (drafts/, .kbignore)', '    node_modules/  (node_modules/, built-in default)', ''].join('\n'),
      );
      expect(r.out).toMatch(/ intro +\d+ B +~\d+ tok {2}What the project is: start here\.\n/);
      expect(run(runner, docsTree(), ['list']).out).not.toContain('ignored');
    });

    test.parity('same-slug files: one warning a slug, the document wins, each other file loads by slug plus extension', () => {
      const root = listings();
      const check = run(runner, root, ['check']);
      expect(check.code).toBe(0);
      expect(check.out).toContain(
        'warning: topic "book": slug "listing-01-01/Cargo" is shared by 3 files: it loads listing-01-01/Cargo.md; the others load by their names with their extensions, "listing-01-01/Cargo.json", "listing-01-01/Cargo.toml" (book/listing-01-01/Cargo.md)',
      );
      expect(check.out.match(/is shared by/g)).toHaveLength(3);
      expect(run(runner, root, ['learn', 'book', 'listing-01-01/Cargo.toml']).out).toBe('```toml\n[package]\nname = "hello"\n```\n');
      expect(run(runner, root, ['learn', 'book', 'listing-01-02/output.rs']).out).toBe('```rust\nfn main() {}\n```\n');
      expect(run(runner, root, ['learn', 'book', 'rfd/priority.json']).out).toBe('```json\n{"p": 1}\n```\n');
    });

    test.parity("loading a shared slug by name: the document, in a block, and a note naming the other files for the model", () => {
      const root = listings();
      expect(run(runner, root, ['learn', 'book', 'listing-01-01/Cargo']).out).toBe(
        [
          '<subject "listing-01-01/Cargo">',
          '# notes',
          '</subject>',
          '',
          'Note: "listing-01-01/Cargo" is the file "listing-01-01/Cargo.md"; other files share its slug and load by slug plus extension: "listing-01-01/Cargo.json", "listing-01-01/Cargo.toml".',
          '',
        ].join('\n'),
      );
      expect(run(runner, root, ['learn', 'book', 'listing-01-02/output']).out).toBe(
        '<subject "listing-01-02/output">\nout\n</subject>\n\nNote: "listing-01-02/output" is the file "listing-01-02/output.txt"; other files share its slug and load by slug plus extension: "listing-01-02/output.rs".\n',
      );
      expect(run(runner, root, ['learn', 'book', 'rfd/priority']).out).toContain('Note: "rfd/priority" is the file "rfd/priority.md"; other files share its slug and load by slug plus extension: "rfd/priority.json".\n');
    });

    test.parity('a glob that loads shared slugs: one note for the call, naming the other files', () => {
      const r = run(runner, listings(), ['learn', 'book', '**']);
      expect(r.code).toBe(0);
      expect(r.out).toEndWith(
        '\n\nNote: 3 of these subjects share their slugs with other files, which load by slug plus extension: "listing-01-01/Cargo.json", "listing-01-01/Cargo.toml", "listing-01-02/output.rs", "rfd/priority.json".\n',
      );
      expect(r.out.match(/^Note: /gm)).toHaveLength(1);
    });

    test('other commands sum shared slugs up in one line per topic; --verbose gives each', () => {
      const root = listings();
      const r = run(runner, root, ['prompt']);
      expect(r.code).toBe(0);
      expect(r.err).toBe(
        'warning: topic "book": 3 slugs name several files; a shared slug loads its document, the other files load by slug plus extension (kb check, or --verbose, lists them)\n',
      );
      const verbose = run(runner, root, ['--verbose', 'prompt']);
      expect(verbose.err.match(/is shared by/g)).toHaveLength(3);
    });
  });
}
