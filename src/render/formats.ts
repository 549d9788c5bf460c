// The learn tool definition in each provider's tool format (`kb schema
// --format F`). Every format describes the same calls as the RFD's schema
// (LEARN_PARAMETERS); where a provider cannot express part of it, the
// closest encoding is used and the difference is stated here, in the README
// and in tests/unit/formats.test.ts, which runs a table of argument objects
// through a JSON Schema validator for each format.
//
// - generic:   the RFD's tool, as `kb schema` has always printed it.
// - anthropic: {name, description, input_schema}, the RFD's schema as is.
// - mcp:       a `tools/list` entry, the RFD's schema as is (`kb mcp` serves
//              exactly this entry).
// - openai:    a Chat Completions function tool with `strict: true`. Strict
//              mode wants every property in `required` and no type arrays,
//              so `subjects` is required-but-nullable (`anyOf` string, array
//              of strings, null): a model lists a topic with
//              `"subjects": null` instead of leaving `subjects` out, and
//              `kb learn` reads null as "list". Same calls, one spelling.
// - gemini:    a function declaration in Gemini's OpenAPI 3.0 subset: one
//              `type` per schema, `nullable` instead of a `null` type, no
//              `additionalProperties`. `subjects` is `anyOf` a string or a
//              nullable array of strings, and stays optional: it accepts the
//              RFD's values exactly. The one difference that cannot be
//              expressed: without `additionalProperties: false` the schema
//              does not forbid keys other than `topic` and `subjects`;
//              `kb learn` still rejects such a call with an error naming the
//              unknown key (a misspelt `subject` must not silently list).
import { LEARN_PARAMETERS, learnDescription } from './schema.ts';
import type { TopicLabel } from './topic.ts';

export const SCHEMA_FORMATS = ['generic', 'openai', 'anthropic', 'gemini', 'mcp'] as const;
export type SchemaFormat = (typeof SCHEMA_FORMATS)[number];

const NAME = 'learn';
const TOPIC = LEARN_PARAMETERS.properties.topic;
const SUBJECTS_DESCRIPTION = LEARN_PARAMETERS.properties.subjects.description;

/** OpenAI strict mode cannot leave `subjects` out, so its description says
 *  null where the RFD's says "Omit". */
export const STRICT_SUBJECTS_DESCRIPTION = SUBJECTS_DESCRIPTION.replace(
  'Omit to list available subjects.',
  'Use null to list available subjects.',
);

export function openaiParameters() {
  return {
    type: 'object',
    properties: {
      topic: { type: 'string', description: TOPIC.description },
      subjects: {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }],
        description: STRICT_SUBJECTS_DESCRIPTION,
      },
    },
    required: ['topic', 'subjects'],
    additionalProperties: false,
  } as const;
}

export function geminiParameters() {
  return {
    type: 'object',
    properties: {
      topic: { type: 'string', description: TOPIC.description },
      subjects: {
        description: SUBJECTS_DESCRIPTION,
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, nullable: true }],
      },
    },
    required: ['topic'],
  } as const;
}

/** MCP tool annotations: `learn` only reads files in the workspace. */
export const MCP_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export function mcpTool(description: string) {
  return { name: NAME, title: 'Learn', description, inputSchema: LEARN_PARAMETERS, annotations: MCP_ANNOTATIONS };
}

/** The learn tool for `topics` (the learnable ones) in `format`. */
export function toolInFormat(format: SchemaFormat, topics: TopicLabel[]): object {
  const description = learnDescription(topics);
  switch (format) {
    case 'generic':
      return { name: NAME, description, parameters: LEARN_PARAMETERS };
    case 'openai':
      return { type: 'function', function: { name: NAME, description, strict: true, parameters: openaiParameters() } };
    case 'anthropic':
      return { name: NAME, description, input_schema: LEARN_PARAMETERS };
    case 'gemini':
      return { name: NAME, description, parameters: geminiParameters() };
    case 'mcp':
      return mcpTool(description);
  }
}
