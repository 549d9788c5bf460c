// The forget tool: removes a visible subject of a writable topic (docs/search-and-memory.md,
// "Remembering"), served over MCP only for the topics `kb mcp --write`
// names. The operation is app/memory.ts; render/memory.ts writes its
// answer.
import type { JsonSchemaObject } from '../../shared/tool.ts';
import type { ForgetArgs } from '../memory.ts';
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
const bounded = (key: string) => ({
  check: (v: string) => (v.length > 1024 ? { problem: `"${key}" is longer than 1024 characters` } : v === '' ? { problem: `"${key}" must not be empty` } : { value: v }),
});

const RULES: Rules = { topic: bounded('topic'), slug: bounded('slug') };

/** A forget call's arguments (untrusted). */
export function validateForgetArgs(value: unknown): Parsed<ForgetArgs> {
  const checked = checkArgs(FORGET_PARAMETERS, value, RULES);
  return checked.ok ? { ok: true, args: checked.args as unknown as ForgetArgs } : checked;
}

export const forget: Tool<ForgetArgs> = {
  name: FORGET_TOOL_NAME,
  title: 'Forget',
  parameters: FORGET_PARAMETERS,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: 'write',
  describe: (topics) =>
    'Remove a subject that is wrong or no longer true from the knowledge base (its file is deleted; version control keeps its history). Hidden and disabled subjects cannot be removed.\n\n' +
    writableLines(topics),
  validate: validateForgetArgs,
  async run(kb, args, out, ctx) {
    const [{ forget: run }, { renderWriteOutcome }] = await Promise.all([import('../memory.ts'), import('../../render/memory.ts')]);
    const done = await run(kb, args, { source: ctx.source, ...(ctx.writable !== undefined ? { writable: ctx.writable } : {}) });
    for (const p of done.problems) await out.problem(p);
    out.write(renderWriteOutcome(done));
    return done.isError;
  },
  whenCut: 'What followed was not shown; ask for fewer results.',
};
