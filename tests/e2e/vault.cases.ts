// Folders nobody tuned kb to, as a new user points kb at them: upstream
// documents that share their words, and a personal notes vault in
// Obsidian's layout (notes made from templates, daily notes holding only an
// embed). tests/e2e/vault.dist.test.ts runs them on the binary; tests/parity
// runs those marked parity under deno.
import { describe, expect } from 'bun:test';
import { templateVault } from '../../scripts/lib/template-vault.ts';
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
}
