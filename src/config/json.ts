// Parsing a JSON configuration file (the `.json` twin of a TOML layer, or a
// `.json` file named by `extends` / `--cfg`).

import { isTable, typeName } from './fields.ts';
import { stripBom, type ParseResult } from './toml.ts';

/** `label` is the file as shown in messages. */
export function parseJson(text: string, label: string): ParseResult {
  text = stripBom(text);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const what = (err as Error).message;
    return { diagnostic: { severity: 'error', code: 'json-syntax', message: `invalid JSON: ${what}`, where: label + errorAt(text, what) } };
  }
  if (!isTable(data)) {
    // The position of the value (after any leading white space).
    const start = text.length - text.trimStart().length;
    const before = text.slice(0, start);
    const at = `:${before.split('\n').length}:${start - before.lastIndexOf('\n')}`;
    return { diagnostic: { severity: 'error', code: 'wrong-type', message: `a JSON configuration file must hold an object, got ${typeName(data)}`, where: label + at } };
  }
  return { data };
}

/** `:line:col` when the engine's message gives a position (engines differ). */
function errorAt(text: string, message: string): string {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return `:${lc[1]}:${lc[2]}`;
  const pos = /position (\d+)/.exec(message);
  if (!pos) return '';
  const before = text.slice(0, Number(pos[1]));
  return `:${before.split('\n').length}:${before.length - before.lastIndexOf('\n')}`;
}
