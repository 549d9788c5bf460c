// What every tool answers to a malformed call (bad arguments from the
// model), the expected shape written from the tool's own schema. Pure.
import type { JsonSchema, JsonSchemaObject } from '../shared/tool.ts';

/** A schema's type as the model reads it: `string`, `string[]`,
 *  `string | string[] | null`. */
function typeText(s: JsonSchema): string {
  const types = s.type === undefined ? [] : typeof s.type === 'string' ? [s.type] : [...s.type];
  return types.map((t) => (t === 'array' ? `${s.items === undefined ? 'any' : typeText(s.items)}[]` : t)).join(' | ');
}

/** `{"topic": string, "subjects"?: string | string[] | null}`: every
 *  parameter, `?` for an optional one, which also takes null. */
export function shapeOf(schema: JsonSchemaObject): string {
  const required = schema.required ?? [];
  const parts = Object.entries(schema.properties).map(([key, s]) => {
    if (required.includes(key)) return `${JSON.stringify(key)}: ${typeText(s)}`;
    const t = typeText(s);
    return `${JSON.stringify(key)}?: ${t.split(' | ').includes('null') ? t : `${t} | null`}`;
  });
  return `{${parts.join(', ')}}`;
}

/** A malformed tool call: what is wrong, and the shape expected. */
export function renderBadToolArguments(tool: string, problem: string, parameters: JsonSchemaObject): string {
  return `Invalid arguments for \`${tool}\`: ${problem}. Expected ${shapeOf(parameters)}.\n`;
}
