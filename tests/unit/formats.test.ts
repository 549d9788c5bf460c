// `kb schema --format F`: the exact output of every format (byte for byte,
// as `kb schema` prints it), proof that each format's schema accepts the
// same calls as the RFD's (a table of argument objects run through ajv,
// draft-07 and 2020-12), each provider's documented restrictions, that
// `kb learn --args` accepts what each format sends, and that the converter
// (src/render/providers.ts) follows general rules: a made-up second tool
// gets the same treatment as learn.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { SCHEMA_FORMATS, toolInFormat, type SchemaFormat } from '../../src/render/providers.ts';
import {
  LEARN_NO_TOPICS_DESCRIPTION,
  LEARN_PARAMETERS,
  learnDescription,
  learnTool,
  type JsonSchema,
  type ToolDefinition,
} from '../../src/app/tools.ts';
import { validateLearnArgs } from '../../src/app/tools/learn.ts';
import { searchTool } from '../../src/app/tools.ts';

const TOPICS = [{ id: 'project', title: 'General Project Knowledge' }, { id: 'skills' }];
const DESCRIPTION = 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)\n- skills';
const TOPIC = { type: 'string', description: 'The topic ID or title to learn about.' };
const RFD_SUBJECTS_DESCRIPTION = 'Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.';
const STRICT_SUBJECTS_DESCRIPTION = 'Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Use null to list available subjects.';
const RFD_SCHEMA = {
  type: 'object',
  properties: {
    topic: TOPIC,
    subjects: { type: ['string', 'array', 'null'], description: RFD_SUBJECTS_DESCRIPTION, items: { type: 'string' } },
  },
  required: ['topic'],
  additionalProperties: false,
};

const tool = (f: SchemaFormat) => JSON.parse(JSON.stringify(toolInFormat(f, learnTool(TOPICS))));

function parametersOf(f: SchemaFormat, t: any): any {
  if (f === 'openai') return t.function.parameters;
  if (f === 'anthropic') return t.input_schema;
  if (f === 'mcp') return t.inputSchema;
  return t.parameters;
}

describe('the tool definition (src/app/tools.ts)', () => {
  test('learn: the RFD schema, the topics in the description, read-only annotations', () => {
    const t = learnTool(TOPICS);
    expect(t.name).toBe('learn');
    expect(t.title).toBe('Learn');
    expect(t.description).toBe(DESCRIPTION);
    expect(t.description).toBe(learnDescription(TOPICS));
    expect(t.parameters).toBe(LEARN_PARAMETERS);
    expect(LEARN_PARAMETERS).toEqual(RFD_SCHEMA as never);
    expect(t.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(t.nullDescriptions).toEqual({ subjects: STRICT_SUBJECTS_DESCRIPTION });
  });

  test('where subjects cannot be left out, only the last sentence of its description differs', () => {
    expect(learnTool(TOPICS).nullDescriptions!.subjects!.replace('Use null to', 'Omit to')).toBe(RFD_SUBJECTS_DESCRIPTION);
  });

  test('no learnable topic: the description says so', () => {
    expect(LEARN_NO_TOPICS_DESCRIPTION).toBe('Learn about knowledge base topics and subjects.\n\nNo topic has subjects to learn at the moment.');
    expect(learnTool([]).description).toBe(LEARN_NO_TOPICS_DESCRIPTION);
    expect(learnTool([]).parameters).toBe(LEARN_PARAMETERS);
  });

  test('the definitions load no operation: a tool module imports its operation only when it runs', () => {
    for (const name of ['learn', 'search', 'remember', 'revise', 'forget']) {
      const source = readFileSync(new URL(`../../src/app/tools/${name}.ts`, import.meta.url), 'utf8');
      const statics = source.split('\n').filter((l) => /^\s*import\b/.test(l) && !/^import type /.test(l));
      for (const line of statics) expect(line).not.toMatch(/'\.\.\/(learn|search|memory|revise|recall)\.ts'|kb\/search\/|kb\/write\/(?!given)/);
    }
  });
});

// ---------------------------------------------------------------------------
// Byte for byte what `kb schema --format F` printed before the converter
// replaced the hand-written formats (captured from the binary, with the
// examples/ workspace: topics project and skills, both titled).

const LEARNABLE = [
  { id: 'project', title: 'General Project Knowledge' },
  { id: 'skills', title: 'Learnable Assistant Skills' },
];
const PRINTED: Record<SchemaFormat, string> = {
  generic: String.raw`{
  "name": "learn",
  "description": "Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)\n- skills (Learnable Assistant Skills)",
  "parameters": {
    "type": "object",
    "properties": {
      "topic": {
        "type": "string",
        "description": "The topic ID or title to learn about."
      },
      "subjects": {
        "type": [
          "string",
          "array",
          "null"
        ],
        "description": "Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.",
        "items": {
          "type": "string"
        }
      }
    },
    "required": [
      "topic"
    ],
    "additionalProperties": false
  }
}`,
  openai: String.raw`{
  "type": "function",
  "function": {
    "name": "learn",
    "description": "Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)\n- skills (Learnable Assistant Skills)",
    "strict": true,
    "parameters": {
      "type": "object",
      "properties": {
        "topic": {
          "type": "string",
          "description": "The topic ID or title to learn about."
        },
        "subjects": {
          "anyOf": [
            {
              "type": "string"
            },
            {
              "type": "array",
              "items": {
                "type": "string"
              }
            },
            {
              "type": "null"
            }
          ],
          "description": "Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Use null to list available subjects."
        }
      },
      "required": [
        "topic",
        "subjects"
      ],
      "additionalProperties": false
    }
  }
}`,
  anthropic: String.raw`{
  "name": "learn",
  "description": "Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)\n- skills (Learnable Assistant Skills)",
  "input_schema": {
    "type": "object",
    "properties": {
      "topic": {
        "type": "string",
        "description": "The topic ID or title to learn about."
      },
      "subjects": {
        "type": [
          "string",
          "array",
          "null"
        ],
        "description": "Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.",
        "items": {
          "type": "string"
        }
      }
    },
    "required": [
      "topic"
    ],
    "additionalProperties": false
  }
}`,
  gemini: String.raw`{
  "name": "learn",
  "description": "Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)\n- skills (Learnable Assistant Skills)",
  "parameters": {
    "type": "object",
    "properties": {
      "topic": {
        "type": "string",
        "description": "The topic ID or title to learn about."
      },
      "subjects": {
        "description": "Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.",
        "anyOf": [
          {
            "type": "string"
          },
          {
            "type": "array",
            "items": {
              "type": "string"
            },
            "nullable": true
          }
        ]
      }
    },
    "required": [
      "topic"
    ]
  }
}`,
  mcp: String.raw`{
  "name": "learn",
  "title": "Learn",
  "description": "Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)\n- skills (Learnable Assistant Skills)",
  "inputSchema": {
    "type": "object",
    "properties": {
      "topic": {
        "type": "string",
        "description": "The topic ID or title to learn about."
      },
      "subjects": {
        "type": [
          "string",
          "array",
          "null"
        ],
        "description": "Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.",
        "items": {
          "type": "string"
        }
      }
    },
    "required": [
      "topic"
    ],
    "additionalProperties": false
  },
  "annotations": {
    "readOnlyHint": true,
    "destructiveHint": false,
    "idempotentHint": true,
    "openWorldHint": false
  }
}`,
};

describe('byte-identical output for learn', () => {
  for (const f of SCHEMA_FORMATS) {
    test(f, () => {
      expect(JSON.stringify(toolInFormat(f, learnTool(LEARNABLE)), null, 2)).toBe(PRINTED[f]);
    });
  }
});

describe('the exact output of each format', () => {
  test('generic: the RFD tool, unchanged (what `kb schema` always printed)', () => {
    expect(tool('generic')).toEqual({ name: 'learn', description: DESCRIPTION, parameters: RFD_SCHEMA });
    const { name, description, parameters } = learnTool(TOPICS);
    expect(tool('generic')).toEqual(JSON.parse(JSON.stringify({ name, description, parameters })));
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

  test('the formats that take JSON Schema as is share the definition\'s parameters object', () => {
    const t = learnTool(TOPICS);
    expect((toolInFormat('generic', t) as any).parameters).toBe(LEARN_PARAMETERS);
    expect((toolInFormat('anthropic', t) as any).input_schema).toBe(LEARN_PARAMETERS);
    expect((toolInFormat('mcp', t) as any).inputSchema).toBe(LEARN_PARAMETERS);
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

const DIALECTS = [['draft-07', Ajv], ['2020-12', Ajv2020]] as const;

for (const [dialect, AjvClass] of DIALECTS) {
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
          expect(r).toMatchObject({ ok: false, problem: '"topic" must not be empty' });
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
// A second, made-up tool: the converter has no learn-specific path. It has
// a required string, an optional integer with bounds (and a description for
// strict mode), an optional nullable string (without one), an optional enum,
// an optional union whose enum leaves null out (so null is not accepted,
// whatever the type says) and an optional nested object with a union inside.

const SEARCH: ToolDefinition = {
  name: 'search',
  title: 'Search',
  description: 'Search the knowledge base.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for.' },
      limit: { type: 'integer', description: 'At most this many results. Omit for 10.', minimum: 1, maximum: 50 },
      topic: { type: ['string', 'null'], description: 'Only this topic; omit or null for all.' },
      mode: { type: 'string', description: 'How words combine.', enum: ['any', 'all'] },
      sort: { type: ['string', 'null'], enum: ['score', 'date'] },
      filter: {
        type: 'object',
        properties: {
          since: { type: 'string' },
          kind: { type: ['string', 'array'], items: { type: 'string' } },
        },
        required: ['since'],
        additionalProperties: false,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  nullDescriptions: { limit: 'At most this many results. Use null for 10.' },
};

const search = (f: SchemaFormat) => JSON.parse(JSON.stringify(toolInFormat(f, SEARCH)));

describe('a second tool: the same general rules', () => {
  test('generic, anthropic, mcp: the parameters as they are', () => {
    expect(search('generic')).toEqual({ name: 'search', description: 'Search the knowledge base.', parameters: SEARCH.parameters });
    expect(search('anthropic')).toEqual({ name: 'search', description: 'Search the knowledge base.', input_schema: SEARCH.parameters });
    expect(search('mcp')).toEqual({
      name: 'search',
      title: 'Search',
      description: 'Search the knowledge base.',
      inputSchema: SEARCH.parameters,
      annotations: SEARCH.annotations,
    });
  });

  test('openai strict: every property required, optional ones nullable, unions through anyOf', () => {
    const t = search('openai');
    expect(t).toEqual({
      type: 'function',
      function: { name: 'search', description: 'Search the knowledge base.', strict: true, parameters: expect.anything() },
    });
    const params = t.function.parameters;
    expect(params).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for.' },
        limit: { anyOf: [{ type: 'integer', minimum: 1, maximum: 50 }, { type: 'null' }], description: 'At most this many results. Use null for 10.' },
        topic: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Only this topic; omit or null for all.' },
        mode: { anyOf: [{ type: 'string', enum: ['any', 'all'] }, { type: 'null' }], description: 'How words combine.' },
        sort: { anyOf: [{ type: 'string', enum: ['score', 'date'] }, { type: 'null' }] },
        filter: {
          anyOf: [
            {
              type: 'object',
              properties: {
                since: { type: 'string' },
                kind: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }] },
              },
              required: ['since', 'kind'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
        },
      },
      required: ['query', 'limit', 'topic', 'mode', 'sort', 'filter'],
      additionalProperties: false,
    });
    // Key order, as printed: anyOf before description; required in property order.
    expect(Object.keys(params.properties.limit)).toEqual(['anyOf', 'description']);
    expect(Object.keys(params)).toEqual(['type', 'properties', 'required', 'additionalProperties']);
  });

  test('gemini: one type per schema, nullable instead of null, no additionalProperties, required kept', () => {
    const t = search('gemini');
    expect(Object.keys(t)).toEqual(['name', 'description', 'parameters']);
    expect(t.parameters).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for.' },
        limit: { type: 'integer', description: 'At most this many results. Omit for 10.', minimum: 1, maximum: 50 },
        topic: { type: 'string', description: 'Only this topic; omit or null for all.', nullable: true },
        mode: { type: 'string', description: 'How words combine.', enum: ['any', 'all'] },
        sort: { type: 'string', enum: ['score', 'date'] },
        filter: {
          type: 'object',
          properties: {
            since: { type: 'string' },
            kind: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          },
          required: ['since'],
        },
      },
      required: ['query'],
    });
    expect(JSON.stringify(t)).not.toContain('"type":[');
  });

  test('a schema that only accepts null cannot be written for gemini', () => {
    const onlyNull: ToolDefinition = { ...SEARCH, parameters: { type: 'object', properties: { p: { type: 'null' } } } };
    expect(() => toolInFormat('gemini', onlyNull)).toThrow('only accepts null');
    expect(() => toolInFormat('openai', onlyNull)).not.toThrow();
  });
});

// What a strict-mode call means in the definition's terms: null for an
// optional property that cannot be null there stands for leaving it out.
function fromStrict(v: unknown, s: JsonSchema): unknown {
  if (!isObject(v) || !s.properties) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const p = s.properties[k];
    if (p && !(s.required ?? []).includes(k) && x === null && !acceptsNullIn(p)) continue;
    out[k] = p ? fromStrict(x, p) : x;
  }
  return out;
}
const acceptsNullIn = (s: JsonSchema): boolean => (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) && !s.enum;
/** Every declared property spelt out, at every level (strict mode's rule). */
function complete(v: unknown, s: JsonSchema): boolean {
  if (!isObject(v) || !s.properties) return true;
  return Object.entries(s.properties).every(([k, p]) => k in v && complete(v[k], p));
}
/** The declared properties only, at every level (what Gemini's schema checks). */
function declaredOnly(v: unknown, s: JsonSchema): unknown {
  if (!isObject(v) || !s.properties) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (s.properties[k]) out[k] = declaredOnly(x, s.properties[k]);
  return out;
}
/** The call as strict mode spells it: every absent property null, at every level. */
function toStrict(v: unknown, s: JsonSchema): unknown {
  if (!isObject(v) || !s.properties) return v;
  const out: Record<string, unknown> = { ...v };
  for (const [k, p] of Object.entries(s.properties)) out[k] = k in v ? toStrict(v[k], p) : null;
  return out;
}

function searchCalls(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const FILTERS = [undefined, null, { since: 'x' }, { since: 'x', kind: 'a' }, { since: 'x', kind: ['a'] }, { since: 'x', kind: null }, { since: 'x', kind: 1 }, { kind: 'a' }, { since: 'x', other: 1 }, 'x'];
  for (const query of [undefined, 'q', 1]) {
    for (const limit of [undefined, null, 0, 1, 50, 51, 1.5, '5']) {
      for (const topic of [undefined, null, '', 'x', ['x']]) {
        for (const [mode, sort] of [[undefined, undefined], [null, null], ['any', 'score'], ['all', 'date'], ['none', 'date'], [1, null], ['any', 'x'], [undefined, 1]]) {
          for (const filter of FILTERS) {
            for (const extra of [false, true]) {
              const o: Record<string, unknown> = {};
              for (const [k, v] of Object.entries({ query, limit, topic, mode, sort, filter })) if (v !== undefined) o[k] = v;
              if (extra) o.other = 'x';
              out.push(o);
            }
          }
        }
      }
    }
  }
  return out;
}

for (const [dialect, AjvClass] of DIALECTS) {
  describe(`ajv ${dialect}: the second tool's formats accept the definition's calls`, () => {
    const ajv = new AjvClass({ strict: true, allowUnionTypes: true, allErrors: true });
    const source = ajv.compile(SEARCH.parameters);
    const openai = ajv.compile(search('openai').function.parameters);
    const gemini = ajv.compile(search('gemini').parameters);
    const calls = searchCalls();

    test('the made-up table has calls each way', () => {
      const valid = calls.filter((c) => source(c)).length;
      expect(valid).toBeGreaterThan(100);
      expect(calls.length - valid).toBeGreaterThan(100);
    });

    test('openai: the definition\'s calls with every property spelt out (null for absent)', () => {
      for (const args of calls) {
        expect([args, openai(args)]).toEqual([args, complete(args, SEARCH.parameters) && (source(fromStrict(args, SEARCH.parameters)) as boolean)]);
        if (source(args)) expect([args, openai(toStrict(args, SEARCH.parameters))]).toEqual([args, true]);
      }
    });

    test('gemini: the definition\'s calls, plus extra keys', () => {
      for (const args of calls) {
        expect([args, gemini(args)]).toEqual([args, source(declaredOnly(args, SEARCH.parameters)) as boolean]);
      }
    });
  });
}

// ---------------------------------------------------------------------------
// Each provider's documented restrictions, for learn and the made-up tool.

type Schema = Record<string, any>;

/** Every schema node (the root, properties, items, anyOf branches) with its depth. */
function nodes(schema: Schema, depth = 1): [Schema, number][] {
  const out: [Schema, number][] = [[schema, depth]];
  for (const s of Object.values(schema.properties ?? {})) out.push(...nodes(s as Schema, depth + 1));
  if (schema.items) out.push(...nodes(schema.items, depth + 1));
  for (const s of schema.anyOf ?? []) out.push(...nodes(s, depth + 1));
  return out;
}

// kb's own search tool (app/tools.ts) goes through the same converter.
const KB_SEARCH = searchTool([{ id: 'docs', title: 'Docs' }]);
const kbSearch = (f: SchemaFormat) => JSON.parse(JSON.stringify(toolInFormat(f, KB_SEARCH)));

const TOOLS: [string, (f: SchemaFormat) => any][] = [['learn', tool], ['search (made up)', search], ['search', kbSearch]];

for (const [toolName, toolIn] of TOOLS) {
  describe(`OpenAI strict mode: ${toolName}`, () => {
    const t = toolIn('openai');
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

    if (toolName === 'learn') {
      test('subjects is required and nullable', () => {
        expect(params.required).toContain('subjects');
        expect(params.properties.subjects.anyOf).toContainEqual({ type: 'null' });
      });
    }
  });

  describe(`Anthropic: ${toolName}`, () => {
    const t = toolIn('anthropic');
    test('name, description, input_schema; name of [a-zA-Z0-9_-]{1,64}; an object schema', () => {
      expect(Object.keys(t).sort()).toEqual(['description', 'input_schema', 'name']);
      expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(t.input_schema.type).toBe('object');
    });
  });

  describe(`Gemini function declaration: ${toolName}`, () => {
    const t = toolIn('gemini');
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

  describe(`MCP tools/list entry: ${toolName}`, () => {
    const t = toolIn('mcp');
    test('parses as the SDK\'s Tool, with an object input schema equal to the definition\'s', () => {
      const parsed = ToolSchema.safeParse(t);
      expect(parsed.success).toBe(true);
      expect(t.inputSchema).toEqual(toolName === 'learn' ? RFD_SCHEMA : toolName === 'search' ? KB_SEARCH.parameters : SEARCH.parameters);
    });

    test('the name follows the MCP naming rules (1-64 of A-Z a-z 0-9 _ - .)', () => {
      expect(t.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
    });
  });
}
