// A tool definition (src/app/tools.ts) in each provider's tool format
// (`kb schema --format F`; `kb mcp` serves the mcp format). Pure: no I/O.
//
// Every format describes the same calls as the definition's parameters
// (for learn, the RFD's schema). Three formats take JSON Schema as it is;
// two accept only a subset, and the converter rewrites the parameters by
// general rules, the same for every tool, into the closest encoding. Where a
// provider cannot express part of a schema the difference is stated here, in
// docs/guide/assistants.md ("Provider tool formats") and in
// tests/unit/formats.test.ts, which runs a table of
// argument objects through a JSON Schema validator for each format.
//
// - generic:   {name, description, parameters}, the definition as is (for
//              learn, the RFD's tool, as `kb schema` has always printed it).
// - anthropic: {name, description, input_schema}, the parameters as is.
// - mcp:       a `tools/list` entry {name, title, description, inputSchema,
//              annotations}, the parameters as is.
// - openai:    a Chat Completions function tool with `strict: true`.
//              Strict mode wants every property in `required`, no type
//              arrays and `additionalProperties: false` on every object:
//              * every property is required, in property order; an optional
//                one is made nullable (unless it already accepts null), so a
//                model sends `"p": null` instead of leaving `p` out, and the
//                tool must read null as "absent". Same calls, one spelling.
//                Its description becomes `nullDescriptions[p]` when the
//                definition gives one (learn: "Use null to list available
//                subjects." instead of "Omit to ...");
//              * a type array becomes `anyOf` with one `{type}` per entry,
//                null last; keywords that only constrain one type (`items`,
//                `minimum`, `properties`, ...) go on that alternative, the
//                `description` stays beside the `anyOf`, after it;
//              * objects get `additionalProperties: false`.
// - gemini:    a function declaration in Gemini's OpenAPI 3.0 subset: one
//              `type` per schema, `nullable: true` instead of a `null` type,
//              no `additionalProperties`:
//              * a type array becomes `anyOf` of its non-null types (the
//                `description` before the `anyOf`), or the single type when
//                only one is left;
//              * a `null` type becomes `nullable: true` on the last non-null
//                alternative (a schema that accepts only null cannot be
//                written, and is refused);
//              * `required` is kept: optional properties stay optional, so
//                the schema accepts the definition's values exactly.
//              The one difference that cannot be expressed: without
//              `additionalProperties: false` the schema does not forbid other
//              keys than the declared ones. The tool must still reject such
//              a call with an error naming the unknown key (`kb learn` does:
//              a misspelt `subject` must not silently list).
import type { JsonSchema, JsonSchemaObject, JsonType, ToolDefinition } from '../shared/tool.ts';

export const SCHEMA_FORMATS = ['generic', 'openai', 'anthropic', 'gemini', 'mcp'] as const;
export type SchemaFormat = (typeof SCHEMA_FORMATS)[number];

/** `tool` in `format`, ready for `JSON.stringify`. */
export function toolInFormat(format: SchemaFormat, tool: ToolDefinition): object {
  const { name, title, description, parameters, annotations } = tool;
  switch (format) {
    case 'generic':
      return { name, description, parameters };
    case 'openai':
      return { type: 'function', function: { name, description, strict: true, parameters: strictObject(parameters, tool.nullDescriptions ?? {}) } };
    case 'anthropic':
      return { name, description, input_schema: parameters };
    case 'gemini':
      return { name, description, parameters: gemini(parameters) };
    case 'mcp':
      return { name, title, description, inputSchema: parameters, annotations };
  }
}

// ---------------------------------------------------------------------------
// Unions

type Node = Record<string, unknown>;

/** Keywords that describe the value rather than constrain it: they stay on a
 *  union, beside its alternatives. */
const ANNOTATIONS = new Set(['description']);

/** Keywords that only constrain values of some types: in a union they go on
 *  the alternatives of those types. Any other keyword (`enum`) goes on every
 *  alternative. */
const TYPE_KEYWORDS: Readonly<Record<string, readonly JsonType[]>> = {
  pattern: ['string'],
  minimum: ['number', 'integer'],
  maximum: ['number', 'integer'],
  items: ['array'],
  minItems: ['array'],
  maxItems: ['array'],
  properties: ['object'],
  required: ['object'],
  additionalProperties: ['object'],
};

interface Union {
  /** One schema per non-null alternative, in order. */
  alternatives: JsonSchema[];
  /** Whether the union accepts null (a null type, unless an `enum` leaves
   *  null out). */
  nullable: boolean;
  /** What stays on the union itself, in order. */
  outer: [string, unknown][];
}

const typesOf = (s: JsonSchema): readonly JsonType[] | undefined => (s.type === undefined || typeof s.type === 'string' ? undefined : s.type);
const isNullOnly = (s: JsonSchema): boolean => s.type === 'null' || (typesOf(s)?.every((t) => t === 'null') ?? false);

/** `type: [T]` is `type: T`. */
function normalize(s: JsonSchema): JsonSchema {
  const types = typesOf(s);
  return types?.length === 1 ? { ...s, type: types[0] } : s;
}

/** `s` as a union of alternatives, or undefined if it is not one. */
function unionOf(s: JsonSchema): Union | undefined {
  const entries = Object.entries(s);
  const types = typesOf(s);
  if (types) {
    const constraints = entries.filter(([k]) => k !== 'type' && !ANNOTATIONS.has(k));
    const alternative = (t: JsonType): JsonSchema =>
      Object.fromEntries([['type', t], ...constraints.filter(([k]) => TYPE_KEYWORDS[k]?.includes(t) ?? true)]);
    return {
      alternatives: types.filter((t) => t !== 'null').map(alternative),
      nullable: types.includes('null') && acceptsNull(s),
      outer: entries.filter(([k]) => ANNOTATIONS.has(k)),
    };
  }
  if (s.anyOf) {
    return {
      alternatives: s.anyOf.filter((a) => !isNullOnly(a)),
      nullable: s.anyOf.some(isNullOnly),
      outer: entries.filter(([k]) => k !== 'anyOf'),
    };
  }
  return undefined;
}

/** Whether `s` accepts null. */
function acceptsNull(s: JsonSchema): boolean {
  if (s.enum && !(s.enum as readonly unknown[]).includes(null)) return false;
  if (s.anyOf) return s.anyOf.some(acceptsNull);
  if (s.type === undefined) return true;
  return typeof s.type === 'string' ? s.type === 'null' : s.type.includes('null');
}

const mapProperties = (properties: JsonSchemaObject['properties'], f: (name: string, s: JsonSchema) => Node): Node =>
  Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, f(name, s)]));

// ---------------------------------------------------------------------------
// OpenAI strict mode

/** An object schema: every property required, in property order (optional
 *  ones made nullable), no other properties. */
function strictObject(s: JsonSchema, nullDescriptions: Readonly<Record<string, string>> = {}): Node {
  const properties = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const out: Node = {};
  for (const [k, v] of Object.entries(s)) {
    out[k] = k === 'properties' ? mapProperties(properties, (name, p) => (required.has(name) ? strict(p) : strict(p, true, nullDescriptions[name]))) : v;
  }
  // Assigning keeps the position of a key that is already there.
  out.required = Object.keys(properties);
  out.additionalProperties = false;
  return out;
}

/** `s` in strict mode; `optional`: a property that may be left out, which
 *  must now be sent, null when absent. */
function strict(schema: JsonSchema, optional = false, nullDescription?: string): Node {
  const s = normalize(schema);
  const addNull = optional && !acceptsNull(s);
  const union =
    unionOf(s) ??
    (addNull
      ? {
          alternatives: [Object.fromEntries(Object.entries(s).filter(([k]) => !ANNOTATIONS.has(k)))],
          nullable: false,
          outer: Object.entries(s).filter(([k]) => ANNOTATIONS.has(k)),
        }
      : undefined);
  let out: Node;
  if (union) {
    const anyOf: Node[] = union.alternatives.map((a) => strict(a));
    if (union.nullable || addNull) anyOf.push({ type: 'null' });
    out = { anyOf, ...Object.fromEntries(union.outer) };
  } else if (s.type === 'object' || s.properties) {
    out = strictObject(s);
  } else {
    out = { ...s };
    if (s.items) out.items = strict(s.items);
  }
  if (optional && nullDescription !== undefined) out.description = nullDescription;
  return out;
}

// ---------------------------------------------------------------------------
// Gemini (OpenAPI 3.0 subset)

function gemini(schema: JsonSchema): Node {
  const s = normalize(schema);
  const union = unionOf(s);
  if (!union) {
    if (isNullOnly(s)) throw new Error('Gemini cannot express a schema that only accepts null');
    const out: Node = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === 'additionalProperties') continue;
      if (k === 'properties') out[k] = mapProperties(v as JsonSchemaObject['properties'], (_, p) => gemini(p));
      else if (k === 'items') out[k] = gemini(v as JsonSchema);
      else out[k] = v;
    }
    return out;
  }
  if (union.alternatives.length === 0) throw new Error('Gemini cannot express a schema that only accepts null');
  if (union.alternatives.length === 1) {
    // [T, null]: the one type, nullable, the other keywords where they were.
    const only = typesOf(s) ? gemini({ ...s, type: union.alternatives[0]!.type }) : { ...Object.fromEntries(union.outer), ...gemini(union.alternatives[0]!) };
    return union.nullable ? { ...only, nullable: true } : only;
  }
  const anyOf = union.alternatives.map(gemini);
  if (union.nullable) anyOf[anyOf.length - 1] = { ...anyOf[anyOf.length - 1], nullable: true };
  return { ...Object.fromEntries(union.outer), anyOf };
}
