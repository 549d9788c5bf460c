// End-to-end: structured tool results (MCP 2025-06-18 and later) on
// dist/kb, under each of the five revisions kb speaks. From 2025-06-18 on
// every tool declares an `outputSchema` (schemas/kb-<tool>-output.schema.json,
// what `kb <tool> --format json` prints) and returns `structuredContent`
// beside its text: the same data as the CLI's JSON, valid against that
// schema. Under 2024-11-05 and 2025-03-26 the tools and their results are
// what they always were: no `outputSchema`, no `structuredContent`, the
// text as the CLI prints it. Every reply is checked against the official
// schema of its revision (mcp-raw.ts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Message, RawMcp } from '../support/mcp-raw.ts';
import { ALL_VERSIONS, type McpVersion } from '../support/mcp-schema.ts';
import { BINARY, fixture, REPO, RFD_CONFIG, RFD_FILES, run } from './harness.ts';

const TOOLS = ['learn', 'search', 'remember', 'revise', 'forget'] as const;
const STRUCTURED: readonly McpVersion[] = ['2025-06-18', '2025-11-25', '2026-07-28'];

/** A schema file of schemas/, as a tool's `outputSchema` holds it (the
 *  file names its dialect; MCP's default is the same, 2020-12). */
function schemaFile(tool: string): Record<string, unknown> {
  const { $schema, ...rest } = JSON.parse(readFileSync(join(REPO, 'schemas', `kb-${tool}-output.schema.json`), 'utf8'));
  expect($schema).toBe('https://json-schema.org/draft/2020-12/schema');
  return rest;
}

/** The calls made under each revision: read calls (compared with the CLI),
 *  then writes (their outcome), refusals and errors among them. */
const READS: [string, Record<string, unknown>][] = [
  ['learn', { topic: 'project' }],
  ['learn', { topic: 'project', subjects: ['**'] }],
  ['learn', { topic: 'skills', subjects: ['cargo', 'nope-*'] }],
  ['learn', { topic: 'nope' }],
  ['learn', { topic: 'project', subjects: 3 }],
  ['search', { query: 'maintainers' }],
  ['search', { query: 'ast grep rules', topic: 'skills', limit: 1 }],
  ['search', { topic: 'skills' }],
];

for (const version of ALL_VERSIONS) {
  const structured = STRUCTURED.includes(version);
  describe(`structured tool results under ${version}`, () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const cli = (...args: string[]) => run(BINARY, root, args);
    let mcp: RawMcp;
    let n = 0;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const call = async (name: string, args: unknown): Promise<Message> => {
      const params = { name, arguments: args };
      const r = version === '2026-07-28' ? await mcp.modern(++n, 'tools/call', params) : await mcp.request(++n, 'tools/call', params);
      expect(r.error).toBeUndefined();
      return r.result;
    };
    const valid = (tool: string, data: unknown): string => {
      const ok = ajv.validate(schemaFile(tool), data);
      return ok ? '' : ajv.errorsText(ajv.errors);
    };

    beforeAll(async () => {
      mcp = new RawMcp(root, ['--write', 'project']);
      if (version !== '2026-07-28') await mcp.initialize(version);
    });
    afterAll(async () => {
      await mcp.close();
    });

    test(structured ? 'every tool declares its outputSchema: the schema file of its --format json' : 'no tool declares an outputSchema (as before)', async () => {
      const r = version === '2026-07-28' ? await mcp.modern(++n, 'tools/list') : await mcp.request(++n, 'tools/list');
      const tools = r.result.tools as Record<string, unknown>[];
      expect(tools.map((t) => t.name)).toEqual([...TOOLS]);
      for (const t of tools) {
        const { outputSchema, ...rest } = t;
        const write = ['learn', 'search'].includes(t.name as string) ? [] : ['--write', 'project'];
        expect(rest).toEqual(JSON.parse(cli('schema', '--tool', t.name as string, '--format', 'mcp', ...write).out));
        expect(outputSchema).toEqual(structured ? schemaFile(t.name as string) : undefined);
      }
    }, 60_000);

    test(structured ? 'read calls: the CLI\'s text, and its JSON as structuredContent, valid against the schema' : 'read calls: the CLI\'s text alone', async () => {
      for (const [tool, args] of READS) {
        const r = await call(tool, args);
        const text = cli(tool, '--args', JSON.stringify(args));
        expect({ tool, args, text: r.content }).toEqual({ tool, args, text: [{ type: 'text', text: text.out }] });
        expect(r.isError).toBe(text.code !== 0);
        if (!structured) {
          expect(Object.keys(r).sort()).toEqual(['content', 'isError']);
          continue;
        }
        expect({ tool, args, data: r.structuredContent }).toEqual({ tool, args, data: JSON.parse(cli(tool, '--args', JSON.stringify(args), '--format', 'json').out) });
        expect({ tool, args, problems: valid(tool, r.structuredContent) }).toEqual({ tool, args, problems: '' });
      }
    }, 60_000);

    test(structured ? 'remember, revise, forget: the outcome as data, valid against each schema' : 'remember, revise, forget: the text alone', async () => {
      const text = 'The release train leaves every second Tuesday; tags are signed by the release manager.';
      const steps: [string, Record<string, unknown>, string][] = [
        ['remember', { topic: 'project', slug: 'release-train', text }, 'written'],
        ['remember', { topic: 'project', slug: 'release-again', text }, 'duplicate'],
        ['revise', { topic: 'project', slug: 'release-train', text: `${text} Since March, every Thursday.` }, 'revised'],
        ['forget', { topic: 'project', slug: 'release-train' }, 'forgotten'],
        ['forget', { topic: 'project', slug: 'release-train' }, 'error'],
        ['remember', { topic: 'skills', slug: 'x', text: 'Not writable here.' }, 'error'],
      ];
      for (const [tool, args, status] of steps) {
        const r = await call(tool, args);
        expect(r.content).toHaveLength(1);
        expect(r.isError).toBe(status === 'error');
        if (!structured) {
          expect(Object.keys(r).sort()).toEqual(['content', 'isError']);
          continue;
        }
        expect({ tool, args, status: r.structuredContent?.status }).toEqual({ tool, args, status });
        expect({ tool, args, problems: valid(tool, r.structuredContent) }).toEqual({ tool, args, problems: '' });
      }
    }, 60_000);

    test('every reply valid against its revision\'s schema; stderr holds only the writes\' notes', () => {
      expect(mcp.schema.problems).toEqual([]);
      expect(mcp.err).not.toContain('error');
    });
  });
}
