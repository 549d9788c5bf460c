// A personal notes vault in Obsidian's layout, made from templates: the
// shape `kb check --duplicates` is measured on (scripts/duplicates-threshold.ts)
// and tested against (tests/e2e/duplicates.cases.ts). Deterministic.
//
// - Daily notes that hold only an embed of the day's template
//   (`![[Templates/Daily]]`), with frontmatter.
// - Notes made from one template (meetings, books): the template's headings
//   and fields, filled in with 0 to 4 short lines each.
// - Notes written by hand: paragraphs of 40-150 words.
// - True near duplicates: a hand-written note copied with a few words
//   changed (`pairs`), long and short.
//
// Words are drawn from a made-up vocabulary with Zipf-like frequencies, so
// notes share their common words as real notes do (the head of the curve
// flattened: the most common words of real text are function words, which
// kb does not compare).

import { mulberry32 } from './mulberry32.mjs';


export interface TemplateVault {
  /** Path (relative to the vault) -> content. */
  files: Record<string, string>;
  /** Slugs of the near-duplicate pairs written on purpose, by body length. */
  pairs: { a: string; b: string; words: number }[];
  /** Slugs of the notes made from templates (daily notes included). */
  templated: string[];
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'pel', 'dun', 'sar', 'ith', 'bra', 'cor', 'fen', 'gal', 'hun', 'jor', 'mab', 'nix', 'qua', 'tre'];

export function templateVault(seed = 22, size = { daily: 60, meetings: 40, books: 20, reviews: 30, notes: 30 }): TemplateVault {
  const random = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const vocabulary: string[] = [];
  const seen = new Set<string>();
  while (vocabulary.length < 3000) {
    let w = '';
    for (let n = int(2, 4); n > 0; n--) w += SYLLABLES[int(0, SYLLABLES.length - 1)];
    if (!seen.has(w)) (seen.add(w), vocabulary.push(w));
  }
  // Zipf-like: the k-th word about 1/(k + 30) as often.
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= vocabulary.length; k++) cumulative.push((total += 1 / (k + 30)));
  const word = () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo];
  };
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const sentence = () => `${words(int(6, 14))}.`;
  const paragraph = (n: number) => {
    const out: string[] = [];
    let count = 0;
    while (count < n) {
      const s = sentence();
      out.push(s);
      count += s.split(' ').length;
    }
    return out.join(' ');
  };

  const files: Record<string, string> = {};
  const templated: string[] = [];
  files['Templates/Daily.md'] = '## Tasks\n\n- [ ] \n\n## Journal\n\n';
  files['Templates/Meeting.md'] = '---\ntype: meeting\ndate: {{date}}\nattendees:\n---\n# {{title}}\n\n## Attendees\n\n## Agenda\n\n## Notes\n\n## Action items\n\n- [ ] \n';
  files['Templates/Book.md'] = '---\ntype: book\nauthor:\nrating:\n---\n# {{title}}\n\n## Summary\n\n## Quotes\n\n## What I think\n';

  for (let i = 0; i < size.daily; i++) {
    const day = `2024-${String(1 + Math.floor(i / 28)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    files[`Daily/${day}.md`] = `---\ndate: ${day}\ntags: [daily]\n---\n![[Templates/Daily]]\n`;
    templated.push(`Daily/${day}`);
  }
  const filled = (n: number) => Array.from({ length: n }, () => `- ${words(int(3, 8))}`).join('\n');
  for (let i = 0; i < size.meetings; i++) {
    const name = `Meetings/Meeting ${i + 1}`;
    files[`${name}.md`] =
      `---\ntype: meeting\ndate: 2024-03-${String(1 + (i % 28)).padStart(2, '0')}\nattendees: [${word()}, ${word()}]\n---\n# ${words(2)}\n\n` +
      `## Attendees\n\n${filled(int(0, 2))}\n\n## Agenda\n\n${filled(int(0, 3))}\n\n## Notes\n\n${filled(int(0, 4))}\n\n## Action items\n\n- [ ] ${words(int(0, 5))}\n`;
    templated.push(name);
  }
  for (let i = 0; i < size.books; i++) {
    const name = `Books/Book ${i + 1}`;
    files[`${name}.md`] = `---\ntype: book\nauthor: ${words(2)}\nrating: ${int(1, 5)}\n---\n# ${words(3)}\n\n## Summary\n\n${filled(int(0, 3))}\n\n## Quotes\n\n${filled(int(0, 2))}\n\n## What I think\n\n${filled(int(0, 2))}\n`;
    templated.push(name);
  }
  // A template of questions, answered in a few words or not at all.
  const review = (answers: () => string) =>
    `## What went well this week?\n\n${answers()}\n\n## What did not go as planned, and why?\n\n${answers()}\n\n` +
    `## What will I focus on next week?\n\n${answers()}\n\n## Habits tracked: reading, exercise, sleep, writing\n\n${answers()}\n`;
  files['Templates/Weekly review.md'] = `---
type: review
---
${review(() => '- ')}`;
  for (let i = 0; i < size.reviews; i++) {
    const name = `Reviews/Week ${i + 1}`;
    files[`${name}.md`] = `---
type: review
week: ${i + 1}
---
${review(() => (random() < 0.5 ? '- ' : filled(int(1, 2))))}`;
    templated.push(name);
  }
  for (let i = 0; i < size.notes; i++) files[`Notes/Note ${i + 1}.md`] = `# ${words(3)}\n\n${paragraph(int(40, 150))}\n`;

  // Near duplicates on purpose: a copy with about one word in eight changed.
  const pairs: TemplateVault['pairs'] = [];
  for (const n of [12, 20, 30, 60, 120]) {
    const a = `Notes/Draft ${n}`;
    const b = `Notes/Draft ${n} (copy)`;
    const text = paragraph(n);
    const copy = text
      .split(' ')
      .map((w) => (random() < 0.125 ? word() : w))
      .join(' ');
    files[`${a}.md`] = `# Draft\n\n${text}\n`;
    files[`${b}.md`] = `# Draft\n\n${copy}\n`;
    pairs.push({ a, b, words: text.split(' ').length });
  }
  return { files, pairs, templated };
}
