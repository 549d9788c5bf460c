// A tool definition, provider-neutral: a name, a title, a description,
// JSON Schema parameters, MCP annotations and, for optional parameters, how
// to describe them where they cannot be left out. app/tools.ts lists kb's
// tools; render/providers.ts turns a definition into each provider's tool
// format. Types only.

/** A JSON type name. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/**
 * The JSON Schema subset kb's tool parameters are written in: only keywords
 * that every provider format can carry (OpenAI strict mode and Gemini's
 * OpenAPI 3.0 subset are the narrow ones), so a new tool cannot ask for
 * something a format would silently lose. A union is written as a `type`
 * array (or `anyOf`); `null` in it makes the value nullable (unless an
 * `enum` leaves null out, as JSON Schema has it).
 */
export interface JsonSchema {
  readonly type?: JsonType | readonly JsonType[];
  readonly description?: string;
  /** Strings only: Gemini's `enum` lists strings. */
  readonly enum?: readonly string[];
  /** string */
  readonly pattern?: string;
  /** number, integer */
  readonly minimum?: number;
  readonly maximum?: number;
  /** array */
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** object */
  readonly properties?: { readonly [name: string]: JsonSchema };
  readonly required?: readonly string[];
  readonly additionalProperties?: false;
  readonly anyOf?: readonly JsonSchema[];
}

/** A tool's parameters: an object schema. */
export interface JsonSchemaObject extends JsonSchema {
  readonly type: 'object';
  readonly properties: { readonly [name: string]: JsonSchema };
}

/** MCP tool annotations (hints to the client, not guarantees). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition {
  /** [a-zA-Z_][a-zA-Z0-9_-]{0,63}: valid in every provider's format. */
  name: string;
  /** A human-readable name (MCP `title`). */
  title: string;
  description: string;
  parameters: JsonSchemaObject;
  annotations: ToolAnnotations;
  /**
   * By top-level parameter name, for an optional parameter: its description
   * in formats where every parameter must be sent and leaving it out is
   * spelt `null` (OpenAI strict mode), e.g. "... Omit to list" becomes
   * "... Use null to list". A parameter without an entry keeps its
   * description there.
   */
  nullDescriptions?: Readonly<Record<string, string>>;
}
