// YAML frontmatter: what a subject says about itself (its `description`;
// a skill's `name`). The probe finds the frontmatter's text in the file's
// head (kb/fs/probe.ts); this module reads fields from it.
//
// Parsing is the `yaml` package's, loaded on demand (`loadYaml`): most
// frontmatter is a few `key: value` lines, plain or quoted, which a fast
// path reads without it, giving exactly what the package gives (a property
// test checks the two against each other). Anything else (escapes, block
// scalars, lists, nesting, comments after a value, numbers, booleans...)
// goes to the package.

/** The parts of the `yaml` package kb uses. */
export interface YamlModule {
  parse(text: string, options?: { uniqueKeys?: boolean; maxAliasCount?: number; logLevel?: 'silent' | 'error' | 'warn' | 'debug' }): unknown;
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
const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/;
const UNSAFE_START = /^[-?:,[\]{}#&*!|>'"%@`~+.0-9]/;
/** A quoted scalar with nothing to unescape: "..." without `\` or `"`,
 *  '...' without `'`. */
const QUOTED = /^(?:"([^"\\]*)"|'([^']*)')$/;
const NOT_A_STRING = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N)$/;
/** An ISO 8601 UTC time as kb writes `created` and `updated`
 *  (`2025-01-14T09:30:00.000Z`): a plain string to YAML 1.2, which has no
 *  timestamps; read here so that listing kb's subjects needs no parser. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/** The fast path: the top-level fields of frontmatter made only of simple
 *  `key: value` lines (and blank lines), or NEEDS_YAML. */
export function simpleFields(front: string): Record<string, string | null> | typeof NEEDS_YAML {
  const out: Record<string, string | null> = Object.create(null);
  for (const raw of front.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const m = SIMPLE_LINE.exec(line);
    if (m === null) return NEEDS_YAML;
    const [, key, value] = m;
    if (key in out) return NEEDS_YAML; // a duplicate key: the parser's error
    if (value === undefined || value === '') {
      // `key:` alone is null, unless indented lines follow (nesting): those
      // fail SIMPLE_LINE above or below.
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
    if (UNSAFE_START.test(value) || value.includes(': ') || value.includes(' #') || value.includes('\t') || value.endsWith(':') || NOT_A_STRING.test(value)) {
      return NEEDS_YAML;
    }
    out[key] = value;
  }
  return out;
}

/** Parses frontmatter with the `yaml` package: its top-level mapping, or
 *  why it is not one. Aliases are capped, so a hostile file cannot make a
 *  billion laughs. The package's warnings are dropped (`logLevel: 'error'`;
 *  it would write them to stderr itself, as `(node:...) Warning: ...`): the
 *  one real frontmatter meets (a key that is a collection, `created:
 *  {{date}}` from a note template, stringified) concerns fields kb does not
 *  read, and a key so made can never be `description`, `name` or `title`. */
export function parseFrontmatter(front: string, lib: YamlModule): Parsed {
  let data: unknown;
  try {
    data = lib.parse(front, { uniqueKeys: true, maxAliasCount: 100, logLevel: 'error' });
  } catch (err) {
    const first = String((err as Error)?.message ?? err).split('\n')[0].replace(/:\s*$/, '');
    return { ok: false, reason: first };
  }
  if (data === null || data === undefined) return { ok: true, data: {} };
  if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, reason: 'frontmatter is not a mapping of fields' };
  return { ok: true, data: data as Record<string, unknown> };
}

/** A description field's value as a description: a non-empty string
 *  (anything else is none). */
export function descriptionValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.trim() === '' ? undefined : value;
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
