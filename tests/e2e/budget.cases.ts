// Token budgets on learn results and the prompt: whole subjects in order
// until the budget, a note that says what was left out and the exact call
// that continues, windows for a subject larger than the budget. On the
// binary and under deno.
import { describe, expect } from 'bun:test';
import { caseTest, fixture, run, type Runner } from './harness.ts';

const para = (i: number) => `Paragraph ${i}: ${'the quick brown fox jumps over the lazy dog. '.repeat(8)}\n`;
/** 30 subjects of about 1,400 tokens each (10 pre-loaded), one of about
 *  60,000, and a JSON file of one 100,000-byte line. */
function library(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`docs/page-${String(i).padStart(2, '0')}.md`] = Array.from({ length: 15 }, (_, j) => para(j)).join('');
  files['docs/huge.md'] = Array.from({ length: 3000 }, (_, i) => `${i}: ${'wörds and more wörds '.repeat(4)}\n`).join('');
  files['docs/data.json'] = JSON.stringify({ blob: 'x'.repeat(100_000) });
  return fixture(files, '[kb.topic.docs]\nsubjects = "docs"\nlearned = ["page-0*"]\n');
}

/** The JSON arguments of the call a note asks for. */
function nextCall(out: string): { topic: string; subjects: string[] } | undefined {
  const m = /call `learn` with (\{.*\})\]$/m.exec(out);
  return m ? JSON.parse(m[1]) : undefined;
}

const blocks = (out: string) => [...out.matchAll(/<subject "([^"]+)">/g)].map((m) => m[1]);

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`budgets (${runner.name})`, () => {
    test.parity('a glob over budget: whole subjects in order, a note, and the call that continues; all arrive once', () => {
      const root = library();
      const seen: string[] = [];
      let args: { topic: string; subjects: string[] } | undefined = { topic: 'docs', subjects: ['page-*'] };
      for (let calls = 0; args !== undefined && calls < 10; calls++) {
        const r = run(runner, root, ['learn', '--max-tokens', '5000', '--args', JSON.stringify(args)]);
        expect(r.code).toBe(0);
        seen.push(...blocks(r.out));
        args = nextCall(r.out);
        if (args !== undefined) {
          expect(r.out).toMatch(/\[\d+ more subjects? \(~[\d,]+ tokens\) matched but (were|was) left out to stay within the 5,000-token budget\./);
          expect(r.err).toContain('left out to stay within 5,000 tokens');
        }
      }
      expect(args).toBeUndefined();
      // Every page arrives exactly once: in the prompt (with the same
      // budget, only some pre-loaded pages are expanded there) or through
      // learn.
      const prompt = blocks(run(runner, root, ['prompt', '--max-tokens', '5000']).out);
      expect(prompt.length).toBeGreaterThan(0);
      expect([...prompt, ...seen].sort()).toEqual(Array.from({ length: 30 }, (_, i) => `page-${String(i).padStart(2, '0')}`));
      expect(seen).toEqual([...seen].sort());
    }, 60_000);

    test.parity('the default budget is 20,000 tokens; 0 and KB_MAX_TOKENS=0 lift it', () => {
      const root = library();
      const d = run(runner, root, ['learn', 'docs', 'page-*']);
      expect(d.out).toContain('within the 20,000-token budget');
      const none = run(runner, root, ['learn', '--max-tokens', '0', 'docs', 'page-*']);
      expect(none.out).not.toContain('budget');
      expect(blocks(none.out)).toHaveLength(20);
      expect(run(runner, root, ['learn', 'docs', 'page-*'], { env: { KB_MAX_TOKENS: '0' } }).out).toBe(none.out);
      expect(run(runner, root, ['learn', 'docs', 'page-*'], { env: { KB_MAX_TOKENS: '3000' } }).out).toContain('3,000-token budget');
    });

    test('a malformed budget is a usage error', () => {
      const root = library();
      for (const [args, env] of [[['learn', '--max-tokens', 'lots', 'docs']], [['learn', 'docs'], { KB_MAX_TOKENS: '-1' }]] as [string[], Record<string, string>?][]) {
        const r = run(runner, root, args, { env });
        expect(r.code).toBe(2);
        expect(r.err).toContain('is not a whole number of tokens');
      }
    });

    for (const [slug, file, fenced] of [['huge', 'docs/huge.md', false], ['data', 'docs/data.json', true]] as const) {
      // Under deno: the one-line JSON file (fewer windows than the 60,000-token one).
      (fenced ? test.parity : test)(`a subject larger than the budget comes in windows that put together are the file (${file})`, () => {
        const root = library();
        const { readFileSync } = require('node:fs') as typeof import('node:fs');
        const file_ = readFileSync(`${root}/${file}`);
        for (const via of ['argv', 'args'] as const) {
          const parts: Buffer[] = [];
          let args: { topic: string; subjects: string[] } | undefined = { topic: 'docs', subjects: [slug] };
          for (let calls = 0; args !== undefined && calls < 50; calls++) {
            const r =
              via === 'args'
                ? run(runner, root, ['learn', '--max-tokens', '4000', '--args', JSON.stringify(args)])
                : run(runner, root, ['learn', '--max-tokens', '4000', args.topic, ...args.subjects]);
            expect(r.code).toBe(0);
            const note = /this is bytes (\d+)-(\d+) of (\d+) \(lines (\d+)-(\d+)\)/.exec(r.out)!;
            expect(note).not.toBeNull();
            const [from, to, total] = [Number(note[1]), Number(note[2]), Number(note[3])];
            expect(total).toBe(file_.length);
            const out = Buffer.from(r.out);
            const open = Buffer.from(`<subject "${slug}">\n${fenced ? '```json\n' : ''}`);
            const at = out.indexOf(open) + open.length;
            parts.push(out.subarray(at, at + (to - from)));
            args = nextCall(r.out);
          }
          expect(args).toBeUndefined();
          expect(Buffer.concat(parts).equals(file_)).toBe(true);
        }
      }, 120_000);
    }

    test('prompt --max-tokens: pre-loaded subjects beyond it are named, not expanded, and then loadable', () => {
      const root = library();
      const full = run(runner, root, ['prompt', '--max-tokens', '0']);
      expect(blocks(full.out)).toHaveLength(10);
      const cut = run(runner, root, ['prompt', '--max-tokens', '4000']);
      expect(cut.code).toBe(0);
      const expanded = blocks(cut.out);
      expect(expanded.length).toBeGreaterThan(0);
      expect(expanded.length).toBeLessThan(10);
      expect(cut.out).toContain('Also pre-loaded, but not expanded here to stay within the token budget (load them with `learn`): "page-0');
      expect(cut.err).toContain('named but not expanded, to keep the prompt within 4,000 tokens');
      // With the same budget, learn loads them: they are not "already learned".
      const last = `page-0${9}`;
      const r = run(runner, root, ['learn', '--max-tokens', '4000', 'docs', last]);
      expect(r.out).not.toContain('already in your system prompt');
      expect(r.out).toStartWith('Paragraph 0');
      // ...and with no budget they are pre-loaded.
      expect(run(runner, root, ['learn', '--max-tokens', '0', 'docs', last]).out).toContain('already in your system prompt');
    });

    test('a continuation that names a subject the patterns do not select says so', () => {
      const r = run(runner, library(), ['learn', 'docs', 'page-1*', '@from:0:nothing']);
      expect(r.code).toBe(1);
      expect(r.out).toContain('Cannot continue from "nothing"');
    });
  });
}
