// Parsing a JSON configuration file as JP does (its JSON reader, schematic's
// `JsonFormat`): an empty file is `{}`, and comments (`//`, `/* */`, `#`)
// and trailing commas are stripped first (the `json_strip_comments` crate)
// and read as white space, so positions in messages stay those of the file.
// Any other syntax error is an error: the file contributes nothing.

import type { Problem } from '../shared/problem.ts';
import { isTable, tomlTypeName } from './fields.ts';
import { stripBom, type ParseResult } from './toml.ts';

/** `label` is the file as shown in messages. */
export function parseJson(text: string, label: string): ParseResult {
  text = stripBom(text);
  if (text === '') return { data: {} };
  const stripped = stripJsonComments(text);
  let data: unknown;
  try {
    data = JSON.parse(stripped);
  } catch (err) {
    const what = (err as Error).message;
    return { diagnostic: { severity: 'error', code: 'json-syntax', message: `invalid JSON: ${what}`, where: label + errorAt(stripped, what) } };
  }
  if (!isTable(data)) return { diagnostic: notAnObject(text, label, 'JSON', data) };
  return { data };
}

/** The error for a file whose top-level value is not an object. */
export function notAnObject(text: string, label: string, format: string, data: unknown): Problem {
  // The position of the value (after any leading white space).
  const start = text.length - text.trimStart().length;
  const before = text.slice(0, start);
  const at = `:${before.split('\n').length}:${start - before.lastIndexOf('\n')}`;
  return { severity: 'error', code: 'wrong-type', message: `a ${format} configuration file must hold an object, got ${tomlTypeName(data)}`, where: label + at };
}

/**
 * `text` with its comments (`// ...`, `/* ... *\/`, `# ...`) and trailing
 * commas (a comma followed, past white space and comments, by `]` or `}`)
 * replaced by spaces; line breaks are kept. Strings (double-quoted, with
 * backslash escapes) are left alone. An unterminated block comment runs to
 * the end. Linear.
 */
export function stripJsonComments(text: string): string {
  if (!/[/#,]/.test(text)) return text;
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  let comma = -1; // a comma that may turn out to be trailing
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      comma = -1;
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) if (text[j] === '\\') j++;
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop - 1;
    } else if (c === '#') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop - 1;
    } else if (c === ',') {
      comma = i;
    } else if (c === ']' || c === '}') {
      if (comma !== -1) out[comma] = ' ';
      comma = -1;
    } else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') {
      comma = -1;
    }
  }
  return out.join('');
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
