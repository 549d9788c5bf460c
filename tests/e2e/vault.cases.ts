// Folders nobody tuned kb to, as a new user points kb at them: upstream
// documents that share their words, and a personal notes vault in
// Obsidian's layout (notes made from templates, daily notes holding only an
// embed). tests/e2e/vault.dist.test.ts runs them on the binary; tests/parity
// runs those marked parity under deno.
import { describe, expect } from 'bun:test';
import { templateVault } from '../../scripts/lib/template-vault.ts';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { caseTest, fixture, run, type Runner } from './harness.ts';

/** Two different upstream documents that say much the same in many of
 *  the same words (two skills of one collection), and a notes topic. */
const UPSTREAM = {
  'skills/writing-plans/SKILL.md':
    '---\nname: writing-plans\ndescription: Write a plan.\n---\n# Writing plans\n\nBefore touching code, write the implementation plan: the files to change, the tests to write first, each step small enough to review.\n',
  'skills/executing-plans/SKILL.md':
    '---\nname: executing-plans\ndescription: Execute a plan.\n---\n# Executing plans\n\nFollow the implementation plan: change the files it names, write the tests first, each step small enough to review, then report.\n',
  'notes/.keep': '',
};
const UPSTREAM_CONFIG = '[kb.topic.skills]\nsubjects = "skills"\n\n[kb.topic.notes]\nsubjects = "notes"\n';

const nearLines = (out: string) => out.split('\n').filter((l) => l.includes('say nearly the same'));

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`kb check on folders kb did not write (${runner.name})`, () => {
    test.parity('near duplicates: by default only subjects kb wrote are compared; --duplicates compares all', () => {
      const root = fixture(UPSTREAM, UPSTREAM_CONFIG);
      const check = run(runner, root, ['check']);
      expect(check).toEqual({ out: 'ok: 2 topics, 3 subjects, no problems\n', err: '', code: 0 });
      const all = run(runner, root, ['check', '--duplicates']);
      expect(nearLines(all.out)).toEqual([
        'warning: topic "skills": subjects "executing-plans" and "writing-plans" say nearly the same (similarity 0.77); merge them or forget one (kb never removes either by itself) (skills/executing-plans/SKILL.md)',
      ]);
      expect(all.code).toBe(0);
      // What kb remember wrote is compared by default.
      expect(run(runner, root, ['remember', 'notes', 'The staging database is reset every night at 02:00.']).code).toBe(0);
      expect(run(runner, root, ['remember', 'notes', '--force', 'Every night at 02:00 the staging database is reset.']).code).toBe(0);
      const ours = nearLines(run(runner, root, ['check']).out);
      expect(ours).toHaveLength(1);
      expect(ours[0]).toStartWith('warning: topic "notes": subjects "');
    });

    test('a template-based vault: --duplicates reports the copies, not notes made from one template or daily notes holding only an embed', () => {
      const vault = templateVault();
      const root = fixture(Object.fromEntries(Object.entries(vault.files).map(([p, t]) => [`vault/${p}`, t])), '[kb.topic.vault]\nsubjects = "vault"\n');
      expect(run(runner, root, ['check'])).toEqual({ out: `ok: 1 topic, ${Object.keys(vault.files).length} subjects, no problems\n`, err: '', code: 0 });
      const all = run(runner, root, ['check', '--duplicates']);
      expect(all.code).toBe(0);
      const pairs = nearLines(all.out).map((l) => /subjects "([^"]+)" and "([^"]+)"/.exec(l)!.slice(1, 3).sort().join(' | '));
      expect(pairs.sort()).toEqual(vault.pairs.map((p) => [p.a, p.b].sort().join(' | ')).sort());
      // Those left out are counted, never silently.
      expect(all.out).toMatch(/^topic "vault": \d+ subjects not compared for near duplicates: fewer than 8 words of their own \(frontmatter, embeds and lines 3 or more subjects repeat aside\)$/m);
    });
  });

  describe(`a vault's ignore files (${runner.name})`, () => {
    /** Obsidian's layout: Web Clipper's folder left out by the vault's .gitignore. */
    const vault = () =>
      fixture(
        {
          'vault/.gitignore': '.obsidian/\n# clipped pages\nClippings/\n',
          'vault/Clippings/How to garden.md': '# How to garden\n\nDig.\n',
          'vault/Projects/.gitignore': 'drafts/\n',
          'vault/Projects/drafts/plan.md': '# Plan\n',
          'vault/Daily/2024-01-01.md': '![[Templates/Daily]]\n',
        },
        '[kb.topic.vault]\nsubjects = "vault"\n',
      );
    const SAY = '"Clippings/How to garden.md" exists in the topic\'s directory but is left out by .gitignore line 3 ("Clippings/"); the line "!Clippings/" in the topic\'s .kbignore brings it back.';

    test.parity('a miss that names an ignored note says it exists, which file and line leave it out, and how to bring it back', () => {
      const root = vault();
      const exact = run(runner, root, ['learn', 'vault', 'Clippings/How to garden']);
      expect(exact).toEqual({
        out: `No subjects match "Clippings/How to garden" in topic "vault". ${SAY} Call \`learn\` with only the topic to list its subjects.\n`,
        err: `warning: topic "vault": ${SAY}\n`,
        code: 1,
      });
      expect(run(runner, root, ['learn', 'vault', 'Clippings/*']).out).toContain(SAY);
      expect(run(runner, root, ['learn', 'vault', 'How to garden']).out).toContain(SAY);
      // A rule in a deeper ignore file: its own .kbignore.
      expect(run(runner, root, ['learn', 'vault', 'Projects/drafts/plan']).out).toContain(
          '"Projects/drafts/plan.md" exists in the topic\'s directory but is left out by Projects/.gitignore line 1 ("drafts/"); the line "!drafts/" in the topic\'s Projects/.kbignore brings it back.',
      );
      // Nothing ignored by that name: the miss as it was.
      expect(run(runner, root, ['learn', 'vault', 'nothing-here'])).toEqual({
        out: 'No subjects match "nothing-here" in topic "vault". Call `learn` with only the topic to list its subjects.\n',
        err: '',
        code: 1,
      });
      // The advice works.
      writeFileSync(join(root, 'vault/.kbignore'), '!Clippings/\n');
      expect(run(runner, root, ['learn', 'vault', 'Clippings/How to garden'])).toEqual({ out: '# How to garden\n\nDig.\n', err: '', code: 0 });
    });

    test('kb prompt, run before every prompt, warns only about what it reads: a dangling link inside a hidden folder is for kb check', () => {
      const root = vault();
      mkdirSync(join(root, 'vault/.claude/skills'), { recursive: true });
      symlinkSync('../../missing-skill', join(root, 'vault/.claude/skills/gone'));
      symlinkSync('missing-note.md', join(root, 'vault/Daily/gone.md'));
      const prompt = run(runner, root, ['prompt']);
      expect(prompt.code).toBe(0);
      // The link it lists around is still said; the hidden one is not.
      expect(prompt.err).toBe('warning: topic "vault": dangling symbolic link skipped: Daily/gone.md -> missing-note.md\n');
      expect(run(runner, root, ['search', 'dig']).err).not.toContain('.claude');
      const check = run(runner, root, ['check']);
      expect(check.out).toContain('warning: topic "vault": dangling symbolic link skipped: .claude/skills/gone -> ../../missing-skill (vault/.claude/skills/gone)\n');
      expect(check.out).toContain('warning: topic "vault": dangling symbolic link skipped: Daily/gone.md -> missing-note.md (vault/Daily/gone.md)\n');
    });
  });
}
