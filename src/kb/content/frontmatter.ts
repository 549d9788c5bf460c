// YAML frontmatter: what a subject says about itself (its `description`;
// a skill's `name`). The probe finds the frontmatter's text in the file's
// head (kb/fs/probe.ts); this module reads fields from it.
//
// Parsing is the `yaml` package's, loaded on demand (`loadYaml`): most
// frontmatter is a few `key: value` lines, plain or quoted, which a fast
// path reads without it, giving exactly what the package gives (a property
// test checks the two against each other), and so are plain decimal
// numbers (`nav_order: 2`, Dendron's `updated: 1656967739799`: a number to
// YAML, and to the fast path). Anything else (escapes, block scalars,
// lists, nesting, comments after a value, signs, exponents, booleans...)
// goes to the package.

import { yamlTooDeepAt } from '../../shared/yaml-depth.ts';
import { markupOnly } from './markup.ts';

/** The parts of the `yaml` package kb uses. */
export interface YamlModule {
  parseDocument(
    text: string,
    options?: { uniqueKeys?: boolean; prettyErrors?: boolean; logLevel?: 'silent' | 'error' | 'warn' | 'debug' },
  ): { errors: { message: string; pos: [number, number] }[]; toJS(options?: { maxAliasCount?: number; mapAsMap?: boolean }): unknown };
}

let yaml: Promise<YamlModule> | undefined;

/** The `yaml` package, imported once, on first use. */
export function loadYaml(): Promise<YamlModule> {
  return (yaml ??= import('yaml') as Promise<YamlModule>);
}

/** The fast path could not decide: the frontmatter needs the parser. */
export const NEEDS_YAML = Symbol('needs yaml');

/** What frontmatter holds, parsed: its top-level mapping, or why it could
 *  not be read. */
export type Parsed = { ok: true; data: Record<string, unknown> } | { ok: false; reason: string };

// `key: value`, the key a plain word, the value a plain scalar that YAML
// reads as this very string: no indicator first, no ` #` comment, no `: `,
// nothing YAML would read as null, a boolean or a number.
const KEY = /^[A-Za-z_][A-Za-z0-9_-]*:/;
const UNSAFE_START = /^[-?:,[\]{}#&*!|>'"%@`~+.0-9]/;
/** A quoted scalar with nothing to unescape: "..." without `\` or `"`,
 *  '...' without `'`. */
const QUOTED = /^(?:"([^"\\]*)"|'([^']*)')$/;
const NOT_A_STRING = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N)$/;
/** An ISO 8601 UTC time as kb writes `created` and `updated`
 *  (`2025-01-14T09:30:00.000Z`): a plain string to YAML 1.2, which has no
 *  timestamps; read here so that listing kb's subjects needs no parser. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
/** A decimal number YAML's core schema reads as the number JavaScript
 *  reads it as (`42`, `007`, `1.5`, `2.`): digits, and a fraction; at most
 *  15 digits a part, below 2^53 whole, where both read it exactly. */
const DECIMAL = /^\d{1,15}(?:\.\d{0,15})?$/;

/** The fast path: the top-level fields of frontmatter made only of simple
 *  `key: value` lines (and blank lines), or NEEDS_YAML. */
export function simpleFields(front: string): Record<string, string | number | null> | typeof NEEDS_YAML {
  const out: Record<string, string | number | null> = Object.create(null);
  for (const raw of front.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const m = KEY.exec(line);
    if (m === null) return NEEDS_YAML;
    const key = m[0].slice(0, -1);
    const value = valueAfter(line, m[0].length);
    if (value === NEEDS_YAML) return NEEDS_YAML;
    if (key in out) return NEEDS_YAML; // a duplicate key: the parser's error
    if (value === undefined || value === '') {
      // `key:` alone is null, unless indented lines follow (nesting): those
      // fail KEY or valueAfter above or below.
      out[key] = null;
      continue;
    }
    const quoted = QUOTED.exec(value);
    if (quoted !== null) {
      out[key] = quoted[1] ?? quoted[2];
      continue;
    }
    if (ISO_TIME.test(value)) {
      out[key] = value;
      continue;
    }
    if (DECIMAL.test(value)) {
      out[key] = Number(value);
      continue;
    }
    if (UNSAFE_START.test(value) || value.includes(': ') || value.includes(' #') || value.includes('\t') || value.endsWith(':') || NOT_A_STRING.test(value)) {
      return NEEDS_YAML;
    }
    out[key] = value;
  }
  return out;
}

/** The value of a simple line after its `key:` (at `from`): blanks, then
 *  the value, then blanks, the value without them; '' when the line ends in
 *  blanks, undefined when it ends at `from`, NEEDS_YAML for anything else.
 *  What `/^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/` read, in one
 *  pass (the expression took time quadratic in a line of blanks between two
 *  words: tests/property/parsers.property.test.ts). */
function valueAfter(line: string, from: number): string | undefined | typeof NEEDS_YAML {
  const e = line.length;
  if (from === e) return undefined;
  const c = line.charCodeAt(from);
  if (c !== 0x20 && c !== 0x09) return NEEDS_YAML;
  let w = from;
  while (w < e && isBlank(line.charCodeAt(w))) w++;
  let end = e;
  while (end > w && isBlank(line.charCodeAt(end - 1))) end--;
  for (let i = w; i < end; i++) {
    const d = line.charCodeAt(i);
    // What `.` does not match.
    if (d === 0x0a || d === 0x0d || d === 0x2028 || d === 0x2029) return NEEDS_YAML;
  }
  return line.slice(w, end);
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** Frontmatter nests a handful of levels; one nesting more than this is
 *  not parsed (shared/yaml-depth.ts says why). */
export const MAX_FRONTMATTER_DEPTH = 32;

/** Parses frontmatter with the `yaml` package: its top-level mapping, or
 *  why it is not one. Aliases are capped, so a hostile file cannot make a
 *  billion laughs. The package's warnings are dropped (`logLevel: 'error'`;
 *  it would write them to stderr itself, as `(node:...) Warning: ...`).
 *
 *  Bounded work on any text (tests/property/parsers.property.test.ts): the
 *  package writes a position and an excerpt into every error it finds, each
 *  from the start of the text (`a: : : ...`, 8 KiB of errors, took 0.4 s), so
 *  only the first error is placed, here; and it makes a key that is a
 *  collection a string by writing it out, again for each key it is nested
 *  in (`? ? ? ...`, 1 KiB, took 36 s), so mappings are read as maps, and only
 *  the top level's keys that are not collections are kept (a collection
 *  key can never be `description`, `name` or `title`). */
export function parseFrontmatter(front: string, lib: YamlModule): Parsed {
  const deep = yamlTooDeepAt(front, MAX_FRONTMATTER_DEPTH);
  if (deep > 0) return { ok: false, reason: `it nests more than ${MAX_FRONTMATTER_DEPTH} levels deep at line ${deep}` };
  let data: unknown;
  try {
    const doc = lib.parseDocument(front, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
    const first = doc.errors[0];
    if (first !== undefined) return { ok: false, reason: placed(front, first) };
    data = doc.toJS({ maxAliasCount: 100, mapAsMap: true });
  } catch (err) {
    const first = String((err as Error)?.message ?? err).split('\n')[0].replace(/:\s*$/, '');
    return { ok: false, reason: first };
  }
  if (data === null || data === undefined) return { ok: true, data: {} };
  if (!(data instanceof Map)) return { ok: false, reason: 'frontmatter is not a mapping of fields' };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of data) {
    // Defined, not assigned: a `__proto__` key is a field like any other.
    if (k === null || typeof k !== 'object') Object.defineProperty(fields, String(k), { value: v, writable: true, enumerable: true, configurable: true });
  }
  return { ok: true, data: fields };
}

/** A parse error's message with its place, as the package words it: `<what>
 *  at line L, column C`. */
function placed(text: string, error: { message: string; pos: [number, number] }): string {
  const at = error.pos[0];
  const what = error.message.split('\n')[0];
  if (!(at >= 0)) return what;
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `${what} at line ${line}, column ${at - start + 1}`;
}

/** The frontmatter fields a subject's line is made of (kb/index/describe.ts
 *  `aboutOf`): its description, title or name, aliases, tags, source and
 *  times. What a listing keeps of a parsed frontmatter (kb/fs/front-cache.ts). */
export const DESCRIBING = ['description', 'title', 'name', 'aliases', 'tags', 'source', 'created', 'updated'] as const;

/** A frontmatter's fields as kept: the DESCRIBING ones the parser gave as
 *  strings, or as lists (their strings). */
export type KeptFields = Readonly<Record<string, string | readonly string[]>>;

/** `data`'s fields that a subject's line can be made of: each DESCRIBING
 *  field the parser gave as a string, and a list's strings; the rest is
 *  never read. */
export function keptFields(data: Readonly<Record<string, unknown>>): KeptFields {
  const out: Record<string, string | readonly string[]> = {};
  for (const key of DESCRIBING) {
    if (!Object.prototype.hasOwnProperty.call(data, key)) continue;
    const v = data[key];
    if (typeof v === 'string') out[key] = v;
    else if (Array.isArray(v)) {
      const strings: string[] = [];
      for (const x of v) if (typeof x === 'string') strings.push(x);
      out[key] = strings;
    }
  }
  return out;
}

/** A description field's value as a description: a non-empty string
 *  that is not markup alone (markup.ts: a shortcode); anything else is
 *  none. */
export function descriptionValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.trim() === '' || markupOnly(value) ? undefined : value;
}

/** When a subject was written, as its frontmatter says (`created`,
 *  `updated`: kb writes both; other tools write `created` or `date`-like
 *  fields, of which these two are read): values that start with a date
 *  (`2025-01-14`, `2025-01-14T09:30:00.000Z`), at most 40 characters. */
export interface Times {
  created?: string;
  updated?: string;
}

/** A value of `created` or `updated` kept as a time: it starts with a
 *  date. */
export function timeValue(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > 40) return undefined;
  return /^\d{4}-\d{2}-\d{2}(?:$|[T ])/.test(v) ? v : undefined;
}

/** The times in the frontmatter at the start of `text` (a file's head),
 *  read line by line without the parser: `created: VALUE` and `updated:
 *  VALUE` lines, plain or double-quoted, within its first 64 lines. */
export function timesIn(text: string): Times {
  const out: Times = {};
  if (!text.startsWith('---')) return out;
  let at = text.indexOf('\n');
  if (at < 0 || text.slice(3, at).trim() !== '') return out;
  for (let n = 0; n < 64 && at >= 0 && at < text.length; n++) {
    const next = text.indexOf('\n', at + 1);
    const line = text.slice(at + 1, next < 0 ? text.length : next).replace(/\r$/, '');
    at = next;
    if (line === '---' || line === '...') break;
    const colon = line.indexOf(':');
    const key = line.slice(0, colon);
    if (colon < 0 || (key !== 'created' && key !== 'updated')) continue;
    let value = line.slice(colon + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    const time = timeValue(value);
    if (time !== undefined) out[key] = time;
  }
  return out;
}
