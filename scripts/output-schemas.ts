// Writes schemas/kb-<tool>-output.schema.json, the JSON Schemas of the
// tools' JSON forms, from src/render/output-schemas.ts (run with
// `npx bun scripts/output-schemas.ts`; tests/unit/render/output-schemas.test.ts
// fails while a file differs from what this writes).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_NAMES } from '../src/app/tools.ts';
import { outputSchemaFile } from '../src/render/output-schemas.ts';

/** The file of `name`'s schema, and its text. */
export function outputSchemaFiles(): [string, string][] {
  return TOOL_NAMES.map((name) => [`schemas/kb-${name}-output.schema.json`, `${JSON.stringify(outputSchemaFile(name), null, 2)}\n`]);
}

if (import.meta.main) {
  const repo = join(import.meta.dir, '..');
  for (const [file, text] of outputSchemaFiles()) writeFileSync(join(repo, file), text);
}
