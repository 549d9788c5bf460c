// The registry of tools (app/tools.ts): one module per tool, each
// validating calls against its own schema. The check below runs a generated
// set of argument shapes through every tool's `validate` and through a JSON
// Schema validator (ajv) on the same schema, and asks them to agree:
// validation cannot drift from the schema the providers and MCP are given.
import { describe, expect, test } from 'bun:test';
import Ajv from 'ajv';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { definitionOf, servedTools, TOOL_NAMES, TOOLS, toolNamed, WRITE_TOOL_NAMES, type AnyTool } from '../../../src/app/tools.ts';
import { checkArgs } from '../../../src/app/tools/validate.ts';
import { toolInFormat } from '../../../src/render/providers.ts';
import { renderBadToolArguments, shapeOf } from '../../../src/render/tools.ts';
import type { JsonSchema, JsonSchemaObject } from '../../../src/shared/tool.ts';
import { rng } from '../../support/rng.ts';

/** The schema as kb reads it: an optional parameter may also be null
 *  (absent; OpenAI strict mode spells a left-out parameter so). */
function nullableOptional(schema: JsonSchemaObject): object {
  const required = schema.required ?? [];
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([k, s]) => [k, required.includes(k) ? s : { anyOf: [s, { type: 'null' }] }]),
  );
  return { ...schema, properties };
}

/** Values of every JSON type, each of which passes the tools' own rules
 *  when its type is right (short, non-empty, a valid slug). */
function valuesFor(s: JsonSchema): unknown[] {
  const items = s.maxItems !== undefined ? Array.from({ length: s.maxItems + 1 }, (_, i) => `t${i}`) : undefined;
  return ['word', 3, 1, 50, 0, 51, 2.5, true, false, null, {}, { a: 1 }, [], ['a', 'b'], [1], ['a', null], ...(items ? [items] : [])];
}

/** Argument objects: every value of every parameter on a valid base, each
 *  parameter left out, unknown keys, and random mixes. */
function shapes(schema: JsonSchemaObject): unknown[] {
  const keys = Object.keys(schema.properties);
  const base: Record<string, unknown> = Object.fromEntries((schema.required ?? []).map((k) => [k, 'word']));
  const out: unknown[] = [base, {}, null, [], 'word', 1, { ...base, extra: 1 }, { ...base, a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }];
  for (const k of keys) {
    for (const v of valuesFor(schema.properties[k])) out.push({ ...base, [k]: v });
    const { [k]: _, ...without } = base;
    out.push(without);
  }
  const random = rng(18);
  for (let n = 0; n < 300; n++) {
    const obj: Record<string, unknown> = {};
    for (const k of keys) {
      if (random() < 0.3) continue;
      const values = valuesFor(schema.properties[k]);
      obj[k] = values[Math.floor(random() * values.length)];
    }
    out.push(obj);
  }
  return out;
}

describe('the registry', () => {
  test('five tools, one module each, names in order and unique', () => {
    expect(TOOL_NAMES).toEqual(['learn', 'search', 'remember', 'revise', 'forget']);
    expect(new Set(TOOL_NAMES).size).toBe(TOOLS.length);
    for (const t of TOOLS) expect(toolNamed(t.name)).toBe(t);
    expect(toolNamed('nope')).toBeUndefined();
    expect(toolNamed('toString')).toBeUndefined();
    expect(TOOLS.map((t) => t.name)).toEqual([...TOOL_NAMES]);
  });

  test('the names kb schema knows the tools by without loading them (tools/names.ts) are the tools', () => {
    // Which tools write is said twice, by each tool and in tools/names.ts
    // (for kb schema's --write): the two agree.
    expect(TOOLS.filter((t) => t.access === 'write').map((t) => t.name)).toEqual([...WRITE_TOOL_NAMES]);
    expect(TOOLS.filter((t) => t.access === 'read').map((t) => t.name)).toEqual(TOOL_NAMES.filter((n) => !(WRITE_TOOL_NAMES as readonly string[]).includes(n)));
  });

  test('the tools that replace or remove a file are annotated destructive; the others are not', () => {
    const destructive = TOOLS.filter((t) => t.annotations.destructiveHint === true).map((t) => t.name);
    expect(destructive).toEqual(['revise', 'forget']);
    expect(toolNamed('revise')!.access).toBe('write');
  });

  test('the read tools are served always; the write tools only with writable topics', () => {
    expect(servedTools(new Set()).map((t) => t.name)).toEqual(['learn', 'search']);
    expect(servedTools(new Set(['notes'])).map((t) => t.name)).toEqual(['learn', 'search', 'remember', 'revise', 'forget']);
  });

  test.each(TOOLS.map((t) => [t.name, t] as [string, AnyTool]))('%s: a valid MCP tool, its name valid in every provider format', (_, tool) => {
    const def = definitionOf(tool, [{ id: 'notes', title: 'Notes' }]);
    expect(def.name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);
    expect(ToolSchema.safeParse(toolInFormat('mcp', def)).success).toBe(true);
    expect(def.description).toContain('notes');
  });
});

describe('validation agrees with the schema', () => {
  const ajv = new Ajv({ strict: false, allowUnionTypes: true });
  for (const tool of TOOLS) {
    test(`${tool.name}: every generated shape is accepted by both or refused by both`, () => {
      const check = ajv.compile(nullableOptional(tool.parameters));
      const disagree: unknown[] = [];
      for (const value of shapes(tool.parameters)) {
        const ours = tool.validate(value).ok;
        if (ours !== check(value)) disagree.push(value);
      }
      expect(disagree).toEqual([]);
    });
  }

  test('problems name the parameter and what it must be, from the schema', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: ['string', 'array', 'null'], items: { type: 'string' } },
        n: { type: 'integer', minimum: 1, maximum: 9 },
        f: { type: 'boolean' },
        l: { type: 'array', items: { type: 'string' }, maxItems: 2 },
      },
      required: ['a'],
      additionalProperties: false,
    };
    const problem = (v: unknown) => {
      const r = checkArgs(schema, v);
      return r.ok ? undefined : r.problem;
    };
    expect(problem([])).toBe('the arguments must be a JSON object, not array');
    expect(problem({ a: 'x', z: 1, y: 2 })).toBe('unknown arguments "z", "y"');
    expect(problem({ a: 'x', k1: 1, k2: 1, k3: 1, k4: 1, k5: 1, k6: 1, k7: 1 })).toBe('unknown arguments "k1", "k2", "k3", "k4", "k5" and 2 more');
    expect(problem({})).toBe('"a" is required');
    expect(problem({ a: null })).toBe('"a" must be a string, not null');
    expect(problem({ a: 'x', b: 1 })).toBe('"b" must be a string, an array of strings or null, not number');
    expect(problem({ a: 'x', b: ['y', 2] })).toBe('"b"[1] must be a string, not number');
    expect(problem({ a: 'x', n: 2.5 })).toBe('"n" must be an integer or null, not 2.5');
    expect(problem({ a: 'x', n: 'two' })).toBe('"n" must be an integer or null, not string');
    expect(problem({ a: 'x', n: 10 })).toBe('"n" must be between 1 and 9, not 10');
    expect(problem({ a: 'x', f: 'yes' })).toBe('"f" must be a boolean or null, not string');
    expect(problem({ a: 'x', l: ['1', '2', '3'] })).toBe('"l" has 3 items; at most 2');
    expect(checkArgs(schema, { a: 'x', b: null, n: null, f: null, l: null })).toEqual({ ok: true, args: { a: 'x' } });
  });

  test('a refusal about one parameter names it apart (a front end names it its own way); one about the call does not', () => {
    const remember = toolNamed('remember')!;
    expect(remember.validate({ topic: 'notes', text: ' ' })).toEqual({ ok: false, problem: '"text" must not be empty', key: 'text', says: 'must not be empty' });
    expect(remember.validate({ topic: 'notes' })).toEqual({ ok: false, problem: '"text" is required', key: 'text', says: 'is required' });
    expect(remember.validate({ topic: 'notes', text: 'x', tags: Array(21).fill('t') })).toMatchObject({ key: 'tags', says: 'has 21 items; at most 20' });
    expect(remember.validate({ topic: 'notes', text: 'x', slug: '../up' })).toMatchObject({ key: 'slug', problem: expect.stringMatching(/^"slug" "\.\.\/up" cannot name a new subject: /) });
    expect(remember.validate({ topic: 'notes', text: 'x', tags: [''] })).toEqual({ ok: false, problem: 'tag "" must be 1-64 printable characters' });
    expect(remember.validate([])).toEqual({ ok: false, problem: 'the arguments must be a JSON object, not array' });
    expect(toolNamed('learn')!.validate({ topic: 't', subjects: Array(1001).fill('p') })).toMatchObject({ key: 'subjects', says: 'has 1001 patterns; at most 1000 are accepted' });
    for (const tool of TOOLS) {
      for (const v of shapes(tool.parameters)) {
        const r = tool.validate(v);
        if (!r.ok && r.key !== undefined) expect(r.problem).toBe(`"${r.key}" ${r.says}`);
      }
    }
  });

  test('the expected shape of a malformed call is written from the schema', () => {
    expect(shapeOf(toolNamed('learn')!.parameters)).toBe('{"topic": string, "subjects"?: string | string[] | null}');
    expect(shapeOf(toolNamed('search')!.parameters)).toBe('{"query": string, "topic"?: string | null, "topics"?: string[] | null, "tags"?: string[] | null, "type"?: string | null, "status"?: string | null, "limit"?: integer | null}');
    expect(shapeOf(toolNamed('forget')!.parameters)).toBe('{"topic": string, "slug": string}');
    expect(shapeOf(toolNamed('revise')!.parameters)).toBe('{"topic": string, "slug": string, "text": string, "description"?: string | null, "tags"?: string[] | null, "force"?: boolean | null}');
    expect(shapeOf(toolNamed('remember')!.parameters)).toBe(
      '{"topic": string, "text": string, "slug"?: string | null, "description"?: string | null, "tags"?: string[] | null, "force"?: boolean | null}',
    );
    expect(renderBadToolArguments('learn', '"topic" is required', toolNamed('learn')!.parameters)).toBe(
      'Invalid arguments for `learn`: "topic" is required. Expected {"topic": string, "subjects"?: string | string[] | null}.\n',
    );
  });
});

describe('start-up stays lazy', () => {
  test('kb schema and kb prompt load no operation they do not run (static imports from the entry module)', async () => {
    const { extractImports } = (await import('../../../scripts/check-layers.mjs')) as { extractImports: (src: string) => { specifier: string; kind: string; typeOnly: boolean }[] };
    const { readFileSync, existsSync } = await import('node:fs');
    const { dirname, resolve, relative } = await import('node:path');
    const root = resolve(import.meta.dir, '../../..');
    const closure = (...entries: string[]): string[] => {
      const seen = new Set<string>();
      const walk = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const imp of extractImports(readFileSync(file, 'utf8'))) {
          if (imp.typeOnly || imp.kind === 'dynamic' || imp.kind === 'url' || !imp.specifier.startsWith('.')) continue;
          const target = resolve(dirname(file), imp.specifier);
          if (existsSync(target) && target.endsWith('.ts')) walk(target);
        }
      };
      for (const e of entries) walk(resolve(root, e));
      return [...seen].map((f) => relative(root, f));
    };
    const OPERATIONS = /^src\/(app\/(learn|search|recall|memory)\.ts|kb\/search\/(?!where\.ts)|kb\/write\/(?!given\.ts)|render\/(search|memory)\.ts)/;
    for (const command of ['schema', 'prompt']) {
      const loaded = closure('src/cli.ts', `src/cli/commands/${command}.ts`);
      expect([command, loaded.filter((f) => OPERATIONS.test(f))]).toEqual([command, []]);
    }
    // kb schema describes the learn tool without the others' modules.
    expect(closure('src/cli.ts', 'src/cli/commands/schema.ts')).toContain('src/app/tools/learn.ts');
    expect(closure('src/cli.ts', 'src/cli/commands/schema.ts')).not.toContain('src/app/tools/remember.ts');
    expect(closure('src/cli.ts', 'src/cli/commands/prompt.ts')).not.toContain('src/app/tools.ts');
  });
});
