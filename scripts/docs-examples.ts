// Runs the examples of README.md and docs/**/*.md (see scripts/lib/doc-examples.ts
// for how they are written) and prints what differs; with --update, writes
// what dist/kb prints now into the transcripts instead. Review the diff
// before committing it: the docs then say what the binary does.
//
//   npm run build --silent && npx bun scripts/docs-examples.ts [--update] [FILE...]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, blocks, docFiles, readDoc, runBlock, runnable, unclassified, updated } from './lib/doc-examples.ts';

const args = process.argv.slice(2);
const update = args.includes('--update');
const files = args.filter((a) => a !== '--update');
let failed = 0;
for (const file of files.length ? files : docFiles()) {
  const text = readDoc(file);
  for (const b of blocks(file, text)) {
    const problem = unclassified(b);
    if (problem) {
      console.error(problem);
      failed++;
    }
  }
  if (update) {
    const next = updated(file, text);
    if (next !== text) {
      writeFileSync(join(REPO, file), next);
      console.error(`updated ${file}`);
    }
    continue;
  }
  for (const { block, files: written } of runnable(blocks(file, text))) {
    for (const { command, ran } of runBlock(block, written)) {
      if (ran.out === command.expected && ran.err === '' && ran.code === 0) continue;
      failed++;
      console.error(`${file}:${command.line}: $ ${command.command}\n  exit ${ran.code}${ran.err ? `, stderr:\n${ran.err}` : ''}`);
      if (ran.out !== command.expected) console.error(`--- expected\n${command.expected}--- printed\n${ran.out}`);
    }
  }
}
if (failed) {
  console.error(`${failed} problem(s)`);
  process.exit(1);
}
