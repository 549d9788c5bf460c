// The forget tool: removes a visible subject of a writable topic (docs/search-and-memory.md,
// "Remembering"), served over MCP only for the topics `kb mcp --write`
// names. The operation is app/memory.ts; render/memory.ts writes its
// outcome.
import type { JsonSchemaObject } from '../../shared/tool.ts';
import type { ForgetArgs } from '../memory.ts';
import { LIMITS } from '../args.ts';
import { writableLines } from './remember.ts';
import type { Tool } from './tool.ts';
import { checkArgs, type Parsed, type Rules } from './validate.ts';

export const FORGET_TOOL_NAME = 'forget';

export const FORGET_PARAMETERS = {
  type: 'object',
  properties: {
    topic: { type: 'string', description: 'The topic ID or title (one of the writable topics).' },
    slug: { type: 'string', description: 'The exact slug of the subject to remove, as listed by learn.' },
  },
  required: ['topic', 'slug'],
  additionalProperties: false,
} as const satisfies JsonSchemaObject;

/** Neither over 1024 characters, nor empty. */
const bounded = {
  check: (v: string) => (v.length > 1024 ? { says: 'is longer than 1024 characters' } : v === '' ? { says: 'must not be empty' } : { value: v }),
};

const RULES: Rules = { topic: bounded, slug: bounded };

/** A forget call's arguments (untrusted). */
export function validateForgetArgs(value: unknown): Parsed<ForgetArgs> {
  const checked = checkArgs(FORGET_PARAMETERS, value, RULES);
  return checked.ok ? { ok: true, args: checked.args as unknown as ForgetArgs } : checked;
}

export const forget: Tool<'forget', ForgetArgs> = {
  name: FORGET_TOOL_NAME,
  title: 'Forget',
  summary: 'Remove a subject from a topic (git keeps its history)',
  instruction: 'removes a subject (version control keeps its history)',
  argsBytes: LIMITS.jsonBytes,
  parameters: FORGET_PARAMETERS,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: 'write',
  describe: (topics) =>
    'Remove a subject that is wrong or no longer true from the knowledge base (its file is deleted; version control keeps its history). Hidden and disabled subjects cannot be removed.\n\n' +
    writableLines(topics),
  validate: validateForgetArgs,
  load: () => import('../memory.ts'),
  async run(kb, args, sink, ctx) {
    const { forget: run } = await import('../memory.ts');
    const done = await run(kb, args, { source: ctx.source, ...(ctx.writable !== undefined ? { writable: ctx.writable } : {}) });
    for (const p of done.problems) await sink.problem(p);
    return done;
  },
  whenCut: 'What followed was not shown; ask for fewer results.',
};
