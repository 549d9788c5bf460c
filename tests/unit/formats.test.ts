// `kb schema --format F`: the exact output of every format, proof that each
// format's schema accepts the same calls as the RFD's (a table of argument
// objects run through ajv, draft-07 and 2020-12), each provider's documented
// restrictions, and that `kb learn --args` accepts what each format sends.
import { describe, expect, test } from 'bun:test';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { SCHEMA_FORMATS, STRICT_SUBJECTS_DESCRIPTION, toolInFormat, type SchemaFormat } from '../../src/render/formats.ts';
import { LEARN_PARAMETERS, learnTool } from '../../src/render/schema.ts';
import { validateLearnArgs } from '../../src/tool/args.ts';

const TOPICS = [{ id: 'project', title: 'General Project Knowledge' }, { id: 'skills' }];
const DESCRIPTION = 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)\n- skills';
const TOPIC = { type: 'string', description: 'The topic ID or title to learn about.' };
const RFD_SUBJECTS_DESCRIPTION = 'Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.';
const RFD_SCHEMA = {
  type: 'object',
  properties: {
    topic: TOPIC,
    subjects: { type: ['string', 'array', 'null'], description: RFD_SUBJECTS_DESCRIPTION, items: { type: 'string' } },
  },
  required: ['topic'],
  additionalProperties: false,
};

const tool = (f: SchemaFormat) => JSON.parse(JSON.stringify(toolInFormat(f, TOPICS)));

function parametersOf(f: SchemaFormat, t: any): any {
  if (f === 'openai') return t.function.parameters;
  if (f === 'anthropic') return t.input_schema;
  if (f === 'mcp') return t.inputSchema;
  return t.parameters;
}

describe('the exact output of each format', () => {
  test('generic: the RFD tool, unchanged (what `kb schema` always printed)', () => {
    expect(tool('generic')).toEqual({ name: 'learn', description: DESCRIPTION, parameters: RFD_SCHEMA });
    expect(tool('generic')).toEqual(JSON.parse(JSON.stringify(learnTool(TOPICS))));
    expect(LEARN_PARAMETERS).toEqual(RFD_SCHEMA as never);
  });

  test('openai: a strict function tool; subjects required but nullable', () => {
    expect(tool('openai')).toEqual({
      type: 'function',
      function: {
        name: 'learn',
        description: DESCRIPTION,
        strict: true,
        parameters: {
          type: 'object',
          properties: {
            topic: TOPIC,
            subjects: {
              anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }],
              description: 'Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Use null to list available subjects.',
            },
          },
          required: ['topic', 'subjects'],
          additionalProperties: false,
        },
      },
    });
    // Only the last sentence differs from the RFD's text: strict mode cannot omit.
    expect(STRICT_SUBJECTS_DESCRIPTION.replace('Use null to', 'Omit to')).toBe(RFD_SUBJECTS_DESCRIPTION);
  });

  test('anthropic: name, description, input_schema (the RFD schema as is)', () => {
    expect(tool('anthropic')).toEqual({ name: 'learn', description: DESCRIPTION, input_schema: RFD_SCHEMA });
  });

  test('gemini: a function declaration in the OpenAPI 3.0 subset', () => {
    expect(tool('gemini')).toEqual({
      name: 'learn',
      description: DESCRIPTION,
      parameters: {
        type: 'object',
        properties: {
          topic: TOPIC,
          subjects: {
            description: RFD_SUBJECTS_DESCRIPTION,
            anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, nullable: true }],
          },
        },
        required: ['topic'],
      },
    });
  });

  test('mcp: a tools/list entry with the RFD schema and read-only annotations', () => {
    expect(tool('mcp')).toEqual({
      name: 'learn',
      title: 'Learn',
      description: DESCRIPTION,
      inputSchema: RFD_SCHEMA,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
  });
});

// ---------------------------------------------------------------------------
// The validator table. `rfd` is whether the RFD's schema accepts the object.

type Row = [args: unknown, rfd: boolean];
const ROWS: Row[] = [
  [{ topic: 'skills' }, true],
  [{ topic: 'skills', subjects: null }, true],
  [{ topic: 'skills', subjects: 'ast-grep' }, true],
  [{ topic: 'skills', subjects: ['ast-grep'] }, true],
  [{ topic: 'skills', subjects: ['maintainers/*', 'ast-grep/rules'] }, true],
  [{ topic: 'skills', subjects: [] }, true],
  [{ topic: 'skills', subjects: '' }, true],
  [{ topic: 'Learnable Assistant Skills', subjects: '**' }, true],
  [{ topic: '' }, true], // schema-valid; kb answers "must not be empty", like an unknown topic
  [{}, false],
  [{ subjects: 'ast-grep' }, false],
  [{ topic: null }, false],
  [{ topic: 1 }, false],
  [{ topic: ['skills'] }, false],
  [{ topic: { id: 'skills' } }, false],
  [{ topic: 'skills', subjects: 1 }, false],
  [{ topic: 'skills', subjects: true }, false],
  [{ topic: 'skills', subjects: {} }, false],
  [{ topic: 'skills', subjects: [1] }, false],
  [{ topic: 'skills', subjects: [null] }, false],
  [{ topic: 'skills', subjects: ['a', 2] }, false],
  [{ topic: 'skills', subjects: [['a']] }, false],
  [{ topic: 'skills', extra: 1 }, false],
  [{ topic: 'skills', subject: 'ast-grep' }, false], // a misspelt key must not silently list
  [{ topic: 'skills', subjects: null, extra: null }, false],
  [null, false],
  ['skills', false],
  [['skills'], false],
  [42, false],
];

// Every combination of these values for `topic` and `subjects` (absent
// included), with and without an extra key: 16 x 16 x 2 objects.
const VALUES: unknown[] = [undefined, null, '', 'x', 'a/**', 0, 1.5, true, false, [], ['x'], ['x', 'y/*'], [1], [null], [['x']], { a: 1 }];
function combinations(): unknown[] {
  const out: unknown[] = [];
  for (const topic of VALUES) {
    for (const subjects of VALUES) {
      for (const extra of [false, true]) {
        const o: Record<string, unknown> = {};
        if (topic !== undefined) o.topic = topic;
        if (subjects !== undefined) o.subjects = subjects;
        if (extra) o.other = 'x';
        out.push(o);
      }
    }
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What each format accepts, stated against the RFD's schema:
 * - generic, anthropic, mcp: exactly the RFD's calls.
 * - openai: the RFD's calls that spell out `subjects` (strict mode requires
 *   every property). Each RFD call without `subjects` has an OpenAI twin
 *   with `"subjects": null` that means the same (list the topic).
 * - gemini: the RFD's calls, plus the same objects with keys other than
 *   `topic` and `subjects` (no additionalProperties in Gemini's subset).
 */
function expected(f: SchemaFormat, args: unknown, rfd: (v: unknown) => boolean): boolean {
  if (f === 'openai') return rfd(args) && isObject(args) && 'subjects' in args;
  if (f === 'gemini') {
    if (!isObject(args)) return false;
    const known: Record<string, unknown> = {};
    for (const k of ['topic', 'subjects']) if (k in args) known[k] = args[k];
    return rfd(known);
  }
  return rfd(args);
}

/** The same call with `subjects` spelt out, as OpenAI strict mode sends it. */
function withNull(args: unknown): unknown {
  return isObject(args) && !('subjects' in args) ? { ...args, subjects: null } : args;
}

for (const [dialect, AjvClass] of [['draft-07', Ajv], ['2020-12', Ajv2020]] as const) {
  describe(`ajv ${dialect}: every format accepts the same calls as the RFD`, () => {
    // allowUnionTypes: the RFD's `type: [...]` is standard JSON Schema; ajv's
    // strict mode would otherwise refuse it as a matter of style.
    const ajv = new AjvClass({ strict: true, allowUnionTypes: true, allErrors: true });
    const rfd = ajv.compile(RFD_SCHEMA);
    const accepts = (v: unknown) => rfd(v) as boolean;
    const validators = Object.fromEntries(SCHEMA_FORMATS.map((f) => [f, ajv.compile(parametersOf(f, tool(f)))]));

    test('the RFD schema itself agrees with the table', () => {
      for (const [args, valid] of ROWS) expect([args, accepts(args)]).toEqual([args, valid]);
    });

    for (const f of SCHEMA_FORMATS) {
      test(`${f}: the table`, () => {
        for (const [args, valid] of ROWS) {
          expect([args, validators[f](args)]).toEqual([args, expected(f, args, accepts)]);
          if (f === 'openai') expect([args, validators[f](withNull(args))]).toEqual([args, valid]);
        }
      });

      test(`${f}: all ${VALUES.length ** 2 * 2} combinations of topic, subjects and an extra key`, () => {
        for (const args of combinations()) {
          expect([args, validators[f](args)]).toEqual([args, expected(f, args, accepts)]);
          if (f === 'openai') expect([args, validators[f](withNull(args))]).toEqual([args, accepts(args)]);
        }
      });
    }
  });
}

describe('kb learn --args accepts what each format sends', () => {
  const ajv = new Ajv({ strict: true, allowUnionTypes: true });
  for (const f of SCHEMA_FORMATS) {
    test(f, () => {
      const valid = ajv.compile(parametersOf(f, tool(f)));
      for (const args of [...ROWS.map((r) => r[0]), ...combinations()]) {
        if (!valid(args)) continue;
        const r = validateLearnArgs(args);
        const obj = args as Record<string, unknown>;
        if (Object.keys(obj).some((k) => k !== 'topic' && k !== 'subjects')) {
          // Only gemini's schema lets extra keys through; kb names them.
          expect(f).toBe('gemini');
          expect(r.ok).toBe(false);
          expect((r as { problem: string }).problem).toStartWith('unknown argument');
        } else if (obj.topic === '') {
          // Schema-valid but names no topic: an error result, as for any unknown topic.
          expect(r).toEqual({ ok: false, problem: '"topic" must not be empty' });
        } else {
          expect([args, r.ok]).toEqual([args, true]);
        }
      }
    });
  }

  test('`subjects: null` (strict mode) lists, like leaving it out', () => {
    expect(validateLearnArgs({ topic: 'skills', subjects: null })).toEqual(validateLearnArgs({ topic: 'skills' }));
    expect(validateLearnArgs({ topic: 'skills', subjects: null })).toEqual({ ok: true, args: { topic: 'skills', subjects: null } });
  });
});

// ---------------------------------------------------------------------------
// Each provider's documented restrictions.

type Schema = Record<string, any>;

/** Every schema node (the root, properties, items, anyOf branches) with its depth. */
function nodes(schema: Schema, depth = 1): [Schema, number][] {
  const out: [Schema, number][] = [[schema, depth]];
  for (const s of Object.values(schema.properties ?? {})) out.push(...nodes(s as Schema, depth + 1));
  if (schema.items) out.push(...nodes(schema.items, depth + 1));
  for (const s of schema.anyOf ?? []) out.push(...nodes(s, depth + 1));
  return out;
}

describe('OpenAI strict mode', () => {
  const t = tool('openai');
  const params = t.function.parameters;
  // Structured Outputs' supported subset (function calling with strict: true).
  const SUPPORTED = new Set([
    'type', 'description', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const', '$ref', '$defs',
    'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
  ]);

  test('the tool entry: type function, strict true, name of [a-zA-Z0-9_-]{1,64}', () => {
    expect(Object.keys(t).sort()).toEqual(['function', 'type']);
    expect(t.type).toBe('function');
    expect(Object.keys(t.function).sort()).toEqual(['description', 'name', 'parameters', 'strict']);
    expect(t.function.strict).toBe(true);
    expect(t.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  test('the root is an object schema, not anyOf', () => {
    expect(params.type).toBe('object');
    expect(params.anyOf).toBeUndefined();
  });

  test('every object has additionalProperties: false and every property required', () => {
    for (const [s] of nodes(params)) {
      if (s.type !== 'object') continue;
      expect(s.additionalProperties).toBe(false);
      expect([...s.required].sort()).toEqual(Object.keys(s.properties).sort());
    }
  });

  test('one type per schema (unions through anyOf), supported keywords only, at most 10 levels', () => {
    for (const [s, depth] of nodes(params)) {
      if ('type' in s) expect(typeof s.type).toBe('string');
      for (const k of Object.keys(s)) expect([k, SUPPORTED.has(k)]).toEqual([k, true]);
      if (s.type === 'array') expect(s.items).toBeDefined();
      expect(depth).toBeLessThanOrEqual(10);
    }
  });

  test('subjects is required and nullable', () => {
    expect(params.required).toContain('subjects');
    expect(params.properties.subjects.anyOf).toContainEqual({ type: 'null' });
  });
});

describe('Anthropic', () => {
  const t = tool('anthropic');
  test('name, description, input_schema; name of [a-zA-Z0-9_-]{1,64}; an object schema', () => {
    expect(Object.keys(t).sort()).toEqual(['description', 'input_schema', 'name']);
    expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(t.input_schema.type).toBe('object');
  });
});

describe('Gemini function declaration', () => {
  const t = tool('gemini');
  // The fields of Gemini's Schema object (a select subset of OpenAPI 3.0).
  const FIELDS = new Set([
    'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
    'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
    'default', 'items', 'minimum', 'maximum',
  ]);
  const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

  test('name, description, parameters; the name starts with a letter or _, [a-zA-Z0-9_.:-], at most 64', () => {
    expect(Object.keys(t).sort()).toEqual(['description', 'name', 'parameters']);
    expect(t.name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/);
  });

  test('Schema fields only: no additionalProperties, no type arrays, no $ref/oneOf/allOf', () => {
    for (const [s] of nodes(t.parameters)) {
      for (const k of Object.keys(s)) expect([k, FIELDS.has(k)]).toEqual([k, true]);
      expect('additionalProperties' in s).toBe(false);
    }
  });

  test('one type per schema: each node has a single type, or is an anyOf of such nodes', () => {
    for (const [s] of nodes(t.parameters)) {
      expect(('type' in s) !== ('anyOf' in s)).toBe(true);
      if ('type' in s) expect([s.type, TYPES.has(s.type)]).toEqual([s.type, true]);
      if ('nullable' in s) {
        expect(s.nullable).toBe(true);
        expect('type' in s).toBe(true); // OpenAPI 3.0: nullable qualifies a type
      }
    }
  });

  test('parameter names start with a letter or _ and use [a-zA-Z0-9_], at most 64', () => {
    for (const name of Object.keys(t.parameters.properties)) expect(name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/);
    expect(t.parameters.type).toBe('object');
  });
});

describe('MCP tools/list entry', () => {
  const t = tool('mcp');
  test('parses as the SDK\'s Tool, with an object input schema equal to the RFD\'s', () => {
    const parsed = ToolSchema.safeParse(t);
    expect(parsed.success).toBe(true);
    expect(t.inputSchema).toEqual(RFD_SCHEMA);
  });

  test('the name follows the MCP naming rules (1-64 of A-Z a-z 0-9 _ - .)', () => {
    expect(t.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
  });
});
