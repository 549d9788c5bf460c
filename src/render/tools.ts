// What every tool answers to a malformed call (bad arguments from the
// model), the expected shape written from the tool's own schema; and what
// the tools' JSON forms share. Pure.
import type { TopicLabel } from '../answer/topic.ts';
import type { JsonSchema, JsonSchemaObject } from '../shared/tool.ts';
import type { DataForm, Refusal, RefusingTool } from '../answer/tool.ts';

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

/** A refused call's text (render/forms.ts). */
export function renderRefused(r: Refusal, tool: RefusingTool): string {
  return renderBadToolArguments(tool.name, r.problem, tool.parameters);
}

/** A refused call as data: the error every tool's JSON form gives it. */
export function refusedError(r: Refusal): Record<string, unknown> {
  return { kind: 'bad-arguments', problem: r.problem, ...(r.key !== undefined ? { parameter: r.key } : {}) };
}

/** A refused call's JSON, for a tool whose JSON has no status. */
export function refusedJson(r: Refusal): Record<string, unknown> {
  return { error: refusedError(r) };
}

/** The data form of a tool whose answer comes whole: the value its JSON
 *  form writes, of the outcome or of the refusal. */
export function wholeData<O>(ofOutcome: (o: O) => Record<string, unknown>, ofRefusal: (r: Refusal) => Record<string, unknown>): DataForm<never, O> {
  let value: Record<string, unknown> = {};
  return {
    event: () => undefined,
    end: (o) => void (value = ofOutcome(o)),
    refused: (r) => void (value = ofRefusal(r)),
    value: () => value,
  };
}

/** Topics as JSON lists them: the ID, and the title when there is one. */
export function topicsJson(topics: readonly TopicLabel[]): { id: string; title?: string }[] {
  return topics.map((t) => (t.title === undefined ? { id: t.id } : { id: t.id, title: t.title }));
}
