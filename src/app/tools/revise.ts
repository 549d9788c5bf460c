// The revise tool: replaces the text of a subject of a writable topic,
// keeping its slug and its earlier text (docs/guide/search-and-memory.md,
// "`kb revise TOPIC SLUG TEXT...`"), served over MCP only for the topics `kb mcp --write`
// names. Destructive (it replaces a file), so a client can ask before
// running it; remember stays a tool that only adds. The operation is
// app/revise.ts; render/memory.ts writes its outcome.
import type { JsonSchemaObject } from '../../shared/tool.ts';
import { REMEMBER_LIMITS } from '../args.ts';
import type { ReviseArgs } from '../revise.ts';
import { WRITE_ARGS_BYTES, WRITE_RULES, writableLines } from './remember.ts';
import type { Tool } from './tool.ts';
import { checkArgs, type Parsed, type Rules } from './validate.ts';

export const REVISE_TOOL_NAME = 'revise';

export const REVISE_PARAMETERS = {
  type: 'object',
  properties: {
    topic: { type: 'string', description: 'The topic ID or title (one of the writable topics).' },
    slug: { type: 'string', description: 'The exact slug of the subject to revise, as learn lists it or remember named it.' },
    text: { type: 'string', description: 'The whole new text of the subject, in Markdown: it replaces the old text, which is kept in the subject\'s history.' },
    description: { type: 'string', description: 'One line saying what the subject is about. Omit to keep the one given before, or to make one from the new text\'s first line.' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: REMEMBER_LIMITS.tags, description: 'Tags replacing the subject\'s tags. Omit to keep them.' },
    force: { type: 'boolean', description: 'Revise a subject that kb did not write (a file someone wrote by hand). Omit for false.' },
  },
  required: ['topic', 'slug', 'text'],
  additionalProperties: false,
} as const satisfies JsonSchemaObject;

const REVISE_NULL_DESCRIPTIONS = {
  description: REVISE_PARAMETERS.properties.description.description.replace('Omit to', 'Use null to'),
  tags: 'Tags replacing the subject\'s tags. Use null to keep them.',
  force: 'Revise a subject that kb did not write (a file someone wrote by hand). Use null for false.',
} as const;

const bounded = {
  check: (v: string) => (v.length > 1024 ? { says: 'is longer than 1024 characters' } : v === '' ? { says: 'must not be empty' } : { value: v }),
};

const RULES: Rules = { topic: bounded, slug: bounded, ...WRITE_RULES };

/** A revise call's arguments (untrusted: a model's, or the command
 *  line's). */
export function validateReviseArgs(value: unknown): Parsed<ReviseArgs> {
  const checked = checkArgs(REVISE_PARAMETERS, value, RULES);
  if (!checked.ok) return checked;
  const a = checked.args as { topic: string; slug: string; text: string; description?: string; tags?: string[]; force?: boolean };
  const args: ReviseArgs = { topic: a.topic, slug: a.slug, text: a.text, force: a.force ?? false };
  if (a.description !== undefined) args.description = a.description;
  if (a.tags !== undefined) args.tags = a.tags;
  return { ok: true, args };
}

export const revise: Tool<'revise', ReviseArgs> = {
  name: REVISE_TOOL_NAME,
  title: 'Revise',
  summary: 'Replace a subject\'s text, keeping its slug and its earlier text',
  instruction: 'replaces a subject\'s text when a fact changed (its earlier text is kept)',
  argsBytes: WRITE_ARGS_BYTES,
  parameters: REVISE_PARAMETERS,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  nullDescriptions: REVISE_NULL_DESCRIPTIONS,
  access: 'write',
  describe: (topics) =>
    'Replace the text of a subject of the knowledge base with a corrected or updated version, keeping its slug: use it when a fact changed (remember names the subject when a new text looks like an update of one). ' +
    'Give the whole new text. The earlier text is kept in a hidden history file beside the subject. A subject that kb did not write is revised only with force: true.\n\n' +
    writableLines(topics),
  validate: validateReviseArgs,
  load: () => import('../revise.ts'),
  async run(kb, args, sink, ctx) {
    const { revise: run } = await import('../revise.ts');
    const done = await run(kb, args, { source: ctx.source, ...(ctx.writable !== undefined ? { writable: ctx.writable } : {}) });
    for (const p of done.problems) await sink.problem(p);
    return done;
  },
  whenCut: 'What followed was not shown; ask for fewer results.',
};
