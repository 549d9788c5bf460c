// Configuration file formats, as JP reads them (jp_config `util.rs`
// `VALID_CONFIG_FILE_EXTS`, `fs.rs` `Format`): TOML, JSON (with comments),
// JSON5 and YAML, chosen by the file's extension. The YAML and JSON5
// parsers (the `yaml` and `json5` packages) are imported only when such a
// file is read, by an awaited import whose promise is kept.

import { extname } from 'node:path';
import { isTable } from './fields.ts';
import { notAnObject, parseJson } from './json.ts';
import { type Entry, type Index, record } from './locate.ts';
import type { Format } from './merge.ts';
import { type ParseResult, parseToml, stripBom } from './toml.ts';
import { depthMessage, MAX_CONFIG_DEPTH } from './depth.ts';
import { yamlTooDeepAt } from '../shared/yaml-depth.ts';

/** The extensions JP tries at each configuration location, in its order. */
export const CONFIG_EXTENSIONS = ['toml', 'json', 'json5', 'yaml', 'yml'] as const;

/** A file's format, by its extension; undefined for any other. */
export function formatOf(path: string): Format | undefined {
  switch (extname(path).toLowerCase()) {
    case '.toml':
      return 'toml';
    case '.json':
      return 'json';
    case '.json5':
      return 'json5';
    case '.yaml':
    case '.yml':
      return 'yaml';
    default:
      return undefined;
  }
}

/** A parse result; YAML also gives the key index (line and offset of each
 *  key) its parser knows. */
export type Parsed = ParseResult & { index?: Index };

/** Parses a configuration file's text. `label` is the file as shown in
 *  messages. */
export async function parseConfig(text: string, format: Format, label: string): Promise<Parsed> {
  switch (format) {
    case 'toml':
      return parseToml(text, label);
    case 'json':
      return parseJson(text, label);
    case 'json5':
      return parseJson5(text, label);
    case 'yaml':
      return parseYaml(text, label);
  }
}

type Json5 = { parse(text: string): unknown };
let json5: Promise<Json5> | undefined;

async function parseJson5(text: string, label: string): Promise<Parsed> {
  const { parse } = await (json5 ??= import('json5').then((m) => (m.default ?? m) as Json5));
  text = stripBom(text);
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    const e = err as { message?: string; lineNumber?: number; columnNumber?: number };
    const what = String(e.message ?? err).replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '');
    const at = typeof e.lineNumber === 'number' && typeof e.columnNumber === 'number' ? `:${e.lineNumber}:${e.columnNumber}` : '';
    return { diagnostic: { severity: 'error', code: 'json5-syntax', message: `invalid JSON5: ${what}`, where: label + at } };
  }
  if (!isTable(data)) return { diagnostic: notAnObject(text, label, 'JSON5', data) };
  return { data };
}

type YamlModule = typeof import('yaml');
let yaml: Promise<YamlModule> | undefined;

/** YAML as JP's reader (serde_yaml, then `apply_merge`) takes it: one
 *  document, `<<` merge keys applied, aliases expanded (the parser caps
 *  their count). An empty document is an empty configuration. */
async function parseYaml(text: string, label: string): Promise<Parsed> {
  const { LineCounter, parseDocument, isMap, isPair, isScalar, isSeq } = await (yaml ??= import('yaml'));
  text = stripBom(text);
  // The package's work grows with the nesting at each token: a text
  // nesting deeper than any configuration may is refused before it is
  // parsed (shared/yaml-depth.ts).
  const deep = yamlTooDeepAt(text, MAX_CONFIG_DEPTH);
  if (deep > 0) return { diagnostic: { severity: 'error', code: 'yaml-syntax', message: `invalid YAML: ${depthMessage()}`, where: `${label}:${deep}:1` } };
  const lines = new LineCounter();
  // No warning of the package's own reaches stderr (logLevel): a key that
  // is a collection, stringified, is an unknown field to validation.
  // Keys are checked for duplicates below, a set per mapping: the package's
  // own check compares each key with every other of its mapping (1 MiB of
  // keys took minutes).
  const doc = parseDocument(text, { lineCounter: lines, merge: true, prettyErrors: true, uniqueKeys: false, logLevel: 'error' });
  const problem = doc.errors[0];
  if (problem) {
    const at = problem.linePos?.[0];
    const what = problem.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    return { diagnostic: { severity: 'error', code: 'yaml-syntax', message: `invalid YAML: ${what}`, where: label + (at ? `:${at.line}:${at.col}` : '') } };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (err) {
    return { diagnostic: { severity: 'error', code: 'yaml-syntax', message: `invalid YAML: ${(err as Error).message}`, where: label } };
  }
  if (!isTable(data)) return { diagnostic: notAnObject(text, label, 'YAML', data) };

  // The key index, from the parser's own positions.
  const index: Index = new Map<string, Entry>();
  let duplicate: number | undefined;
  const walk = (node: unknown, path: string[]) => {
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const pos = (pair.key as { range?: [number, number, number] } | null)?.range?.[0];
        if (isScalar(pair.key) && pair.key.value !== '<<') {
          if (seen.has(pair.key.value) && duplicate === undefined) duplicate = pos ?? 0;
          seen.add(pair.key.value);
        }
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key === undefined || pos === undefined) continue;
        const value = pair.value as { range?: [number, number, number] } | null;
        const inline = isMap(value) || isSeq(value) ? (value as { flow?: boolean }).flow === true : false;
        record(index, [...path, key], lines.linePos(pos).line, pos, inline);
        walk(pair.value, [...path, key]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, String(i)]));
    }
  };
  walk(doc.contents, []);
  if (duplicate !== undefined) {
    const at = lines.linePos(duplicate);
    return { diagnostic: { severity: 'error', code: 'yaml-syntax', message: 'invalid YAML: Map keys must be unique', where: `${label}:${at.line}:${at.col}` } };
  }
  return { data, index };
}
