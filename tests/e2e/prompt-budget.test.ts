// The prompt section within its token budget when a pattern pre-loads far
// more than fits (`kb prompt -k 'tldr/common/*'` over a 3,000-page folder):
// subjects are expanded while they fit, then as many names as fit, then a
// count with the `learn` call that lists the rest. Property-style: over
// several budgets and a large, uneven pre-loaded set, the section (as kb
// estimates tokens) never exceeds the budget, and every pre-loaded subject
// is expanded, named or counted, exactly once.
import { describe, expect, test } from 'bun:test';
import { estimateTokens } from '../../src/kb/content/tokens.ts';
import { BINARY, fixture, run } from './harness.ts';

/** A seeded generator, so that a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0) / 2 ** 32);
}

const random = rng(22);
const files: Record<string, string> = {};
const words = ['list', 'files', 'archive', 'network', 'process', 'the', 'remote', 'container', 'über', '日本', 'v1.2.3'];
for (let i = 0; i < 1500; i++) {
  const name = `${words[i % words.length]}-${i}${'x'.repeat(Math.floor(random() * 40))}`;
  const lines = Array.from({ length: 1 + Math.floor(random() * 30) }, (_, j) => `- ${words[(i + j) % words.length]} ${j}: \`cmd --flag ${i}\``);
  files[`pages/common/${name}.md`] = `# ${name}\n\n${lines.join('\n')}\n`;
}
for (let i = 0; i < 300; i++) files[`pages/linux/tool-${i}.md`] = `# tool ${i}\n\nA tool.\n`;
const root = fixture(
  files,
  '[kb.topic.tldr]\ntitle = "Command pages"\nsubjects = "pages"\ndescription = "Short pages on command-line tools."\n\n[kb.topic.other]\nsubjects = "pages/linux"\nintroduction = "More tools"\n',
);
const COMMON = Object.keys(files).filter((f) => f.startsWith('pages/common/')).length;

describe('kb prompt: the pre-loaded set within the budget (dist/kb)', () => {
  test.each([150, 300, 400, 1000, 4000, 20000, 60000])('--max-tokens %d: at most the budget; every subject expanded, named or counted', (budget) => {
    const r = run(BINARY, root, ['prompt', '--max-tokens', String(budget), '-k', 'tldr/common/*', '-k', 'other/*']);
    expect(r.code).toBe(0);
    const expanded = r.out.match(/^<subject "common\//gm)?.length ?? 0;
    const note = /^Also pre-loaded, but not expanded here to stay within the token budget \(load them with `learn`\): (.*)$/m.exec(r.out);
    const named = note === null ? 0 : (note[1].match(/"common\/[^"]+"/g)?.length ?? 0);
    const counted = note === null ? 0 : Number((/(?:and )?([\d,]+) (?:more|subjects), which `learn` lists with topic "tldr", subjects "common\/"\.$/.exec(note[1])?.[1] ?? '0').replace(/,/g, ''));
    expect(expanded + named + counted).toBe(COMMON);
    // Within the budget; a budget below what the section says anyway (its
    // sentences, the topic lines, the counts) gets no subject and no name.
    if (estimateTokens(r.out) > budget) expect({ expanded, named }).toEqual({ expanded: 0, named: 0 });
    else expect(estimateTokens(r.out)).toBeLessThanOrEqual(budget);
    if (counted > 0) expect(r.err).toContain(`topic "tldr": ${COMMON - expanded} pre-loaded subjects`);
  });

  test('the issue\'s case: 4,000 tokens is about 16 KB, not 100 KB, and says what it left out', () => {
    const r = run(BINARY, root, ['prompt', '--max-tokens', '4000', '-k', 'tldr/common/*']);
    expect(Buffer.byteLength(r.out)).toBeLessThan(24_000);
    expect(r.out).toMatch(/ more, which `learn` lists with topic "tldr", subjects "common\/"\.\n/);
    expect(r.err).toMatch(/^warning: topic "tldr": \d+ pre-loaded subjects \(~[\d,]+ tokens\) not expanded \([\d,]+ named, [\d,]+ counted\), to keep the prompt within 4,000 tokens \(--max-tokens, KB_MAX_TOKENS\)\n$/);
  });
});
