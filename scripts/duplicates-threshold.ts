// How short a text not written by kb may be before `kb check --duplicates`
// leaves it out (MIN_COMPARED_TERMS in src/kb/write/similar.ts): on a
// template-based vault (scripts/lib/template-vault.ts), the near-duplicate
// pairs found for each minimum, split into pairs among notes made from
// templates (noise) and the pairs written on purpose (found / missed).
//
//   npx bun scripts/duplicates-threshold.ts [--seed N] [--keep-template-lines]
import { comparedText, MIN_COMPARED_TERMS, TEMPLATE_LINE_TEXTS, nearPairs, ownText, templateLines, termCount } from '../src/kb/write/similar.ts';
import { templateVault } from './lib/template-vault.ts';

const at = process.argv.indexOf('--seed');
const vault = templateVault(at > 0 ? Number(process.argv[at + 1]) : undefined);
const useTemplateLines = !process.argv.includes('--keep-template-lines');
const bodies = Object.entries(vault.files).map(([path, text]) => ({ slug: path.replace(/\.md$/, ''), text: comparedText(text) }));
const template = useTemplateLines ? templateLines(bodies.map((b) => b.text)) : new Set<string>();
const entries = bodies.map(({ slug, text }) => {
  const compared = ownText(text, template);
  return { slug, compared, terms: termCount(compared) };
});
console.log(useTemplateLines ? `template lines (in ${TEMPLATE_LINE_TEXTS} notes or more) left out: ${template.size}` : 'template lines kept');
const templated = new Set(vault.templated);
const wanted = new Set(vault.pairs.map((p) => `${p.a}\n${p.b}`));
console.log(`${entries.length} notes, ${vault.templated.length} from templates, ${vault.pairs.length} near duplicates written on purpose (${vault.pairs.map((p) => p.words).join(', ')} words)`);
console.log('min terms | compared | pairs | template pairs | other unwanted | on purpose found');
for (const min of [0, 1, 4, 8, 12, 16, 20, 24, 32, 48, 64]) {
  const kept = entries.filter((e) => e.terms >= min);
  const pairs = nearPairs(kept.map((e) => e.compared)).pairs;
  let noise = 0;
  let other = 0;
  const found: number[] = [];
  for (const p of pairs) {
    const [a, b] = [kept[p.a].slug, kept[p.b].slug];
    if (wanted.has(`${a}\n${b}`) || wanted.has(`${b}\n${a}`)) found.push(vault.pairs.find((x) => x.a === a || x.a === b)!.words);
    else if (templated.has(a) || templated.has(b)) noise++;
    else other++;
  }
  const mark = min === MIN_COMPARED_TERMS ? '  <- MIN_COMPARED_TERMS' : '';
  console.log(`${String(min).padStart(9)} | ${String(kept.length).padStart(8)} | ${String(pairs.length).padStart(5)} | ${String(noise).padStart(14)} | ${String(other).padStart(14)} | ${found.length}/${vault.pairs.length} (${found.sort((x, y) => x - y).join(', ')} words)${mark}`);
}
// Without leaving embeds out: the daily notes.
const raw = Object.values(vault.files).map((t) => t.replace(/^---\n[\s\S]*?\n---\n/, ''));
console.log(`embeds counted as text (frontmatter left out, no minimum): ${nearPairs(raw).pairs.length} pairs`);
