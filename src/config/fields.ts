// The one definition of a topic's fields (`[kb.topic.<id>]`). The validator,
// the --cfg / JP_CFG_* coercion and the editor JSON Schema all derive from it.

import { typeName } from '../shared/text.ts';
import type { TopicField } from './types.ts';
import { map } from '../shared/arrays.ts';

export type FieldType = 'boolean' | 'string' | 'string[]';

export interface FieldDef {
  name: TopicField;
  type: FieldType;
  required: boolean;
  /** The value used when no layer sets the field (absent: none). */
  default?: boolean | string[];
  /** One line, for messages and the JSON Schema. */
  description: string;
}

export const TOPIC_FIELD_DEFS: readonly FieldDef[] = [
  { name: 'enable', type: 'boolean', required: false, default: true, description: 'Set false to deactivate the topic.' },
  { name: 'title', type: 'string', required: false, description: 'Display name shown to the assistant instead of the topic ID.' },
  { name: 'introduction', type: 'string', required: false, description: 'One-line summary in the system prompt.' },
  { name: 'description', type: 'string', required: false, description: 'Extended description in learn output and, when subjects are learned, the system prompt.' },
  { name: 'subjects', type: 'string', required: true, description: 'Directory holding the subject files, relative to the workspace root.' },
  { name: 'learned', type: 'string[]', required: false, default: [], description: 'Glob or exact patterns of subjects pre-loaded into the system prompt.' },
  { name: 'disabled', type: 'string[]', required: false, default: [], description: 'Subject slugs excluded entirely, even from exact requests.' },
];

const BY_NAME = new Map<string, FieldDef>(map(TOPIC_FIELD_DEFS, (f) => [f.name, f]));

export function fieldDef(name: string): FieldDef | undefined {
  return BY_NAME.get(name);
}

/** The top-level keys kb reads; every other top-level key belongs to another
 *  tool sharing `.jp/` and is ignored. */
export const KB_KEY = 'kb';
export const TOPIC_KEY = 'topic';
export const DIRECTIVE_KEYS = ['extends', 'inherit', 'config_load_paths'] as const;
export const DEFAULT_CONFIG_LOAD_PATHS = ['.jp/config.d'];

/** The type a --cfg assignment to a directive must have (JP's
 *  `PartialAppConfig::assign`: `try_some_bool`, `try_vec` of strings);
 *  undefined for other keys (`extends` is not assignable in JP). */
export function directiveType(key: string): FieldType | undefined {
  return key === 'inherit' ? 'boolean' : key === 'config_load_paths' ? 'string[]' : undefined;
}

/** How a type is named in messages. */
export function typeLabel(type: FieldType): string {
  return type === 'string[]' ? 'array of strings' : type;
}

/** `a boolean`, `an array of strings`. */
export function article(label: string): string {
  return /^[aeiou]/.test(label) ? `an ${label}` : `a ${label}`;
}

/** The TOML name of a configuration value's type (`integer`, `float`,
 *  `datetime`, `table`, else the JSON name: shared/text.ts `typeName`), for
 *  "got <type>" in messages. */
export function tomlTypeName(value: unknown): string {
  if (value instanceof Date) return 'datetime';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float';
  if (typeof value === 'bigint') return 'integer';
  const name = typeName(value);
  return name === 'object' ? 'table' : name;
}

export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** Whether `value` is acceptable for `def` as a whole. */
export function hasType(def: FieldDef, value: unknown): boolean {
  switch (def.type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'string[]':
      return isStringArray(value);
  }
}
