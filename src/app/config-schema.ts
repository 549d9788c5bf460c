// The JSON Schema of kb's configuration, for editors (`kb config-schema`,
// checked in as schemas/kb-config.schema.json). Generated from the same
// definitions the validator uses (src/config/fields.ts): a field added there
// appears here without another edit.
//
// Draft-07: the TOML language servers (taplo, used by Even Better TOML and
// most editors) and SchemaStore's catalogue are built around draft-07, every
// validator speaks it, and kb's configuration needs nothing newer.
//
// `subjects` is not in `required`: configuration is layered, and a file that
// only adds `learned` to a topic defined elsewhere (`.jp/config.d/*.toml`, a
// `.jp.toml`) is valid. `kb check` reports a topic that ends up without
// `subjects` once all layers are merged; the field's description says so.
import {
  DEFAULT_CONFIG_LOAD_PATHS,
  DIRECTIVE_KEYS,
  KB_KEY,
  TOPIC_FIELD_DEFS,
  TOPIC_KEY,
  type FieldDef,
  type FieldType,
} from '../config/fields.ts';

export const CONFIG_SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface DirectiveDef {
  type: FieldType;
  /** The items' schema, when not that of the type. */
  items?: JsonObject;
  default?: boolean | readonly string[];
  description: string;
}

/** The load directives at the top level of a configuration file. Keyed by
 *  DIRECTIVE_KEYS, so a directive added there must be described here. */
const DIRECTIVES: Record<(typeof DIRECTIVE_KEYS)[number], DirectiveDef> = {
  extends: {
    type: 'string[]',
    description:
      'Configuration files merged with this one: paths or globs relative to this file, each a string (merged before this file) or { path, strategy = "before" | "after" }.',
    // JP's `ExtendingRelativePath`: a path, or a table with a strategy.
    items: {
      anyOf: [
        { type: 'string' },
        {
          type: 'object',
          properties: { path: { type: 'string' }, strategy: { type: 'string', enum: ['before', 'after'], default: 'before' } },
          required: ['path'],
          additionalProperties: false,
        },
      ],
    },
  },
  inherit: {
    type: 'boolean',
    default: true,
    description: 'Set false to keep the configuration sources after this one out (the .jp.toml files, the per-user workspace file).',
  },
  config_load_paths: {
    type: 'string[]',
    default: DEFAULT_CONFIG_LOAD_PATHS,
    description: 'Directories, relative to each configuration root, in which `--cfg NAME` looks for NAME (its extension optional); the lists of every file add up.',
  },
};

function typeSchema(type: FieldType): JsonObject {
  switch (type) {
    case 'boolean':
      return { type: 'boolean' };
    case 'string':
      return { type: 'string' };
    case 'string[]':
      return { type: 'array', items: { type: 'string' } };
  }
}

function withDefault(schema: JsonObject, value: boolean | readonly string[] | undefined): JsonObject {
  return value === undefined ? schema : { ...schema, default: Array.isArray(value) ? [...value] : (value as boolean) };
}

function fieldSchema(def: FieldDef): JsonObject {
  const description = def.required
    ? `${def.description} Required: every topic needs it once all configuration layers are merged.`
    : def.description;
  const schema: JsonObject = { description, ...typeSchema(def.type) };
  // The validator treats an empty required string as missing.
  if (def.required && def.type === 'string') schema.minLength = 1;
  return withDefault(schema, def.default);
}

export function configSchema(): JsonObject {
  const topicProperties: JsonObject = {};
  for (const def of TOPIC_FIELD_DEFS) topicProperties[def.name] = fieldSchema(def);
  const directives: JsonObject = {};
  for (const key of DIRECTIVE_KEYS) {
    const d = DIRECTIVES[key];
    directives[key] = withDefault({ description: d.description, ...typeSchema(d.type), ...(d.items ? { items: d.items } : {}) }, d.default);
  }
  return {
    $schema: CONFIG_SCHEMA_DRAFT,
    title: 'kb configuration',
    description:
      'The knowledge-base part of a JP configuration file (.jp/config.toml, .jp.toml, a file named by --cfg or extends). Keys other than `kb` and the load directives belong to other tools sharing .jp/ and are allowed.',
    type: 'object',
    properties: {
      [KB_KEY]: {
        description: 'Knowledge base: topics the assistant can learn from.',
        type: 'object',
        properties: {
          [TOPIC_KEY]: {
            description: 'Map of topic ID to topic configuration: `[kb.topic.<id>]`.',
            type: 'object',
            additionalProperties: { $ref: '#/definitions/topic' },
          },
        },
        additionalProperties: false,
      },
      ...directives,
    },
    additionalProperties: true,
    definitions: {
      topic: {
        description: 'A topic: a directory of subject files (text files; the slug is the path without its extension).',
        type: 'object',
        properties: topicProperties,
        additionalProperties: false,
      },
    },
  };
}

/** The schema as `kb config-schema` prints it (and as it is checked in). */
export function renderConfigSchema(): string {
  return `${JSON.stringify(configSchema(), null, 2)}\n`;
}
